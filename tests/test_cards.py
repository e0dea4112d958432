import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardodds.cards import (
    UNKNOWN, card_rank, card_str, card_suit, card_value, format_cards, make_card, parse_card, parse_cards,
)


@pytest.mark.parametrize("token", ["Ah", "ah", "AH", "A♥", "a♡"])
def test_ace_of_hearts_in_every_form(token):
    assert parse_card(token) == 12 * 4 + 2


@pytest.mark.parametrize("token,code", [("10h", 34), ("Th", 34), ("td", 33), ("2c", 0), ("As", 51), ("j♠", 39)])
def test_ranks_and_suits(token, code):
    assert parse_card(token) == code


def test_encoding_is_rank_major():
    assert make_card(rank=3, suit=2) == 14
    assert (card_rank(14), card_suit(14), card_value(14)) == (3, 2, 5)
    assert card_value(parse_card("Ks")) == 13 and card_value(parse_card("2d")) == 2


def test_unknown_card():
    assert parse_card("?", allow_unknown=True) == UNKNOWN
    assert parse_cards("9h ? ?", allow_unknown=True) == [30, UNKNOWN, UNKNOWN]
    with pytest.raises(ValueError, match="unknown card"):
        parse_card("?")


@pytest.mark.parametrize("token", ["1h", "11h", "Ax", "h", "", "Ahh", "10", "B♥"])
def test_bad_token_names_token_and_forms(token):
    with pytest.raises(ValueError) as err:
        parse_card(token)
    assert repr(token) in str(err.value) and "'10h'" in str(err.value)


def test_duplicate_card_is_refused():
    with pytest.raises(ValueError, match="Ah is given twice"):
        parse_cards("Ah ks AH")
    assert parse_cards("Ah Ah", allow_duplicates=True) == [50, 50]


def test_separators_and_printing():
    assert parse_cards("Ah, Kd  Qc") == [50, 45, 40]
    assert format_cards([50, 45, 40]) == "Ah Kd Qc"
    assert card_str(50, symbols=True) == "A♥"
    assert card_str(UNKNOWN) == "?"


@given(st.lists(st.integers(0, 51), unique=True, max_size=52), st.booleans())
def test_print_then_parse_roundtrip(cards, symbols):
    assert parse_cards(format_cards(cards, symbols=symbols)) == cards


@given(st.text(max_size=6))
def test_any_text_parses_or_raises_valueerror(text):
    try:
        c = parse_card(text, allow_unknown=True)
    except ValueError:
        return
    assert c == UNKNOWN or 0 <= c < 52
