"""Double, Triple and Quadruple Yukon: layouts, deals, notation, foundations, replay, CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from yukon.engine import (
    VARIANTS,
    EngineError,
    IllegalMoveError,
    NotationError,
    Position,
    UnknownVariantError,
    card_text,
    get_variant,
    replay,
)
from yukon.engine.deal import shuffled_deck
from yukon.tests.engine.hand_positions import MULTI_DECK_HAND_POSITIONS

VECTORS = json.loads((Path(__file__).resolve().parent / "vectors" / "multi-deck.json").read_text())
ROOT = Path(__file__).resolve().parents[3]
HAND_DOUBLE = MULTI_DECK_HAND_POSITIONS[0].text
FULL_DOUBLE = Position.from_text(HAND_DOUBLE).to_text()  # with its decks field


LAYOUTS = {
    "double-yukon": (2, 10, (0, 1, 2, 3, 4, 5, 6, 7, 8, 8), (6,) * 10, 1260),
    "triple-yukon": (3, 13, tuple(range(13)), (6,) * 13, 1950),
    "quadruple-yukon": (4, 16, tuple(range(16)), (6,) * 8 + (5,) * 8, 2680),
}


@pytest.mark.parametrize("name", LAYOUTS)
def test_layouts(name: str) -> None:
    decks, columns, face_down, face_up, max_score = LAYOUTS[name]
    variant = VARIANTS[name]
    assert (variant.decks, variant.columns, variant.foundations) == (decks, columns, 4 * decks)
    assert variant.face_down == face_down
    assert variant.face_up == face_up
    assert min(variant.face_up) >= 5
    assert sum(variant.column_sizes) == variant.cards == 52 * decks  # every card dealt
    assert variant.layout_version == 1
    assert variant.max_score == max_score == 5 * sum(face_down) + 10 * 52 * decks


def test_deal_vectors_cover_0_1_and_the_last_deal() -> None:
    pairs = {(d["variant"], d["number"]) for d in VECTORS["deals"]}
    for name in ("double-yukon", "triple-yukon", "quadruple-yukon"):
        assert {(name, "0"), (name, "1"), (name, str(2**64 - 1))} <= pairs


@pytest.mark.parametrize(
    "deal", VECTORS["deals"], ids=[f"{d['variant']}-{d['number']}" for d in VECTORS["deals"]]
)
def test_deal_vector(deal: dict[str, Any]) -> None:
    number = int(deal["number"])
    position = Position.deal(number, deal["variant"])
    decks = position.variant.decks
    pack = shuffled_deck(number, decks)
    assert [card_text(c) for c in pack] == deal["deck"]
    assert [c // 52 + 1 for c in pack] == deal["copies"]
    # Every card of every deck once: each face `decks` times.
    assert Counter(deal["deck"]) == Counter({card_text(c): decks for c in range(52)})
    assert position.down == deal["face_down"] == list(position.variant.face_down)
    assert [len(col) for col in position.cols] == deal["column_sizes"]
    assert [c for col in position.cols for c in col] == pack  # dealt in turn, bottom first
    assert position.to_text() == deal["text"]


def test_one_deck_shuffle_is_unchanged() -> None:
    """The multi-deck shuffle is the same algorithm: with one deck it is Yukon's."""
    assert shuffled_deck(42, 1) == shuffled_deck(42)
    assert [c for col in Position.deal(42, "yukon").cols for c in col] == shuffled_deck(42)


@pytest.mark.parametrize(
    "entry", VECTORS["positions"], ids=[p["name"] for p in VECTORS["positions"]]
)
def test_position_vector(entry: dict[str, Any]) -> None:
    position = Position.from_text(entry["text"])
    # A hand-written text leaves the decks field out (copies numbered in order).
    fields = len(entry["text"].split())
    assert " ".join(position.to_text().split()[:fields]) == entry["text"]
    legal = sorted(position.move_text(m) for m in position.legal_moves())
    assert legal == entry["legal"]
    for text in entry["legal"]:  # every text names its move, and plays
        copy = position.copy()
        copy.play_text(text)


@pytest.mark.parametrize("hand", MULTI_DECK_HAND_POSITIONS, ids=lambda h: h.name)
def test_hand_counted_positions(hand: Any) -> None:
    position = Position.from_text(hand.text)
    assert sorted(position.move_text(m) for m in position.legal_moves()) == hand.legal
    assert hand.legal == sorted(hand.legal)
    exported = {p["name"]: p for p in VECTORS["positions"]}
    assert exported[hand.name]["legal"] == hand.legal


@pytest.mark.parametrize("game", VECTORS["games"], ids=[g["name"] for g in VECTORS["games"]])
def test_game_vector(game: dict[str, Any]) -> None:
    result = replay(int(game["deal"]), game["variant"], game["moves"])
    assert result.error is None
    assert result.score == game["score"]
    assert result.position.to_text() == game["final"]
    assert [None if c is None else card_text(c) for c in result.turned] == game["turned"]


# ----- notation: every bad input says what is wrong -----------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Ts>1", "does not name its source column"),
        ("11:Ts>1", "column 11 is beyond the board: Double Yukon has 10 columns"),
        ("5:Ts>17", "column 17 is beyond the board"),
        ("3:Th#3>2", "Th#3 is a card of a deck that does not exist: Double Yukon plays 2 decks"),
        ("3:Th#9>2", "after '#' comes the card's deck, 1-2"),
        ("0:Ts>1", "the source column before ':' must be a column 1-10"),
        ("5:Ts>", "no destination"),
        ("5:Tx>1", "the suit must be one of cdhs"),
        ("5:Ts1", "has no '>'"),
        ("16:9h#2>16x", "too long"),
    ],
)
def test_bad_multi_deck_move_text(text: str, reason: str) -> None:
    position = Position.from_text(HAND_DOUBLE)
    with pytest.raises(NotationError, match=reason.replace("(", r"\(")) as info:
        position.play_text(text)
    assert len(str(info.value)) < 200
    assert position.to_text() == FULL_DOUBLE


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("3:Th>2", "column 3 shows 2 copies of Th: name the one you mean, '3:Th#1>2' or '3:Th#2"),
        ("1:Ts>7", "Ts is not a face-up card of column 1"),
        ("7:Qs>6", "Qs is not a face-up card of column 7"),  # face down there
        ("2:Ks#2>4", "Ks#2 is not a face-up card of column 2"),
        ("3:Th#1>F", "only an exposed card goes home"),
        ("9:Js>F", "Js cannot go home yet: no spades foundation has the Ts on top"),
    ],
)
def test_illegal_multi_deck_moves(text: str, reason: str) -> None:
    position = Position.from_text(HAND_DOUBLE)
    with pytest.raises(IllegalMoveError, match=reason):
        position.play_text(text)
    assert position.to_text() == FULL_DOUBLE


def test_short_form_still_works_for_one_deck() -> None:
    position = Position.deal(0)
    position.play_text("8d>6")
    position.play_text("2:9c>7")  # the prefix stays optional
    assert position.moves == 2
    assert all(":" not in position.move_text(m) for m in position.legal_moves())


def test_a_copy_label_is_written_only_when_two_copies_show() -> None:
    position = Position.from_text(HAND_DOUBLE)
    texts = {position.move_text(m) for m in position.legal_moves()}
    assert "3:Th#1>2" in texts and "5:Ts>1" in texts  # Ts: one copy per column
    # The lower Th carries the upper one along; then column 2 ends Js Th Th.
    position.play_text("3:Th#1>2")
    assert position.to_text().split()[1].split("/")[1] == "Ks.QhJsThTh"


def test_home_goes_to_the_first_foundation_that_takes_the_card() -> None:
    position = Position.from_text(MULTI_DECK_HAND_POSITIONS[1].text)  # triple, spades Q Q J
    position.play_text("2:Ks>F")
    assert position.found[3::4] == [13, 12, 11]  # the first of the two piles at Q
    position.play_text("4:Ks>F")
    assert position.found[3::4] == [13, 13, 11]
    position.play_text("1:Qs>F")
    assert position.found[3::4] == [13, 13, 12]
    position.undo()
    position.undo()
    assert position.found[3::4] == [13, 12, 11]
    assert position.masked()["foundations"]["s"] == [13, 12, 11]


def test_win_and_score_of_a_finished_multi_deck_game() -> None:
    position = Position.from_text(MULTI_DECK_HAND_POSITIONS[1].text)
    for text in ("2:Ks>F", "4:Ks>F", "1:Qs>F", "2:Ks>F"):
        position.play_text(text)
    assert position.status == "won"
    assert position.score == position.variant.max_score == 1950


def test_masked_view_names_copies_of_face_up_cards_only() -> None:
    position = Position.deal(5, "double-yukon")
    view = position.masked()
    assert len(view["columns"]) == 10
    for col, shown, down in zip(position.cols, view["columns"], position.down, strict=True):
        assert shown["down"] == down
        assert shown["copies"] == [c // 52 + 1 for c in col[down:]]
        assert len(shown["copies"]) == len(shown["up"])
    assert view["foundations"] == {"c": [0, 0], "d": [0, 0], "h": [0, 0], "s": [0, 0]}
    # one deck keeps its view exactly
    assert "copies" not in Position.deal(5).masked()["columns"][0]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (HAND_DOUBLE.replace(".Ts/.Kh", ".TsTs/.Kh"), "Ts appears more than 2 times"),
        (HAND_DOUBLE.replace("/.Js/", "/./"), "Js is missing"),
        (HAND_DOUBLE.replace("KK99KK99", "KK99KK9"), "must be 8 characters"),
        (HAND_DOUBLE.replace("/.Ts KK", " KK"), "10 columns"),
        (HAND_DOUBLE.replace("KK99KK99", "KK99KKT9"), "Th appears more than 2 times"),
    ],
)
def test_bad_multi_deck_position_text(text: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason):
        Position.from_text(text)


def test_the_decks_field_keeps_which_copy_is_which() -> None:
    position = Position.deal(9, "double-yukon")
    for _ in range(30):
        position.push(sorted(position.legal_moves())[-1])
    text = position.to_text()
    again = Position.from_text(text)
    assert again.cols == position.cols  # the same physical cards, not just the same faces
    assert again.masked() == position.masked()
    variant, columns, found, score, moves, decks = text.split()
    for bad, reason in (
        (decks[:-1], "one digit per card"),
        (decks[:-1] + "3", "a card of a deck that does not exist"),
        ("2" * len(decks), "appears twice"),
    ):
        with pytest.raises(NotationError, match=reason):
            Position.from_text(" ".join((variant, columns, found, score, moves, bad)))
    with pytest.raises(NotationError, match="5 fields, not 6"):
        Position.from_text(Position.deal(9).to_text() + " 111")


def test_constructor_rejects_a_card_of_a_deck_that_does_not_exist() -> None:
    start = Position.deal(3, "double-yukon")
    columns = [col[:] for col in start.cols]
    columns[0][0] = 2 * 52 + 5  # a card of a third deck
    with pytest.raises(EngineError, match="not a card of 2 decks"):
        Position("double-yukon", columns, start.down, start.found)


def test_takeback_is_one_deck_only() -> None:
    with pytest.raises(UnknownVariantError, match="one-deck games only"):
        get_variant("double-yukon+takeback")


def test_cli_deals_and_replays_a_multi_deck_game() -> None:
    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "yukon.engine", *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )

    dealt = run("deal", "0", "--variant", "double-yukon")
    assert dealt.returncode == 0, dealt.stderr
    layout = json.loads(dealt.stdout)
    assert len(layout["columns"]) == 10 and layout["face_down"][-1] == 8
    assert layout["foundations"] == {"c": [0, 0], "d": [0, 0], "h": [0, 0], "s": [0, 0]}
    moves = json.loads(run("moves", "0", "--variant", "double-yukon").stdout)
    assert moves and all(":" in text for text in moves)
    played = run("replay", "0", "--variant", "double-yukon", stdin=moves[0] + "\n")
    assert json.loads(played.stdout)["moves"] == 1
    short = run("replay", "0", "--variant", "double-yukon", stdin="Ah>F\n")
    assert short.returncode == 1
    assert "does not name its source column" in json.loads(short.stdout)["error"]["reason"]
