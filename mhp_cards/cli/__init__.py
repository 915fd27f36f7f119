"""The ``mhp`` command line: a thin layer over the library.

Each command parses its arguments, makes one library call and formats the result, as human
text by default or as JSON with ``--json``. Invalid input exits with 1 and a located message
on stderr; usage errors exit with 2. This package is the only one that imports typer.

Start-up is part of the interface: a command imports the library it uses inside its function,
so ``mhp --help`` loads typer and little else. The command modules do without
``from __future__ import annotations``: typer reads every command's annotations at start-up,
and string annotations would each be compiled first.
"""

from mhp_cards.cli import balance as balance
from mhp_cards.cli import build as build
from mhp_cards.cli import catalog as catalog
from mhp_cards.cli import chem as chem
from mhp_cards.cli import export as export
from mhp_cards.cli import reactor as reactor
from mhp_cards.cli import referee as referee
from mhp_cards.cli import serve as serve
from mhp_cards.cli import setup as setup
from mhp_cards.cli import simulate as simulate
from mhp_cards.cli.app import app, main

__all__ = ["app", "main"]
