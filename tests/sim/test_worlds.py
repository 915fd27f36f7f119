"""Worlds sampled from a view: what it hides, worked out once, deals the same worlds."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import view
from mhp_cards.game.dealer import raw_instances
from mhp_cards.game.visibility import is_hidden
from mhp_cards.sim.worlds import determinise, unseen
from tests.sim.conftest import played


@pytest.mark.parametrize(("level", "players"), [("1", 3), ("2", 2), ("1v1", 2), ("3", 4)])
def test_the_unseen_cards_are_the_box_less_every_card_in_sight(
    catalog: Catalog, level: str, players: int
) -> None:
    seen = view(played(catalog, level, players, seed=3, steps=25), "red")
    pool = unseen(seen, catalog)
    shown = Counter(card for card, _ in seen.raw_locations() if not is_hidden(card))
    assert Counter(pool) + shown == Counter(raw_instances(catalog))
    hidden = sum(1 for card, _ in seen.raw_locations() if is_hidden(card))
    assert 0 < hidden <= len(pool)


@pytest.mark.parametrize("level", ["1", "2", "1v1", "3"])
def test_a_world_dealt_from_the_unseen_worked_out_once_is_the_world_dealt_afresh(
    catalog: Catalog, level: str
) -> None:
    seen = view(played(catalog, level, 2, seed=8, steps=30), "blue")
    pool = unseen(seen, catalog)
    for sample in range(5):
        once = determinise(seen, catalog, random.Random(sample), pool=pool)
        afresh = determinise(seen, catalog, random.Random(sample))
        assert once == afresh
        assert view(once, "blue") == seen
    # The cards worked out are not used up by a world: the next deals from all of them.
    assert unseen(seen, catalog) == pool


def test_a_view_hiding_more_cards_than_the_box_has_unseen_is_refused(catalog: Catalog) -> None:
    seen = view(played(catalog, "2", 2, seed=1, steps=10), "red")
    with pytest.raises(ValueError, match=r"hides \d+ raw cards but only 0 are unseen"):
        unseen(seen, catalog, box=())
    with pytest.raises(ValueError, match=r"hides \d+ raw cards but only 0 are unseen"):
        determinise(seen, catalog, random.Random(0), box=())
    assert len(unseen(seen, catalog)) > 0
