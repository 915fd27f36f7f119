"""Card faces as a player meets them: type that can be read, tokens that fit their places,
pipes that meet, pieces told apart without colour, backs that cannot be confused."""

from __future__ import annotations

import colorsys
import math
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mhp_cards.assembly.solver import solve_installation
from mhp_cards.catalog import Catalog
from mhp_cards.errors import PlacesError
from mhp_cards.pdf import KitError, faces, mission_face, places, plan_kit, reactor_face, token_faces
from mhp_cards.pdf.faces import PIPE, PORT_OFFSETS, Face
from mhp_cards.pdf.kit import Section
from mhp_cards.pdf.layout import SheetProfile, Templates, load_profile, load_templates
from mhp_cards.pdf.sketch import Circle, Line, Mark, Op, PageSketch, Polygon, Rect, Sketch, Text
from mhp_cards.pdf.typeset import SUB_SCALE
from mhp_cards.resources import default_layouts_dir

#: Sections whose pages are card faces (the assembly guides draw cards at a reduced scale).
FACE_SECTIONS = ("raw", "fate", "field", "reactors", "mission", "tokens", "aids")
SCRIPT_CHARS = set("0123456789+−-")


def _small_texts(pages: Sequence[PageSketch]) -> list[str]:
    """Texts below 6 pt, and sub/superscripts below 4.5 pt, on the pages (with their page).

    A sub- or superscript is a run of digits or signs drawn right after a text SUB_SCALE times
    larger: the way :mod:`mhp_cards.pdf.typeset` sets them. Anything else is body text.
    """
    small = []
    for page in pages:
        texts = [op for op in page.ops if isinstance(op, Text) and op.text.strip()]
        for previous, op in zip([None, *texts], texts, strict=False):
            script = (
                set(op.text) <= SCRIPT_CHARS
                and previous is not None
                and math.isclose(op.size, previous.size * SUB_SCALE, rel_tol=0.02)
            )
            floor = 4.5 if script else 6.0
            if op.size < floor - 1e-6:
                kind = "script" if script else "text"
                small.append(f"{page.label} {page.side}: {kind} {op.text!r} at {op.size:.2f} pt")
    return small


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_no_card_face_has_small_type(kit: list[Section], kit_en: list[Section], lang: str) -> None:
    sections = [s for s in (kit if lang == "ru" else kit_en) if s.name in FACE_SECTIONS]
    assert {s.name for s in sections} == set(FACE_SECTIONS)
    texts = sum(isinstance(op, Text) for s in sections for p in s.pages for op in p.ops)
    assert texts > 1000  # the check saw the kit's text, not an empty page
    assert _small_texts([page for section in sections for page in section.pages]) == []


def test_the_type_check_catches_small_type_and_small_subscripts() -> None:
    sketch = Sketch()
    page = sketch.new_page(80, 80, "probe")
    sketch.text(1, 5, "CO", bold=True, size=10, colour="#000000")
    sketch.text(5, 5, "2", bold=True, size=10 * SUB_SCALE, colour="#000000")  # 6.6 pt: fine
    sketch.text(1, 15, "H", bold=True, size=6.5, colour="#000000")
    sketch.text(5, 15, "2", bold=True, size=6.5 * SUB_SCALE, colour="#000000")  # 4.29 pt
    sketch.text(1, 25, "мелко", bold=False, size=5.5, colour="#000000")
    sketch.text(1, 35, "7", bold=False, size=5.9, colour="#000000")  # a digit, not a script
    assert _small_texts([page]) == [
        "probe single: script '2' at 4.29 pt",
        "probe single: text 'мелко' at 5.50 pt",
        "probe single: text '7' at 5.90 pt",
    ]


@pytest.mark.parametrize("section", FACE_SECTIONS)
def test_the_printed_pdf_has_no_small_type(built: Any, section: str) -> None:
    """Read back from the PDF: digits (the only sub/superscripts) ≥ 4.5 pt, all else ≥ 6 pt."""
    with pdfplumber.open(built.path(section)) as pdf:
        chars = [char for page in pdf.pages for char in page.chars if char["text"].strip()]
    assert chars
    small = sorted(
        {
            (char["text"], round(char["size"], 2))
            for char in chars
            if char["size"] < (4.5 if char["text"] in SCRIPT_CHARS else 6.0) - 0.01
        }
    )
    assert small == []


# Tokens and places --------------------------------------------------------------------------------


def _marks(section: Section) -> list[tuple[PageSketch, Mark]]:
    return [
        (page, op)
        for page in section.pages
        for op in page.ops
        if isinstance(op, Mark) and op.kind == "place"
    ]


def test_every_product_place_is_marked(
    section_of: Callable[[str], Section], catalog: Catalog
) -> None:
    marks = [dict(mark.data) for _, mark in _marks(section_of("reactors"))]
    expected: dict[tuple[str, str], int] = {}
    cards = [c for i in catalog.installations for c in i.cards] + list(catalog.electrolysers)
    for card in cards:
        for container in card.containers:
            if container.role == "product":  # tokens stand on products only (L2.T4)
                key = (card.id, container.substance)
                expected[key] = expected.get(key, 0) + container.places
    found: dict[tuple[str, str], int] = {}
    for data in marks:
        key = (data["piece"], data["substance"])
        found[key] = found.get(key, 0) + 1
    assert found == expected
    missions = [dict(mark.data) for _, mark in _marks(section_of("mission"))]
    assert sorted((m["substance"]) for m in missions) == sorted(
        place.formula
        for mission in catalog.missions
        for place in mission.places
        for _ in range(place.count)
    )


def test_only_cards_at_full_size_have_places(kit: list[Section]) -> None:
    """The assembly guides draw reactor cards smaller: their places are not places to play."""
    with_places = {section.name for section in kit if _marks(section)}
    assert with_places == {"reactors", "mission"}


@pytest.mark.parametrize("section_name", ["reactors", "mission"])
def test_a_chemist_token_fits_every_place(
    section_name: str, section_of: Callable[[str], Section], a4: SheetProfile
) -> None:
    token = a4.card_sizes["chemist"].width
    marks = _marks(section_of(section_name))
    assert marks
    for page, mark in marks:
        x, y, width, height = mark.box
        diameter = float(dict(mark.data)["diameter"])
        assert width == height == pytest.approx(diameter)
        assert diameter >= token + 1.0, (page.label, mark)
        # the place is drawn: a circle of that diameter at the mark
        assert any(
            isinstance(op, Circle)
            and op.stroke
            and math.isclose(op.r, diameter / 2, abs_tol=1e-6)
            and math.isclose(op.cx, x + width / 2, abs_tol=1e-6)
            and math.isclose(op.cy, y + height / 2, abs_tol=1e-6)
            for op in page.ops
        )


@pytest.mark.parametrize("section_name", ["reactors", "mission"])
def test_places_do_not_overlap_and_sit_in_their_container(
    section_name: str, section_of: Callable[[str], Section]
) -> None:
    for page in section_of(section_name).pages:
        marks = [op for op in page.ops if isinstance(op, Mark) and op.kind == "place"]
        for i, a in enumerate(marks):
            for b in marks[i + 1 :]:
                distance = math.dist(
                    (a.box[0] + a.box[2] / 2, a.box[1] + a.box[3] / 2),
                    (b.box[0] + b.box[2] / 2, b.box[1] + b.box[3] / 2),
                )
                assert distance >= (a.box[2] + b.box[2]) / 2 - 1e-6, (page.label, a, b)
        boxes = [op for op in page.ops if isinstance(op, Rect) and op.stroke and op.fill]
        for mark in marks:
            x, y, w, h = mark.box
            # the smallest stroked box around the place: its container (or mission cell)
            around = [
                r
                for r in boxes
                if r.x <= x and r.y <= y and x + w <= r.x + r.width and y + h <= r.y + r.height
            ]
            assert around, (page.label, mark)
            holder = min(around, key=lambda r: r.width * r.height)
            # it holds the product's name too: the place does not cover the formula
            texts = [
                op
                for op in page.ops
                if isinstance(op, Text)
                and holder.x <= op.x <= holder.x + holder.width
                and holder.y <= op.y <= holder.y + holder.height
            ]
            assert texts, (page.label, mark)
            for text in texts:
                inside_x = x - 0.01 < text.x < x + w + 0.01
                inside_y = y - 0.01 < text.y < y + h + 0.01
                assert not (inside_x and inside_y), (page.label, text, mark)


def _copy_with_token(tmp_path: Path, diameter: float) -> SheetProfile:
    copy = tmp_path / "layouts"
    shutil.copytree(default_layouts_dir(), copy)
    path = copy / "sheets" / "a4.yaml"
    text = path.read_text(encoding="utf-8")
    old = "chemist: {width: 10, height: 10, shape: circle}"
    assert text.count(old) == 1
    path.write_text(
        text.replace(old, f"chemist: {{width: {diameter}, height: {diameter}, shape: circle}}"),
        encoding="utf-8",
    )
    return load_profile(str(path))


def test_places_grow_with_the_token_in_the_layout(tmp_path: Path, catalog: Catalog) -> None:
    profile = _copy_with_token(tmp_path, 9)
    templates = load_templates(profile)
    (section,) = plan_kit(catalog, profile, templates, only=["reactors"])
    diameters = {float(dict(mark.data)["diameter"]) for _, mark in _marks(section)}
    assert diameters == {9 + places.PLACE_CLEARANCE}


def test_a_token_too_large_for_a_container_is_a_located_error(
    tmp_path: Path, catalog: Catalog
) -> None:
    profile = _copy_with_token(tmp_path, 16)  # the first edition's chemist token
    with pytest.raises(KitError) as caught:
        plan_kit(catalog, profile, load_templates(profile), only=["reactors", "mission"])
    places = [p for p in caught.value.problems if isinstance(p, PlacesError)]
    cards = {p.card for p in places}
    assert "reactor card 9Б" in cards  # four O2 places
    problem = next(p for p in places if p.card == "reactor card 9Б")
    assert problem.region.startswith("container ")
    assert "17.5 mm" in str(problem)  # 16 mm token + clearance
    assert "card_sizes: chemist" in str(problem)
    # The numbers are those of the card: 9Б's O2 has 4 places, and the message names the
    # profile file and the line that gives the token's size.
    o2 = next(c for c in catalog.card("9Б").containers if c.substance == "O2")
    assert f"{o2.places} place(s) of 17.5 mm" in str(problem)
    assert f"for {o2.substance} alone" in str(problem)
    assert problem.where.startswith(str(tmp_path.resolve()))
    line = int(problem.where.split(":")[-2])
    profile_lines = Path(problem.where.rsplit(":", 2)[0]).read_text(encoding="utf-8").splitlines()
    assert "chemist:" in profile_lines[line - 1]
    assert str(problem).startswith(problem.where + ": ")


# What the reactor cards say ---------------------------------------------------------------------


def test_inputs_say_where_they_come_from(catalog: Catalog) -> None:
    # no raw card is NH3: it is made by installation 3 (Haber–Bosch)
    assert not any(raw.formula == "NH3" for raw in catalog.raw_materials)
    assert reactor_face.input_source(catalog, "NH3", "ru") == "из установки 3"
    assert reactor_face.input_source(catalog, "NH3", "en") == "from installation 3"
    # CO2 is a raw card (and a product of several installations): the raw card is named
    assert reactor_face.input_source(catalog, "CO2", "ru") == "1 карточка сырья"
    assert reactor_face.input_source(catalog, "CaCO3", "en") == "1 raw card"


def _texts_of(page: PageSketch) -> str:
    return "".join(op.text for op in page.ops if isinstance(op, Text))


def _face(
    catalog: Catalog, templates: Templates, a4: SheetProfile, draw: Callable[[Face], None]
) -> PageSketch:
    sketch = Sketch()
    page = sketch.new_page(80, 80, "probe")
    draw(Face(sketch, templates["reactor"], a4.card_sizes["reactor"], "ru", 0.0, 10.0))
    return page


def test_identical_electrolysers_are_printed_identical(
    catalog: Catalog, templates: Templates, a4: SheetProfile
) -> None:
    pages = [
        _face(catalog, templates, a4, lambda f, c=card: reactor_face.reactor_front(f, catalog, c))
        for card in catalog.electrolysers
    ]
    assert len(pages) == 5
    drawn = {tuple(op for op in page.ops if not isinstance(op, Mark)) for page in pages}
    assert len(drawn) == 1
    text = _texts_of(pages[0])
    assert "Э1" not in text
    assert text.startswith("Э")


def test_transit_cards_are_pipes_not_a_labelled_box(
    catalog: Catalog, templates: Templates, a4: SheetProfile
) -> None:
    for card_id in ("2Б", "3Б"):
        card = catalog.card(card_id)
        assert card is not None
        page = _face(
            catalog, templates, a4, lambda f, c=card: reactor_face.reactor_front(f, catalog, c)
        )
        assert "трубопровод" not in _texts_of(page)
        assert not [op for op in page.ops if isinstance(op, Mark)]  # no token on a transit


def _mouths(page: PageSketch, size: float) -> list[tuple[str, float]]:
    """Pipe walls (filled, PIPE wide) that end on the card's edge: (edge, centre along it)."""
    found = []
    for op in page.ops:
        if not (isinstance(op, Rect) and op.fill):
            continue
        if math.isclose(op.height, PIPE) and (op.x == 0 or math.isclose(op.x + op.width, size)):
            found.append(("left" if op.x == 0 else "right", op.y + PIPE / 2))
        if math.isclose(op.width, PIPE) and (op.y == 0 or math.isclose(op.y + op.height, size)):
            found.append(("top" if op.y == 0 else "bottom", op.x + PIPE / 2))
    return found


def test_every_port_has_a_pipe_mouth_on_its_edge(
    catalog: Catalog, templates: Templates, a4: SheetProfile
) -> None:
    """Pipes reach the cut line centred on the port, PIPE wide: partners on the next card meet."""
    size = a4.card_sizes["reactor"].width
    cards = [c for i in catalog.installations for c in i.cards] + [catalog.electrolyser]
    for card in cards:
        page = _face(
            catalog, templates, a4, lambda f, c=card: reactor_face.reactor_front(f, catalog, c)
        )
        mouths = sorted((e, round(a, 3)) for e, a in _mouths(page, size))
        expected = sorted(
            (port.edge, round(PORT_OFFSETS[port.position] * size, 3)) for port in card.ports
        )
        assert mouths == expected, card.id


def test_mission_card_shows_level_one_totals(
    catalog: Catalog, section_of: Callable[[str], Section]
) -> None:
    # Hill order: C, then H, then the rest alphabetically (all alphabetical without carbon)
    expected = {
        "M1": "C2H8O8",  # 2 CH4 + 4 O2
        "M2": "C2H2CaClN2NaO11",  # NaOH + HCl + Ca(NO3)2 + 2 CO2
        "M3": "C2H4N2O7",  # CO(NH2)2 + CO2 + 2 O2
        "M4": "C2H2Ca2O12SSi",  # Ca2SiO4 + H2SO4 + 2 CO2
    }
    for mission, hill in expected.items():
        assert mission_face.mission_totals(catalog.mission(mission)).hill() == hill, mission
    # printed in the raw cards' notation (C 2 · H 8 · O 8), not as a formula (C₂H₈O₈)
    text = _texts_of(section_of("mission").pages[0])
    for mission in catalog.missions:
        assert faces.tally(mission_face.mission_totals(mission).elements) in text, mission.id
    assert "C 2 · H 8 · O 8" in text


# Pieces and backs --------------------------------------------------------------------------------


def test_every_player_colour_has_its_own_shape(
    catalog: Catalog, templates: Templates, a4: SheetProfile
) -> None:
    def drawing(colour_index: int, kind: str) -> tuple[str, ...]:
        colour = catalog.components.colours[colour_index]
        sketch = Sketch()
        sketch.new_page(40, 40, "probe")
        draw = token_faces.chemist if kind == "chemist" else token_faces.combine
        draw(Face(sketch, templates[kind], a4.card_sizes[kind], "ru"), colour)
        # the geometry without colours or texts: what a colour-blind player still sees
        return tuple(
            type(op).__name__ + str(getattr(op, "points", "")) + str(getattr(op, "r", ""))
            for op in sketch.page.ops
            if not isinstance(op, Text)
        )

    count = len(catalog.components.colours)
    for kind in ("chemist", "combine"):
        assert len({drawing(i, kind) for i in range(count)}) == count, kind


def _hls(colour: str) -> tuple[float, float, float]:
    red, green, blue = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hls(red, green, blue)


def test_raw_and_fate_backs_differ_in_hue_and_lightness(templates: Templates) -> None:
    raw_h, raw_l, _ = _hls(templates["raw-back"].paper)
    fate_h, fate_l, _ = _hls(templates["fate-back"].paper)
    hue = abs(raw_h - fate_h) * 360
    assert min(hue, 360 - hue) >= 90
    assert abs(raw_l - fate_l) >= 0.1


def test_raw_and_fate_backs_have_different_patterns(
    section_of: Callable[[str], Section],
) -> None:
    # the Fate cards are one-sided field tiles: their printed side is the Mars surface
    def kinds(section: str) -> set[str]:
        back = next(p for p in section_of(section).pages if p.side in ("back", "single"))
        return {type(op).__name__ for op in back.ops}

    def count(section: str, kind: type[Op]) -> int:
        back = next(p for p in section_of(section).pages if p.side in ("back", "single"))
        return sum(isinstance(op, kind) for op in back.ops)

    assert "Line" in kinds("raw")
    assert count("raw", Line) > 20 * 12  # the lattice on each card
    assert count("fate", Circle) > count("raw", Circle)  # craters on the Mars surface


def test_cards_with_places_explain_them(
    catalog: Catalog, templates: Templates, a4: SheetProfile
) -> None:
    legend = faces.TEXT["place_legend"]["ru"].split()[0]
    cards = [c for i in catalog.installations for c in i.cards] + [catalog.electrolyser]
    for card in cards:
        page = _face(
            catalog, templates, a4, lambda f, c=card: reactor_face.reactor_front(f, catalog, c)
        )
        has_places = any(c.role == "product" for c in card.containers)
        assert (legend in _texts_of(page)) == has_places, card.id


@pytest.mark.parametrize(
    ("card_id", "downward"),
    [("1А", True), ("1Б", True), ("2А", False), ("2Б", False)],
    ids=["1А-CaO-out-bottom", "1Б-CaO-in-top", "2А-H2-in-bottom", "2Б-H2-out-top"],
)
def test_chevrons_show_the_way_a_vertical_pipe_flows(
    catalog: Catalog, templates: Templates, a4: SheetProfile, card_id: str, downward: bool
) -> None:
    card = catalog.card(card_id)
    assert card is not None
    page = _face(catalog, templates, a4, lambda f: reactor_face.reactor_front(f, catalog, card))
    centre = a4.card_sizes["reactor"].width / 2
    body = templates["reactor"].regions["body"]
    tank = templates["reactor"].regions["tank"]
    inside = body if card.containers[0].role != "transit" else tank
    heads = [  # arrow heads in the vertical pipe, outside the reactor (or tank) it runs into
        op
        for op in page.ops
        if isinstance(op, Polygon)
        and len(op.points) == 3
        and all(abs(x - centre) < PIPE / 2 for x, _ in op.points)
        and all(not inside.y <= y <= inside.y + inside.height for _, y in op.points)
    ]
    assert heads
    for head in heads:
        tip = next(p for p in head.points if math.isclose(p[0], centre))
        base = sum(p[1] for p in head.points if p != tip) / 2
        assert (tip[1] > base) == downward, head


def test_pipes_meet_across_every_assembled_installation(
    catalog: Catalog, templates: Templates, a4: SheetProfile
) -> None:
    """Cards laid out as each installation is assembled: every pipe that reaches an edge shared
    with another card meets that card's pipe there, mouth to mouth; the others are open ports."""
    size = a4.card_sizes["reactor"].width
    for installation in catalog.installations:
        arrangement = solve_installation(catalog, installation.number).canonical
        assert arrangement is not None
        grid = arrangement.grid()
        sketch = Sketch()
        page = sketch.new_page(size * len(grid[0]), size * len(grid), "installation")
        mouths: dict[tuple[int, int], list[tuple[str, float]]] = {}
        for r, row in enumerate(grid):
            for c, token in enumerate(row):
                if token is None:
                    continue
                card = catalog.electrolyser if token == "Э" else catalog.card(token)
                assert card is not None
                start = len(page.ops)
                with sketch.at(c * size, r * size):
                    reactor_face.reactor_front(
                        Face(sketch, templates["reactor"], a4.card_sizes["reactor"], "ru", 0, 10),
                        catalog,
                        card,
                    )
                probe = PageSketch(size, size, "card")
                probe.ops = [_moved(op, -c * size, -r * size) for op in page.ops[start:]]
                mouths[(r, c)] = _mouths(probe, size)
        joined = 0
        for (r, c), found in mouths.items():
            for edge, along in found:
                dr, dc = {"left": (0, -1), "right": (0, 1), "top": (-1, 0), "bottom": (1, 0)}[edge]
                facing = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}[edge]
                neighbour = mouths.get((r + dr, c + dc))
                if neighbour is None:
                    continue  # an open port on the installation's outline
                meets = any(e == facing and math.isclose(a, along) for e, a in neighbour)
                assert meets, (installation.number, grid[r][c], edge, along)
                joined += 1
        assert joined >= 2 * (len(mouths) - 1), installation.number  # the cards are connected


def _moved(op: Op, dx: float, dy: float) -> Op:
    if isinstance(op, Rect):
        return Rect(op.x + dx, op.y + dy, op.width, op.height, op.fill, op.stroke)
    return op


@settings(max_examples=60, deadline=None)
@given(
    token=st.floats(min_value=3.0, max_value=24.0, allow_nan=False),
    card_id=st.sampled_from(["4А", "8Б", "9Б", "Э1", "2А", "7А"]),
)
def test_any_token_size_fits_or_is_refused_by_name(
    catalog: Catalog, templates: Templates, a4: SheetProfile, token: float, card_id: str
) -> None:
    cards = [c for i in catalog.installations for c in i.cards] + list(catalog.electrolysers)
    card = next(c for c in cards if c.id == card_id)
    sketch = Sketch()
    page = sketch.new_page(80, 80, "probe")
    face = Face(sketch, templates["reactor"], a4.card_sizes["reactor"], "ru", 0.0, token)
    try:
        reactor_face.reactor_front(face, catalog, card)
    except PlacesError as problem:
        assert problem.card == f"reactor card {card_id}"
        assert f"{token + places.PLACE_CLEARANCE:g} mm" in str(problem)
        return
    body = templates["reactor"].regions["body"]
    marks = [op for op in page.ops if isinstance(op, Mark) and op.kind == "place"]
    assert len(marks) == sum(c.places for c in card.containers if c.role == "product")
    for i, mark in enumerate(marks):
        x, y, w, h = mark.box
        assert w == pytest.approx(token + places.PLACE_CLEARANCE)
        assert body.x <= x
        assert x + w <= body.x + body.width + 1e-6
        assert body.y <= y
        assert y + h <= body.y + body.height + 1e-6
        for other in marks[i + 1 :]:
            ox, oy, _, _ = other.box
            assert math.dist((x, y), (ox, oy)) >= w - 1e-6
