"""Installation checks: each card's flow, and that every installation assembles."""

from __future__ import annotations

from collections.abc import Iterator

from mhp_cards.assembly.cardflow import card_flow_problems
from mhp_cards.assembly.solver import solve
from mhp_cards.catalog.models import (
    ReactorCard,
    formula_of,
    reaction_of,
)
from mhp_cards.errors import FormulaError, ReactionError
from mhp_cards.issues import Issue, Path
from mhp_cards.validate.checks.fields import reactor_cards
from mhp_cards.validate.checks.parts import INSTALLATIONS, Parts
from mhp_cards.validate.checks.registry import check

__all__: list[str] = []


def _chemistry_ok(card: ReactorCard) -> bool:
    try:
        for text in card.reactions:
            reaction_of(text)
        for container in card.containers:
            formula_of(container.substance)
        for port in card.ports:
            formula_of(port.substance)
    except (FormulaError, ReactionError):
        return False
    return True


@check("card-flow", "what enters a card is used or passed on; what leaves is made", INSTALLATIONS)
def _check_card_flow(parts: Parts) -> Iterator[Issue]:
    for path, card in reactor_cards(parts):
        if not _chemistry_ok(card):
            continue
        for problem in card_flow_problems(card):
            if problem.edge is not None:
                index = next(
                    k
                    for k, port in enumerate(card.ports)
                    if port.edge == problem.edge and port.position == problem.position
                )
                where: Path = (*path, "ports", index, "substance")
            else:
                index = next(
                    (k for k, c in enumerate(card.containers) if c.substance == problem.found), 0
                )
                where = (*path, "containers", index, "substance")
            yield Issue(
                "card-flow",
                problem.message,
                file=INSTALLATIONS,
                path=where,
                hint=_flow_hint(problem.expected or "", problem.found or ""),
            )


def _flow_hint(expected: str, found: str) -> str:
    """What would make the card's flow right, as something the designer does."""
    if expected.startswith("consumed"):
        return (
            f"make {found} a reactant of the card's reaction, give the card a container of "
            f"{found}, or an out-port that passes it on"
        )
    if expected.startswith("made"):
        return f"make {found} a product of the card's reaction, or an in-port that brings it"
    return f"it should be {expected}"


@check("assembly", "every installation assembles, and in one way", INSTALLATIONS)
def _check_assembly(parts: Parts) -> Iterator[Issue]:
    electrolysers = parts.electrolysers or ()
    electrolyser = electrolysers[0] if electrolysers else None
    if electrolyser is not None and not _chemistry_ok(electrolyser):
        return
    for i, installation in enumerate(parts.installations or ()):
        if not all(_chemistry_ok(card) for card in installation.cards):
            continue
        try:
            overall = installation.parsed_reaction
        except ReactionError:
            continue
        if not overall.is_balanced:
            continue  # the "reactions" check reports it; no card set could match it
        solution = solve(installation.cards, electrolyser, overall)
        path: Path = ("installations", i)
        if not solution.arrangements:
            hint = (
                "check the card reactions and the overall reaction"
                if solution.failure == "net-reaction"
                else "check the ports: positions on facing edges, substances, in/out"
            )
            yield Issue(
                "assembly",
                f"installation {installation.number} cannot be assembled: {solution.reason}",
                file=INSTALLATIONS,
                path=path,
                hint=hint,
            )
        elif len(solution.arrangements) > 1:
            shown = "; ".join(str(a) for a in solution.arrangements[:3])
            yield Issue(
                "assembly",
                f"installation {installation.number} assembles in {len(solution.arrangements)} "
                f"ways ({shown}…)",
                file=INSTALLATIONS,
                path=path,
                hint="place the ports so that the cards fit together in one way only",
                severity="warning",
            )
