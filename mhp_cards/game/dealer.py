"""The dealer: a game set up by the rules for a level and a number of players, from a seed.

Level 1 (L1.S1–S5) and level 3 (L3.S1–S5): some Fate cards are set aside, the rest form the
field in the chosen shape around the Base, a raw card lies face down on every cell, the rest
form the Warehouse, combines wait on the Base. Level 2 (L2.S1–S7) and head to head (V1.1–V1.2):
main cards are dealt, installations are assembled (their solved arrangement), the raw deck is
laid out in three piles, coins and chemist tokens are handed out. The same seed gives the
same deal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Literal

from mhp_cards.assembly.arrangement import Arrangement
from mhp_cards.assembly.played import played_containers
from mhp_cards.assembly.solver import solve_installation
from mhp_cards.catalog.models import Catalog, Installation
from mhp_cards.errors import HouseRuleError, SetupError
from mhp_cards.game.rng import Rng
from mhp_cards.game.setups import check_setup, removal_options
from mhp_cards.game.state import (
    Cell,
    Combine,
    ContainerState,
    FieldState,
    GameState,
    InstallationState,
    MissionState,
    Player,
    Position,
)
from mhp_cards.rules.numbers import (
    BANK_START_L2,
    COINS_PER_PLAYER_L2,
    FIFTH_SEAT_COINS_L2,
    PILES_L2,
    WAREHOUSE_SIZE,
    HouseRules,
    Level,
    chemist_tokens,
)

__all__ = ["SHAPES", "SetupError", "deal", "field_positions", "raw_instances"]

Shape = Literal["rectangle", "cross", "ring", "random"]
SHAPES: Final[tuple[Shape, ...]] = ("rectangle", "cross", "ring", "random")


def raw_instances(catalog: Catalog) -> list[str]:
    """Every raw card of the box by instance ID: ``hematite#1`` … in catalog order."""
    return [f"{raw.id}#{k}" for raw in catalog.raw_materials for k in range(1, raw.copies + 1)]


def fate_instances(catalog: Catalog) -> list[str]:
    """Every Fate card by instance ID: ``fate#1``, ``fate#2`` and so on."""
    return [f"fate#{k}" for k in range(1, catalog.components.fate_cards.count + 1)]


def field_positions(count: int, shape: Shape, rng: Rng) -> tuple[Position, list[Position]]:
    """The Base and ``count`` cell positions forming a connected field of the given shape.

    rectangle: a 4:3 block grown around the Base; cross: arms three cells wide; ring: a band
    around the Base, joined to it by a causeway; random: grown cell by cell from the Base.
    """
    chosen = _random_growth(count, rng) if shape == "random" else list(_fixed_shape(count, shape))
    xs = [x for x, _ in chosen] + [0]
    ys = [y for _, y in chosen] + [0]
    dx, dy = -min(xs), -min(ys)
    return (dx, dy), [(x + dx, y + dy) for x, y in chosen]


@lru_cache(maxsize=64)
def _fixed_shape(count: int, shape: Shape) -> tuple[Position, ...]:
    """The cells of a field of a fixed shape around the Base at (0, 0) (worked out once)."""
    radius = math.isqrt(count) + 3
    candidates = [
        (x, y)
        for x in range(-2 * radius, 2 * radius + 1)
        for y in range(-2 * radius, 2 * radius + 1)
        if (x, y) != (0, 0)
    ]
    inner = 2
    if shape == "ring":
        candidates = [
            p for p in candidates if max(abs(p[0]), abs(p[1])) >= inner or (p[1] == 0 and p[0] > 0)
        ]
    candidates.sort(key=lambda p: _shape_key(p, shape, inner))
    return tuple(candidates[:count])


def _shape_key(position: Position, shape: Shape, inner: int) -> tuple[float, ...]:
    x, y = position
    angle = math.atan2(y, x) % (2 * math.pi)
    if shape == "cross":
        across = max(0, min(abs(x), abs(y)) - 1)
        return (across, max(abs(x), abs(y)), angle)
    if shape == "ring":
        ring = max(abs(x), abs(y))
        causeway = y == 0 and 0 < x < inner
        return (0 if causeway else 1, ring, angle)
    return (max(abs(x) / 4, abs(y) / 3), angle)


def _random_growth(count: int, rng: Rng) -> list[Position]:
    chosen: list[Position] = []
    taken = {(0, 0)}
    frontier = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    while len(chosen) < count:
        position = frontier.pop(rng.randrange(len(frontier)))
        if position in taken:
            continue
        taken.add(position)
        chosen.append(position)
        x, y = position
        frontier += [p for p in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if p not in taken]
    return chosen


def _installation_state(
    catalog: Catalog, installation: Installation, owner: str | None, electrolysers: list[str]
) -> InstallationState:
    """The installation laid in its canonical arrangement, its containers as they play.

    Each electrolyser of the arrangement is one of the box's (Э1…Э5); a product container
    whose substance leaves by a pipe plays as transit (Ruling L2.T4-transit). Worked out once
    per catalog, installation, owner and electrolysers left (a state is an immutable value).
    """
    memo = catalog.memo("dealer.installation-states")
    key = (installation.number, owner, tuple(electrolysers))
    found: tuple[InstallationState, int] | None = memo.get(key)
    if found is None:
        left = list(electrolysers)
        found = memo[key] = (
            _lay_installation(catalog, installation, owner, left),
            len(electrolysers) - len(left),
        )
    del electrolysers[: found[1]]  # the electrolysers it took
    return found[0]


def _lay_installation(
    catalog: Catalog, installation: Installation, owner: str | None, electrolysers: list[str]
) -> InstallationState:
    solution = solve_installation(catalog, installation.number)
    arrangement = solution.canonical
    if arrangement is None:
        raise SetupError(f"installation {installation.number} cannot be assembled")
    cells = {}
    for row, column, token in arrangement.cells:
        card_id = token
        if token == "Э":
            if not electrolysers:
                raise SetupError("not enough electrolysers for the installations", ["L2.S1"])
            card_id = electrolysers.pop(0)
        cells[(row, column)] = card_id
    laid = Arrangement.from_cells(cells)
    containers = tuple(
        ContainerState(
            card=container.card,
            index=container.index,
            substance=container.substance,
            role=container.role,
            places=(None,) * container.places,
        )
        for container in played_containers(catalog, laid)
    )
    return InstallationState(
        number=installation.number, owner=owner, arrangement=laid.text(), containers=containers
    )


def deal(
    catalog: Catalog,
    level: Level,
    players: int,
    seed: int,
    shape: Shape = "rectangle",
    house_rules: Sequence[str] | HouseRules = (),
) -> GameState:
    """Set up a game by the rules; SetupError (with the failing rules) if the box cannot.

    ``house_rules`` are names (``["armour-sum"]``) or a :class:`HouseRules`; an unknown name
    raises :class:`SetupError` naming the known ones.
    """
    try:
        house = (
            house_rules
            if isinstance(house_rules, HouseRules)
            else HouseRules.from_names(house_rules)
        )
    except HouseRuleError as error:
        raise SetupError(str(error)) from None
    checklist = check_setup(catalog, level, players)
    if not checklist.is_valid():
        failures = [f"{item.rule}: {item.text}" for item in checklist.failures]
        raise SetupError(
            f"level {level} for {players} players cannot be set up: " + "; ".join(failures),
            [item.rule for item in checklist.failures],
        )
    if not 0 <= seed < 1 << 64:
        raise SetupError(f"the seed is a whole number from 0 to 2**64 - 1, not {seed}")
    rng = Rng(seed)
    colours = [colour.id for colour in catalog.components.colours[:players]]
    coins = catalog.components.coins.count
    raw = raw_instances(catalog)
    rng.shuffle(raw)
    field: FieldState | None = None
    removed: tuple[str, ...] = ()
    warehouse: tuple[str, ...] = ()
    piles: tuple[tuple[str, ...], ...] = ()
    if level in ("1", "3"):
        fate = fate_instances(catalog)
        options = removal_options(len(fate), len(raw), WAREHOUSE_SIZE[level])
        removed_count = rng.choice(options)
        rng.shuffle(fate)
        removed, laid = tuple(fate[:removed_count]), fate[removed_count:]
        base, positions = field_positions(len(laid), shape, rng)
        cells = tuple(
            Cell(x=x, y=y, fate=fate_card, raw=raw_card)
            for (x, y), fate_card, raw_card in zip(positions, laid, raw, strict=False)
        )
        field = FieldState(shape=shape, base=base, cells=cells)
        warehouse = tuple(raw[len(laid) :])
    else:
        piles = tuple(tuple(raw[i::PILES_L2]) for i in range(PILES_L2))
    tokens = chemist_tokens(level, players, house)
    money = COINS_PER_PLAYER_L2 if level in ("2", "1v1") else 0
    bank = BANK_START_L2 if level in ("2", "1v1") else coins
    if level in ("2", "1v1") and house.bank_takes_the_rest:
        bank = coins - money * players  # the literal L2.S7: every coin not dealt (L2.S7.R1)
    box = coins - bank - money * players
    installations: list[InstallationState] = []
    unused: list[int] = []
    if level != "1":
        mains = list(catalog.installations)
        rng.shuffle(mains)
        if level == "1v1" and not house.any_installation:
            # Ruling V1.2-runnable: only installations that run alone are dealt (a stable sort
            # keeps the shuffled order among them); the others could never run without trades.
            mains.sort(key=lambda installation: not catalog.runs_alone(installation))
        each = len(mains) // players if house.deal_evenly and level != "1v1" else 1
        if level == "1v1" and not house.installation_at_random:
            # Ruling V1.2-choose: every installation that may be dealt is dealt face up, as
            # many to each player as divide evenly; each keeps one on their first turn.
            dealable = [i for i in mains if house.any_installation or catalog.runs_alone(i)]
            each = max(1, len(dealable) // players)
        electrolysers = [card.id for card in catalog.electrolysers]
        for index, installation in enumerate(mains):
            if index < each * players:
                owner: str | None = colours[index % players]
            elif level == "1v1":
                unused.append(installation.number)
                continue
            else:
                owner = None
            installations.append(_installation_state(catalog, installation, owner, electrolysers))
        installations.sort(key=lambda i: i.number)
    # Ruling L2.S7-fifth: the fifth of five players at level 2 takes coins from the Bank's.
    extra = FIFTH_SEAT_COINS_L2 if level == "2" and players == 5 and not house.equal_coins else 0
    bank -= extra
    player_states = tuple(
        Player(
            id=colour,
            money=money + (extra if seat == players - 1 else 0),
            tokens=tokens,
            combine=Combine(position=field.base) if field is not None else None,
        )
        for seat, colour in enumerate(colours)
    )
    missions = tuple(
        MissionState(
            id=mission.id,
            places=tuple((place.formula, (None,) * place.count) for place in mission.places),
        )
        for mission in catalog.missions
    )
    return GameState(
        level=level,
        seed=seed,
        rng=rng.state,
        house_rules=house,
        players=player_states,
        field=field,
        removed_fate=removed,
        warehouse=warehouse,
        piles=piles,
        bank=bank,
        box_coins=box,
        installations=tuple(installations),
        unused_installations=tuple(sorted(unused)),
        missions=missions if level != "1" else (),
    )
