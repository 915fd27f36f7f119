"""Value checks on broken copies of the default game: card value, installation band, head to head.

Each broken copy changes one price, band or container; the test computes the expected figures
by hand from the printed prices and asserts the issue's severity, message and exact
file:line:column.
"""

from __future__ import annotations

import pytest

from mhp_cards.catalog.models import formula_of, reaction_of
from mhp_cards.catalog.value import cycle_of, production_steps, worth
from mhp_cards.validate import load_catalog

SUBSTANCES = "substances.yaml"
INSTALLATIONS = "installations.yaml"
RAW = "raw_materials.yaml"

METHANE = "    name: {ru: Метан, en: Methane}\n    price: 8"
IRON = "    name: {ru: Железо, en: Iron}\n    price: 7"
SABATIER = "        reactions: [CO2 + 4 H2 -> CH4 + 2 H2O]"
BAND = "  installation_gain_per_run: {min: 2, max: 7}"


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
    # 2А takes CO2 1 + 4 H2 × 2 = 9 мР; with CH4 at 6 it makes 6 + 2 H2O × 1 = 8 мР:
    # −1 мР, 11 % of the inputs (below the 25 % error share).
    catalog_copy.edit(SUBSTANCES, METHANE, METHANE.replace("price: 8", "price: 6"))
    where = catalog_copy.position(INSTALLATIONS, "        reactions: [‸CO2 + 4 H2 -> CH4 + 2 H2O]")

    validation = catalog_copy.validate()

    issue = catalog_copy.find_issue(validation, "card-value", "card 2А")
    assert issue.severity == "warning"
    assert issue.rule == "L2.P1"
    assert "takes 9 мР and makes 8 мР (-1 мР, 11% of the inputs)" in issue.message
    assert "worth at least 9 мР" in issue.hint
    catalog_copy.assert_located(
        issue, INSTALLATIONS, where, "installations[1].cards[0].reactions[0]"
    )
    assert validation.is_valid()


def test_a_loss_above_the_declared_share_is_an_error(catalog_copy) -> None:
    # Fe at 1 мР: 8Б takes Fe3O4 2 + 4 H2 × 2 = 10 мР and makes 3 Fe + 4 H2O = 7 мР: −30 %.
    catalog_copy.edit(SUBSTANCES, IRON, IRON.replace("price: 7", "price: 1"))
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
    catalog_copy.edit(SUBSTANCES, IRON, IRON.replace("price: 7", "price: 1"))
    catalog_copy.edit(SUBSTANCES, "  card_loss_error_share: 0.25", "  card_loss_error_share: 0.5")
    issue = catalog_copy.find_issue(catalog_copy.validate(), "card-value", "card 8Б")
    assert issue.severity == "warning"


def test_an_installation_outside_the_band_is_located_at_its_reaction(catalog_copy) -> None:
    # Installation 9 adds (CaCl2 4 + 4 O2 × 2 + 4 H2O × 1) − 2 = 14 мР over 2 runs = 7 мР/run.
    catalog_copy.edit(SUBSTANCES, BAND, BAND.replace("max: 7", "max: 6.5"))
    where = catalog_copy.position(
        INSTALLATIONS, "    reaction: ‸Ca(ClO4)2·4H2O -> CaCl2 + 4 O2 + 4 H2O"
    )

    validation = catalog_copy.validate()

    issue = catalog_copy.find_issue(validation, "installation-value", "installation 9 ")
    assert issue.severity == "warning"
    assert issue.message == (
        "installation 9 adds 7.00 мР per reaction run (+14 мР over 2 runs of its cards), "
        "outside the band 2–6.5 мР"
    )
    catalog_copy.assert_located(issue, INSTALLATIONS, where, "installations[8].reaction")
    # Installation 8 (6.40 мР/run) is inside the narrower band: only 9 is reported.
    assert validation.checks["installation-value"] == "1 warning(s)"


def test_the_band_counts_the_electrolysers_runs(catalog_copy) -> None:
    # Installation 8: 3 × (2 Fe2O3 -> 4 Fe + 3 O2) over 2 + 4 card runs and 9 electrolyser
    # runs: 3 × (28 + 6 − 2) / 15 = 6.4 мР per run.
    catalog_copy.edit(SUBSTANCES, BAND, BAND.replace("max: 7", "max: 6"))
    validation = catalog_copy.validate()
    issue = catalog_copy.find_issue(validation, "installation-value", "installation 8 ")
    assert "adds 6.40 мР per reaction run (+96 мР over 15 runs" in issue.message


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
    [("H2", 1), ("CH4", 2), ("Fe", 2), ("NH3", 2), ("H2SO4", 3), ("NH4NO3", 6), ("HNO3", 5)],
)
def test_production_steps_count_card_reactions(text: str, steps: int) -> None:
    catalog = load_catalog()
    raw = [r.parsed for r in catalog.raw_materials]
    reactions = [
        r
        for card in (
            *catalog.electrolysers[:1],
            *(c for i in catalog.installations for c in i.cards),
        )
        for r in card.parsed_reactions
    ]
    assert production_steps(raw, reactions)[formula_of(text)] == steps


def test_the_substances_headings_are_the_counted_steps() -> None:
    """Every "# --- N step(s)" heading of substances.yaml holds the substances of N steps."""
    from mhp_cards.resources import default_catalog_dir

    catalog = load_catalog()
    raw = [r.parsed for r in catalog.raw_materials]
    reactions = [
        r
        for card in (
            *catalog.electrolysers[:1],
            *(c for i in catalog.installations for c in i.cards),
        )
        for r in card.parsed_reactions
    ]
    steps = production_steps(raw, reactions)
    heading: int | None = None
    seen = 0
    for line in (default_catalog_dir() / SUBSTANCES).read_text(encoding="utf-8").splitlines():
        if line.startswith("  # --- raw materials"):
            heading = 0
        elif line.startswith("  # --- ") and " step" in line:
            heading = int(line.split()[2])
        elif line.startswith("  - formula: "):
            formula = formula_of(line.removeprefix("  - formula: ").strip('"'))
            assert heading is not None
            assert steps[formula] == heading, (str(formula), steps[formula], heading)
            seen += 1
    assert seen == len(catalog.substances)


def test_the_raw_notes_name_the_kinds_that_feed_no_installation() -> None:
    from mhp_cards.resources import default_catalog_dir

    catalog = load_catalog()
    inputs = {
        container.parsed
        for installation in catalog.installations
        for card in (*installation.cards, *catalog.electrolysers)
        for container in card.containers
        if container.role == "raw-input"
    }
    feeding = [raw.id for raw in catalog.raw_materials if raw.parsed in inputs]
    idle = [raw.id for raw in catalog.raw_materials if raw.parsed not in inputs]
    header = (default_catalog_dir() / RAW).read_text(encoding="utf-8").split("raw_materials:")[0]
    notes = " ".join(line.lstrip("# ") for line in header.splitlines())
    assert len(feeding) == 10
    assert "Ten kinds feed an installation (a raw-input container takes them): " in notes
    assert ", ".join(feeding) + "." in notes
    assert f"The other {len(idle)} feed none: " + ", ".join(idle) + "." in notes


def test_cycle_of_a_card_set_that_does_not_make_the_overall_is_none() -> None:
    cards = [reaction_of("CO2 + 4 H2 -> CH4 + 2 H2O")]
    assert cycle_of(cards, reaction_of("N2 + 3 H2 -> 2 NH3")) is None
    found = cycle_of(
        [*cards, reaction_of("2 H2O -> 2 H2 + O2")], reaction_of("CO2 + 2 H2O -> CH4 + 2 O2")
    )
    assert found is not None
    assert (found.runs, found.times, found.total_runs) == ((1, 2), 1, 3)
