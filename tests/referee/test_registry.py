"""The referee never invents rules: every rule ID, reason code and house rule it cites exists.

Read from the source (every call that makes a ruling or an event, every rule ID written in the
package) and from play (every ruling and event of seeded games at every level, with the
actions the listing offers and some it refuses):

* each rule ID the package names is a rule, ruling or house rule of ``rules.yaml``;
* each reason code a ruling or event is made with is registered with its two texts, and each
  registered code is made somewhere;
* each ruling cites at least one rule, and each house rule it names is one of the rulebook's.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from mhp_cards.game import deal
from mhp_cards.referee import apply, judge, legal_actions
from mhp_cards.referee.actions import EndTurn, Move, SellRaw
from mhp_cards.referee.reasons import TEXTS
from mhp_cards.rules.numbers import HOUSE_RULES
from mhp_cards.rules.rulebook import load_rulebook
from mhp_cards.validate import load_catalog

PACKAGE = Path(__file__).resolve().parents[2] / "mhp_cards"
CATALOG = load_catalog()
BOOK = load_rulebook()
KNOWN = {rule.id for rule in BOOK.rules} | {house.id for house in BOOK.house_rules}
#: A rule ID as the package writes one: L1.T4, L2.T4.R1, L3.E1-no-progress, V1.3.R2, V1.P1.
RULE_ID = re.compile(r"^(?:L[123]|V1)\.[A-Z]?[0-9]+(?:\.R[0-9]+|-[a-z][a-z-]*)?$")
#: Calls that make a ruling or an event: (name, index of the rules argument, of the code).
MAKERS = {
    "allowed": (0, 1),
    "forbidden": (0, 1),
    "refused": (0, 1),
    "shared_refusal": (0, 1),
    "event": (None, 1),
    "said": (None, 0),
}


def _modules() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(PACKAGE.rglob("*.py"))]


MODULES = _modules()


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def test_every_rule_id_written_in_the_package_is_in_the_rulebook() -> None:
    unknown = []
    for path, tree in MODULES:
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and RULE_ID.match(node.value)
                and node.value not in KNOWN
            ):
                unknown.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.value}")
    assert unknown == []


def test_the_pattern_finds_the_rule_ids() -> None:
    found = {
        node.value
        for _, tree in MODULES
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if RULE_ID.match(node.value)
    }
    # The rulings of faithful play are cited by the engine, not only written in rules.yaml.
    assert {"L2.T4-portion", "L2.T4-transit", "L2.M1-obtained", "V1.3.R2", "L1.T4.R3"} <= found
    assert len(found) > 60


def _calls() -> list[tuple[str, int, str, ast.Call]]:
    calls = []
    for path, tree in MODULES:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in MAKERS:
                calls.append((str(path.relative_to(PACKAGE)), node.lineno, _name(node.func), node))
    return calls


CALLS = _calls()


def test_each_ruling_cites_rules_that_exist_and_a_registered_code() -> None:
    problems = []
    checked = 0
    for where, line, name, call in CALLS:
        rules_at, code_at = MAKERS[name]
        if name == "said" or len(call.args) <= code_at:
            continue
        code = call.args[code_at]
        if isinstance(code, ast.Constant) and isinstance(code.value, str):
            checked += 1
            if code.value not in TEXTS:
                problems.append(f"{where}:{line} code {code.value!r} is not registered")
        if rules_at is not None and isinstance(call.args[rules_at], ast.Tuple):
            ids = call.args[rules_at].elts
            if not ids:
                problems.append(f"{where}:{line} cites no rule")
            for element in ids:
                if isinstance(element, ast.Constant) and element.value not in KNOWN:
                    problems.append(f"{where}:{line} cites {element.value!r}, not in rules.yaml")
    assert problems == []
    assert checked > 90


def test_every_registered_code_is_made_somewhere() -> None:
    """A registered text nobody can ever read is a code left behind."""
    used = set()
    for _, tree in MODULES:
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                used.add(node.value)
    # Codes put together from a prefix (``free.freed.`` + how) are used as their pattern.
    made_by_prefix = {code for code in TEXTS if code.startswith("free.freed.")}
    assert sorted(set(TEXTS) - used - made_by_prefix) == []


LEVELS = [("1", 3), ("2", 3), ("1v1", 2), ("3", 4)]


@pytest.mark.parametrize(("level", "players"), LEVELS)
def test_every_ruling_and_event_of_play_cites_the_rulebook(level: str, players: int) -> None:
    seen: set[str] = set()
    for seed in range(4):
        rng = random.Random(seed)
        state = deal(CATALOG, level, players, seed, house_rules=_house(level, seed))
        for _ in range(150):
            if state.ended:
                break
            listed = legal_actions(state, CATALOG)
            for action in [
                *rng.sample(listed, min(6, len(listed))),
                EndTurn(),
                SellRaw(card="x#1"),
                Move(path=((0, 0),)),
            ]:
                outcome = judge(state, action, CATALOG)
                ruling = outcome.ruling
                assert ruling.rules, ruling
                assert set(ruling.rules) <= KNOWN, ruling
                assert set(ruling.house_rules) <= set(HOUSE_RULES), ruling
                assert ruling.code in TEXTS
                for event in outcome.events:
                    assert event.code in TEXTS
                    assert set(event.data.get("rules", ())) <= KNOWN, event
                seen.add(ruling.code)
            state, _ = apply(state, rng.choice(listed), CATALOG)
    assert len(seen) >= 6


def _house(level: str, seed: int) -> tuple[str, ...]:
    """Half the games with the house rules that change this level's play."""
    if seed % 2 == 0:
        return ()
    return {
        "1": ("battery-exactly-two", "armour-sum"),
        "2": ("sale-counts-once", "bank-takes-the-rest"),
        "1v1": ("any-installation", "run-or-discard"),
        "3": ("mission-end-only", "diagonal-adjacency"),
    }[level]
