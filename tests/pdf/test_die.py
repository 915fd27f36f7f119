"""The die net, folded in 3-D: a cube, opposite faces add to seven, one flap on every glued edge."""

from __future__ import annotations

import pytest

from mhp_cards.pdf import die
from mhp_cards.pdf.kit import Section
from mhp_cards.pdf.layout import load_profile
from mhp_cards.pdf.sketch import Circle, Polygon

Vector = tuple[int, int, int]
#: A step in the net (column, row) and its name as a side of a face.
STEPS = {"right": (1, 0), "left": (-1, 0), "bottom": (0, 1), "top": (0, -1)}


def _neg(v: Vector) -> Vector:
    return (-v[0], -v[1], -v[2])


def _add(a: Vector, b: Vector) -> Vector:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _fold() -> dict[tuple[int, int], dict[str, Vector]]:
    """Each face of the net with its outward normal and the 3-D direction of each of its sides.

    Crossing a fold in direction u from a face with normal n lands on the face whose normal is
    u, where the same direction on the paper now points along -n.
    """
    start = (1, 1)
    frames = {start: {"normal": (0, 0, 1), "right": (1, 0, 0), "bottom": (0, -1, 0)}}
    queue = [start]
    while queue:
        cell = queue.pop()
        frame = frames[cell]
        for dx, dy in STEPS.values():
            other = (cell[0] + dx, cell[1] + dy)
            if other not in die.NET or other in frames:
                continue
            axis = "right" if dx else "bottom"
            sign = 1 if dx + dy > 0 else -1
            u = frame[axis] if sign > 0 else _neg(frame[axis])
            turned = _neg(frame["normal"]) if sign > 0 else frame["normal"]
            new = dict(frame)
            new["normal"] = u
            new[axis] = turned
            frames[other] = new
            queue.append(other)
    return frames


def _side_vector(frame: dict[str, Vector], side: str) -> Vector:
    return {
        "right": frame["right"],
        "left": _neg(frame["right"]),
        "bottom": frame["bottom"],
        "top": _neg(frame["bottom"]),
    }[side]


def test_the_net_folds_into_a_cube_with_opposite_faces_adding_to_seven() -> None:
    frames = _fold()
    normals = {cell: frame["normal"] for cell, frame in frames.items()}
    assert len(set(normals.values())) == 6  # six different faces: a closed cube
    pips = {normals[cell]: value for cell, value in die.NET.items()}
    assert sorted(pips.values()) == [1, 2, 3, 4, 5, 6]
    for normal, value in pips.items():
        assert value + pips[_neg(normal)] == 7


def test_every_open_edge_gets_exactly_one_flap() -> None:
    frames = _fold()
    open_edges: dict[Vector, list[tuple[int, int, str]]] = {}
    for cell, frame in frames.items():
        for side, (dx, dy) in STEPS.items():
            if (cell[0] + dx, cell[1] + dy) in die.NET:
                continue  # a fold, not a cut
            edge = _add(frame["normal"], _side_vector(frame, side))
            open_edges.setdefault(edge, []).append((cell[0], cell[1], side))
    assert len(open_edges) == 7  # 12 edges of a cube, 5 of them folds
    assert all(len(sides) == 2 for sides in open_edges.values())  # each cut edge meets another
    flaps = set(die._FLAPS)
    for sides in open_edges.values():
        assert sum(side in flaps for side in sides) == 1, sides


def test_the_net_is_symmetric_so_its_mirrored_back_lines_up() -> None:
    mirrored = {(2 - c, r, {"left": "right", "right": "left"}.get(s, s)) for c, r, s in die._FLAPS}
    assert mirrored == set(die._FLAPS)
    assert {(2 - c, r) for c, r in die.NET} == set(die.NET)


@pytest.mark.parametrize("name", ["a4", "letter", "print-shop"])
def test_the_net_fits_its_piece_in_every_layout(name: str) -> None:
    size = load_profile(name).card_sizes["die"]
    edge = min(size.width / (3 + 2 * die.FLAP), size.height / (4 + die.FLAP))
    width, height = die.net_size(edge)
    assert width <= size.width + 1e-9
    assert height <= size.height + 1e-9
    assert edge >= 15  # big enough to roll


def test_one_die_net_on_the_token_sheets(kit: list[Section]) -> None:
    tokens = next(section for section in kit if section.name == "tokens")
    assert ("Развёртка кубика", None, 1) in tokens.contents
    fronts = [page for page in tokens.pages if page.side == "front"]
    # 21 pips: 1 + 2 + ... + 6, all on one front page; seven grey flaps beside them
    pips = [
        sum(1 for op in page.ops if isinstance(op, Circle) and op.fill in ("#231F20", "#C62828"))
        for page in fronts
    ]
    flaps = [
        sum(1 for op in page.ops if isinstance(op, Polygon) and op.fill == "#D9D9D9")
        for page in fronts
    ]
    assert sorted(flaps)[-1] == 7
    assert sum(flaps) == 7
    assert pips[flaps.index(7)] >= 21
