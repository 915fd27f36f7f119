"""The kit laid out as sketches (``plan_kit``, no PDF): sections, sheets, backs, text, errors."""

from __future__ import annotations

import math
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from mhp_cards.catalog import Catalog
from mhp_cards.catalog.cardid import ELECTROLYSER
from mhp_cards.pdf import SECTIONS, KitError, build_kit, plan_kit
from mhp_cards.pdf.fonts import MM_PER_POINT, fonts
from mhp_cards.pdf.impose import impose, pack
from mhp_cards.pdf.kit import Section
from mhp_cards.pdf.layout import SheetProfile, Templates, load_profile, load_templates
from mhp_cards.pdf.sketch import (
    Circle,
    Clip,
    Line,
    Mark,
    Op,
    PageSketch,
    Polygon,
    Rect,
    Text,
    Unclip,
)
from mhp_cards.pdf.typeset import runs_width, text_runs
from mhp_cards.resources import default_layouts_dir

Boxes = Callable[[PageSketch, SheetProfile], list[tuple[float, float, float, float]]]
CYRILLIC = re.compile(r"[\u0400-\u04FF]")
#: Sections of cut cards imposed on double-sided sheets, and the card kind of their slots.
CARD_SECTIONS = {
    "raw": "raw",
    "fate": "fate",
    "field": "base",
    "reactors": "reactor",
    "mission": "mission",
    "aids": "aid",
}


def _sheets(count: int, profile: SheetProfile, kind: str) -> int:
    return math.ceil(count / impose(profile, kind).per_page)


def _token_counts(catalog: Catalog) -> dict[str, int]:
    components = catalog.components
    return {
        "coin": components.coins.count,
        "chemist": components.chemist_tokens.per_player * len(components.colours),
        "combine": min(components.combines.count, len(components.colours)),
        "upgrade": sum(upgrade.count for upgrade in components.upgrades),
        "die": 1,  # a net to fold, for a table without a die
    }


def _reactor_cards(catalog: Catalog) -> list[str]:
    ids = [card.id for installation in catalog.installations for card in installation.cards]
    return ids + [card.id for card in catalog.electrolysers]


# Sections and page counts ------------------------------------------------------------------------


def test_every_section_is_present_in_order(kit: list[Section]) -> None:
    assert [section.name for section in kit] == list(SECTIONS)
    assert all(section.pages for section in kit)


def test_pieces_by_section(kit: list[Section], catalog: Catalog) -> None:
    pieces = {section.name: section.pieces for section in kit}
    assert pieces == {
        "cover": 1,
        "rules": 0,  # read, not cut
        "calibration": 1,
        "cutting": 0,  # read, not cut
        "raw": sum(raw.copies for raw in catalog.raw_materials),
        "fate": catalog.components.fate_cards.count,
        "field": 2,  # the Base card and the Warehouse marker
        "reactors": len(_reactor_cards(catalog)),
        "mission": 1,  # one Mission card holds every mission
        "tokens": sum(_token_counts(catalog).values()),
        "aids": len(catalog.components.colours),  # one per player, both sides used
        "guides": len(catalog.installations),
    }
    assert pieces["raw"] == catalog.raw_deck_size


def test_page_counts_by_section(kit: list[Section], catalog: Catalog, a4: SheetProfile) -> None:
    pieces = {section.name: section.pieces for section in kit}
    pages = {section.name: len(section.pages) for section in kit}
    expected = {
        "cover": 2,  # how to print, and the checklist on its back
        "calibration": 2,
        "cutting": 1,  # one page; the kit gives it a blank back
        **{
            name: 2 * _sheets(pieces[name], a4, kind)  # a front and a back per sheet
            for name, kind in CARD_SECTIONS.items()
        },
        # field tiles, one side: the kit adds the blank backs
        "fate": _sheets(pieces["fate"], a4, "fate"),
        "tokens": 2 * len(pack(a4, list(_token_counts(catalog).items()))),
        # one page per installation, printed back to back; an odd last one gets a blank back
        "guides": 2 * math.ceil(len(catalog.installations) / 2),
    }
    rules = pages.pop("rules")
    assert rules % 2 == 0  # a booklet printed double-sided
    assert rules >= 6  # title, four levels, house rules
    assert pages == expected
    # spelled out for the default catalog on A4 (12 cards of 63 mm, 6 reactor cards a sheet)
    assert pages["raw"] == 2 * math.ceil(catalog.raw_deck_size / 12)
    assert pages["reactors"] == 2 * math.ceil(len(_reactor_cards(catalog)) / 6)


def test_sides_alternate(kit: list[Section]) -> None:
    for section in kit:
        sides = [page.side for page in section.pages]
        if section.duplex:
            assert sides == ["front", "back"] * (len(sides) // 2), section.name
            labels = [page.label for page in section.pages]
            if section.name != "guides":  # guides are back to back: guide 2 behind guide 1
                assert labels[::2] == labels[1::2], section.name  # a back belongs to its front
        else:
            assert set(sides) == {"single"}, section.name
    # blank backs only behind the one-sided Fate tiles: no placeholder fronts on card stock
    assert [s.name for s in kit if not s.duplex] == ["cutting", "fate"]


def test_every_page_is_a4(kit: list[Section]) -> None:
    for section in kit:
        for page in section.pages:
            assert (page.width, page.height) == (210, 297), page.label


def test_card_pages_have_a_trim_box(kit: list[Section]) -> None:
    for section in kit:
        if section.name not in CARD_SECTIONS:
            continue
        for page in section.pages:
            assert page.trim is not None, page.label
            x, y, w, h = page.trim
            assert x > 0
            assert y > 0
            assert x + w < page.width
            assert y + h < page.height


# Backs mirror their fronts -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def plans(
    kit: list[Section], catalog: Catalog, a4: SheetProfile
) -> dict[str, tuple[SheetProfile, list[Section]]]:
    found = {"a4": (a4, kit)}
    for name in ("letter", "print-shop"):
        profile = load_profile(name)
        found[name] = (profile, plan_kit(catalog, profile, load_templates(profile)))
    return found


@pytest.mark.parametrize("profile_name", ["a4", "letter", "print-shop"])
@pytest.mark.parametrize("section_name", [*(n for n in CARD_SECTIONS if n != "fate"), "tokens"])
def test_backs_mirror_fronts(
    plans: dict[str, tuple[SheetProfile, list[Section]]],
    boxes_of: Boxes,
    profile_name: str,
    section_name: str,
) -> None:
    profile, sections = plans[profile_name]
    section = next(s for s in sections if s.name == section_name)
    width = profile.page.dimensions[0]
    total = 0
    for front, back in zip(section.pages[::2], section.pages[1::2], strict=True):
        fronts, backs = boxes_of(front, profile), boxes_of(back, profile)
        assert fronts, front.label
        assert len(set(fronts)) == len(fronts), front.label  # one card a slot
        # card by card, in the order they are drawn: each back behind its own front
        mirrored = [(round(width - x - w, 2), y, w, h) for x, y, w, h in fronts]
        assert backs == mirrored, front.label
        total += len(fronts)
    assert total == section.pieces  # every card found once, front and back


@pytest.mark.parametrize("section_name", list(CARD_SECTIONS))
def test_fronts_sit_in_the_imposed_slots(
    kit: list[Section], a4: SheetProfile, boxes_of: Boxes, section_name: str
) -> None:
    section = next(s for s in kit if s.name == section_name)
    imposition = impose(a4, CARD_SECTIONS[section_name])
    for front in section.pages[::2]:
        boxes = boxes_of(front, a4)
        slots = [(round(s.x, 2), round(s.y, 2), s.width, s.height) for s in imposition.fronts]
        assert boxes == slots[: len(boxes)]  # filled from the first slot on, row by row


def test_calibration_back_mirrors_the_crosses(section_of: Callable[[str], Section]) -> None:
    front, back = section_of("calibration").pages
    crosses = {(round(op.cx, 2), round(op.cy, 2)) for op in front.ops if isinstance(op, Circle)}
    red = [op for op in back.ops if isinstance(op, Line) and op.stroke == "#C62828"]
    centres = {(round((op.x1 + op.x2) / 2, 2), round((op.y1 + op.y2) / 2, 2)) for op in red}
    assert len(crosses) == 3
    assert centres == {(round(front.width - x, 2), y) for x, y in crosses}


# --only ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "only",
    [["raw"], ["mission", "raw"], ["cover", "tokens"], ["guides", "calibration", "field"]],
)
def test_only_subsets(
    only: list[str], kit: list[Section], catalog: Catalog, a4: SheetProfile, templates: Templates
) -> None:
    sections = plan_kit(catalog, a4, templates, only=only)
    assert [s.name for s in sections] == [name for name in SECTIONS if name in only]
    full = {s.name: s for s in kit}
    for section in sections:
        if section.name != "cover":  # the cover lists what is in this kit only
            assert [p.log() for p in section.pages] == [p.log() for p in full[section.name].pages]


def test_cover_of_a_subset_lists_only_that_subset(
    catalog: Catalog, a4: SheetProfile, templates: Templates
) -> None:
    (cover, *_) = plan_kit(catalog, a4, templates, only=["cover", "mission"])
    text = " ".join(op.text for op in cover.pages[0].ops if isinstance(op, Text))
    assert "Карта Миссий" in text
    assert "Карточки сырья" not in text


def test_cover_page_numbers_match_the_kit(kit: list[Section]) -> None:
    expected, page = [], 1
    for section in kit:
        count = len(section.pages) * (1 if section.duplex else 2)  # blank backs in the kit
        expected.append(f"{page}–{page + count - 1}" if count > 1 else f"{page}")
        page += count
    checklist = kit[0].pages[1]  # the cover's back: every section but the cover itself
    shown = [  # the page column is bold; subscripts of the formulas listed are not
        op.text
        for op in checklist.ops
        if isinstance(op, Text) and op.bold and re.fullmatch(r"\d+(–\d+)?", op.text)
    ]
    assert shown == expected[1:]
    assert expected[-1].endswith(str(page - 1))


# Languages ---------------------------------------------------------------------------------------


def _texts(sections: list[Section], names: set[str] | None = None) -> list[tuple[str, str]]:
    return [
        (page.label, op.text)
        for section in sections
        if names is None or section.name in names
        for page in section.pages
        for op in page.ops
        if isinstance(op, Text)
    ]


def test_english_cards_have_no_russian(kit_en: list[Section], catalog: Catalog) -> None:
    # allowed: the coin unit мР, and card IDs, which are Cyrillic in the catalog (1А, 4Г, and
    # Э, printed alike on the five identical electrolysers)
    ids = [*_reactor_cards(catalog), ELECTROLYSER]
    allowed = re.compile(r"мР|" + "|".join(re.escape(card) for card in sorted(ids, key=len)[::-1]))
    cards = set(SECTIONS) - {"cover"}
    russian = sorted(
        {
            (label, text)
            for label, text in _texts(kit_en, cards)
            if CYRILLIC.search(allowed.sub("", text))
        }
    )
    assert russian == []
    english = " ".join(text for _, text in _texts(kit_en))
    for word in ("RAW MATERIAL", "MARSCHEMPROM", "MISSION CARD", "INSTALLATION", "Water ice"):
        assert word in english


def test_english_cover_has_no_russian(kit_en: list[Section]) -> None:
    texts = [text for _, text in _texts(kit_en, {"cover"})]
    assert [text for text in texts if CYRILLIC.search(text.replace("мР", ""))] == []


def test_russian_kit_is_russian(kit: list[Section], catalog: Catalog) -> None:
    texts = " ".join(text for _, text in _texts(kit))
    for raw in catalog.raw_materials:
        assert raw.name.get("ru") in texts
    assert "СЫРЬЁ" in texts
    assert "RAW MATERIAL" not in texts


# Where things are drawn --------------------------------------------------------------------------


def _text_box(op: Text) -> tuple[float, float, float, float]:
    width = fonts().width(op.text, op.bold, op.size)
    em = op.size * MM_PER_POINT
    return (op.x, op.y - fonts().cap_height * em, op.x + width, op.y + 0.2 * em)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_no_two_texts_overlap(kit: list[Section], kit_en: list[Section], lang: str) -> None:
    overlaps = []
    for section in kit if lang == "ru" else kit_en:
        for page in section.pages:
            # the rulebook's pictures lay tokens and cards on cards, as on the table: their
            # faces may cover one another there, and nowhere else
            figures = [op.box for op in page.ops if isinstance(op, Mark) and op.kind == "figure"]
            texts = [
                op
                for op in page.ops
                if isinstance(op, Text)
                and op.text.strip()
                and not any(x <= op.x <= x + w and y <= op.y <= y + h for x, y, w, h in figures)
            ]
            boxes = sorted((_text_box(op), op.text) for op in texts)
            for i, (a, text_a) in enumerate(boxes):
                for b, text_b in boxes[i + 1 :]:
                    if b[0] >= a[2] - 0.05:
                        break
                    if min(a[3], b[3]) - max(a[1], b[1]) > 0.05:
                        overlaps.append((page.label, page.side, text_a, text_b))
    assert overlaps == []


def _inside(
    point: tuple[float, float], box: tuple[float, float, float, float], round_: bool
) -> bool:
    x, y = point
    bx, by, bw, bh = box
    if round_:
        return math.hypot(x - (bx + bw / 2), y - (by + bh / 2)) <= bw / 2 + 0.01
    return bx - 0.01 <= x <= bx + bw + 0.01 and by - 0.01 <= y <= by + bh + 0.01


def _points(op: Op) -> list[tuple[float, float]]:
    if isinstance(op, Rect):
        return [(op.x, op.y), (op.x + op.width, op.y + op.height)]
    if isinstance(op, Circle):
        return [
            (op.cx + op.r * math.cos(k * math.pi / 8), op.cy + op.r * math.sin(k * math.pi / 8))
            for k in range(16)
        ]
    if isinstance(op, Polygon):
        return list(op.points)
    if isinstance(op, Line):
        return [(op.x1, op.y1), (op.x2, op.y2)]
    if isinstance(op, Text):
        x0, y0, x1, y1 = _text_box(op)
        return [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
    return []


def _strays(section: Section, profile: SheetProfile, boxes_of: Boxes) -> list[str]:
    """Drawings (outside clipped blocks) that leave every card, crop marks excepted."""
    diameters = {s.width for s in profile.card_sizes.values() if s.shape == "circle"}
    strays = []
    grow = profile.reach  # the art runs on past the cut: the bleed, or a home profile's spill
    for page in section.pages:
        cards = [
            ((x - grow, y - grow, w + 2 * grow, h + 2 * grow), w in diameters)
            for x, y, w, h in boxes_of(page, profile)
        ]
        clipped = 0
        for op in page.ops:
            if isinstance(op, Clip):
                clipped += 1
            elif isinstance(op, Unclip):
                clipped -= 1
            elif not clipped and (points := _points(op)):
                if any(all(_inside(p, box, rnd) for p in points) for box, rnd in cards):
                    continue
                touches = any(_inside(p, box, rnd) for p in points for box, rnd in cards)
                if isinstance(op, Line) and not touches:
                    continue  # a crop mark in the margin
                strays.append(f"{page.label} {page.side}: {op.log()}")
    return strays


@pytest.mark.parametrize(
    "section_name",
    [
        *CARD_SECTIONS,
        pytest.param(
            "tokens",
        ),
    ],
)
def test_drawings_stay_on_their_cards(
    section_name: str, section_of: Callable[[str], Section], a4: SheetProfile, boxes_of: Boxes
) -> None:
    assert _strays(section_of(section_name), a4, boxes_of) == []


# Layout problems: every card and region named, all at once ---------------------------------------


def _copy_layouts(tmp_path: Path) -> Path:
    copy = tmp_path / "layouts"
    shutil.copytree(default_layouts_dir(), copy)
    return copy


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


RAW_NAME = "name:    {x: 4, y: 29, width: 55,"


def _names_too_wide(catalog: Catalog, width: float, min_size: float) -> set[str]:
    """The raw cards whose name cannot fit: each reported once, by its first copy (the copies
    are one face, typeset once)."""
    return {
        f"raw card {raw.id} #1"
        for raw in catalog.raw_materials
        if runs_width(text_runs(raw.name.get("ru"), bold=True), min_size) > width
    }


def test_region_too_small_in_a_copied_layouts_dir(tmp_path: Path, catalog: Catalog) -> None:
    copy = _copy_layouts(tmp_path)
    _edit(copy / "templates.yaml", RAW_NAME, "name:    {x: 4, y: 29, width: 9,")
    with pytest.raises(KitError) as caught:
        build_kit(catalog, str(copy / "sheets" / "a4.yaml"), only=["raw"], out_dir=tmp_path)
    assert {p.card for p in caught.value.problems} == _names_too_wide(catalog, 9, 6.5)


def test_region_too_small_lists_every_card_and_region(tmp_path: Path, catalog: Catalog) -> None:
    copy = _copy_layouts(tmp_path)
    templates = copy / "sheets" / "templates.yaml"  # beside the profile, where it is looked for
    shutil.copy(copy / "templates.yaml", templates)
    _edit(templates, RAW_NAME, "name:    {x: 4, y: 29, width: 9,")
    out = tmp_path / "out"
    with pytest.raises(KitError) as caught:
        build_kit(catalog, str(copy / "sheets" / "a4.yaml"), only=["raw"], out_dir=out)
    problems = caught.value.problems
    expected = _names_too_wide(catalog, 9, 6.5)
    assert expected  # the region is small enough to refuse some names …
    assert len(expected) < catalog.raw_deck_size  # … and large enough for some (Гипс)
    assert sorted(p.card for p in problems) == sorted(expected)
    assert {p.region for p in problems} == {"name"}
    message = str(caught.value)
    assert message.startswith(f"{len(expected)} problem(s) in the kit:")
    assert "raw card water-ice #1, region 'name': 'Водяной лёд' needs" in message
    assert "9 mm wide" in message
    # Each problem names the templates file and the line of the region at fault.
    region_line = next(
        i
        for i, line in enumerate(templates.read_text(encoding="utf-8").splitlines(), 1)
        if "name:    {x: 4, y: 29, width: 9," in line
    )
    assert {p.where for p in problems} == {f"{templates.resolve()}:{region_line}:7"}
    assert not out.exists()  # nothing written when the kit cannot be laid out


def test_all_problems_of_the_kit_are_reported_together(tmp_path: Path, catalog: Catalog) -> None:
    copy = _copy_layouts(tmp_path)
    templates = copy / "sheets" / "templates.yaml"
    shutil.copy(copy / "templates.yaml", templates)
    _edit(
        templates,
        "id:         {x: 4, y: 3.5, width: 32,",
        "id:         {x: 4, y: 3.5, width: 1,",
    )
    _edit(
        templates,
        "body:  {x: 4.5, y: 11.5, width: 81, height: 120,",
        "body:  {x: 4.5, y: 11.5, width: 81, height: 20,",
    )
    profile = load_profile(str(copy / "sheets" / "a4.yaml"))
    with pytest.raises(KitError) as caught:
        plan_kit(catalog, profile, load_templates(profile, copy / "sheets"))
    problems = caught.value.problems
    cards = {p.card for p in problems}
    assert {p.region for p in problems} == {"id", "body"}
    assert {f"reactor card {card}" for card in _reactor_cards(catalog)} <= cards
    assert {"player aid front", "player aid back"} <= cards
    # the assembly guides draw the reactor cards again: their problems are reported too
    assert len([p for p in problems if p.region == "id"]) > len(_reactor_cards(catalog))
    assert str(caught.value).startswith(f"{len(problems)} problem(s) in the kit:")


# Each distinct face drawn once -----------------------------------------------------------------


def test_faces_differing_only_in_a_label_draw_the_same(
    catalog: Catalog, a4: SheetProfile, templates: Templates
) -> None:
    """What ``kit_sheets._LABEL_ONLY`` relies on: a raw card's copy number does not show on it."""
    from mhp_cards.pdf import raw_face
    from mhp_cards.pdf.faces import Face
    from mhp_cards.pdf.sketch import Sketch

    logs = []
    raw = catalog.raw_materials[0]
    for copy in (1, 2, raw.copies):
        sketch = Sketch()
        sketch.new_page(63, 63, "face")
        face = Face(sketch, templates["raw"], a4.card_sizes["raw"], "ru")
        raw_face.raw_front(face, raw=raw, copy=copy, catalog=catalog)
        logs.append(sketch.page.log())
    assert logs[0] == logs[1] == logs[2]


def test_a_face_drawn_once_is_the_face_drawn_in_every_slot(
    catalog: Catalog, kit: list[Section], templates: Templates, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kit with each distinct face drawn once equals the kit with every face drawn anew."""
    import itertools

    import mhp_cards.pdf.kit_sheets as kit_sheets

    counter = itertools.count()
    monkeypatch.setattr(kit_sheets, "_face_key", lambda *_: next(counter))
    fresh = plan_kit(catalog, load_profile("a4"), templates)
    assert next(counter) > 450  # every face of every piece was drawn on its own
    assert [p.log() for s in fresh for p in s.pages] == [p.log() for s in kit for p in s.pages]
    for s_fresh, s_kit in zip(fresh, kit, strict=True):
        for p_fresh, p_kit in zip(s_fresh.pages, s_kit.pages, strict=True):
            assert p_fresh.ops == p_kit.ops, p_kit.label  # the exact numbers, not only the log


@pytest.mark.parametrize("layout", ["a4", "print-shop"])
def test_every_piece_mark_is_on_a_drawn_card(
    catalog: Catalog, kit: list[Section], templates: Templates, layout: str
) -> None:
    """The manifest's pieces come from marks: each sits exactly on a card's background."""
    from tests.pdf.conftest import background_boxes, card_boxes

    profile = load_profile(layout)
    sections = kit if layout == "a4" else plan_kit(catalog, profile, templates)
    checked = 0
    for section in sections:
        if section.name in ("cover", "calibration", "guides"):
            continue
        for page in section.pages:
            marks = card_boxes(page, profile)
            assert marks == background_boxes(page, profile), page.label
            checked += len(marks)
    assert checked > 450


def _guide_text(kit: list[Section], label: str) -> str:
    guides = next(section for section in kit if section.name == "guides")
    page = next(page for page in guides.pages if page.label == label)
    joined = " ".join(op.text for op in page.ops if isinstance(op, Text))
    return re.sub(r"\s+", " ", joined)


def test_guides_say_where_each_input_comes_from(kit: list[Section]) -> None:
    text_5 = _guide_text(kit, "guide-5")
    # The urea plant's nitrogen is a raw card; its CO2 a raw card or a product of 1, 4 or 10.
    assert "N 2 — карточки сырья «Азот атмосферы» (6)" in text_5
    assert "его производят и установки 1, 4, 10" in text_5
    text_9 = _guide_text(kit, "guide-9")
    assert "карточки сырья «Тетрагидрат перхлората кальция» (2)" in text_9


def test_guides_name_the_installations_an_input_comes_only_from(
    catalog: Catalog, a4: SheetProfile, templates: Templates
) -> None:
    # Without CO2 cards in the deck the urea plant's CO2 comes from other installations only.
    no_co2 = catalog.model_copy(
        update={"raw_materials": tuple(r for r in catalog.raw_materials if r.formula != "CO2")}
    )
    text_5 = _guide_text(plan_kit(no_co2, a4, templates, only=["guides"]), "guide-5")
    assert "CO 2 — только из установок 1, 4, 10" in text_5
    text_en = _guide_text(plan_kit(no_co2, a4, templates, lang="en", only=["guides"]), "guide-5")
    assert "CO 2 — only from installations 1, 4, 10" in text_en


def test_a_russian_scale_has_a_decimal_comma(kit: list[Section]) -> None:
    guides = next(section for section in kit if section.name == "guides")
    scales = [
        op.text
        for page in guides.pages
        for op in page.ops
        if isinstance(op, Text) and op.text.startswith("Масштаб")
    ]
    assert any("," in scale for scale in scales), scales  # installation 4 is drawn at 1:1,2
    assert not any(re.search(r"1:\d+\.\d", scale) for scale in scales), scales
