"""Value checks: every card is worth running, installations add comparable value, head to head.

Products score at their printed price (L2.P1), so the prices decide whether running a card pays.
The bounds come from ``value_rules`` in ``substances.yaml``.
"""

from __future__ import annotations

from collections.abc import Iterator

from mhp_cards.assembly.played import PlayedInstallation, played_installation
from mhp_cards.catalog.models import Catalog, ReactorCard, reaction_of
from mhp_cards.catalog.value import worth
from mhp_cards.chem.formula import Formula
from mhp_cards.chem.reaction import Reaction
from mhp_cards.errors import FormulaError, ReactionError
from mhp_cards.issues import Issue
from mhp_cards.rules.numbers import HEAD_TO_HEAD_PLAYERS
from mhp_cards.validate.checks.fields import parses, reactor_cards
from mhp_cards.validate.checks.parts import COMPONENTS, INSTALLATIONS, RAW, SUBSTANCES, Parts
from mhp_cards.validate.checks.reachability import require_raw_formulas
from mhp_cards.validate.checks.registry import SkipCheck, check

__all__ = ["DEFAULT_LOSS_SHARE", "played_installations", "prices_of", "require_card_formulas"]

#: The loss share above which a card is an error when ``value_rules`` does not say.
DEFAULT_LOSS_SHARE = 0.25
#: Head to head deals one installation to each player (V1.2).
HEAD_TO_HEAD_INSTALLATIONS = HEAD_TO_HEAD_PLAYERS


def prices_of(parts: Parts) -> dict[Formula, int]:
    """Printed price of every substance whose formula parses."""
    return {s.parsed: s.price for s in parts.substances or () if parses(s.formula)}


def _reactions(card: ReactorCard) -> list[Reaction] | None:
    try:
        return [reaction_of(text) for text in card.reactions]
    except ReactionError:
        return None


def _mr(value: float) -> str:
    return f"{value:g}"


@check(
    "card-value",
    "every card reaction's products are worth at least its inputs at printed prices",
    SUBSTANCES,
    INSTALLATIONS,
)
def _check_card_value(parts: Parts) -> Iterator[Issue]:
    prices = prices_of(parts)
    rules = parts.value_rules
    limit = rules.card_loss_error_share if rules is not None else DEFAULT_LOSS_SHARE
    seen_electrolyser = False
    for path, card in reactor_cards(parts):
        if card.group == "electrolyser":
            if seen_electrolyser:
                continue  # the five electrolysers are one design: judged once
            seen_electrolyser = True
        for k, text in enumerate(card.reactions):
            try:
                reaction = reaction_of(text)
            except ReactionError:
                continue
            value = worth(reaction, prices)
            if value is None or value.added >= 0:
                continue
            share = value.loss_share
            error = share > limit
            yield Issue(
                "card-value",
                f"card {card.id} loses value at printed prices: {text} takes "
                f"{value.inputs} мР and makes {value.products} мР ({value.added:+d} мР, "
                f"{float(share):.0%} of the inputs)",
                file=INSTALLATIONS,
                path=(*path, "reactions", k),
                hint=(
                    "products score at their price (L2.P1): price the products up or the inputs "
                    f"down (substances.yaml) until they are worth at least {value.inputs} мР"
                    + (f"; a loss above {limit:.0%} is an error (value_rules)" if error else "")
                ),
                severity="error" if error else "warning",
                rule="L2.P1",
            )


@check(
    "installation-value",
    "what one run of each installation adds at printed prices lies in the declared band",
    SUBSTANCES,
    RAW,
    INSTALLATIONS,
)
def _check_installation_value(parts: Parts) -> Iterator[Issue]:
    rules = parts.value_rules
    if rules is None:
        raise SkipCheck("substances.yaml declares no value_rules")
    band = rules.installation_gain_per_run
    prices = prices_of(parts)
    for i, played in played_installations(parts):
        value = played.run_worth(prices)
        if value is None:
            continue  # the "known-substances" check reports the unpriced species
        if band.min <= value.added <= band.max:
            continue
        yield Issue(
            "installation-value",
            f"installation {played.number} adds {value.added:+d} мР a run: it lays "
            f"{_portions(played.inputs)} ({value.inputs} мР) and makes "
            f"{_portions(played.outputs)} ({value.products} мР); the band is "
            f"{_mr(band.min)}–{_mr(band.max)} мР",
            file=INSTALLATIONS,
            path=("installations", i, "reaction"),
            hint=(
                "a run lays one portion per raw-input container and makes one per product "
                "container (L2.T4-portion): reprice its products or inputs (substances.yaml), "
                "or move value_rules.installation_gain_per_run"
            ),
            severity="warning",
            rule="L2.P1",
        )


def played_installations(parts: Parts) -> Iterator[tuple[int, PlayedInstallation]]:
    """Each installation that can be laid, as play lays it, with its index in the file.

    An installation that cannot be laid is left out (the "assembly" check reports it); a card
    whose reaction does not read skips the check (the "reactions" check reports it).
    """
    require_card_formulas(parts)
    box = parts.box()
    for i, installation in enumerate(parts.installations or ()):
        try:
            yield i, played_installation(box, installation.number)
        except KeyError:
            continue
        except (ReactionError, FormulaError):
            raise SkipCheck("a reaction does not read (reported by 'reactions')") from None


def require_card_formulas(parts: Parts) -> None:
    """Skip a check of play while a card's formula does not parse.

    The "formulas" check says where; what the card was meant to carry is unknown.
    """
    for _, card in reactor_cards(parts):
        texts = [c.substance for c in card.containers] + [p.substance for p in card.ports]
        if not all(parses(text) for text in texts):
            raise SkipCheck("a card's formula does not parse (reported by 'formulas')")


def _portions(substances: tuple[str, ...]) -> str:
    """Substances as a run lays or makes them: ``CO2 + H2O``."""
    return " + ".join(substances) or "nothing"


@check(
    "runs-alone",
    "at least two installations run from raw cards alone (head to head, V1.2-runnable)",
    RAW,
    INSTALLATIONS,
    COMPONENTS,
)
def _check_runs_alone(parts: Parts) -> Iterator[Issue]:
    require_raw_formulas(parts)
    assert parts.installations is not None
    assert parts.raw_materials is not None
    assert parts.components is not None
    box = Catalog(
        substances=(),
        raw_materials=parts.raw_materials,
        installations=parts.installations,
        electrolysers=parts.electrolysers or (),
        missions=(),
        components=parts.components,
    )
    alone = [i.number for i in box.installations_running_alone]
    if len(alone) >= HEAD_TO_HEAD_INSTALLATIONS:
        return
    named = ", ".join(str(n) for n in alone) or "none"
    yield Issue(
        "runs-alone",
        f"head to head needs {HEAD_TO_HEAD_INSTALLATIONS} installations that run from raw cards "
        f"alone; this catalog has {len(alone)} ({named})",
        file=INSTALLATIONS,
        path=("installations",),
        hint=(
            "give an installation raw-card inputs only (a raw card of each raw-input "
            "container, and of the electrolyser's when it is piped in)"
        ),
        rule="V1.2",
    )
