"""Actions made once and shared: the referee's listings hand out the same values again.

An action is a frozen value, so the listing makes each once (by its class and fields) and
shares it: a later listing that names the same action hands out the same object, and the
engine recognises the actions of its last listing by identity. The values are built the quick
way (:func:`construct`), not validated again: their fields come from the state.
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from mhp_cards.referee.actions import BuyRaw, ProductRef, SellRaw

__all__ = [
    "MADE",
    "MADE_LIMIT",
    "action_of",
    "construct",
    "kind_of",
    "new_action",
    "per_card",
    "place_of",
]


#: Actions already made, by class and fields: an action is a frozen value, so one can be shared.
MADE: dict[tuple[Any, ...], Any] = {}


MADE_LIMIT: Final = 200_000


M = TypeVar("M", bound=BaseModel)


C = TypeVar("C", SellRaw, BuyRaw)


def per_card(kind: type[C], cards: tuple[str, ...]) -> tuple[C, ...]:
    """One action per card, made once per tuple of cards."""
    key = (kind, cards)
    made: tuple[C, ...] | None = MADE.get(key)
    if made is None:
        made = MADE[key] = tuple(action_of(kind, card=card) for card in cards)
    return made


def action_of(kind: type[M], **fields: Any) -> M:
    """The action (or product place) ``kind(**fields)``, made once without validation."""
    key = (kind, *fields.items())
    made = MADE.get(key)
    if made is None:
        if len(MADE) >= MADE_LIMIT:
            MADE.clear()
        made = MADE[key] = construct(kind, fields)
    return made


def new_action(kind: type[M], fields: dict[str, Any]) -> M:
    """The action made anew, for a caller that keeps it under its own key.

    :func:`action_of`'s key would hold the product place, a model slow to hash.
    """
    if len(MADE) >= MADE_LIMIT:
        MADE.clear()
    return construct(kind, fields)


def construct(kind: type[M], fields: dict[str, Any]) -> M:
    """What ``kind.model_construct(**fields)`` makes, made the quick way where it can be.

    For a model with plain defaults (no aliases, factories or post-init hook) and every
    required field given, the instance is set up directly: the same fields in the same order,
    the same fields set; pydantic's general construction costs several times more.
    """
    plan = _PLANS.get(kind)
    if plan is None:
        plan = _PLANS[kind] = _plan_of(kind)
    defaults, required = plan
    if defaults is None or not required <= fields.keys():
        return kind.model_construct(**fields)
    made = kind.__new__(kind)
    object.__setattr__(made, "__dict__", defaults | fields)  # in the order of the fields
    object.__setattr__(made, "__pydantic_fields_set__", set(fields))
    object.__setattr__(made, "__pydantic_extra__", None)
    object.__setattr__(made, "__pydantic_private__", None)
    return made


def _plan_of(kind: type[BaseModel]) -> tuple[dict[str, Any] | None, frozenset[str]]:
    """Each field with its default (None for a required one), and the required fields.

    The defaults are None when the model is not plain enough to be made without pydantic.
    """
    if kind.__pydantic_post_init__ or kind.model_config.get("extra") == "allow":
        return None, frozenset()
    defaults: dict[str, Any] = {}
    required = set()
    for name, field in kind.model_fields.items():
        if field.alias is not None or field.validation_alias is not None:
            return None, frozenset()
        if field.default_factory is not None:
            return None, frozenset()
        if field.default is PydanticUndefined:
            required.add(name)
            defaults[name] = None  # a place in the order, always given
        else:
            defaults[name] = field.default
    return defaults, frozenset(required)


_PLANS: dict[type[BaseModel], tuple[dict[str, Any] | None, frozenset[str]]] = {}


def place_of(ref: ProductRef) -> tuple[int, str, int]:
    """A product place's fields as a plain key (the model itself is slow to hash)."""
    return ref.installation, ref.card, ref.container


def kind_of(card: str) -> str:
    """The kind of a raw card ID (``basalt#2`` → ``basalt``)."""
    return card.partition("#")[0]
