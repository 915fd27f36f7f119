"""Checks of the catalog's meaning: chemistry, references, assembly, reachability, setup counts.

Each check is a function registered with the catalog files it needs; the runner skips a check
when one of those files could not be read (its errors are reported already) so that every
other problem is still found in the same run. A check yields :class:`~mhp_cards.issues.Issue`
values carrying a file and a path into it; the loader turns paths into lines and columns.

Importing this package registers the checks, in the order they run: chemistry, identity,
installations, reachability, the box, value, depth.
"""

# isort: off
# Registration order is run order: chemistry, identity, installations, reachability, box, value,
# depth.
from mhp_cards.validate.checks import (
    chemistry,
    identity,
    installations,
    reachability,
    box,
    value,
    depth,
)

# isort: on
from mhp_cards.validate.checks.parts import Parts
from mhp_cards.validate.checks.registry import CHECKS, Check, SkipCheck, run_checks

__all__ = ["CHECKS", "Check", "Parts", "SkipCheck", "run_checks"]

_REGISTERED = (chemistry, identity, installations, reachability, box, value, depth)
