"""Value checks on broken copies of the default game: card value, installation band, head to head.

Each broken copy changes one price, band or container; the test computes the expected figures
by hand from the printed prices and asserts the issue's severity, message and exact
file:line:column.
"""

from __future__ import annotations

import pytest

from mhp_cards.assembly.played import production_steps
from mhp_cards.catalog.models import formula_of, reaction_of
from mhp_cards.catalog.value import cycle_of, worth
from mhp_cards.validate import load_catalog

SUBSTANCES = "substances.yaml"
INSTALLATIONS = "installations.yaml"
RAW = "raw_materials.yaml"

METHANE = "    name: {ru: Метан, en: Methane}\n    price: 8"
IRON = "    name: {ru: Железо, en: Iron}\n    price: 9"
SABATIER = "        reactions: [CO2 + 4 H2 -> CH4 + 2 H2O]"
BAND = "  installation_gain_per_run: {min: 4, max: 11}"


def test_the_default_catalog_has_no_card_that_destroys_value(default_validation) -> None:
    assert default_validation.checks["card-value"] == "ok"
    assert default_validation.checks["installation-value"] == "ok"
    assert default_validation.checks["runs-alone"] == "ok"
    catalog = load_catalog()
    prices = {s.parsed: s.price for s in catalog.substances}
    for installation in catalog.installations:
        for card in installation.cards:
            for reaction in card.parsed_reactions:
                value = worth(reaction, prices)
                assert value is not None
                assert value.products >= value.inputs, (card.id, value)


def test_a_small_loss_is_a_warning_with_the_figures(catalog_copy) -> None:
    # 2А takes CO2 2 + 4 H2 × 2 = 10 мР; with CH4 at 6 it makes 6 + 2 H2O × 1 = 8 мР:
    # −2 мР, 20 % of the inputs (below the 25 % error share).
    catalog_copy.edit(SUBSTANCES, METHANE, METHANE.replace("price: 8", "price: 6"))
    where = catalog_copy.position(INSTALLATIONS, "        reactions: [‸CO2 + 4 H2 -> CH4 + 2 H2O]")

    validation = catalog_copy.validate()

    issue = catalog_copy.find_issue(validation, "card-value", "card 2А")
    assert issue.severity == "warning"
    assert issue.rule == "L2.P1"
    assert "takes 10 мР and makes 8 мР (-2 мР, 20% of the inputs)" in issue.message
    assert "worth at least 10 мР" in issue.hint
    catalog_copy.assert_located(
        issue, INSTALLATIONS, where, "installations[1].cards[0].reactions[0]"
    )
    assert validation.is_valid()


def test_a_loss_above_the_declared_share_is_an_error(catalog_copy) -> None:
    # Fe at 1 мР: 8Б takes Fe3O4 2 + 4 H2 × 2 = 10 мР and makes 3 Fe + 4 H2O = 7 мР: −30 %.
    catalog_copy.edit(SUBSTANCES, IRON, IRON.replace("price: 9", "price: 1"))
    where = catalog_copy.position(
        INSTALLATIONS, "        reactions: [‸Fe3O4 + 4 H2 -> 3 Fe + 4 H2O]"
    )

    validation = catalog_copy.validate()

    issue = catalog_copy.find_issue(validation, "card-value", "card 8Б")
    assert issue.severity == "error"
    assert "takes 10 мР and makes 7 мР (-3 мР, 30% of the inputs)" in issue.message
    assert "a loss above 25% is an error" in issue.hint
    catalog_copy.assert_located(
        issue, INSTALLATIONS, where, "installations[7].cards[1].reactions[0]"
    )
    assert not validation.is_valid()


def test_the_error_share_is_the_catalogs(catalog_copy) -> None:
    catalog_copy.edit(SUBSTANCES, IRON, IRON.replace("price: 9", "price: 1"))
    catalog_copy.edit(SUBSTANCES, "  card_loss_error_share: 0.25", "  card_loss_error_share: 0.5")
    issue = catalog_copy.find_issue(catalog_copy.validate(), "card-value", "card 8Б")
    assert issue.severity == "warning"


def test_an_installation_outside_the_band_is_located_at_its_reaction(catalog_copy) -> None:
    # One run of installation 9 lays one Ca(ClO4)2·4H2O (2 мР) and makes one H2O (1), one
    # CaCl2 (4) and one O2 (2): +5 мР, below a band that starts at 6.
    catalog_copy.edit(SUBSTANCES, BAND, BAND.replace("min: 4", "min: 6"))
    where = catalog_copy.position(
        INSTALLATIONS, "    reaction: ‸Ca(ClO4)2·4H2O -> CaCl2 + 4 O2 + 4 H2O"
    )

    validation = catalog_copy.validate()

    issue = catalog_copy.find_issue(validation, "installation-value", "installation 9 ")
    assert issue.severity == "warning"
    assert issue.message == (
        "installation 9 adds +5 мР a run: it lays Ca(ClO4)2·4H2O (2 мР) and makes "
        "H2O + CaCl2 + O2 (7 мР); the band is 6–11 мР"
    )
    assert "L2.T4-portion" in issue.hint
    catalog_copy.assert_located(issue, INSTALLATIONS, where, "installations[8].reaction")
    # Below 6 as well: 3 and 7 (+5 each); the others add 6 to 11.
    assert validation.checks["installation-value"] == "3 warning(s)"


def test_the_band_counts_what_a_run_places_not_the_piped_hydrogen(catalog_copy) -> None:
    # Installation 8: H2O (1) + Fe2O3 (1) laid; O2 (2) on the electrolyser, H2O (1) on 8А,
    # Fe (9) and H2O (1) on 8Б made: +11 мР. The electrolyser's H2 is piped: no token, no мР.
    catalog_copy.edit(SUBSTANCES, BAND, BAND.replace("max: 11", "max: 10"))
    validation = catalog_copy.validate()
    issue = catalog_copy.find_issue(validation, "installation-value", "installation 8 ")
    assert "adds +11 мР a run: it lays H2O + Fe2O3 (2 мР)" in issue.message
    assert "makes O2 + H2O + Fe + H2O (13 мР)" in issue.message


def test_without_value_rules_the_band_check_is_skipped(catalog_copy) -> None:
    text = catalog_copy.text(SUBSTANCES)
    start = text.index("value_rules:")
    end = text.index("\nsubstances:")
    catalog_copy.write(SUBSTANCES, text[:start] + text[end + 1 :])
    validation = catalog_copy.validate()
    assert validation.checks["installation-value"].startswith("skipped: ")
    assert validation.checks["card-value"] == "ok"
    assert validation.is_valid()


def test_an_inverted_band_is_a_schema_error(catalog_copy) -> None:
    catalog_copy.edit(SUBSTANCES, BAND, "  installation_gain_per_run: {min: 8, max: 7}")
    validation = catalog_copy.validate()
    assert not validation.is_valid()
    assert any("min 8" in issue.message for issue in validation.errors), validation.errors


#: The first raw-input container of each installation but 1: each gets an ammonia input too.
OTHER_RAW_INPUTS = (
    "          - {substance: CO2, role: raw-input}",  # 2А
    "          - {substance: N2, role: raw-input}",  # 3А
    "          - {substance: O2, role: raw-input}",  # 4А
    "NH2COONH4]\n        containers:\n          - {substance: CO2, role: raw-input}",  # 5А
    "          - {substance: S, role: raw-input}",  # 6А
    "          - {substance: NaCl, role: raw-input}",  # 7А
    "          - {substance: Fe2O3, role: raw-input}",  # 8А
    "          - {substance: Ca(ClO4)2·4H2O, role: raw-input}",  # 9А
    "          - {substance: SiO2, role: raw-input}",  # 10Б
)
AMMONIA_INPUT = "\n          - {substance: NH3, role: raw-input}"


def test_head_to_head_needs_two_installations_that_run_alone(catalog_copy) -> None:
    text = catalog_copy.text(INSTALLATIONS)
    for line in OTHER_RAW_INPUTS:
        assert line in text, line
        text = text.replace(line, line + AMMONIA_INPUT, 1)
    catalog_copy.write(INSTALLATIONS, text)
    # The list of installations: the loader points at its first item.
    where = catalog_copy.position(INSTALLATIONS, "  ‸- number: 1\n")

    validation = catalog_copy.validate()

    issue = catalog_copy.find_issue(validation, "runs-alone")
    assert issue.severity == "error"
    assert issue.rule == "V1.2"
    assert issue.message == (
        "head to head needs 2 installations that run from raw cards alone; this catalog has 1 (1)"
    )
    assert "raw-card inputs only" in issue.hint
    catalog_copy.assert_located(issue, INSTALLATIONS, where, "installations")


@pytest.mark.parametrize(
    ("text", "steps"),
    [("NaOH", 1), ("CH4", 2), ("NH3", 2), ("Fe", 3), ("H2SO4", 4), ("Ca(NO3)2", 4)],
)
def test_production_steps_follow_the_routes_of_play(text: str, steps: int) -> None:
    # Iron: electrolyser, 8А, then 8Б, which takes Fe3O4 by pipe only (raw magnetite lies
    # beside no container of 8Б). H2SO4: electrolyser (its O2 piped), 6А, 6Б, 6В. Ca(NO3)2:
    # 4А, 4Б, 4В, 4Г; the absorber's water comes back from 4Г by pipe, a recycle that
    # circulates once the plant runs, so it does not hold 4В back.
    assert production_steps(load_catalog())[formula_of(text)] == steps


def test_what_flows_only_in_pipes_takes_no_step() -> None:
    steps = production_steps(load_catalog())
    # (H2 is piped from the electrolysers of 2, 3 and 8, but 6's electrolyser keeps it.)
    for text in ("CaO", "SO2", "SO3", "NO", "NO2", "HNO3", "Cl2", "NH2COONH4"):
        assert formula_of(text) not in steps, text


def test_the_substances_headings_are_the_counted_steps() -> None:
    """Every "# --- N step(s)" heading of substances.yaml holds the substances of N steps, and
    the pipe-only heading those that play never makes."""
    from mhp_cards.resources import default_catalog_dir

    catalog = load_catalog()
    steps = production_steps(catalog)
    heading: int | None = None
    seen = 0
    for line in (default_catalog_dir() / SUBSTANCES).read_text(encoding="utf-8").splitlines():
        if line.startswith("  # --- raw materials"):
            heading = 0
        elif line.startswith("  # --- in pipes only"):
            heading = -1
        elif line.startswith("  # --- ") and " step" in line:
            heading = int(line.split()[2])
        elif line.startswith("  - formula: "):
            formula = formula_of(line.removeprefix("  - formula: ").strip('"'))
            assert heading is not None
            assert steps.get(formula, -1) == heading, (str(formula), steps.get(formula), heading)
            seen += 1
    assert seen == len(catalog.substances)


def test_cycle_of_a_card_set_that_does_not_make_the_overall_is_none() -> None:
    cards = [reaction_of("CO2 + 4 H2 -> CH4 + 2 H2O")]
    assert cycle_of(cards, reaction_of("N2 + 3 H2 -> 2 NH3")) is None
    found = cycle_of(
        [*cards, reaction_of("2 H2O -> 2 H2 + O2")], reaction_of("CO2 + 2 H2O -> CH4 + 2 O2")
    )
    assert found is not None
    assert (found.runs, found.times, found.total_runs) == ((1, 2), 1, 3)
