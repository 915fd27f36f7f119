"""Broken catalogs: the real game with one small edit per defect kind.

Each case asserts what the validator says (check, message, hint, rule), where it says it
(file:line:column, computed from the edited text) and at which field path. The last group pins
the sharpest locations: into a reaction's text, at the offending port, at the differing value.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from mhp_cards import yamldoc
from mhp_cards.catalog.models import Names, Upgrade
from mhp_cards.errors import CatalogError
from mhp_cards.validate import load_catalog, validate_catalog
from mhp_cards.wording import reading_faults

SUBSTANCES = "substances.yaml"
RAW = "raw_materials.yaml"
INSTALLATIONS = "installations.yaml"
MISSIONS = "missions.yaml"
COMPONENTS = "components.yaml"

#: The issue check → the name under which Validation.checks reports its status.
STATUS_OF = {"yaml-syntax": "yaml", "yaml-duplicate-key": "yaml"}

WATER = "  - formula: H2O\n    name: {ru: Вода, en: Water}\n    price: 1\n"
ELECTROLYSER_5 = """\
  - id: Э5
    group: electrolyser
    name: {ru: Электролизёр воды, en: Water electrolyser}
    reactions: [2 H2O -> 2 H2 + O2]
    containers:
      - {substance: H2O, role: raw-input}
      - {substance: H2, role: product, places: 2}
      - {substance: O2, role: product, places: 1}
    ports:
      - {edge: right, position: 2, substance: H2, direction: out, optional: true}
"""
ELECTROLYSER_3_HEAD = """\
  - id: Э3
    group: electrolyser
    name: {ru: Электролизёр воды, en: Water electrolyser}
    reactions: [2 H2O -> 2 H2 + O2]
    containers:
"""
ELECTROLYSER_3_WATER = ELECTROLYSER_3_HEAD + "      - {substance: H2O, role: raw-input}\n"
WATER_ICE = "  - id: water-ice\n    formula: H2O\n    name: {ru: Водяной лёд, en: Water ice}\n"
#: Water ice's copies in the default deck: 9 of the 72 raw cards.
WATER_ICE_COPIES = WATER_ICE + "    copies: 9\n"
#: M2's NaOH place, up to its count (NaCl is a raw card, made by no installation).
MISSION_NAOH = "        - {formula: NaOH,"
MISSION_NACL = "        - {formula: ‸NaCl,"
#: The line before the Haber–Bosch converter's reaction (3А; the urea plant's loop, 5В, prints
#: the same reaction).
AMMONIA_CONVERTER = (
    "        name: {ru: Колонна синтеза аммиака (железный катализатор),"
    " en: Ammonia converter (iron catalyst)}\n"
)
SLAKER_PORT = "          - {edge: top, position: 2, substance: CaO, direction: in}"
ARMOUR = '    - {id: armour, name: {ru: Броня, en: Armour}, price: 4, count: 5, levels: ["3"]}\n'


@dataclass(frozen=True)
class Case:
    """One defect: an edit of one file and the issue it must produce."""

    id: str
    file: str
    old: str
    #: The replacement; a ‸ marks where the issue must point (unless ``at`` says elsewhere).
    new: str
    check: str
    #: Substring(s) of the message: what is wrong.
    message: str | tuple[str, ...]
    #: Pattern of the field path, ``[*]`` for any index.
    path: str | None
    #: Substring of the hint (what would be right); None when the message says it all.
    hint: str | None = None
    rule: str | None = None
    #: (file, anchor with ‸): the expected position when it is not inside the edit.
    at: tuple[str, str] | None = None


CASES = [
    # --- files and YAML -----------------------------------------------------------------------
    Case(
        "yaml-syntax-colon-in-flow-mapping",
        SUBSTANCES,
        "    name: {ru: Вода, en: Water}\n",
        "    name: {ru: Вода‸: лёд, en: Water}\n",
        "yaml-syntax",
        "expected ',' or '}', but got ':'",
        "",
        hint="fix the YAML syntax",
    ),
    Case(
        "yaml-syntax-tab-indentation",
        SUBSTANCES,
        WATER,
        WATER.replace("    price", "‸\tprice"),
        "yaml-syntax",
        "cannot start any token",
        "",
        hint="fix the YAML syntax",
    ),
    Case(
        "yaml-syntax-mapping-value",
        SUBSTANCES,
        "    name: {ru: Вода, en: Water}\n",
        "    name: ru‸: Вода\n",
        "yaml-syntax",
        "mapping values are not allowed here",
        "",
        hint="fix the YAML syntax",
    ),
    Case(
        "duplicate-key",
        COMPONENTS,
        "  combines: {count: 5}\n",
        "  combines: {count: 5}\n  ‸combines: {count: 5}\n",
        "yaml-duplicate-key",
        ("key 'combines' appears twice in one mapping", "would be silently ignored"),
        "components.combines",
        hint="remove one of them",
    ),
    # --- structure (JSON Schema) --------------------------------------------------------------
    Case(
        "unknown-key-did-you-mean",
        SUBSTANCES,
        WATER,
        WATER.replace("    price", "    ‸prise"),
        "schema",
        "unknown key 'prise'",
        "substances[*].prise",
        hint="did you mean 'price'? allowed: art, formula, name, price",
    ),
    Case(
        "unknown-key-lists-allowed",
        SUBSTANCES,
        WATER,
        WATER + "    ‸colour: blue\n",
        "schema",
        "unknown key 'colour'",
        "substances[*].colour",
        hint="allowed: art, formula, name, price",
    ),
    Case(
        "missing-required-field",
        SUBSTANCES,
        WATER,
        "  - ‸formula: H2O\n    name: {ru: Вода, en: Water}\n",
        "schema",
        "missing 'price'",
        "substances[*]",
        hint="add price",
    ),
    Case(
        "missing-required-section",
        COMPONENTS,
        "  combines: {count: 5}\n",
        "",
        "schema",
        "missing 'combines'",
        "components",
        hint="add combines",
        at=(COMPONENTS, "components:\n  ‸coins:"),
    ),
    Case(
        "text-where-whole-number",
        COMPONENTS,
        "fate_cards: {count: 72}",
        'fate_cards: {count: ‸"72"}',
        "schema",
        "'72' is text, expected a whole number",
        "components.fate_cards.count",
    ),
    Case(
        "unquoted-NO-read-as-boolean",
        SUBSTANCES,
        '  - formula: "NO"\n',
        "  - formula: ‸NO\n",
        "schema",
        "false is a boolean, expected text",
        "substances[*].formula",
        hint='put the text in quotes, e.g. "NO"',
    ),
    Case(
        "nan-share",
        SUBSTANCES,
        "card_loss_error_share: 0.25",
        "card_loss_error_share: ‸.nan",
        "schema",
        "nan is not a number",
        "value_rules.card_loss_error_share",
        hint="write a number, at most 1",
    ),
    # An optional mapping (anyOf: [its schema, null]): the problem inside it, not "expected
    # nothing".
    Case(
        "optional-mapping-misspelt-key",
        SUBSTANCES,
        "  card_loss_error_share: 0.25",
        "  ‸card_los_error_share: 0.25",
        "schema",
        "unknown key 'card_los_error_share'",
        "value_rules.card_los_error_share",
        hint="did you mean 'card_loss_error_share'?",
    ),
    Case(
        "optional-mapping-text-for-a-number",
        SUBSTANCES,
        "{min: 4, max: 11}",
        "{min: ‸two, max: 11}",
        "schema",
        "'two' is text, expected a number",
        "value_rules.installation_gain_per_run.min",
    ),
    Case(
        "optional-mapping-missing-key",
        SUBSTANCES,
        "installation_gain_per_run: {min: 4, max: 11}",
        "installation_gain_per_run: ‸{max: 11}",
        "schema",
        "missing 'min'",
        "value_rules.installation_gain_per_run",
        hint="add min: …",
    ),
    Case(
        "mars-note-without-en",
        RAW,
        "      en: The Phoenix lander (2008) exposed water ice in the trenches it dug in the "
        "northern plains.\n",
        "",
        "schema",
        "missing 'en'",
        "raw_materials[0].mars",
        hint="add en: …",
        at=(RAW, "    mars:\n      ‸ru: Посадочный модуль Phoenix (2008) вскрыл водяной лёд"),
    ),
    Case(
        "enum-typo",
        INSTALLATIONS,
        "{edge: bottom, position: 2, substance: CaO, direction: out}",
        "{edge: bottom, position: 2, substance: CaO, direction: ‸inn}",
        "schema",
        "'inn' is not one of in, out",
        "installations[*].cards[*].ports[*].direction",
        hint="did you mean 'in'?",
    ),
    Case(
        "zero-price",
        SUBSTANCES,
        WATER,
        WATER.replace("price: 1", "price: ‸0"),
        "schema",
        "0 is too small: at least 1",
        "substances[*].price",
        hint="prices are positive whole numbers",
    ),
    Case(
        "negative-price",
        SUBSTANCES,
        WATER,
        WATER.replace("price: 1", "price: ‸-3"),
        "schema",
        "-3 is too small: at least 1",
        "substances[*].price",
        hint="prices are positive whole numbers",
    ),
    Case(
        "zero-copies",
        RAW,
        WATER_ICE_COPIES,
        WATER_ICE + "    copies: ‸0\n",
        "schema",
        "0 is too small: at least 1",
        "raw_materials[*].copies",
    ),
    Case(
        "slug-with-capitals",
        RAW,
        "  - id: halite\n",
        "  - id: ‸Halite\n",
        "schema",
        "'Halite' does not have the expected form",
        "raw_materials[*].id",
        hint="for example 'hematite'",
    ),
    # --- formulas: the column points at the bad character inside the scalar -------------------
    Case(
        "formula-plain-scalar",
        SUBSTANCES,
        "  - formula: Fe2O3\n",
        "  - formula: Fe2‸Xx3\n",
        "formulas",
        "formula 'Fe2Xx3': unknown element symbol 'Xx'",
        "substances[*].formula",
        hint="formula grammar",
    ),
    Case(
        "formula-double-quoted",
        SUBSTANCES,
        "  - formula: Fe2O3\n",
        '  - formula: "Fe2‸Xx3"\n',
        "formulas",
        "formula 'Fe2Xx3': unknown element symbol 'Xx'",
        "substances[*].formula",
        hint="formula grammar",
    ),
    Case(
        "formula-single-quoted-in-flow-mapping",
        INSTALLATIONS,
        "{substance: Ca(ClO4)2·4H2O, role: raw-input}",
        "{substance: 'Ca(ClO4)2·4H2O‸)', role: raw-input}",
        "formulas",
        "formula 'Ca(ClO4)2·4H2O)': ')' at 15 closes no open group",
        "installations[*].cards[*].containers[*].substance",
        hint="formula grammar",
    ),
    Case(
        "formula-leading-zero-in-flow-mapping",
        INSTALLATIONS,
        "{substance: CH4, role: product, places: 1}",
        "{substance: CH‸04, role: product, places: 1}",
        "formulas",
        ("formula 'CH04'", "leading zero; write 4"),
        "installations[*].cards[*].containers[*].substance",
    ),
    Case(
        "formula-cyrillic-letter",
        SUBSTANCES,
        "  - formula: Fe2O3\n",
        "  - formula: Fe2‸О3\n",
        "formulas",
        "Cyrillic 'О' at 4, did you mean Latin 'O'?",
        "substances[*].formula",
    ),
    Case(
        "formula-cyrillic-first-letter-in-flow-mapping",
        INSTALLATIONS,
        "{substance: Ca(ClO4)2·4H2O, role: raw-input}",
        "{substance: ‸Сa(ClO4)2·4H2O, role: raw-input}",
        "formulas",
        "Cyrillic 'С' at 1, did you mean Latin 'C'?",
        "installations[*].cards[*].containers[*].substance",
    ),
    # --- reactions ----------------------------------------------------------------------------
    Case(
        "reaction-does-not-balance",
        INSTALLATIONS,
        "    reaction: CaCO3 + H2O -> Ca(OH)2 + CO2\n",
        "    reaction: ‸CaCO3 + H2O -> Ca(OH)2 + 2 CO2\n",
        "reactions",
        (
            "reaction 'CaCO3 + H2O -> Ca(OH)2 + 2 CO2' does not balance",
            "C +1, O +2",
            "products − reactants",
        ),
        "installations[*].reaction",
        hint="balanced it reads CaCO3 + H2O -> Ca(OH)2 + CO2",
    ),
    Case(
        "card-reaction-does-not-balance",
        INSTALLATIONS,
        AMMONIA_CONVERTER + "        reactions: [N2 + 3 H2 -> 2 NH3]",
        AMMONIA_CONVERTER + "        reactions: [‸N2 + H2 -> NH3]",
        "reactions",
        ("reaction 'N2 + H2 -> NH3' does not balance", "N -1", "H +1"),
        "installations[*].cards[*].reactions[*]",
        hint="balanced it reads N2 + 3 H2 -> 2 NH3",
    ),
    Case(
        "reaction-unknown-element",
        INSTALLATIONS,
        "    reaction: CaCO3 + H2O -> Ca(OH)2 + CO2\n",
        "    reaction: CaCO3 + H2‸Q -> Ca(OH)2 + CO2\n",
        "reactions",
        "reaction 'CaCO3 + H2Q -> Ca(OH)2 + CO2': unknown element symbol 'Q'",
        "installations[*].reaction",
    ),
    Case(
        "reaction-without-arrow",
        INSTALLATIONS,
        "    reaction: CaCO3 + H2O -> Ca(OH)2 + CO2\n",
        "    reaction: CaCO3 + H2O Ca(OH)2 + CO2‸\n",
        "reactions",
        ("no arrow", "then '->'"),
        "installations[*].reaction",
    ),
    # --- references ---------------------------------------------------------------------------
    Case(
        "reaction-species-not-in-substances",
        INSTALLATIONS,
        "        reactions: [Ca(ClO4)2 -> CaCl2 + 4 O2]",
        "        reactions: [Ca(ClO4)2 -> CaO + ‸Cl2O7]",
        "known-substances",
        "Cl2O7 in reaction 'Ca(ClO4)2 -> CaO + Cl2O7' is not listed in substances.yaml",
        "installations[*].cards[*].reactions[*]",
        hint="add '- formula: Cl2O7'",
    ),
    Case(
        "container-not-in-substances",
        INSTALLATIONS,
        "          - {substance: Ca2SiO4, role: product, places: 1}",
        "          - {substance: ‸Ca3SiO5, role: product, places: 1}",
        "known-substances",
        "Ca3SiO5 is not listed in substances.yaml",
        "installations[*].cards[*].containers[*].substance",
        hint="add '- formula: Ca3SiO5'",
    ),
    Case(
        "raw-formula-not-in-substances",
        RAW,
        "    formula: NaCl\n",
        "    formula: ‸MgTiO3\n",
        "known-substances",
        "MgTiO3 is not listed in substances.yaml",
        "raw_materials[*].formula",
        hint="add '- formula: MgTiO3' with its names and price to substances.yaml",
    ),
    # --- identity -----------------------------------------------------------------------------
    Case(
        "duplicate-substance-composition",
        SUBSTANCES,
        "  - formula: H2\n",
        "  - formula: ‸HOH\n    name: {ru: Вода, en: Water}\n    price: 1\n  - formula: H2\n",
        "unique-ids",
        ("HOH has the same composition as substances[", "(H2O)"),
        "substances[*].formula",
        hint="list each substance once",
    ),
    Case(
        "duplicate-raw-id",
        RAW,
        "  - id: halite\n",
        "  - id: ‸calcite\n",
        "unique-ids",
        ("'calcite' is used twice", "first at raw_materials["),
        "raw_materials[*].id",
        hint="give it another ID",
    ),
    Case(
        "duplicate-card-id",
        INSTALLATIONS,
        "      - id: 5Б\n",
        "      - id: ‸5А\n",
        "unique-ids",
        ("'5А' is used twice", "first at installations["),
        "installations[*].cards[*].id",
        hint="give it another ID",
    ),
    Case(
        "duplicate-installation-number-points-at-the-number",
        INSTALLATIONS,
        "  - number: 9\n",
        "  - number: ‸8\n",
        "unique-ids",
        ("installation number 8 is used twice", "first at installations["),
        "installations[*].number",
        # Its cards are 9А and 9Б and no installation is 9: the number is the typo, not the IDs.
        hint="its cards name installation 9, which no other has: write number: 9",
    ),
    Case(
        "duplicate-installation-number-card-ids-blame-the-number",
        INSTALLATIONS,
        "  - number: 9\n",
        "  - number: 8\n",
        "card-ids",
        "card 9А is in installation 8 but its ID names installation 9",
        "installations[*].cards[0].id",
        hint="installation number 8 is used twice: write number: 9 for this one",
        at=(INSTALLATIONS, "      - id: ‸9А\n"),
    ),
    Case(
        "duplicate-mission-id",
        MISSIONS,
        "    - id: M2\n",
        "    - id: ‸M1\n",
        "unique-ids",
        "'M1' is used twice",
        "mission_card.missions[*].id",
        hint="give it another ID",
    ),
    Case(
        "card-id-latin-lookalike",
        INSTALLATIONS,
        "      - id: 5А\n",
        "      - id: 5‸A\n",
        "card-ids",
        "card ID '5A' uses the Latin letter 'A'",
        "installations[*].cards[*].id",
        hint="write the Cyrillic 'А': 5А",
    ),
    Case(
        "card-numbered-for-another-installation",
        INSTALLATIONS,
        "      - id: 5Б\n",
        "      - id: ‸6Б\n",
        "card-ids",
        "card 6Б is in installation 5 but its ID names installation 6",
        "installations[*].cards[*].id",
        hint="number it 5Б",
    ),
    Case(
        "electrolyser-id-without-E",
        INSTALLATIONS,
        "  - id: Э4\n",
        "  - id: ‸E4\n",
        "card-ids",
        "electrolyser card ID 'E4' does not start with 'Э'",
        "electrolysers[*].id",
        hint="name them Э1..Э5",
    ),
    # --- groups and electrolysers --------------------------------------------------------------
    Case(
        "two-main-cards",
        INSTALLATIONS,
        "      - id: 5Б\n        group: part\n",
        "      - ‸id: 5Б\n        group: main\n",
        "card-groups",
        "installation 5 has 2 main cards (red circle)",
        "installations[*].cards[*]",
        hint="exactly one card of an installation has group: main",
        rule="L2.S1",
    ),
    Case(
        "no-main-card",
        INSTALLATIONS,
        "      - id: 5А\n        group: main\n",
        "      ‸- id: 5А\n        group: part\n",
        "card-groups",
        "installation 5 has 0 main cards (red circle)",
        "installations[*].cards",
        hint="exactly one card of an installation has group: main",
        rule="L2.S1",
    ),
    Case(
        "electrolyser-differs",
        INSTALLATIONS,
        ELECTROLYSER_3_WATER + "      - {substance: H2, role: product, places: 2}",
        ELECTROLYSER_3_WATER + "      - {substance: H2, role: product, places: ‸3}",
        "electrolysers",
        "electrolyser Э3 differs from Э1 at containers.1.places: 3 here, 2 on Э1",
        "electrolysers[*].containers[*].places",
        hint="the five electrolysers are identical cards: write 2",
        rule="L2.S1",
    ),
    Case(
        "four-electrolysers",
        INSTALLATIONS,
        ELECTROLYSER_5,
        "",
        "electrolysers",
        "4 electrolyser cards; the game has five, one per player",
        "electrolysers",
        hint="list exactly five identical electrolyser cards",
        rule="L2.S1",
        at=(INSTALLATIONS, "electrolysers:\n  ‸- id: Э1\n"),
    ),
    # --- cards and assembly ---------------------------------------------------------------------
    Case(
        "in-port-substance-not-consumed",
        INSTALLATIONS,
        SLAKER_PORT,
        "          - {edge: top, position: 2, substance: ‸CaCO3, direction: in}",
        "card-flow",
        (
            "1Б top edge, position 2 (CaCO3 in)",
            "CaCO3 is not consumed by a reaction of the card, stored in a container or passed on",
        ),
        "installations[*].cards[*].ports[*].substance",
    ),
    Case(
        "out-port-substance-not-made",
        INSTALLATIONS,
        SLAKER_PORT,
        "          - {edge: top, position: 2, substance: ‸CaO, direction: out}",
        "card-flow",
        ("1Б top edge, position 2 (CaO out)", "CaO is not made by a reaction of the card"),
        "installations[*].cards[*].ports[*].substance",
    ),
    Case(
        "port-substance-mismatch-cannot-assemble",
        INSTALLATIONS,
        SLAKER_PORT,
        SLAKER_PORT.replace("CaO", "H2O"),
        "assembly",
        "installation 1 cannot be assembled",
        "installations[*]",
        hint="check the ports",
        at=(INSTALLATIONS, "  - ‸number: 1\n"),
    ),
    Case(
        "port-position-mismatch-cannot-assemble",
        INSTALLATIONS,
        SLAKER_PORT,
        SLAKER_PORT.replace("position: 2", "position: 1"),
        "assembly",
        "installation 1 cannot be assembled",
        "installations[*]",
        hint="check the ports",
        at=(INSTALLATIONS, "  - ‸number: 1\n"),
    ),
    # --- reachability ---------------------------------------------------------------------------
    Case(
        "mission-product-no-installation-makes",
        MISSIONS,
        MISSION_NAOH,
        MISSION_NACL,
        "missions-level-2",
        "mission M2 asks for NaCl, which no installation makes",
        "mission_card.missions[*].places[*].formula",
        hint="ask for a product of an installation",
        rule="L2.M1",
    ),
    Case(
        "mission-not-reachable-at-level-1",
        MISSIONS,
        # NH3 + CO2 + 2 O2 = C H3 N O6; nitrogen comes only as N2 (atmospheric nitrogen), so
        # no set of raw cards brings an odd number of N atoms
        "        - {formula: CO(NH2)2, count: 1}",
        "        ‸- {formula: NH3, count: 1}",
        "missions-level-1",
        ("mission M3 needs exactly", "N", "which no set of raw cards of the deck adds up to"),
        "mission_card.missions[*].places",
        hint="change the mission's products or counts, or the raw deck",
        rule="L1.E1",
    ),
    Case(
        "installation-input-not-obtainable",
        RAW,
        "  - id: calcium-perchlorate\n    formula: Ca(ClO4)2·4H2O\n",
        "  - id: calcium-perchlorate\n    formula: Mg(ClO4)2·6H2O\n",
        "inputs-obtainable",
        "installation 9 needs Ca(ClO4)2·4H2O, which is no raw card and no product of another "
        "installation",
        "installations[*].reaction",
        hint="add a raw card of Ca(ClO4)2·4H2O or an installation that makes it",
        at=(INSTALLATIONS, "    reaction: ‸Ca(ClO4)2·4H2O -> CaCl2 + 4 O2 + 4 H2O\n"),
    ),
    # --- setup counts and the box --------------------------------------------------------------
    Case(
        "sixty-fate-cards-level-1-field",
        COMPONENTS,
        "fate_cards: {count: 72}",
        "fate_cards: {count: ‸60}",
        "setup-counts",
        "60 Fate cards: removing 8..12 must leave at least 60",
        "components.fate_cards.count",
        rule="L1.S1",
    ),
    Case(
        "sixty-fate-cards-level-1-warehouse",
        COMPONENTS,
        "fate_cards: {count: 72}",
        "fate_cards: {count: ‸60}",
        "setup-counts",
        ("60 Fate cards", "no removal of 8..12 leaves a field of ≥ 60 and a Warehouse of 4..8"),
        "components.fate_cards.count",
        hint="with 72 raw cards give the box 72–80 Fate cards",
        rule="L1.S3",
    ),
    Case(
        "too-many-fate-cards-both-bounds",
        COMPONENTS,
        "fate_cards: {count: 72}",
        "fate_cards: {count: ‸200}",
        "setup-counts",
        ("200 Fate cards", "Warehouse of 8..12"),
        "components.fate_cards.count",
        hint="give the box 68–76 Fate cards; or keep 200 and make the raw deck 196–204 cards",
        rule="L3.S2",
    ),
    Case(
        "sixty-fate-cards-level-3",
        COMPONENTS,
        "fate_cards: {count: 72}",
        "fate_cards: {count: ‸60}",
        "setup-counts",
        "60 Fate cards: removing 8..12 must leave at least 60",
        "components.fate_cards.count",
        rule="L3.S1",
    ),
    Case(
        "raw-deck-too-small",
        RAW,
        WATER_ICE_COPIES,
        # 67 raw cards: a level-1 Warehouse of 4..8 still works, a level-3 one of 8..12 not
        "  ‸" + WATER_ICE.lstrip() + "    copies: 4\n",
        "setup-counts",
        "Warehouse of 8..12",
        "raw_materials",
        hint="with 72 Fate cards the raw deck needs 68–76 cards",
        rule="L3.S2",
    ),
    Case(
        "raw-deck-too-large",
        RAW,
        WATER_ICE_COPIES,
        # 82 raw cards: more than a field of 60..64 and a Warehouse of 4..8 take
        WATER_ICE + "    copies: 19\n",
        "setup-counts",
        "Warehouse of 4..8",
        "components.fate_cards.count",
        hint="keep 72 and make the raw deck 64–72 cards",
        rule="L1.S3",
        at=(COMPONENTS, "fate_cards: {count: ‸72}"),
    ),
    Case(
        "number-as-a-mapping-key-at-its-line",
        COMPONENTS,
        "  coins: {count: 50}\n",
        "  coins: {count: 50}\n  ‸7: {count: 1}\n",
        "schema",
        "unknown key 7 (a number; keys here are names)",
        "components.7",
        hint="allowed: base_card",
    ),
    Case(
        "coins-not-fifty",
        COMPONENTS,
        "coins: {count: 50}",
        "coins: {count: ‸40}",
        "setup-counts",
        "40 coins form the Bank (the rules count 50)",
        "components.coins.count",
        rule="L1.S5",
    ),
    Case(
        "missing-upgrade",
        COMPONENTS,
        ARMOUR,
        "",
        "components",
        "no upgrade 'armour'; the rules sell it for 4 мР",
        "components.upgrades",
        hint="add '- id: armour' with price 4",
        rule="L1.T6",
        at=(COMPONENTS, "  upgrades:\n    ‸- {id: solar-battery"),
    ),
    Case(
        "upgrade-price",
        COMPONENTS,
        "Solar battery}, price: 4",
        "Solar battery}, price: ‸5",
        "components",
        "solar-battery costs 5 мР; the rules say 4",
        "components.upgrades[*].price",
        hint="set price: 4",
        rule="L1.T3",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_defect_is_reported_with_message_and_location(catalog_copy, case: Case) -> None:
    where = catalog_copy.edit(case.file, case.old, case.new)
    file = case.file
    if case.at is not None:
        file = case.at[0]
        where = catalog_copy.position(*case.at)
    assert where is not None, "mark the expected position with ‸ or give `at`"

    validation = catalog_copy.validate()

    assert not validation.is_valid()
    assert validation.catalog is None
    issue = catalog_copy.find_issue(validation, case.check, case.message, case.rule, file)
    assert issue.severity == "error"
    catalog_copy.assert_located(issue, file, where, case.path)
    if case.hint is not None:
        assert case.hint in issue.hint, f"hint {issue.hint!r} lacks {case.hint!r}"
    status = validation.checks[STATUS_OF.get(case.check, case.check)]
    assert status != "ok"
    assert not status.startswith("skipped")
    # Every message of the run reads as words: no Python repr, no sentence cut off (issue 28).
    for every in validation.issues:
        faults = reading_faults(every.message) + reading_faults(every.hint)
        assert not faults, f"{every}: {faults}"


def test_load_catalog_raises_with_every_issue(catalog_copy) -> None:
    catalog_copy.edit(INSTALLATIONS, "      - id: 5А\n", "      - id: 5A\n")
    catalog_copy.edit(COMPONENTS, "coins: {count: 50}", "coins: {count: 40}")
    with pytest.raises(CatalogError) as raised:
        load_catalog(catalog_copy.directory)
    issues = raised.value.issues
    assert {issue.check for issue in issues} >= {"card-ids", "setup-counts"}
    assert "installations.yaml:" in str(raised.value)


# --- files ---------------------------------------------------------------------------------------


def test_missing_file_is_reported_and_other_files_still_checked(catalog_copy) -> None:
    (catalog_copy.directory / MISSIONS).unlink()
    where = catalog_copy.edit(INSTALLATIONS, "      - id: 5А\n", "      - id: 5‸A\n")

    validation = catalog_copy.validate()

    assert not validation.is_valid()
    issue = catalog_copy.find_issue(validation, "files", "missions.yaml is missing")
    assert (issue.file, issue.line, issue.column) == (MISSIONS, None, None)
    assert issue.location == MISSIONS
    assert "substances.yaml, raw_materials.yaml, installations.yaml" in issue.hint
    assert validation.checks["files"] == "failed"
    # what needs missions.yaml is skipped and says why; the rest still runs
    assert validation.checks["missions-level-1"] == "skipped: missions.yaml has errors"
    assert validation.checks["missions-level-2"].startswith("skipped")
    latin = catalog_copy.find_issue(validation, "card-ids", "Latin letter")
    catalog_copy.assert_located(latin, INSTALLATIONS, where, "installations[*].cards[*].id")


def test_missing_directory(tmp_path) -> None:
    validation = validate_catalog(tmp_path / "nowhere")
    assert not validation.is_valid()
    [issue] = validation.issues
    assert issue.check == "files"
    assert issue.message.startswith("no catalog directory at ")
    assert "substances.yaml" in issue.hint


def _cp1251(catalog_copy) -> int:
    """Save components.yaml as Windows-1251 (a Russian editor's default); the first bad line."""
    text = catalog_copy.text(COMPONENTS)
    (catalog_copy.directory / COMPONENTS).write_bytes(text.encode("cp1251"))
    return next(n for n, line in enumerate(text.splitlines(), 1) if not line.isascii())


def test_non_utf8_file_is_reported(catalog_copy) -> None:
    _cp1251(catalog_copy)
    validation = catalog_copy.validate()
    assert not validation.is_valid()
    issue = catalog_copy.find_issue(validation, "files", "not UTF-8 text", file=COMPONENTS)
    assert issue.hint == "save the file as UTF-8"
    assert validation.checks["files"] == "failed"
    assert validation.checks["components"].startswith("skipped")
    # the other files are still read and checked
    assert validation.checks["schema"] == "ok"
    assert validation.checks["assembly"] == "ok"


def test_non_utf8_file_points_at_the_bad_line(catalog_copy) -> None:
    bad_line = _cp1251(catalog_copy)
    issue = catalog_copy.find_issue(catalog_copy.validate(), "files", "not UTF-8 text")
    assert issue.line == bad_line


def test_empty_file_message_names_the_expected_content(catalog_copy) -> None:
    catalog_copy.write(COMPONENTS, "")
    issue = catalog_copy.find_issue(catalog_copy.validate(), "schema", (), file=COMPONENTS)
    assert "None" not in issue.message
    assert "empty" in issue.message
    assert "components" in issue.message + issue.hint


# --- many problems in one run --------------------------------------------------------------------


LATIN_5A = (INSTALLATIONS, "      - id: 5А\n", "      - id: 5‸A\n", "card-ids")
COINS_40 = (COMPONENTS, "coins: {count: 50}", "coins: {count: ‸40}", "setup-counts")


@pytest.mark.parametrize(
    "defects",
    [
        pytest.param(
            [
                (RAW, "  - id: halite\n", "  - id: ‸calcite\n", "unique-ids"),
                LATIN_5A,
                (MISSIONS, MISSION_NAOH, MISSION_NACL, "missions-level-2"),
            ],
            id="raw-id+card-id+mission",
        ),
        pytest.param(
            [
                (SUBSTANCES, "  - formula: Fe2O3\n", "  - formula: Fe2‸Xx3\n", "formulas"),
                LATIN_5A,
                COINS_40,
            ],
            id="formula+card-id+coins",
        ),
        pytest.param(
            [
                (SUBSTANCES, WATER, WATER.replace("price: 1", "price: ‸0"), "schema"),
                LATIN_5A,
                COINS_40,
            ],
            id="schema-error+card-id+coins",
        ),
    ],
)
def test_three_unrelated_defects_are_all_reported_in_one_run(catalog_copy, defects) -> None:
    expected = []
    for file, old, new, check in defects:
        expected.append((file, catalog_copy.edit(file, old, new), check))

    validation = catalog_copy.validate()

    assert not validation.is_valid()
    located = {(i.file, (i.line, i.column), i.check) for i in validation.errors}
    for item in expected:
        assert item in located, f"{item} not reported; got:\n" + "\n".join(
            str(i) for i in validation.issues
        )


def test_several_problems_in_one_file_are_all_reported(catalog_copy) -> None:
    first = catalog_copy.edit(SUBSTANCES, WATER, WATER.replace("price: 1", "price: ‸0"))
    second = catalog_copy.edit(SUBSTANCES, '  - formula: "NO"\n', "  - formula: ‸NO\n")
    third = catalog_copy.edit(
        SUBSTANCES, "    name: {ru: Сера, en: Sulfur}\n", "    name: {ru: Сера, ‸em: Sulfur}\n"
    )
    validation = catalog_copy.validate()
    positions = {(issue.line, issue.column) for issue in validation.errors}
    assert {first, second, third} <= positions, "\n".join(map(str, validation.issues))
    assert all(issue.file == SUBSTANCES for issue in validation.errors)


# --- warnings --------------------------------------------------------------------------------


def test_price_that_does_not_grow_is_a_warning_not_an_error(catalog_copy) -> None:
    # Iron takes 3 steps along the routes of play (electrolyser, 8А, 8Б — 8Б takes its Fe3O4
    # by pipe only); methane, 2 steps, costs 8.
    where = catalog_copy.edit(
        SUBSTANCES,
        "    name: {ru: Железо, en: Iron}\n    price: 9",
        "    name: {ru: Железо, en: Iron}\n    price: ‸7",
    )

    validation = catalog_copy.validate()

    assert validation.is_valid()
    assert validation.errors == ()
    assert validation.catalog is not None
    [warning] = [w for w in validation.warnings if w.check != "raw-kinds-serve"]
    assert warning.severity == "warning"
    assert warning.check == "prices"
    assert warning.message == "Fe takes 3 step(s) but costs 7 мР, less than CH4 (2 step(s), 8 мР)"
    assert warning.hint == "price it at 8 мР or more"
    catalog_copy.assert_located(warning, SUBSTANCES, where, "substances[*].price")
    assert validation.checks["prices"] == "1 warning(s)"
    assert load_catalog(catalog_copy.directory).substance("Fe").price == 7


def test_card_letters_out_of_order_is_a_warning(catalog_copy) -> None:
    catalog_copy.edit(INSTALLATIONS, "      - id: 7Б\n", "      - id: 7В\n")
    validation = catalog_copy.validate()
    assert validation.is_valid()
    warning = catalog_copy.find_issue(validation, "card-ids", "installation 7 uses the letters АВ")
    assert warning.severity == "warning"
    assert warning.hint == "letter its cards А, Б in order"


# --- no cascades ---------------------------------------------------------------------------------

#: A broken formula gives its own error and at most this many errors in all.
CASCADE_BOUND = 5


@pytest.mark.parametrize(
    ("file", "old", "new"),
    [
        pytest.param(RAW, "    formula: NaCl\n", "    formula: NaCQ\n", id="raw-card-formula"),
        pytest.param(
            INSTALLATIONS, SLAKER_PORT, SLAKER_PORT.replace("CaO", "CaQ"), id="port-substance"
        ),
        pytest.param(
            INSTALLATIONS,
            "          - {substance: Ca(OH)2, role: product, places: 1}",
            "          - {substance: Ca(OH2, role: product, places: 1}",
            id="container-substance",
        ),
        pytest.param(
            INSTALLATIONS,
            "    reaction: CaCO3 + H2O -> Ca(OH)2 + CO2\n",
            "    reaction: CaCO3 + H2Q -> Ca(OH)2 + CO2\n",
            id="installation-reaction",
        ),
        pytest.param(
            MISSIONS,
            "        - {formula: CH4, count: 2}",
            "        - {formula: CH$, count: 2}",
            id="mission-formula",
        ),
        pytest.param(
            SUBSTANCES,
            "  - formula: H2O\n",
            "  - formula: H2Q\n",
            id="substance-formula",
        ),
    ],
)
def test_broken_formula_does_not_cascade(catalog_copy, file, old, new) -> None:
    catalog_copy.edit(file, old, new)
    validation = catalog_copy.validate()
    errors = validation.errors
    assert any(issue.check in {"formulas", "reactions"} for issue in errors)
    assert len(errors) <= CASCADE_BOUND, "\n".join(map(str, errors))


def test_unlisted_catalyst_is_reported_once(catalog_copy) -> None:
    catalog_copy.edit(
        INSTALLATIONS,
        "        reactions: [2 SO2 + O2 -> 2 SO3]",
        "        reactions: [2 SO2 + O2 + V2O5 -> 2 SO3 + V2O5]",
    )
    validation = catalog_copy.validate()
    catalog_copy.find_issue(validation, "known-substances", "V2O5")


# --- the sharpest locations: inside a value, at the offending port or field --------------------


def test_unlisted_species_points_into_the_reaction(catalog_copy) -> None:
    where = catalog_copy.edit(
        INSTALLATIONS,
        "        reactions: [Ca(ClO4)2 -> CaCl2 + 4 O2]",
        "        reactions: [Ca(ClO4)2 -> CaO + ‸Cl2O7]",
    )
    issue = catalog_copy.find_issue(catalog_copy.validate(), "known-substances", "Cl2O7 in")
    catalog_copy.assert_located(
        issue, INSTALLATIONS, where, "installations[*].cards[*].reactions[*]"
    )


def test_card_flow_points_at_the_offending_port(catalog_copy) -> None:
    where = catalog_copy.edit(
        INSTALLATIONS,
        "          - {edge: left, position: 3, substance: Cl2, direction: in}",
        "          - {edge: left, position: 3, substance: ‸O2, direction: in}",
    )
    issue = catalog_copy.find_issue(
        catalog_copy.validate(), "card-flow", "7Б left edge, position 3"
    )
    assert (issue.line, issue.column) == where
    assert issue.path[-3] == "ports"
    assert isinstance(issue.path[-2], int)
    assert issue.path[-1] == "substance"


def test_assembly_failure_names_the_unmatched_port(catalog_copy) -> None:
    catalog_copy.edit(INSTALLATIONS, SLAKER_PORT, SLAKER_PORT.replace("CaO", "H2O"))
    issue = catalog_copy.find_issue(
        catalog_copy.validate(), "assembly", "installation 1 cannot be assembled"
    )
    text = issue.message + " " + issue.hint
    assert "1Б" in text or "1А" in text
    assert "CaO" in text
    assert "top" in text or "bottom" in text


def test_electrolyser_difference_points_at_the_value(catalog_copy) -> None:
    where = catalog_copy.edit(
        INSTALLATIONS,
        ELECTROLYSER_3_WATER + "      - {substance: H2, role: product, places: 2}",
        ELECTROLYSER_3_WATER + "      - {substance: H2, role: product, places: ‸3}",
    )
    issue = catalog_copy.find_issue(catalog_copy.validate(), "electrolysers", "Э3 differs")
    catalog_copy.assert_located(
        issue, INSTALLATIONS, where, "electrolysers[*].containers[*].places"
    )
    assert "2" in issue.message + issue.hint


def test_setup_count_error_says_what_would_work(catalog_copy) -> None:
    catalog_copy.edit(COMPONENTS, "fate_cards: {count: 72}", "fate_cards: {count: 60}")
    issue = catalog_copy.find_issue(
        catalog_copy.validate(), "setup-counts", "60 Fate cards", rule="L1.S1"
    )
    assert "68" in issue.hint


@pytest.mark.skipif(not yamldoc.LIBYAML, reason="PyYAML without libyaml: one parser only")
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_libyaml_and_the_pure_parser_report_every_defect_alike(
    catalog_copy, case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog_copy.edit(case.file, case.old, case.new)
    fast = catalog_copy.validate()
    monkeypatch.setattr(yamldoc, "_FAST", None)
    pure = catalog_copy.validate()
    assert fast.issues == pure.issues
    assert fast.checks == pure.checks


# --- the upgrades a box sells (Ruling L1.T6.R2) -------------------------------------------------


def test_an_armour_band_where_armour_is_not_sold_is_a_warning(catalog_copy) -> None:
    where = catalog_copy.edit(
        MISSIONS,
        "  armour:                   # the share of games in which someone buys armour (sold "
        'at level 3 only)\n    "3": {min: 0.02, max: 1.0}\n',
        '  armour:\n    "1": ‸{min: 0.02, max: 1.0}\n    "3": {min: 0.02, max: 1.0}\n',
    )
    validation = catalog_copy.validate()
    assert validation.is_valid()
    warning = catalog_copy.find_issue(validation, "armour-band", "armour bought at level 1")
    assert warning.severity == "warning"
    assert warning.message == (
        "design.armour asks for armour bought at level 1, where the box does not sell it "
        "(components.yaml sells it at level 3)"
    )
    assert warning.hint == "drop the band of level 1, or add '1' to the armour's levels"
    assert warning.rule == "L1.T6.R2"
    assert where is not None
    catalog_copy.assert_located(warning, MISSIONS, where, "design.armour.1")


def test_armour_sold_at_both_levels_takes_both_bands(catalog_copy) -> None:
    catalog_copy.edit(COMPONENTS, ARMOUR, ARMOUR.replace('levels: ["3"]', 'levels: ["1", "3"]'))
    catalog_copy.edit(
        MISSIONS,
        '    "3": {min: 0.02, max: 1.0}\n\nmission_card',
        '    "1": {min: 0.02, max: 1.0}\n    "3": {min: 0.02, max: 1.0}\n\nmission_card',
    )
    validation = catalog_copy.validate()
    assert validation.is_valid()
    assert not [w for w in validation.warnings if w.check == "armour-band"]
    catalog = load_catalog(catalog_copy.directory)
    armour = catalog.components.upgrade("armour")
    assert armour is not None
    assert armour.sold_at("1")
    assert armour.sold_at("3")


def test_an_upgrade_level_named_twice_is_an_error(catalog_copy) -> None:
    catalog_copy.edit(COMPONENTS, ARMOUR, ARMOUR.replace('levels: ["3"]', 'levels: ["3", "3"]'))
    validation = catalog_copy.validate()
    assert not validation.is_valid()
    [error] = validation.errors
    assert error.message == "['3', '3'] has non-unique elements"
    assert error.path == ("components", "upgrades", 1, "levels")


def test_an_upgrade_built_with_a_level_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="each level is named once"):
        Upgrade(
            id="armour", name=Names(ru="Броня", en="Armour"), price=4, count=5, levels=("3", "3")
        )
