"""The solver against an independent brute force, and the reaction and card-flow checks.

The property tests build an installation that is valid by construction: a random connected
set of cells, and on every edge shared by two neighbouring cells 1 to 3 pipes (random
position, substance and direction), each pipe becoming a port on both cards. Some cells get
a hydrogen in-port on their free left edge, fed by an electrolyser standing there; the
electrolysers are identical cards (group ``electrolyser``, same design, IDs Э1, Э2…).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from mhp_cards.assembly.arrangement import EDGES, Arrangement, check_placement
from mhp_cards.assembly.cardflow import card_flow_problems, net_reaction_problem
from mhp_cards.assembly.solver import solve
from mhp_cards.catalog import Catalog, Port, ReactorCard
from mhp_cards.catalog.models import CARD_LETTERS
from mhp_cards.chem.reaction import parse_reaction

Cell = tuple[int, int]
STEP = {"top": (-1, 0), "bottom": (1, 0), "left": (0, -1), "right": (0, 1)}
OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
POOL = ("CO2", "H2O", "N2", "O2")
ELECTROLYSER_PORT = ("right", 2, "H2", "out")


# --- generating installations --------------------------------------------------------------------


@dataclass(frozen=True)
class Generated:
    """An installation valid by construction, with the arrangement it was built from."""

    cards: tuple[ReactorCard, ...]  # every piece, electrolysers included, in a random order
    electrolyser: ReactorCard | None
    arrangement: Arrangement  # as the solver writes it: electrolysers as 'Э'

    @property
    def plain_cards(self) -> list[ReactorCard]:
        return [card for card in self.cards if card.group != "electrolyser"]

    @property
    def electrolysers(self) -> int:
        return len(self.cards) - len(self.plain_cards)


def port(edge: str, position: int, substance: str, direction: str, optional=False) -> Port:
    return Port(
        edge=edge, position=position, substance=substance, direction=direction, optional=optional
    )


@st.composite
def installations(draw, min_cells: int = 1, max_cells: int = 6) -> Generated:
    total = draw(st.sampled_from(range(min_cells, max_cells + 1)), label="cells")
    wanted_electrolysers = draw(
        st.sampled_from(range(min(3, total - 1) + 1)), label="electrolysers"
    )
    # a small pool makes cards fit in more ways than one
    pool = POOL[: draw(st.integers(1, len(POOL)), label="substances")]
    size = total - wanted_electrolysers
    # a random connected shape, grown cell by cell
    shape: list[Cell] = [(0, 0)]
    while len(shape) < size:
        frontier = sorted(
            {
                (r + dr, c + dc)
                for r, c in shape
                for dr, dc in STEP.values()
                if (r + dr, c + dc) not in shape
            }
        )
        shape.append(draw(st.sampled_from(frontier)))
    ports: dict[Cell, list[Port]] = {cell: [] for cell in shape}
    # uniform: every shared edge along an axis carries the same pipes, so that cards inside
    # a row or column have the same ports and may swap places
    uniform = draw(st.booleans(), label="uniform pipes")
    axis_pipes: dict[str, list[tuple[int, str, bool]]] = {}
    # which pipe ends may stay open: none, some, or all (then cards fit in many ways)
    optional_mode = draw(st.sampled_from(["none", "some", "all"]), label="optional ports")
    for cell in shape:
        for edge in ("right", "bottom"):
            other = (cell[0] + STEP[edge][0], cell[1] + STEP[edge][1])
            if other not in ports:
                continue
            if uniform and edge in axis_pipes:
                pipes = axis_pipes[edge]
            else:
                positions = draw(
                    st.lists(st.integers(1, 3), min_size=1, max_size=3, unique=True),
                    label="pipes",
                )
                pipes = [
                    (position, draw(st.sampled_from(pool)), draw(st.booleans()))
                    for position in positions
                ]
                axis_pipes[edge] = pipes
            for position, substance, outward in pipes:
                optional = optional_mode == "all" or (
                    optional_mode == "some" and draw(st.booleans())
                )
                ports[cell].append(
                    port(edge, position, substance, "out" if outward else "in", optional)
                )
                ports[other].append(
                    port(OPPOSITE[edge], position, substance, "in" if outward else "out", optional)
                )
    # electrolysers on free left edges
    free_left = [cell for cell in shape if (cell[0], cell[1] - 1) not in ports]
    chosen = draw(st.permutations(free_left), label="receivers")
    receivers = chosen[: min(wanted_electrolysers, len(free_left))]
    electrolyser = None
    if wanted_electrolysers:
        optional = draw(st.booleans(), label="electrolyser port optional")
        electrolyser = ReactorCard(
            id="Э1",
            group="electrolyser",
            ports=(port(*ELECTROLYSER_PORT, optional),),
        )
    for cell in receivers:
        ports[cell].append(port("left", 2, "H2", "in"))
    # optional ports on outer edges keep this arrangement valid and may allow others
    standing = {(row, column - 1) for row, column in receivers}
    if draw(st.booleans(), label="outer optional ports"):
        for cell in shape:
            for edge in EDGES:
                outside = (cell[0] + STEP[edge][0], cell[1] + STEP[edge][1])
                if outside in ports or outside in standing or not draw(st.booleans()):
                    continue
                ports[cell].append(
                    port(
                        edge,
                        draw(st.integers(1, 3)),
                        draw(st.sampled_from(pool)),
                        draw(st.sampled_from(["in", "out"])),
                        optional=True,
                    )
                )
    pieces: list[ReactorCard] = []
    layout: dict[Cell, str] = {}
    for index, cell in enumerate(shape):
        card_id = f"7{CARD_LETTERS[index]}"
        pieces.append(
            ReactorCard(
                id=card_id, group="main" if index == 0 else "part", ports=tuple(ports[cell])
            )
        )
        layout[cell] = card_id
    for number, (row, column) in enumerate(receivers, start=1):
        assert electrolyser is not None
        pieces.append(electrolyser.model_copy(update={"id": f"Э{number}"}))
        layout[(row, column - 1)] = "Э"
    order = draw(st.permutations(range(len(pieces))), label="order")
    return Generated(
        tuple(pieces[i] for i in order),
        electrolyser,
        Arrangement.from_cells(layout),
    )


@st.composite
def loose_cards(draw, max_cards: int = 4) -> list[ReactorCard]:
    """Cards with random ports from a tiny vocabulary: often many arrangements, or none."""
    count = draw(st.integers(1, max_cards))
    positions = draw(st.sampled_from([[2], [1, 2]]))
    substances = draw(st.sampled_from([["CO2"], ["CO2", "H2O"]]))
    specs = st.tuples(
        st.sampled_from(EDGES),
        st.sampled_from(positions),
        st.sampled_from(substances),
        st.sampled_from(["in", "out"]),
        st.sampled_from([True, True, False]),  # mostly optional: cards fit in several ways
    )
    cards = []
    for index in range(count):
        chosen = draw(st.lists(specs, min_size=1, max_size=3, unique_by=lambda spec: spec[:2]))
        cards.append(
            ReactorCard(
                id=f"6{CARD_LETTERS[index]}",
                group="part",
                ports=tuple(port(*spec) for spec in chosen),
            )
        )
    electrolyser = ReactorCard(id="Э1", group="electrolyser", ports=(port(*ELECTROLYSER_PORT),))
    for number in range(1, draw(st.integers(0, min(2, 5 - count))) + 1):
        cards.append(electrolyser.model_copy(update={"id": f"Э{number}"}))
        kept = tuple(p for p in cards[0].ports if (p.edge, p.position) != ("left", 2))
        cards[0] = cards[0].model_copy(
            update={"ports": (*kept, port("left", 2, "H2", "in", draw(st.booleans())))}
        )
    return draw(st.permutations(cards))


# --- an independent model of the rules -----------------------------------------------------------


def display(card: ReactorCard) -> str:
    return "Э" if card.group == "electrolyser" else card.id


def ports_of(card: ReactorCard) -> dict[tuple[str, int], tuple[str, str, bool]]:
    return {(p.edge, p.position): (p.substance, p.direction, p.optional) for p in card.ports}


def is_valid(placed: Mapping[Cell, ReactorCard]) -> bool:
    """Every port meets an opposite port (same substance, one out one in) or may stay open."""
    tables = {cell: ports_of(card) for cell, card in placed.items()}
    for (row, column), table in tables.items():
        for (edge, position), (substance, direction, optional) in table.items():
            d_row, d_column = STEP[edge]
            other = tables.get((row + d_row, column + d_column))
            if other is None:
                if not optional:
                    return False
                continue
            facing = other.get((OPPOSITE[edge], position))
            if facing is None or facing[0] != substance or facing[1] == direction:
                return False
    return True


def pipe_connected(placed: Mapping[Cell, ReactorCard]) -> bool:
    """All cards joined by pipes: ports that meet a port on the facing edge."""
    tables = {cell: ports_of(card) for cell, card in placed.items()}
    start = next(iter(tables))
    reached = {start}
    stack = [start]
    while stack:
        row, column = stack.pop()
        for edge, position in tables[(row, column)]:
            d_row, d_column = STEP[edge]
            cell = (row + d_row, column + d_column)
            if (
                cell in tables
                and cell not in reached
                and (OPPOSITE[edge], position) in tables[cell]
            ):
                reached.add(cell)
                stack.append(cell)
    return len(reached) == len(tables)


def grid_connected(cells: Iterable[Cell]) -> bool:
    cells = set(cells)
    start = min(cells)
    reached = {start}
    stack = [start]
    while stack:
        row, column = stack.pop()
        for d_row, d_column in STEP.values():
            cell = (row + d_row, column + d_column)
            if cell in cells and cell not in reached:
                reached.add(cell)
                stack.append(cell)
    return len(reached) == len(cells)


def brute_force(pieces: Sequence[ReactorCard]) -> set[Arrangement]:
    """Every injective placement of the pieces in a bounding box, kept when valid and joined.

    A pipe-connected placement is edge-connected, so its bounding box h × w has
    h + w - 1 <= n; each translation class is met once, in its tight box (the occupied cells
    touch all four sides). Cell sets that are not edge-connected are skipped before the
    n! assignments of pieces to cells.
    """
    n = len(pieces)
    found: set[Arrangement] = set()
    for height in range(1, n + 1):
        for width in range(1, n + 2 - height):
            box = [(r, c) for r in range(height) for c in range(width)]
            for cells in itertools.combinations(box, n):
                rows = {r for r, _ in cells}
                columns = {c for _, c in cells}
                if {0, height - 1} - rows or {0, width - 1} - columns:
                    continue
                if not grid_connected(cells):
                    continue
                for order in itertools.permutations(pieces):
                    placed = dict(zip(cells, order, strict=True))
                    if is_valid(placed) and pipe_connected(placed):
                        found.add(
                            Arrangement.from_cells(
                                {cell: display(card) for cell, card in placed.items()}
                            )
                        )
    return found


def placement_of(
    arrangement: Arrangement, cards: Sequence[ReactorCard]
) -> dict[Cell, tuple[str, ReactorCard]]:
    by_id = {display(card): card for card in cards}
    return {cell: (card_id, by_id[card_id]) for cell, card_id in arrangement.as_dict().items()}


# --- the properties ------------------------------------------------------------------------------

SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@given(installations(max_cells=6))
@settings(SLOW, max_examples=300)
def test_solver_finds_the_arrangement_and_only_valid_ones(generated: Generated) -> None:
    solution = solve(generated.cards)
    assert generated.arrangement in solution.arrangements
    assert solution.canonical == solution.arrangements[0]
    assert list(solution.arrangements) == sorted(set(solution.arrangements))
    assert solution.electrolysers == 0  # no electrolyser design given: none added
    assert solution.reason == ""
    for arrangement in solution.arrangements:
        placed = placement_of(arrangement, generated.cards)
        assert len(placed) == len(generated.cards)
        assert check_placement(placed) == []
        cards = {cell: card for cell, (_, card) in placed.items()}
        assert is_valid(cards)
        assert pipe_connected(cards)
        # the pieces are used once each (identical electrolysers counted as one kind)
        assert sorted(arrangement.as_dict().values()) == sorted(map(display, generated.cards))


@given(installations(max_cells=5))
@settings(SLOW, max_examples=300)
def test_solver_agrees_with_brute_force(generated: Generated) -> None:
    expected = brute_force(generated.cards)
    event(f"{len(generated.cards)} cards, {generated.electrolysers} electrolysers")
    event(f"{len(expected)} arrangement(s)")
    assert generated.arrangement in expected  # the generator is right
    assert set(solve(generated.cards).arrangements) == expected


@given(loose_cards(max_cards=4))
@settings(SLOW, max_examples=300)
def test_solver_agrees_with_brute_force_on_loose_cards(cards: list[ReactorCard]) -> None:
    expected = brute_force(cards)
    event(f"{min(len(expected), 5)}{'+' if len(expected) > 4 else ''} arrangement(s)")
    solution = solve(cards)
    assert set(solution.arrangements) == expected
    assert len(solution.arrangements) == len(expected)  # no arrangement twice
    if not expected:
        assert solution.reason  # why there is none (its wording is not pinned here)


@given(installations(min_cells=2, max_cells=5))
@settings(SLOW, max_examples=100)
def test_solver_adds_as_many_electrolysers_as_needed(generated: Generated) -> None:
    solution = solve(generated.plain_cards, generated.electrolyser)
    assert solution.electrolysers == generated.electrolysers
    assert set(solution.arrangements) == set(solve(generated.cards).arrangements)
    assert generated.arrangement in solution.arrangements
    if generated.electrolysers:
        fewer = solve(
            generated.plain_cards,
            generated.electrolyser,
            max_electrolysers=generated.electrolysers - 1,
        )
        assert fewer.arrangements == ()
        assert fewer.reason


@given(installations(max_cells=5), st.data())
@settings(SLOW, max_examples=200)
def test_check_placement_agrees_with_the_model(generated: Generated, data) -> None:
    """check_placement reports nothing exactly when the independent model finds it valid."""
    expected = placement_of(generated.arrangement, generated.cards)
    cards = [card for _, card in expected.values()]
    # shuffle the cards over the same cells, or keep them: both valid and invalid cases
    order = data.draw(st.permutations(range(len(cards))))
    cells = list(expected)
    placed = {cells[i]: (display(cards[j]), cards[j]) for i, j in enumerate(order)}
    plain = {cell: card for cell, (_, card) in placed.items()}
    assert (check_placement(placed) == []) == is_valid(plain)
    assert check_placement(expected) == []


# --- hand-made cases -----------------------------------------------------------------------------


def test_identical_electrolysers_are_one_kind(catalog: Catalog, card) -> None:
    # The electrolysers lie apart: each one's optional O2 outlet (bottom edge) faces no card.
    sabatier = card("1А", [("left", 2, "H2", "in"), ("bottom", 2, "H2", "in")], group="main")
    buffer = card("1Б", [("bottom", 2, "H2", "in"), ("top", 2, "H2", "out")])
    inlet = card("1В", [("left", 2, "H2", "in"), ("top", 2, "H2", "out")])
    electrolyser = catalog.electrolyser
    assert electrolyser is not None
    expected = (Arrangement.parse("Э 1А / . 1Б / Э 1В"),)
    with_design = solve([sabatier, buffer, inlet], electrolyser)
    assert (with_design.electrolysers, with_design.arrangements) == (2, expected)
    as_pieces = solve([sabatier, buffer, inlet, *catalog.electrolysers[:2]])
    assert as_pieces.arrangements == expected
    assert solve([*catalog.electrolysers[:2], inlet, buffer, sabatier]).arrangements == expected


def test_interchangeable_cards_are_counted_once_each(card) -> None:
    """A feeds a chain of three cards of one design: 3! orders with IDs, 1 when identical."""
    head = card("1А", [("right", 2, "CO2", "out")], group="main")
    links = [
        card(f"1{letter}", [("left", 2, "CO2", "in"), ("right", 2, "CO2", "out", True)])
        for letter in "БВГ"
    ]
    solution = solve([head, *links])
    assert len(solution.arrangements) == 6
    assert {a.text() for a in solution.arrangements} == {
        "1А " + " ".join(order) for order in itertools.permutations(["1Б", "1В", "1Г"])
    }
    identical = [
        link.model_copy(update={"group": "electrolyser", "id": f"Э{n}"})
        for n, link in enumerate(links, start=1)
    ]
    assert [a.text() for a in solve([head, *identical]).arrangements] == ["1А Э Э Э"]
    assert set(solve([head, *links]).arrangements) == brute_force([head, *links])


def test_single_card_without_ports(card) -> None:
    solution = solve([card("1А", group="main")])
    assert solution.arrangements == (Arrangement.parse("1А"),)
    assert solution.searched >= 1


def test_no_arrangement_gives_a_reason(card) -> None:
    lonely = card("1А", [("right", 1, "CO2", "out")])
    other = card("1Б", [("left", 2, "CO2", "in")])
    solution = solve([lonely, other])
    assert solution.arrangements == ()
    assert solution.canonical is None
    assert solution.failure == "pipes"
    assert solution.reason == (
        "1А right edge, position 1 (CO2 out) has no partner: no card has CO2 in on its left edge "
        "at position 1; 1Б left edge, position 2 (CO2 in) has no partner: no card has CO2 out on "
        "its right edge at position 2"
    )


def test_ports_that_could_meet_but_do_not_join(card) -> None:
    """Every port has a partner somewhere, yet the cards cannot all be laid out."""
    a = card("1А", [("right", 2, "CO2", "out")])
    b = card("1Б", [("left", 2, "CO2", "in")])
    c = card("1В", [("left", 2, "CO2", "in")])
    solution = solve([a, b, c])
    assert solution.arrangements == ()
    assert (solution.failure, solution.reason) == ("pipes", "no arrangement joins every pipe")


def test_unreachable_overall_reaction_gives_its_reason(catalog: Catalog) -> None:
    installation = catalog.installation(1)
    solution = solve(installation.cards, catalog.electrolyser, parse_reaction("CaCO3 -> CaO + CO2"))
    assert solution.arrangements == ()
    assert solution.failure == "net-reaction"
    assert solution.reason.startswith(
        "the reactions of the installation's cards do not combine into its overall reaction"
    )


def test_cards_that_fit_two_ways(card) -> None:
    """Every port optional: either card may stand on the left."""
    symmetric_a = card("1А", [("right", 2, "CO2", "out", True), ("left", 2, "CO2", "in", True)])
    symmetric_b = card("1Б", [("left", 2, "CO2", "in", True), ("right", 2, "CO2", "out", True)])
    solution = solve([symmetric_a, symmetric_b])
    assert set(solution.arrangements) == {Arrangement.parse("1А 1Б"), Arrangement.parse("1Б 1А")}
    assert solution.canonical == Arrangement.parse("1А 1Б")


@pytest.mark.parametrize("number", range(1, 11))
def test_default_installations_against_brute_force(catalog: Catalog, number: int) -> None:
    installation = catalog.installation(number)
    solution = solve(installation.cards, catalog.electrolyser, installation.parsed_reaction)
    pieces = [*installation.cards, *catalog.electrolysers[: solution.electrolysers]]
    assert set(solution.arrangements) == brute_force(pieces)


def test_solve_without_cards() -> None:
    """Regression: solve([]) crashed with StopIteration."""
    solution = solve([])
    assert solution.arrangements == ()
    assert solution.reason


# --- net_reaction_problem ------------------------------------------------------------------------

SABATIER = "CO2 + 4 H2 -> CH4 + 2 H2O"
METHANATION = "CO2 + 2 H2O -> CH4 + 2 O2"


def test_net_reaction_sabatier_with_electrolyser(catalog: Catalog, card) -> None:
    sabatier = card("1А", reactions=[SABATIER])
    electrolyser = catalog.electrolyser
    assert net_reaction_problem([sabatier, electrolyser], parse_reaction(METHANATION)) is None
    # any positive multiple of the overall reaction is the same target
    doubled = parse_reaction("2 CO2 + 4 H2O -> 2 CH4 + 4 O2")
    assert net_reaction_problem([electrolyser, sabatier], doubled) is None
    # cards without reactions (pipes, buffers) take no part
    buffer = card("1Б", containers=[("H2", "transit")])
    assert net_reaction_problem([sabatier, buffer, electrolyser], doubled) is None


@pytest.mark.parametrize("number", range(1, 11))
def test_net_reaction_of_default_installations(catalog: Catalog, number: int) -> None:
    installation = catalog.installation(number)
    # An electrolyser pipes H2 from its right edge or O2 from its bottom edge.
    fed = any(
        (p.edge, p.position, p.substance, p.direction)
        in (("left", 2, "H2", "in"), ("top", 2, "O2", "in"))
        for c in installation.cards
        for p in c.ports
    )
    electrolysers = 1 if fed else 0
    cards = [*installation.cards, *catalog.electrolysers[:electrolysers]]
    assert net_reaction_problem(cards, installation.parsed_reaction) is None


def test_net_reaction_with_a_recycle(catalog: Catalog) -> None:
    """Ostwald: 4А ×1 + 4Б ×3 + 4В ×2 + 4Г ×4, NO goes back from 4В to 4Б."""
    installation = catalog.installation(4)
    assert net_reaction_problem(installation.cards, installation.parsed_reaction) is None
    without_neutraliser = installation.cards[:3]
    problem = net_reaction_problem(without_neutraliser, installation.parsed_reaction)
    assert problem is not None


def test_net_reaction_missing_electrolyser(card) -> None:
    problem = net_reaction_problem(
        [card("1А", reactions=[SABATIER])], parse_reaction(METHANATION), "installation 2"
    )
    assert problem is not None
    assert problem.code == "net-reaction"
    assert problem.message == (
        "the reactions of installation 2's cards do not combine into its overall reaction "
        f"{METHANATION}: they add up to {SABATIER}"
    )
    assert (problem.expected, problem.found) == (METHANATION, SABATIER)
    assert (problem.card, problem.edge, problem.position) == (None, None, None)


def test_net_reaction_unrelated_reactions(card) -> None:
    problem = net_reaction_problem(
        [card("1А", reactions=["N2 + 3 H2 -> 2 NH3"])], parse_reaction("CaCO3 -> CaO + CO2")
    )
    assert problem is not None
    assert problem.found == "N2 + 3 H2 -> 2 NH3"
    assert problem.message.endswith(": they add up to N2 + 3 H2 -> 2 NH3")


def test_net_reaction_needs_a_reverse_run(card) -> None:
    slaker = card("1А", reactions=["CaO + H2O -> Ca(OH)2"])
    problem = net_reaction_problem([slaker], parse_reaction("Ca(OH)2 -> CaO + H2O"))
    assert problem is not None
    assert problem.found == "CaO + H2O -> Ca(OH)2"


def test_net_reaction_partly_reachable(card) -> None:
    """The kiln runs, the slaker would have to stop: a multiplier of 0 is not allowed."""
    kiln = card("1А", reactions=["CaCO3 -> CaO + CO2"])
    slaker = card("1Б", reactions=["CaO + H2O -> Ca(OH)2"])
    problem = net_reaction_problem([kiln, slaker], parse_reaction("CaCO3 -> CaO + CO2"))
    assert problem is not None
    assert problem.found == "CaCO3 + H2O -> CO2 + Ca(OH)2"


def test_net_reaction_without_any_reaction(card) -> None:
    problem = net_reaction_problem([card("1А"), card("1Б")], parse_reaction(METHANATION))
    assert problem is not None
    assert problem.found is None
    assert problem.message.endswith(": they cannot add up to it")


def test_net_reaction_not_unique(card) -> None:
    kiln = card("1А", reactions=["CaCO3 -> CaO + CO2"])
    slaker = card("1Б", reactions=["CaO + H2O -> Ca(OH)2"])
    shortcut = card("1В", reactions=["CaCO3 + H2O -> Ca(OH)2 + CO2"])
    overall = parse_reaction("CaCO3 + H2O -> Ca(OH)2 + CO2")
    assert net_reaction_problem([kiln, slaker], overall) is None
    problem = net_reaction_problem([kiln, slaker, shortcut], overall)
    assert problem is not None
    assert problem.message.endswith(": their combination is not determined uniquely")
    assert problem.expected == "CaCO3 + H2O -> Ca(OH)2 + CO2"


def test_net_reaction_cycle_is_not_unique(card) -> None:
    there = card("1А", reactions=["CaCO3 -> CaO + CO2"])
    back = card("1Б", reactions=["CaO + CO2 -> CaCO3"])
    problem = net_reaction_problem([there, back], parse_reaction("CaCO3 -> CaO + CO2"))
    assert problem is not None
    assert "not determined uniquely" in problem.message


def test_net_reaction_two_identical_electrolysers(catalog: Catalog, card) -> None:
    """Regression: two electrolysers made the combination 'not determined uniquely'."""
    sabatier = card("1А", reactions=[SABATIER])
    two = catalog.electrolysers[:2]
    assert net_reaction_problem([sabatier, *two], parse_reaction(METHANATION)) is None


# --- card_flow_problems --------------------------------------------------------------------------


def test_card_flow_default_cards_are_sound(catalog: Catalog) -> None:
    for installation in catalog.installations:
        for reactor in installation.cards:
            assert card_flow_problems(reactor) == [], reactor.id
    for electrolyser in catalog.electrolysers:
        assert card_flow_problems(electrolyser) == []


@pytest.mark.parametrize(
    ("ports", "containers", "reactions"),
    [
        ([("left", 1, "CO2", "in")], [("CH4", "product")], [SABATIER]),  # in: a reactant
        ([("left", 1, "NO", "in"), ("right", 1, "NO", "out")], [], []),  # in: passed on
        ([("left", 1, "H2", "in")], [("H2", "transit")], []),  # in: into a transit container
        ([("right", 1, "CH4", "out")], [], [SABATIER]),  # out: a product
        ([("right", 1, "H2", "out")], [("H2", "transit")], []),  # out: from transit
        ([("right", 1, "CO2", "out")], [("CO2", "raw-input")], [SABATIER]),  # out: raw input
        ([], [("CO2", "raw-input"), ("H2O", "product")], [SABATIER]),
    ],
)
def test_card_flow_sound(card, ports, containers, reactions) -> None:
    assert card_flow_problems(card("1А", ports, reactions, containers)) == []


def test_card_flow_product_container_filled_by_a_pipe(card) -> None:
    """Regression: the in-port filling a product container was 'not consumed or passed on'."""
    collector = card("1А", [("left", 1, "CO2", "in")], containers=[("CO2", "product")])
    assert card_flow_problems(collector) == []


def test_card_flow_in_port_not_used(card) -> None:
    problems = card_flow_problems(card("1А", [("left", 3, "N2", "in")], [SABATIER]))
    assert len(problems) == 1
    problem = problems[0]
    assert (problem.code, problem.card, problem.edge, problem.position) == (
        "card-flow",
        "1А",
        "left",
        3,
    )
    assert problem.expected == (
        "consumed by a reaction of the card, stored in a container or passed on"
    )
    assert problem.found == "N2"
    assert problem.message == (
        "1А left edge, position 3 (N2 in): N2 is not consumed by a reaction of the card, stored "
        "in a container or passed on"
    )


def test_card_flow_out_port_not_made(card) -> None:
    problems = card_flow_problems(card("1А", [("bottom", 2, "O2", "out")], [SABATIER]))
    assert [(p.edge, p.position, p.found) for p in problems] == [("bottom", 2, "O2")]
    assert problems[0].message == (
        "1А bottom edge, position 2 (O2 out): O2 is not made by a reaction of the card or passed on"
    )


def test_card_flow_product_consumed_is_not_an_input(card) -> None:
    """A reactant leaving through an out-port is neither made nor passed on."""
    problems = card_flow_problems(card("1А", [("right", 1, "H2", "out")], [SABATIER]))
    assert [p.found for p in problems] == ["H2"]


def test_card_flow_raw_input_not_a_reactant(card) -> None:
    problems = card_flow_problems(card("1А", containers=[("N2", "raw-input")]))
    assert len(problems) == 1
    problem = problems[0]
    assert problem.message == "1А: the raw-input container of N2 feeds no reaction of the card"
    assert (problem.edge, problem.position) == (None, None)
    assert (problem.expected, problem.found) == ("a reactant of the card's reactions", "N2")


def test_card_flow_product_container_not_filled(card) -> None:
    problems = card_flow_problems(card("1А", containers=[("CH4", "product")], reactions=[]))
    assert len(problems) == 1
    assert problems[0].message == (
        "1А: the product container of CH4 is filled by no reaction of the card and no incoming pipe"
    )
    assert (problems[0].expected, problems[0].found) == ("a product of the card's reactions", "CH4")


def test_card_flow_reports_every_problem(card) -> None:
    problems = card_flow_problems(
        card(
            "1А",
            [("left", 1, "N2", "in"), ("right", 1, "O2", "out")],
            containers=[("Ar", "raw-input"), ("CH4", "product")],
        )
    )
    assert [p.found for p in problems] == ["N2", "O2", "Ar", "CH4"]


def test_card_flow_compares_formulas_not_text(card) -> None:
    """'CO2' and 'O2C' are the same substance."""
    assert card_flow_problems(card("1А", [("left", 1, "O2C", "in")], [SABATIER])) == []


def test_edges_constant() -> None:
    assert EDGES == ("top", "right", "bottom", "left")


@given(installations(max_cells=4))
@settings(SLOW, max_examples=50)
def test_generated_cards_are_distinct_designs(generated: Generated) -> None:
    """Sanity of the generator: only electrolysers share a design."""
    plain = generated.plain_cards
    assume(len(plain) > 1)
    ids = [c.id for c in plain]
    assert len(set(ids)) == len(ids)
