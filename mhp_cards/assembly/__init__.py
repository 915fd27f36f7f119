"""Reactor assembly: reactor cards laid together, checked card by card and edge by edge.

>>> from mhp_cards.assembly import Arrangement
>>> Arrangement.parse("2А 2Б / Э .").grid()
[['2А', '2Б'], ['Э', None]]
"""

from mhp_cards.assembly.arrangement import (
    Arrangement,
    AssemblyReport,
    check_arrangement,
    read_arrangement,
)
from mhp_cards.assembly.diagram import render_arrangement
from mhp_cards.assembly.problems import AssemblyProblem
from mhp_cards.assembly.solver import Solution, solve, solve_installation

__all__ = [
    "Arrangement",
    "AssemblyProblem",
    "AssemblyReport",
    "Solution",
    "check_arrangement",
    "read_arrangement",
    "render_arrangement",
    "solve",
    "solve_installation",
]
