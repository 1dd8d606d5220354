"""The engine against the committed shared vectors (the same files the browser will read)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from yukon.engine import (
    DEAL_ALGORITHM_VERSION,
    MAX_SCORE,
    DealNumberError,
    Position,
    card_text,
    move_text,
    replay,
)
from yukon.engine.deal import shuffled_deck
from yukon.tests.engine.hand_positions import HAND_POSITIONS

VECTORS = Path(__file__).resolve().parent / "vectors"


def load(name: str) -> Any:
    return json.loads((VECTORS / name).read_text())


DEALS = load("deals.json")
POSITIONS = load("positions.json")["positions"]
GAMES = load("games.json")["games"]
KNOWN = load("known-deals.json")
WINNING_LINES: dict[str, list[str]] = KNOWN["winning_lines"]
WINNING_DEALS = sorted(WINNING_LINES, key=int)


def test_deal_vectors_cover_the_required_numbers() -> None:
    assert DEALS["algorithm_version"] == DEAL_ALGORITHM_VERSION
    numbers = [d["number"] for d in DEALS["deals"]]
    assert numbers == ["0", "1", "2", "42", str(2**64 - 1)]


@pytest.mark.parametrize("deal", DEALS["deals"], ids=[d["number"] for d in DEALS["deals"]])
def test_deal_vector(deal: dict[str, Any]) -> None:
    number = int(deal["number"])
    assert [card_text(c) for c in shuffled_deck(number)] == deal["deck"]
    assert sorted(deal["deck"]) == sorted(card_text(c) for c in range(52))
    position = Position.deal(number)
    assert [[card_text(c) for c in col] for col in position.cols] == deal["columns"]
    assert position.down == deal["face_down"] == [0, 1, 2, 3, 4, 5, 6]
    # The columns are the deck cut 1, 6, 7, ..., 11, bottom card first.
    assert [card for col in deal["columns"] for card in col] == deal["deck"]
    assert position.to_text() == deal["text"]


@pytest.mark.parametrize("text", DEALS["bad_numbers"])
def test_bad_deal_number_vectors(text: str) -> None:
    with pytest.raises(DealNumberError):
        Position.deal(int(text))


def test_hand_positions_are_in_the_vectors() -> None:
    exported = {p["name"]: p for p in POSITIONS if p["source"] == "hand"}
    assert len(exported) == len(HAND_POSITIONS)
    for hand in HAND_POSITIONS:
        assert exported[hand.name]["text"] == hand.text
        assert exported[hand.name]["legal"] == hand.legal


def test_position_vectors_cover_every_variant() -> None:
    variants = {p["text"].split()[0] for p in POSITIONS}
    assert {"yukon", "russian", "alaska", "moosehide", "yukon+takeback"} <= variants


@pytest.mark.parametrize("entry", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_position_vector(entry: dict[str, Any]) -> None:
    position = Position.from_text(entry["text"])
    assert position.to_text() == entry["text"]
    assert sorted(move_text(m) for m in position.legal_moves()) == entry["legal"]


@pytest.mark.parametrize("game", GAMES, ids=[g["name"] for g in GAMES])
def test_game_vector(game: dict[str, Any]) -> None:
    result = replay(int(game["deal"]), game["variant"], game["moves"])
    if "error" in game:
        assert result.error is not None
        assert result.error.index == game["error"]["index"]
        assert result.error.move == game["error"]["move"]
        assert result.error.reason
    else:
        assert result.error is None
        assert result.moves == len(game["moves"])
    assert result.score == game["score"]
    assert result.won == game["won"]
    assert result.position.status == game["status"]
    assert [None if c is None else card_text(c) for c in result.turned] == game["turned"]
    assert result.position.to_text() == game["final"]


def test_game_vectors_include_known_wins() -> None:
    wins = [g for g in GAMES if g["name"].startswith("known-win-")]
    assert {g["deal"] for g in wins} >= {"0", "68"}
    for game in wins:
        assert game["moves"] == KNOWN["winning_lines"][game["deal"]]
        assert game["score"] == MAX_SCORE
        assert game["won"]


@pytest.mark.parametrize("deal", WINNING_DEALS)
def test_every_known_winning_line_wins(deal: str) -> None:
    result = replay(int(deal), "yukon", KNOWN["winning_lines"][deal])
    assert result.error is None
    assert result.won
    assert result.score == 625
    assert sum(c is not None for c in result.turned) == 21


def test_unwinnable_list_is_kept_for_the_solver() -> None:
    unwinnable = KNOWN["unwinnable"]["deals"]
    assert unwinnable == [24, 27, 62, 64, 116, 120, 153, 156, 199]
    assert 68 not in unwinnable
    assert "68" in KNOWN["winning_lines"]
