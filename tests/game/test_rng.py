"""The game's random generator: SplitMix64 whose whole state is one integer."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mhp_cards.game import Rng

MASK = (1 << 64) - 1
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


# --- the algorithm --------------------------------------------------------------------------------


def test_known_answer_of_splitmix64() -> None:
    # The published SplitMix64 sequence for seed 0 (Steele, Lea & Flood; Vigna's reference C code).
    rng = Rng(0)
    assert [rng.next64() for _ in range(4)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
    ]


def test_seed_is_reduced_to_64_bits() -> None:
    assert Rng(2**64 + 5).state == 5
    assert Rng(-1).state == MASK
    first = Rng(2**64 + 5)
    second = Rng(5)
    assert [first.next64() for _ in range(10)] == [second.next64() for _ in range(10)]


@given(SEEDS)
def test_outputs_and_state_stay_within_64_bits(seed: int) -> None:
    rng = Rng(seed)
    for _ in range(20):
        assert 0 <= rng.next64() <= MASK
        assert 0 <= rng.state <= MASK


# --- determinism and saving -----------------------------------------------------------------------


@given(SEEDS)
def test_same_seed_same_numbers(seed: int) -> None:
    first, second = Rng(seed), Rng(seed)
    assert [first.randrange(1000) for _ in range(50)] == [second.randrange(1000) for _ in range(50)]
    assert first.state == second.state


def test_different_seeds_different_numbers() -> None:
    sequences = {tuple(Rng(seed).next64() for _ in range(4)) for seed in range(100)}
    assert len(sequences) == 100


@given(SEEDS, st.integers(min_value=0, max_value=200))
def test_saved_state_continues_exactly(seed: int, drawn: int) -> None:
    rng = Rng(seed)
    for _ in range(drawn):
        rng.randrange(6)
    saved = json.loads(json.dumps({"rng": rng.state}))["rng"]
    continued = Rng(saved)
    assert [rng.die() for _ in range(30)] == [continued.die() for _ in range(30)]
    items = list(range(20))
    again = list(range(20))
    rng.shuffle(items)
    continued.shuffle(again)
    assert items == again


@given(SEEDS, st.integers(min_value=0, max_value=100))
def test_advanced_equals_drawing_and_leaves_the_original(seed: int, draws: int) -> None:
    rng = Rng(seed)
    moved = rng.advanced(draws)
    assert rng.state == Rng(seed).state, "advanced() must not move the original"
    reference = Rng(seed)
    for _ in range(draws):
        reference.next64()
    assert moved.state == reference.state
    assert moved.next64() == reference.next64()


# --- randrange ------------------------------------------------------------------------------------


@given(SEEDS, st.integers(min_value=1, max_value=2**64))
def test_randrange_within_bounds(seed: int, bound: int) -> None:
    rng = Rng(seed)
    for _ in range(10):
        assert 0 <= rng.randrange(bound) < bound


def test_randrange_of_one_is_always_zero() -> None:
    rng = Rng(3)
    assert {rng.randrange(1) for _ in range(100)} == {0}


@pytest.mark.parametrize("bound", [0, -1, -6])
def test_randrange_needs_a_positive_bound(bound: int) -> None:
    rng = Rng(1)
    with pytest.raises(ValueError, match="positive"):
        rng.randrange(bound)


def test_choice_of_nothing_is_an_error() -> None:
    with pytest.raises(ValueError, match="positive"):
        Rng(1).choice([])


@pytest.mark.parametrize("seed", [0, 1, 20190501])
def test_die_is_roughly_uniform(seed: int) -> None:
    # 60 000 rolls: 10 000 expected per face. The chi-square statistic has 5 degrees of freedom;
    # 30 is far out in its tail (p ≈ 1.5e-5), so a fair die passes and a biased one does not.
    rng = Rng(seed)
    rolls = Counter(rng.die() for _ in range(60_000))
    assert sorted(rolls) == [1, 2, 3, 4, 5, 6]
    chi_square = sum((count - 10_000) ** 2 / 10_000 for count in rolls.values())
    assert chi_square < 30, rolls


def test_randrange_has_no_modulo_bias() -> None:
    # 2**64 = 4 × 2**62, so for a bound of 3 × 2**62 plain "next64() % n" would land below 2**62
    # half the time instead of a third.
    bound = 3 * 2**62
    rng = Rng(11)
    below = sum(1 for _ in range(6000) if rng.randrange(bound) < 2**62)
    assert abs(below / 6000 - 1 / 3) < 0.03, below


def test_die_sides() -> None:
    rng = Rng(5)
    assert {rng.die(20) for _ in range(2000)} == set(range(1, 21))
    assert {rng.die(2) for _ in range(200)} == {1, 2}


class _Bounded(Rng):
    """An Rng that gives up after a number of draws instead of spinning for ever."""

    __slots__ = ("draws",)

    def __init__(self, state: int) -> None:
        super().__init__(state)
        self.draws = 0

    def next64(self) -> int:
        self.draws += 1
        if self.draws > 10_000:
            raise RuntimeError("randrange drew 10 000 numbers without answering")
        return super().next64()


def test_randrange_above_64_bits_answers_or_refuses() -> None:
    rng = _Bounded(1)
    try:
        value = rng.randrange(2**64 + 1)
    except ValueError:
        return
    assert 0 <= value <= 2**64


# --- shuffle and choice ---------------------------------------------------------------------------


@given(SEEDS, st.lists(st.integers(), max_size=60))
def test_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    shuffled = list(items)
    Rng(seed).shuffle(shuffled)
    assert Counter(shuffled) == Counter(items)


def test_shuffle_reaches_every_order_evenly() -> None:
    rng = Rng(99)
    orders = Counter()
    for _ in range(6000):
        items = ["a", "b", "c"]
        rng.shuffle(items)
        orders[tuple(items)] += 1
    assert set(orders) == set(itertools.permutations("abc"))
    assert all(800 < count < 1200 for count in orders.values()), orders


def test_shuffle_of_nothing_and_one() -> None:
    rng = Rng(4)
    empty: list[int] = []
    rng.shuffle(empty)
    single = [7]
    rng.shuffle(single)
    assert empty == []
    assert single == [7]


def test_choice_picks_every_item() -> None:
    rng = Rng(8)
    items = ("red", "blue", "green")
    picks = Counter(rng.choice(items) for _ in range(3000))
    assert set(picks) == set(items)
    assert all(850 < count < 1150 for count in picks.values()), picks
