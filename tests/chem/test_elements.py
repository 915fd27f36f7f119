import pytest

from mhp_cards import ELEMENTS


def test_all_118_elements_in_order() -> None:
    assert len(ELEMENTS) == 118
    assert [e.number for e in ELEMENTS.values()] == list(range(1, 119))
    assert len({e.symbol for e in ELEMENTS.values()}) == 118


def test_weights_agree_with_molmass() -> None:
    """Cross-check against an independent table; catches typing mistakes in ours."""
    molmass = pytest.importorskip("molmass.elements")
    for element in molmass.ELEMENTS:
        ours = ELEMENTS[element.symbol]
        assert ours.number == element.number
        if ours.radioactive:
            assert abs(ours.atomic_weight - element.mass) < 6, element.symbol
        else:
            assert ours.atomic_weight == pytest.approx(element.mass, rel=1e-3), element.symbol
