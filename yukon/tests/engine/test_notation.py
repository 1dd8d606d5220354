"""Cards, moves, position text and deal numbers: the fixed notation and its errors."""

from __future__ import annotations

import pytest

from yukon.engine import (
    DEAL_ALGORITHM_VERSION,
    FOUNDATION,
    MAX_DEAL_NUMBER,
    DealNumberError,
    EngineError,
    NotationError,
    Position,
    UnknownVariantError,
    card_name,
    card_text,
    check_deal_number,
    deal_columns,
    get_variant,
    make_move,
    move_text,
    parse_card,
    parse_move,
)
from yukon.tests.engine.hand_positions import HAND_POSITIONS, HandPosition

HUGE = "9h>4" * 2500  # 10 kB


def test_every_card_round_trips() -> None:
    texts = [card_text(c) for c in range(52)]
    assert texts[:3] == ["Ac", "2c", "3c"]
    assert texts[12] == "Kc"
    assert texts[13] == "Ad"
    assert texts[51] == "Ks"
    assert [parse_card(t) for t in texts] == list(range(52))
    assert card_name(parse_card("9h")) == "nine of hearts"


def test_every_move_round_trips() -> None:
    for card in range(52):
        for dest in range(8):
            move = make_move(card, dest)
            text = move_text(move)
            assert parse_move(text) == (move, None)
    assert move_text(make_move(parse_card("Ac"), FOUNDATION)) == "Ac>F"
    assert move_text(make_move(parse_card("9h"), 3)) == "9h>4"
    assert parse_move("3:9h>4") == (make_move(parse_card("9h"), 3), 2)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("Zz", "no '>'"),
        ("Th>9", "unknown destination '9'"),
        ("Th>0", "unknown destination '0'"),
        ("Th>f", "unknown destination 'f'"),
        ("Th>", "no destination"),
        ("", "empty move"),
        ("Zz>4", "rank"),
        ("Tx>4", "suit"),
        (">4", "empty card"),
        ("8:9h>4", "source column"),
        ("9h4", "no '>'"),
        ("9h>4 ", "unknown destination"),
        ("1:9h>4>", "too long"),
    ],
)
def test_bad_move_text(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment) as info:
        parse_move(text)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, EngineError)


def test_huge_move_text_is_not_echoed() -> None:
    with pytest.raises(NotationError) as info:
        parse_move(HUGE)
    message = str(info.value)
    assert "too long" in message
    assert "10000 characters" in message
    assert len(message) < 200


@pytest.mark.parametrize("value", [None, 42, b"9h>4", ["9h>4"], 1.5])
def test_non_text_move(value: object) -> None:
    with pytest.raises(NotationError, match="not"):
        parse_move(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "A", "Ahh", "1h", "ah", "AH", "Ax", "10h", HUGE])
def test_bad_card_text(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_card(text)
    assert len(str(info.value)) < 200


def test_non_text_card() -> None:
    with pytest.raises(NotationError):
        parse_card(7)  # type: ignore[arg-type]


@pytest.mark.parametrize("hand", HAND_POSITIONS, ids=[h.name for h in HAND_POSITIONS])
def test_position_text_round_trips(hand: HandPosition) -> None:
    text = hand.text
    assert Position.from_text(text).to_text() == text


GOOD = HAND_POSITIONS[1].text


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", NotationError),
        ("yukon", NotationError),
        (GOOD + " 1", NotationError),  # six fields
        (GOOD.replace("yukon", "klondike"), UnknownVariantError),
        (GOOD.replace("yukon", "yukon+undo"), UnknownVariantError),
        (GOOD.replace("./Jd.", "/Jd.", 1), NotationError),  # column 1 has no '.'
        (GOOD.replace("/.Ks/", "/.Ks/./", 1), NotationError),  # 8 columns
        (GOOD.replace("TT88", "TT8"), NotationError),
        (GOOD.replace("TT88", "TT8x"), NotationError),
        (GOOD.replace("TT88", "TT89"), NotationError),  # 9s twice
        (GOOD.replace("TT88", "TT87"), NotationError),  # 8s missing
        (GOOD.replace(".Ks", "Ks."), NotationError),  # face-down card with nothing on it
        (GOOD.replace(".Ks", ".Kz"), NotationError),
        (GOOD.replace(".Ks", ".K"), NotationError),
        (GOOD.replace(" 445 ", " -5 "), NotationError),
        (GOOD.replace(" 80", " 8x"), NotationError),
        (GOOD.replace(" 80", " ٨"), NotationError),  # non-ASCII digit
        (HUGE, NotationError),
    ],
)
def test_bad_position_text(text: str, error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        Position.from_text(text)
    assert len(str(info.value)) < 300


def test_non_text_position() -> None:
    with pytest.raises(NotationError):
        Position.from_text(None)  # type: ignore[arg-type]


def test_deal_numbers() -> None:
    assert DEAL_ALGORITHM_VERSION == 1
    assert MAX_DEAL_NUMBER == 2**64 - 1
    assert check_deal_number(0) == 0
    assert check_deal_number(2**64 - 1) == 2**64 - 1
    assert len(deal_columns(2**64 - 1)) == 7


BAD_NUMBERS = [2**64, -1, True, False, 1.0, "1", None, 10**5000, -(10**5000)]


@pytest.mark.parametrize(
    "number",
    BAD_NUMBERS,
    ids=["2**64", "-1", "True", "False", "1.0", "'1'", "None", "huge", "-huge"],
)
def test_bad_deal_numbers(number: object) -> None:
    with pytest.raises(DealNumberError) as info:
        Position.deal(number)  # type: ignore[arg-type]
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("name", ["Yukon", "", "klondike", "yukon+", "yukon+x", None, 3])
def test_bad_variant_names(name: object) -> None:
    with pytest.raises(UnknownVariantError):
        get_variant(name)  # type: ignore[arg-type]
    with pytest.raises(UnknownVariantError):
        Position.deal(0, name)  # type: ignore[arg-type]


def test_variant_lookup() -> None:
    for name in ("yukon", "russian", "alaska", "moosehide", "moosehide-runs"):
        assert get_variant(name).name == name
        assert get_variant(name + "+takeback").foundation_takeback
    assert get_variant("yukon").build_rule == "Yukon builds down in alternating colour"
