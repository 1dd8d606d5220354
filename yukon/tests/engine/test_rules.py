"""The rules, pinned on hand-counted positions (see hand_positions.py for the counting)."""

from __future__ import annotations

import pytest

from yukon.engine import (
    MAX_SCORE,
    IllegalMoveError,
    Position,
    UnknownVariantError,
    card_text,
    get_variant,
    move_text,
    parse_move,
)
from yukon.tests.engine.hand_positions import A1, HAND_POSITIONS, M2, Y1, Y2, HandPosition

ALL_MOVES = range(52 * 8)


def legal_texts(position: Position) -> list[str]:
    return sorted(move_text(m) for m in position.legal_moves())


@pytest.mark.parametrize("hand", HAND_POSITIONS, ids=[h.name for h in HAND_POSITIONS])
def test_hand_counted_legal_moves(hand: HandPosition) -> None:
    position = Position.from_text(hand.text)
    moves = position.legal_moves()
    assert len(moves) == len(set(moves)), "a move is generated twice"
    assert legal_texts(position) == hand.legal
    # The checker agrees with the generator on every one of the 416 possible moves.
    legal = set(moves)
    for move in ALL_MOVES:
        assert (position.illegal_reason(move) is None) == (move in legal), move_text(move)


def play(position: Position, text: str) -> str | None:
    _, turned = position.play_text(text)
    return None if turned is None else card_text(turned)


def reason(position: Position, text: str) -> str:
    move = parse_move(text).move
    why = position.illegal_reason(move)
    assert why is not None, f"{text} should be illegal"
    return why


def test_buried_king_takes_its_unordered_pile_into_an_empty_column() -> None:
    position = Position.from_text("yukon " + Y1)
    assert play(position, "Kh>1") == "Jd"  # the card under Kh turns
    assert position.to_text().startswith("yukon .Kh9sQc/.Jd/")
    assert position.score == 445 + 5


def test_unordered_group_moves_and_only_its_bottom_card_is_checked() -> None:
    position = Position.from_text("yukon " + Y1)
    play(position, "9s>4")  # 9s carries Qc, which sits on nothing it fits
    assert position.to_text().split()[1].split("/")[3] == "Qd.Th9sQc"


def test_no_group_move_to_a_foundation() -> None:
    position = Position.from_text("yukon " + Y1)
    assert "exposed" in reason(position, "9s>F")  # 9s is next for spades but Qc is on it


def test_only_kings_enter_an_empty_column() -> None:
    position = Position.from_text("yukon " + Y1)
    assert "only a King" in reason(position, "Qh>1")
    # A King already at the bottom of its column is not offered an empty column.
    assert "bottom" in reason(position, "Ks>1")


def test_nothing_goes_on_an_ace() -> None:
    for text in (
        "yukon " + Y2,
        "yukon " + A1,
        "russian " + A1,
        "moosehide " + A1,
        "moosehide-runs " + A1,
    ):
        position = Position.from_text(text)
        ace_column = 1  # column 1 (index 0) ends with Ah in Y2 and A1
        for move in position.legal_moves():
            assert move & 7 != ace_column - 1, move_text(move)
    position = Position.from_text("yukon " + A1)
    assert "cannot go on Ah" in reason(position, "2h>1")
    assert "cannot go on Ah" in reason(position, "Kh>1")  # no wrap-around


def test_alaska_builds_up_and_down_in_suit_without_wrapping() -> None:
    position = Position.from_text("alaska " + A1)
    assert position.is_legal(parse_move("2h>1").move)  # up onto the Ace
    assert position.is_legal(parse_move("Ah>2").move)  # down onto the 2
    assert position.is_legal(parse_move("Ks>4").move)  # a King onto its Queen
    assert "cannot go on Ah" in reason(position, "Kh>1")
    assert "cannot go on Qs" in reason(position, "Jh>4")  # Alaska still needs the suit


def test_moosehide_runs_rejects_an_unordered_pile() -> None:
    position = Position.from_text("moosehide-runs " + Y1)
    before = position.to_text()
    for text in ("9s>4", "Kh>1", "Jh>2"):
        assert "ordered run" in reason(position, text)
        with pytest.raises(IllegalMoveError):
            position.play_text(text)
        assert position.to_text() == before


def test_moosehide_runs_moves_an_ordered_run() -> None:
    position = Position.from_text("moosehide-runs " + M2)
    assert play(position, "Kh>1") == "3h"
    assert position.to_text().split()[1].split("/")[0] == ".KhQsJh"
    assert play(position, "Qh>7") == "5h"


def test_moosehide_builds_on_any_suit_but_the_cards_own() -> None:
    position = Position.from_text("moosehide " + Y1)
    # black on black, red on red: any suit but the card's own
    assert play(position.copy(), "Js>2") is None  # Js onto Qc
    assert play(position.copy(), "Qc>3") is None  # Qc onto Ks
    # an unordered pile moves as in Yukon: 9s carries Qc onto Th
    assert play(position.copy(), "9s>4") is None
    assert "any suit but the card's own" in reason(position, "Ts>7")  # Ts onto Js
    assert "cannot go on" in reason(position, "Jh>5")  # Jh onto Qh: same suit


def test_old_moosehide_rules_are_found_by_their_version() -> None:
    assert get_variant("moosehide").rules_version == 2
    assert get_variant("moosehide", rules_version=2).name == "moosehide"
    assert get_variant("moosehide", rules_version=1).name == "moosehide-runs"
    assert get_variant("moosehide+takeback", rules_version=1).key == "moosehide-runs+takeback"
    assert get_variant("yukon", rules_version=1).name == "yukon"
    for name, version in (("moosehide", 3), ("yukon", 2)):
        with pytest.raises(UnknownVariantError, match="no rules version"):
            get_variant(name, rules_version=version)


def test_every_uncovered_card_turns_and_scores_five() -> None:
    expected = {"Ah>F": "2h", "Ks>3": "3h", "Qh>2": "5h", "Jh>7": "8h", "9h>5": None, "Ts>F": "6h"}
    base = Position.from_text("yukon " + Y2)
    assert sorted(expected) == legal_texts(base)
    for text, turned in expected.items():
        position = base.copy()
        assert play(position, text) == turned
        points = (10 if text.endswith(">F") else 0) + (5 if turned else 0)
        assert position.score == base.score + points
        assert position.moves == base.moves + 1
        for col, down in zip(position.cols, position.down, strict=True):
            assert not col or down < len(col), "a face-down card was left uncovered"


def test_a_card_on_a_foundation_stays_there() -> None:
    position = Position.from_text("yukon " + Y2)
    play(position, "Ah>F")
    for dest in "1234567":
        assert "stays there" in reason(position, f"Ah>{dest}")
    position = Position.from_text("yukon " + Y1)
    assert "stays there" in reason(position, "Td>7")


def test_foundation_takeback_option() -> None:
    variant = get_variant("yukon", foundation_takeback=True)
    assert variant is get_variant("yukon+takeback")
    assert variant.key == "yukon+takeback"
    assert not get_variant("yukon").foundation_takeback
    position = Position.from_text("yukon " + Y1)
    position.variant = variant
    before = position.to_text()
    assert before.startswith("yukon+takeback ")
    assert play(position, "Td>7") is None
    assert position.score == 445 - 10
    assert position.to_text().split()[2] == "T988"
    assert "not the top card" in reason(position, "8d>6")
    assert "already home" in reason(position, "Tc>F")
    position.undo()
    assert position.to_text() == before
    # A King taken back may enter an empty column.
    kings = Position.from_text("yukon+takeback " + Y2)
    play(kings, "Kc>3")
    assert kings.to_text().split()[1].split("/")[2] == ".Kc"


def test_face_down_cards_do_not_move() -> None:
    position = Position.from_text("yukon " + Y1)
    assert "face down" in reason(position, "Jd>F")
    assert "face down" in reason(position, "Kd>1")


def test_source_column_prefix_is_checked() -> None:
    position = Position.from_text("yukon " + Y1)
    assert position.parse_move("2:Kh>1") == parse_move("Kh>1").move
    with pytest.raises(IllegalMoveError, match="column 3"):
        position.parse_move("3:Kh>1")


def test_rejected_moves_leave_the_position_unchanged() -> None:
    for hand in HAND_POSITIONS:
        position = Position.from_text(hand.text)
        before = position.to_text()
        for move in ALL_MOVES:
            if position.illegal_reason(move) is not None:
                with pytest.raises(IllegalMoveError):
                    position.play(move)
        assert position.to_text() == before
        assert not position.can_undo


def test_won_and_stuck() -> None:
    won = Position.from_text("yukon ././././././. KKKK 625 200")
    assert won.is_won()
    assert won.status == "won"
    assert won.score == MAX_SCORE == 625
    assert not won.is_stuck()
    assert won.legal_moves() == []
    # Only clubs and spades from 9 up are out: all black, so nothing fits anywhere in
    # Yukon (alternating colour). 9c is face down and 9s is under Ks, so nothing goes
    # home; no column is empty, so no King moves. Stuck.
    stuck = Position.from_text("yukon .Kc/.Qc/.Js/.Ts/Qs9c.9sKs/.Jc/.Tc 8KK8 515 90")
    assert stuck.legal_moves() == []
    assert stuck.is_stuck()
    assert stuck.status == "stuck"
    # The same cards in Russian (in suit) do move: Qc onto Kc, for one.
    russian = Position.from_text("russian .Kc/.Qc/.Js/.Ts/Qs9c.9sKs/.Jc/.Tc 8KK8 515 90")
    assert russian.status == "playing"
    assert "Qc>1" in legal_texts(russian)


def test_undo_walks_back_to_the_start() -> None:
    position = Position.from_text("yukon " + Y1)
    start = position.to_text()
    texts = []
    for text in ("Kh>1", "Th>7", "Qh>3", "Jc>F"):
        play(position, text)
        texts.append(position.to_text())
    for expected in reversed([start, *texts[:-1]]):
        position.undo()
        assert position.to_text() == expected
    assert not position.can_undo
