"""Values and model errors in words: no Python repr reaches a reader, whatever the value."""

from __future__ import annotations

import datetime
import math
import re
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mhp_cards.wording import found, listing, model_error, model_error_text, shown

#: What Python prints and a reader does not write: list and tuple reprs of text, None, dates,
#: sets, objects, pydantic's own phrases.
PYTHON_REPR = re.compile(
    r"\['|\('|\bNone\b|\bTrue\b|\bFalse\b|datetime\.|frozenset\(|\bset\(|<[a-z_.]+ object at|"
    r"Input should|Field required|Value error|Extra inputs"
)

values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.dates().map(lambda day: day),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=8,
)


def _unquoted(text: str) -> str:
    """``text`` with quoted values (the reader's own text) left out."""
    return re.sub(r"'[^']*'|\"[^\"]*\"", "Q", text)


@given(values)
def test_a_value_is_shown_as_its_reader_writes_it(value: Any) -> None:
    text = shown(value)
    assert not PYTHON_REPR.search(_unquoted(text)), text
    assert len(text) <= 40


@given(st.lists(st.text(min_size=1, max_size=6), max_size=5))
def test_a_listing_reads_as_a_sentence(items: list[str]) -> None:
    text = listing(items)
    assert "['" not in text
    for item in items:
        assert item in text
    if len(items) >= 2:
        assert f" and {items[-1]}" in text


def test_listing_cards() -> None:
    assert listing(["water-ice#5", "calcite#1"]) == "water-ice#5 and calcite#1"
    assert listing(["a", "b", "c"], "or") == "a, b or c"
    assert listing([]) == "nothing"


def test_found() -> None:
    assert found("5") == "'5' is text"
    assert found(None) == "the value is empty"
    assert found(datetime.date(2024, 5, 1)) == "2024-05-01 is a date"
    assert found([4.0, 3.0]) == "[4.0, 3.0] is a list"


class Sample(BaseModel):
    """A model with every kind of constraint the project's models use."""

    model_config = ConfigDict(extra="forbid", strict=True)
    share: Annotated[float, Field(ge=0, le=1)] = 0.5
    count: Annotated[int, Field(gt=0)] = 1
    name: Annotated[str, Field(min_length=1)] = "x"
    level: Literal["1", "2"] = "1"
    items: Annotated[tuple[int, ...], Field(max_length=2)] = ()
    flag: bool = False
    need: int


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            {"need": 1, "share": math.nan},
            "nan is not a number (write a number, at most 1)",
        ),
        ({"need": 1, "share": math.inf}, "inf is not a finite number"),
        ({"need": 1, "share": 2.0}, "2.0 is too large (at most 1)"),
        ({"need": 1, "count": 0}, "0 is too small (more than 0)"),
        ({"need": 1, "count": "5"}, "'5' is text, expected a whole number"),
        ({"need": 1, "count": 4.0}, "4.0 is a decimal number, expected a whole number"),
        ({"need": 1, "name": ""}, "empty text (write a value)"),
        ({"need": 1, "level": "3"}, "'3' is not one of '1' or '2'"),
        ({"need": 1, "items": (1, 2, 3)}, "3 item(s), at most 2 allowed"),
        ({"need": 1, "flag": "yes"}, "'yes' is text, expected true or false"),
        ({"need": None}, "the value is empty, expected a whole number"),
        ({}, "missing (add need: …)"),
        ({"need": 1, "extra": 1}, "unknown key 'extra'"),
    ],
)
def test_a_pydantic_error_in_words(data: dict[str, Any], expected: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Sample.model_validate(data)
    [detail] = caught.value.errors()
    text = model_error_text(detail)
    assert text.startswith(expected), text
    assert not PYTHON_REPR.search(text), text


@given(st.dictionaries(st.sampled_from(["share", "count", "name", "level", "items"]), values))
def test_no_pydantic_error_reads_as_python(data: dict[str, Any]) -> None:
    try:
        Sample.model_validate({"need": 1, **data})
    except ValidationError as error:
        for detail in error.errors():
            message, hint = model_error(detail)
            assert message
            for text in (message, hint):
                # the value found is shown as the reader wrote it: look past quoted text
                assert not PYTHON_REPR.search(_unquoted(text)), text
