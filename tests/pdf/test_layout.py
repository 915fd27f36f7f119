"""Layouts as data: sheet profiles with ``extends``, located errors, templates, imposition."""

from __future__ import annotations

import math
import re
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mhp_cards.pdf.impose import Imposition, Slot, crop_marks, impose, pack
from mhp_cards.pdf.layout import PAGE_SIZES, LayoutError, SheetProfile, load_profile, load_templates
from mhp_cards.resources import default_layouts_dir

CARET = "‸"
EPS = 1e-6


def _write(directory: Path, name: str, text: str) -> tuple[Path, str]:
    """Write ``text`` without its ‸ to ``directory/name``; return the path and ``path:line:col``.

    The caret marks where the error must point.
    """
    path = directory / name
    start = text.index(CARET)
    clean = text.replace(CARET, "", 1)
    path.write_text(clean, encoding="utf-8")
    line = clean.count("\n", 0, start) + 1
    column = start - (clean.rfind("\n", 0, start) + 1) + 1
    return path, f"{path}:{line}:{column}"


def _error(path: Path) -> LayoutError:
    with pytest.raises(LayoutError) as caught:
        load_profile(str(path))
    return caught.value


# Profiles and extends ----------------------------------------------------------------------------


def test_a4_profile() -> None:
    a4 = load_profile("a4")
    assert a4.name == "a4"
    assert a4.page.dimensions == PAGE_SIZES["A4"]
    assert (a4.margins.top, a4.margins.right, a4.margins.bottom, a4.margins.left) == (7, 6, 7, 6)
    assert a4.bleed == 0
    assert a4.duplex.mode == "long-edge"
    assert a4.card_sizes["raw"].width == a4.card_sizes["reactor"].width - 17
    assert load_profile(str(default_layouts_dir() / "sheets" / "a4.yaml")) == a4


def test_letter_extends_a4() -> None:
    a4, letter = load_profile("a4"), load_profile("letter")
    assert letter.name == "letter"
    assert letter.page.size == "Letter"
    assert letter.page.dimensions == PAGE_SIZES["Letter"] == (215.9, 279.4)
    assert letter.page.orientation == a4.page.orientation == "portrait"  # merged, not replaced
    # only top and bottom are overridden: the other margins come from a4
    assert (letter.margins.top, letter.margins.bottom) == (6.5, 6.5)
    assert (letter.margins.left, letter.margins.right) == (a4.margins.left, a4.margins.right)
    assert letter.card_sizes == a4.card_sizes
    assert letter.duplex == a4.duplex
    assert letter.gutter == a4.gutter


def test_print_shop_adds_bleed() -> None:
    a4, shop = load_profile("a4"), load_profile("print-shop")
    assert shop.bleed == 3
    assert shop.gutter >= 2 * shop.bleed
    assert shop.cut_lines is False
    # crop_marks is merged key by key: 'enabled' still comes from a4
    assert shop.crop_marks.enabled is a4.crop_marks.enabled is True
    assert (shop.crop_marks.length, shop.crop_marks.gap) == (5, 1.5)
    assert shop.card_sizes == a4.card_sizes
    assert shop.margins == a4.margins


def test_profile_extends_a_file_beside_it(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(
        "extends: a4\nname: base\nmargins: {top: 10, right: 10, bottom: 10, left: 10}\n"
        "card_sizes: {raw: {width: 50, height: 70}}\n",
        encoding="utf-8",
    )
    (tmp_path / "child.yaml").write_text(
        "extends: base\nname: child\ngutter: 5\ncard_sizes: {coin: {width: 20, height: 20}}\n",
        encoding="utf-8",
    )
    child = load_profile(str(tmp_path / "child.yaml"))
    assert child.name == "child"
    assert child.gutter == 5
    assert child.margins.top == 10
    # card sizes merged by kind: raw from base, coin from child, the others from a4
    assert (child.card_sizes["raw"].width, child.card_sizes["coin"].width) == (50, 20)
    assert child.card_sizes["reactor"] == load_profile("a4").card_sizes["reactor"]


# Broken profiles: every error names the file and line:column -------------------------------------

BROKEN: dict[str, tuple[str, list[str]]] = {
    "unknown key": (
        "extends: a4\nname: x\n‸gutterr: 3\n",
        ["unknown key 'gutterr'", "allowed:", "gutter", "margins", "printer_margin"],
    ),
    "wrong type": ("extends: a4\nname: x\ngutter: ‸three\n", ["gutter", "three"]),
    "wrong type in a card size": (
        "extends: a4\nname: x\ncard_sizes:\n  raw: {width: ‸big}\n",
        ["card_sizes.raw.width", "number"],
    ),
    "unknown page size": (
        "extends: a4\nname: x\npage: {size: ‸A5}\n",
        ["page.size", "'A4'", "'Letter'"],
    ),
    "margin inside the hard margin": (
        "extends: a4\nname: x\nmargins: {left: ‸2}\n",
        ["left margin is 2.0 mm", "printer's hard margin of 4.0 mm", "at least 4.0 mm"],
    ),
    "gutter narrower than two bleeds": (
        "extends: a4\nname: x\nbleed: 3\ngutter: ‸4\n",
        ["gutter of 4.0 mm", "two bleeds of 3.0 mm", "at least 6.0 mm"],
    ),
    "card bigger than the page": (
        "extends: a4\nname: x\ncard_sizes:\n  mission: ‸{width: 300, height: 126}\n",
        ["mission card of 300.0×126.0 mm", "does not fit", "210.0×297.0 mm page"],
    ),
    "not a mapping": ("‸- a\n- b\n", ["expected a mapping"]),
    "YAML syntax": ("name: [x\n‸", ["expected ',' or ']'"]),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_broken_profile_is_located(tmp_path: Path, case: str) -> None:
    text, fragments = BROKEN[case]
    path, location = _write(tmp_path, "broken.yaml", text)
    message = str(_error(path))
    assert message.startswith(location), message
    for fragment in fragments:
        assert fragment in message


def test_all_margin_problems_are_reported_together(tmp_path: Path) -> None:
    path, _ = _write(tmp_path, "p.yaml", "‸extends: a4\nname: x\nmargins: {left: 1, right: 2}\n")
    error = _error(path)
    assert [issue.path for issue in error.issues] == [("margins", "right"), ("margins", "left")]
    assert all(issue.file == str(path) and issue.line == 3 for issue in error.issues)


def test_unknown_nested_key_lists_the_allowed_keys(tmp_path: Path) -> None:
    path, location = _write(tmp_path, "p.yaml", "extends: a4\nname: x\nmargins: {‸topp: 7}\n")
    message = str(_error(path))
    assert message.startswith(location), message
    assert "unknown key 'topp'" in message
    assert "bottom, left, right, top" in message


def test_unknown_key_in_a_parent_profile_is_located_in_the_parent(tmp_path: Path) -> None:
    base, location = _write(tmp_path, "base.yaml", "extends: a4\nname: base\nmargins: {‸topp: 7}\n")
    child, _ = _write(tmp_path, "child.yaml", "‸extends: base\nname: child\ngutter: 5\n")
    error = _error(child)
    assert [(issue.file, issue.path) for issue in error.issues] == [
        (str(base), ("margins", "topp"))
    ]
    assert str(error).startswith(location), str(error)


def test_wrong_value_in_a_parent_is_located_in_the_parent_not_the_child(tmp_path: Path) -> None:
    # Both files write 'margins'; only the parent wrote the bad 'top'.
    base, location = _write(
        tmp_path, "base.yaml", "extends: a4\nname: base\nmargins: {top: ‸big}\n"
    )
    child, _ = _write(tmp_path, "child.yaml", "‸extends: base\nname: child\nmargins: {left: 12}\n")
    error = _error(child)
    assert [(issue.file, issue.path) for issue in error.issues] == [(str(base), ("margins", "top"))]
    assert str(error).startswith(location), str(error)


def test_unknown_profile_name_lists_the_known_ones() -> None:
    with pytest.raises(LayoutError) as caught:
        load_profile("a5")
    message = str(caught.value)
    assert "no sheet profile 'a5'" in message
    assert "a4, letter, print-shop" in message


def test_unknown_parent_is_located_in_the_extending_file(tmp_path: Path) -> None:
    path, location = _write(tmp_path, "child.yaml", "extends: ‸nosuch\nname: x\n")
    message = str(_error(path))
    assert message.startswith(location), message
    assert "no sheet profile 'nosuch'" in message


def test_extends_loop_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text("extends: y\nname: x\n", encoding="utf-8")
    (tmp_path / "y.yaml").write_text("extends: x\nname: y\n", encoding="utf-8")
    message = str(_error(tmp_path / "x.yaml"))
    assert "loops back to x.yaml" in message
    assert message.startswith(str(tmp_path))  # a file of the loop, by its path


def test_extends_loop_is_located(tmp_path: Path) -> None:
    _write(tmp_path, "x.yaml", "‸extends: y\nname: x\n")
    _, location = _write(tmp_path, "y.yaml", "extends: ‸x\nname: y\n")
    message = str(_error(tmp_path / "x.yaml"))
    assert message.startswith(location), message


def test_self_extends_is_a_loop(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text("extends: x\nname: x\n", encoding="utf-8")
    assert "loops back to x.yaml" in str(_error(tmp_path / "x.yaml"))


# Templates ---------------------------------------------------------------------------------------


def test_default_templates_resolve_extends() -> None:
    templates = load_templates(load_profile("a4"))
    card = templates["card"]
    warehouse, base = templates["warehouse"], templates["base"]
    # warehouse extends base extends card
    assert warehouse.regions == base.regions
    assert (warehouse.paper, warehouse.accent) == ("#F1EBDD", "#6B5B3E")
    assert warehouse.ink == base.ink == card.ink
    # raw extends card: its own paper, the card's accent
    assert templates["raw"].paper == "#FBF3E4"
    assert templates["raw"].accent == card.accent
    formula = templates["raw"].regions["formula"]
    assert formula.min_size <= formula.size
    assert formula.bold


#: The shipped templates: a templates file has every one of them (the faces draw with them).
DEFAULT_TEMPLATES = (default_layouts_dir() / "templates.yaml").read_text(encoding="utf-8")


def _templates(tmp_path: Path, text: str) -> Any:
    """Templates read from the shipped ones followed by ``text``'s entries under ``templates:``.

    ``text`` starts with ``templates:``; its line numbers are kept in the file written (its
    first line is written over the shipped file's ``templates:`` line, the shipped entries
    follow it), so a test names the line of its own text. A shipped template ``text`` names
    again is left out (``text`` replaces it).
    """
    (tmp_path / "p.yaml").write_text(
        "extends: a4\nname: p\nmargins: {top: 10, right: 10, bottom: 10, left: 10}\n"
        "card_sizes: {raw: {width: 63, height: 70}}\ntemplates: t.yaml\n",
        encoding="utf-8",
    )
    _, shipped = DEFAULT_TEMPLATES.split("templates:\n", 1)
    assert text.startswith("templates:\n")
    own = text.removeprefix("templates:\n")
    names = set(re.findall(r"^  ([\w-]+):", own, flags=re.MULTILINE))
    kept: list[str] = []
    skipping = False
    for line in shipped.splitlines(keepends=True):
        entry = re.match(r"^  ([\w-]+):", line)
        if entry:
            skipping = entry.group(1) in names
        if not skipping:
            kept.append(line)
    combined = "templates:\n" + own + "".join(kept)
    (tmp_path / "t.yaml").write_text(combined, encoding="utf-8")
    return load_templates(load_profile(str(tmp_path / "p.yaml")), tmp_path)


def test_template_regions_merge_field_by_field(tmp_path: Path) -> None:
    templates = _templates(
        tmp_path,
        "templates:\n"
        "  a: {paper: '#111111', regions: {r: {x: 1, y: 2, width: 3, height: 4, size: 9}}}\n"
        "  b: {extends: a, regions: {r: {x: 5}, s: {x: 0, y: 0, width: 1, height: 1}}}\n"
        "  c: {extends: b, ink: '#222222'}\n",
    )
    r = templates["c"].regions["r"]
    assert (r.x, r.y, r.width, r.height, r.size) == (5, 2, 3, 4, 9)
    assert set(templates["c"].regions) == {"r", "s"}
    assert templates["c"].paper == "#111111"
    assert templates["c"].ink == "#222222"
    assert templates["a"].regions["r"].x == 1  # the parent is not changed by its child


def test_template_extends_loop(tmp_path: Path) -> None:
    with pytest.raises(LayoutError, match="extends itself"):
        _templates(tmp_path, "templates:\n  a: {extends: b}\n  b: {extends: a}\n")


def test_template_extends_unknown(tmp_path: Path) -> None:
    with pytest.raises(LayoutError, match=r"no template 'nosuch'.*known: a"):
        _templates(tmp_path, "templates:\n  a: {extends: nosuch}\n")


def test_template_bad_region_is_located(tmp_path: Path) -> None:
    with pytest.raises(LayoutError) as caught:
        _templates(
            tmp_path,
            "templates:\n  a:\n    regions:\n      r: {x: 0, y: 0, width: -3, height: 4}\n",
        )
    message = str(caught.value)
    assert f"{tmp_path / 't.yaml'}:4:" in message
    assert "templates.a.regions.r.width" in message


#: Broken templates: (the entries under ``templates:``, with ‸ where the error must point, and
#: what the message says).
BROKEN_TEMPLATES: dict[str, tuple[str, list[str]]] = {
    "a colour with a dropped digit": (
        "  a: {paper: ‸'#F3F5F'}\n",
        ["templates.a.paper", "'#F3F5F' is not a colour", "5 hex digits", "#RRGGBB"],
    ),
    "a colour without #": (
        "  a: {ink: ‸'231F20'}\n",
        ["templates.a.ink", "does not start with #", "#RRGGBB"],
    ),
    "a colour with a letter past F": (
        "  a:\n    regions:\n      r: {x: 0, y: 0, width: 5, height: 5, colour: ‸'#12345G'}\n",
        ["templates.a.regions.r.colour", "'G', which is not a hex digit"],
    ),
    "a colour name": (
        "  a: {accent: ‸red}\n",
        ["templates.a.accent", "'red' is not a colour"],
    ),
    "min_size above size": (
        "  a:\n    regions:\n      r: ‸{x: 0, y: 0, width: 5, height: 5, size: 8, min_size: 9}\n",
        ["templates.a.regions.r", "min_size 9 pt is larger than size 8 pt", "at most 8"],
    ),
    "a region past the right edge of its card": (
        "  raw:\n    regions:\n      header: ‸{x: 40, y: 3.5, width: 55, height: 5}\n",
        [
            "templates.raw.regions.header",
            "runs from (40, 3.5) to (95, 8.5) mm",
            "outside its 63×70 mm card (sheet profile 'p')",
        ],
    ),
    "a region above its card": (
        "  reactor-back:\n    regions:\n      title: ‸{x: 5, y: -1, width: 70, height: 10}\n",
        ["templates.reactor-back.regions.title", "outside its 80×80 mm card"],
    ),
}


@pytest.mark.parametrize("case", list(BROKEN_TEMPLATES))
def test_broken_template_is_located(tmp_path: Path, case: str) -> None:
    entries, fragments = BROKEN_TEMPLATES[case]
    start = entries.index(CARET)
    line = 1 + entries.count("\n", 0, start) + 1
    column = start - (entries.rfind("\n", 0, start) + 1) + 1
    with pytest.raises(LayoutError) as caught:
        _templates(tmp_path, "templates:\n" + entries.replace(CARET, ""))
    message = str(caught.value)
    located = f"{tmp_path / 't.yaml'}:{line}:{column}: error:"
    [issue] = [text for text in message.splitlines() if text.startswith(located)] or [message]
    for fragment in fragments:
        assert fragment in issue
    assert "Input should" not in message
    assert "Value error" not in message


def test_every_problem_of_the_templates_is_reported(tmp_path: Path) -> None:
    entries = "  a: {paper: '#F3F5F', ink: '#12'}\n  b: {accent: blue}\n"
    with pytest.raises(LayoutError) as caught:
        _templates(tmp_path, "templates:\n" + entries)
    paths = [".".join(map(str, issue.path)) for issue in caught.value.issues]
    assert paths == ["templates.a.ink", "templates.a.paper", "templates.b.accent"]


def test_a_templates_file_without_a_template_the_kit_draws_with_is_refused(
    tmp_path: Path,
) -> None:
    shipped = DEFAULT_TEMPLATES.replace("  die:\n    extends: card\n", "")
    assert shipped != DEFAULT_TEMPLATES
    without_a_region = shipped.replace(
        "      formula: {x: 3, y: 11, width: 57, height: 17, size: 24, min_size: 10, bold: true}\n",
        "",
    )
    assert without_a_region != shipped
    (tmp_path / "templates.yaml").write_text(without_a_region, encoding="utf-8")
    (tmp_path / "p.yaml").write_text("extends: a4\nname: p\n", encoding="utf-8")
    with pytest.raises(LayoutError) as caught:
        load_templates(load_profile(str(tmp_path / "p.yaml")), tmp_path)
    message = str(caught.value)
    assert f"{tmp_path / 'templates.yaml'}:" in message
    assert "no template 'die': the kit draws its faces with it" in message
    assert "template 'raw' has no region formula" in message


def test_a_profile_without_a_card_size_is_refused_naming_the_file(tmp_path: Path) -> None:
    a4 = (default_layouts_dir() / "sheets" / "a4.yaml").read_text(encoding="utf-8")
    kept = [line for line in a4.splitlines() if not line.startswith(("  chemist:", "  coin:"))]
    path = tmp_path / "mine.yaml"
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    message = str(_error(path))
    line = kept.index("card_sizes:") + 1
    assert message.startswith(f"{path}:{line}:1: error: card_sizes: no size for coin, chemist")
    assert "extends: a4" in message


# Imposition on the shipped profiles --------------------------------------------------------------

#: (columns, rows) per card kind, worked out by hand from the profile numbers.
GRIDS = {
    "a4": {
        "raw": (3, 4),
        "fate": (3, 4),
        "reactor": (2, 3),
        "mission": (1, 2),
        "aid": (2, 2),
        "coin": (8, 11),
        "chemist": (15, 22),
        "combine": (6, 8),
        "upgrade": (8, 12),
    },
    "letter": {
        "raw": (3, 4),
        "fate": (3, 4),
        "reactor": (2, 3),
        "mission": (1, 2),
        "aid": (2, 1),  # 2 × 135 mm + gutter does not fit between Letter's margins
        "coin": (8, 10),
        "chemist": (15, 20),
        "combine": (6, 8),
        "upgrade": (8, 11),
    },
    # 3 mm bleed, bleeds meeting (gutter 6): three 63 mm cards need 3 × 63 + 2 × 6 + 2 × 3 =
    # 207 mm, more than A4's 198 mm between 6 mm margins, so two columns of four.
    "print-shop": {
        "raw": (2, 4),
        "fate": (2, 4),
        "reactor": (2, 3),
        "mission": (1, 2),
        "aid": (2, 2),
        "upgrade": (7, 10),
    },
    # A3, 285 × 406 mm between the margins: four columns of 63 mm take 4 × 63 + 3 × 6 + 2 × 3 =
    # 276 mm (five: 345), five rows 345 mm (six: 414).
    "print-shop-a3": {
        "raw": (4, 5),
        "fate": (4, 5),
        "reactor": (3, 4),
        "mission": (1, 3),
        "aid": (2, 2),
        "upgrade": (10, 15),
    },
}


@pytest.mark.parametrize(
    ("profile_name", "kind"), [(p, k) for p, kinds in GRIDS.items() for k in kinds]
)
def test_slot_counts(profile_name: str, kind: str) -> None:
    imposition = impose(load_profile(profile_name), kind)
    assert (imposition.columns, imposition.rows) == GRIDS[profile_name][kind]
    assert imposition.per_page == imposition.columns * imposition.rows


def _assert_apart(slots: Sequence[Slot], distance: float) -> None:
    """No two slots overlap, and every two are at least ``distance`` apart (a sweep along x)."""
    ordered = sorted(slots, key=lambda s: s.x)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.x >= a.x + a.width + distance - EPS:
                break  # b and everything after it are far enough to the right
            apart_y = max(b.y - (a.y + a.height), a.y - (b.y + b.height))
            assert apart_y >= distance - EPS, (a, b)


def _check_grid(profile: SheetProfile, kind: str, imposition: Imposition) -> None:
    """Slots inside the margins, apart by the gutter (which holds two bleeds), the grid centred,
    as many as fit."""
    width, height = profile.page.dimensions
    m, bleed = profile.margins, profile.bleed
    gap = max(profile.gutter, 2 * bleed)  # from cut line to cut line
    size = profile.card_sizes[kind]
    fronts = imposition.fronts
    assert imposition.per_page == len(fronts) == imposition.columns * imposition.rows
    for slot in fronts:
        assert (slot.width, slot.height) == (size.width, size.height)
        assert slot.x - bleed >= m.left - EPS
        assert slot.y - bleed >= m.top - EPS
        assert slot.x + slot.width + bleed <= width - m.right + EPS
        assert slot.y + slot.height + bleed <= height - m.bottom + EPS
    _assert_apart(fronts, gap)
    # neighbours are exactly one pitch apart, in row-major order
    for slot in fronts:
        assert math.isclose(slot.x, fronts[0].x + slot.column * (size.width + gap))
        assert math.isclose(slot.y, fronts[0].y + slot.row * (size.height + gap))
    assert [(s.row, s.column) for s in fronts] == [
        (r, c) for r in range(imposition.rows) for c in range(imposition.columns)
    ]
    # centred between the margins
    left = min(s.x for s in fronts) - bleed - m.left
    right = width - m.right - max(s.x + s.width for s in fronts) - bleed
    top = min(s.y for s in fronts) - bleed - m.top
    bottom = height - m.bottom - max(s.y + s.height for s in fronts) - bleed
    assert math.isclose(left, right, abs_tol=1e-6)
    assert math.isclose(top, bottom, abs_tol=1e-6)
    # as many as fit: one more column or row would cross a margin
    pitch_x, pitch_y = size.width + gap, size.height + gap
    assert (imposition.columns + 1) * pitch_x - gap + 2 * bleed > width - m.left - m.right + EPS
    assert (imposition.rows + 1) * pitch_y - gap + 2 * bleed > height - m.top - m.bottom + EPS


def _check_backs(profile: SheetProfile, imposition: Imposition) -> None:
    width, height = profile.page.dimensions
    offset = profile.duplex.back_offset
    assert len(imposition.backs) == len(imposition.fronts)
    for front, back in zip(imposition.fronts, imposition.backs, strict=True):
        assert (back.width, back.height, back.row, back.column) == (
            front.width,
            front.height,
            front.row,
            front.column,
        )
        if profile.duplex.mode == "long-edge":
            expected = (width - front.x - front.width, front.y)
        elif profile.duplex.mode == "short-edge":
            expected = (front.x, height - front.y - front.height)
        else:
            expected = (front.x, front.y)
        assert math.isclose(back.x, expected[0] + offset.x, abs_tol=1e-9)
        assert math.isclose(back.y, expected[1] + offset.y, abs_tol=1e-9)


def _check_marks(profile: SheetProfile, imposition: Imposition) -> None:
    """Crop marks stay on the page, outside the printer's margin and off the cards.

    Marks sit in the margins around the grid: none enters the box around all cards and bleeds.
    """
    width, height = profile.page.dimensions
    edge = profile.printer_margin
    bleed = profile.bleed
    for back in (False, True):
        slots = imposition.backs if back else imposition.fronts
        left = min(s.x for s in slots) - bleed
        top = min(s.y for s in slots) - bleed
        right = max(s.x + s.width for s in slots) + bleed
        bottom = max(s.y + s.height for s in slots) + bleed
        xs = {round(s.x, 3) for s in slots} | {round(s.x + s.width, 3) for s in slots}
        ys = {round(s.y, 3) for s in slots} | {round(s.y + s.height, 3) for s in slots}
        for x1, y1, x2, y2 in crop_marks(profile, imposition, back=back):
            assert x1 == x2 or y1 == y2  # straight
            assert (x1 == x2 and round(x1, 3) in xs) or (y1 == y2 and round(y1, 3) in ys)
            for x, y in ((x1, y1), (x2, y2)):
                assert edge - EPS <= x <= width - edge + EPS
                assert edge - EPS <= y <= height - edge + EPS
            inside_x = max(x1, x2) > left + EPS and min(x1, x2) < right - EPS
            inside_y = max(y1, y2) > top + EPS and min(y1, y2) < bottom - EPS
            assert not (inside_x and inside_y), (x1, y1, x2, y2)


@pytest.mark.parametrize(
    ("layout", "grid"),
    [
        # 3 × 63 + 2 × 3 = 195 mm of 198 between the margins; 3 × 88 + 2 × 3 = 270 of 283.
        ("extends: a4\nname: poker\n", (3, 3)),
        # With 3 mm bleed the three columns need 3 × 63 + 2 × 6 + 2 × 3 = 207 mm > 198 mm.
        ("extends: print-shop\nname: poker\n", (2, 3)),
        # 1.5 mm of bleed is the most that still fits three: 3 × 63 + 2 × 3 + 2 × 1.5 = 198.
        ("extends: print-shop\nname: poker\nbleed: 1.5\ngutter: 3\n", (3, 3)),
        ("extends: print-shop-a3\nname: poker\n", (4, 4)),
    ],
)
def test_poker_size_cards_per_sheet(tmp_path: Path, layout: str, grid: tuple[int, int]) -> None:
    """63 × 88 mm cards: 3 × 3 on A4 without a bleed (or with at most 1.5 mm), 2 × 3 with 3 mm."""
    path = tmp_path / "poker.yaml"
    path.write_text(layout + "card_sizes:\n  raw: {width: 63, height: 88}\n", encoding="utf-8")
    profile = load_profile(str(path))
    imposition = impose(profile, "raw")
    assert (imposition.columns, imposition.rows) == grid
    _check_grid(profile, "raw", imposition)


@pytest.mark.parametrize("profile_name", ["a4", "letter", "print-shop", "print-shop-a3"])
def test_shipped_grids(profile_name: str) -> None:
    profile = load_profile(profile_name)
    for kind in profile.card_sizes:
        imposition = impose(profile, kind)
        _check_grid(profile, kind, imposition)
        _check_backs(profile, imposition)
        _check_marks(profile, imposition)


def test_long_edge_backs_on_a4() -> None:
    imposition = impose(load_profile("a4"), "raw")
    by_cell = {(s.row, s.column): s for s in imposition.fronts}
    for back in imposition.backs:
        mirror = by_cell[(back.row, imposition.columns - 1 - back.column)]
        assert math.isclose(back.x, mirror.x)  # the grid is symmetric: columns swap
        assert back.y == by_cell[(back.row, back.column)].y


def test_trim_box_spans_the_cards() -> None:
    imposition = impose(load_profile("a4"), "raw")
    x, y, w, h = imposition.trim_box
    assert (x, y) == (imposition.fronts[0].x, imposition.fronts[0].y)
    assert math.isclose(x + w, imposition.fronts[-1].x + 63)
    assert math.isclose(y + h, imposition.fronts[-1].y + 63)


# Property tests over arbitrary profiles ----------------------------------------------------------


def _profile(
    page: tuple[float, float],
    margins: tuple[float, float, float, float],
    card: tuple[float, float],
    gutter: float,
    bleed: float,
    mode: str,
    offset: tuple[float, float],
    extra: dict[str, tuple[float, float]] | None = None,
) -> SheetProfile:
    sizes: dict[str, dict[str, Any]] = {"card": {"width": card[0], "height": card[1]}}
    for kind, (w, h) in (extra or {}).items():
        sizes[kind] = {"width": w, "height": h, "shape": "circle" if w == h else "rectangle"}
    return SheetProfile.model_validate(
        {
            "name": "generated",
            "page": {"size": "custom", "width": page[0], "height": page[1]},
            "margins": dict(zip(("top", "right", "bottom", "left"), margins, strict=True)),
            "printer_margin": min(margins),
            "gutter": gutter,
            "bleed": bleed,
            "duplex": {"mode": mode, "back_offset": {"x": offset[0], "y": offset[1]}},
            "card_sizes": sizes,
        }
    )


mm = st.floats(min_value=0, max_value=12, allow_nan=False).map(lambda v: round(v, 2))
pages = st.tuples(
    st.floats(min_value=80, max_value=600).map(lambda v: round(v, 1)),
    st.floats(min_value=80, max_value=600).map(lambda v: round(v, 1)),
)
margins = st.tuples(*(st.floats(min_value=3, max_value=25).map(lambda v: round(v, 1)),) * 4)
cards = st.tuples(
    st.floats(min_value=12, max_value=200).map(lambda v: round(v, 1)),
    st.floats(min_value=12, max_value=200).map(lambda v: round(v, 1)),
)
modes = st.sampled_from(["long-edge", "short-edge", "none"])
offsets = st.tuples(
    st.floats(min_value=-3, max_value=3).map(lambda v: round(v, 2)),
    st.floats(min_value=-3, max_value=3).map(lambda v: round(v, 2)),
)


def _fits(profile: SheetProfile, kind: str) -> bool:
    width, height = profile.page.dimensions
    m, size = profile.margins, profile.card_sizes[kind]
    return (
        size.width + 2 * profile.bleed <= width - m.left - m.right
        and size.height + 2 * profile.bleed <= height - m.top - m.bottom
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(pages, margins, cards, mm, mm, modes, offsets)
def test_imposition_properties(
    page: tuple[float, float],
    margin: tuple[float, float, float, float],
    card: tuple[float, float],
    gutter: float,
    bleed: float,
    mode: str,
    offset: tuple[float, float],
) -> None:
    profile = _profile(page, margin, card, gutter, bleed / 2, mode, offset)
    assume(_fits(profile, "card"))
    imposition = impose(profile, "card")
    _check_grid(profile, "card", imposition)
    _check_backs(profile, imposition)
    if offset == (0, 0):
        _check_marks(profile, imposition)


TOKENS = {"coin": (22.0, 22.0), "chip": (16.0, 16.0), "wide": (30.0, 20.0), "tall": (20.0, 45.0)}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    pages,
    margins,
    mm,
    mm,
    modes,
    offsets,
    st.lists(st.tuples(st.sampled_from(sorted(TOKENS)), st.integers(0, 120)), max_size=5),
)
def test_pack_properties(
    page: tuple[float, float],
    margin: tuple[float, float, float, float],
    gutter: float,
    bleed: float,
    mode: str,
    offset: tuple[float, float],
    items: list[tuple[str, int]],
) -> None:
    profile = _profile(page, margin, (10, 10), gutter, bleed / 2, mode, offset, TOKENS)
    assume(all(_fits(profile, kind) for kind in TOKENS))
    width, height = profile.page.dimensions
    m, b = profile.margins, profile.bleed
    pages_ = pack(profile, items)
    # counts preserved, in order
    placed = [kind for page_ in pages_ for kind, _, _ in page_]
    assert placed == [kind for kind, count in items for _ in range(count)]
    assert all(page_ for page_ in pages_)
    for page_ in pages_:
        fronts = [front for _, front, _ in page_]
        for kind, front, back in page_:
            assert (front.width, front.height) == TOKENS[kind]
            assert front.x - b >= m.left - EPS
            assert front.y - b >= m.top - EPS
            assert front.x + front.width + b <= width - m.right + EPS
            assert front.y + front.height + b <= height - m.bottom + EPS
            if mode == "long-edge":
                expected = (width - front.x - front.width, front.y)
            elif mode == "short-edge":
                expected = (front.x, height - front.y - front.height)
            else:
                expected = (front.x, front.y)
            assert math.isclose(back.x, expected[0] + offset[0], abs_tol=1e-9)
            assert math.isclose(back.y, expected[1] + offset[1], abs_tol=1e-9)
            assert (back.width, back.height) == (front.width, front.height)
        _assert_apart(fronts, max(profile.gutter, 2 * b))


def test_pack_tokens_on_a4() -> None:
    a4 = load_profile("a4")
    items = [("coin", 50), ("chemist", 40), ("combine", 5), ("upgrade", 10)]
    pages_ = pack(a4, items)
    counts: dict[str, int] = {}
    for page_ in pages_:
        for kind, _, _ in page_:
            counts[kind] = counts.get(kind, 0) + 1
    assert counts == dict(items)
    # rows hold one kind each: every row is centred on the page
    for page_ in pages_:
        rows: dict[float, list[Slot]] = {}
        for _, front, _ in page_:
            rows.setdefault(front.y, []).append(front)
        for row in rows.values():
            left = min(s.x for s in row) - a4.margins.left
            right = 210 - a4.margins.right - max(s.x + s.width for s in row)
            assert math.isclose(left, right, abs_tol=1e-6)


def test_copied_layouts_dir_loads(tmp_path: Path) -> None:
    copy = tmp_path / "layouts"
    shutil.copytree(default_layouts_dir(), copy)
    for name in ("a4", "letter", "print-shop"):
        assert load_profile(str(copy / "sheets" / f"{name}.yaml")) == load_profile(name)
