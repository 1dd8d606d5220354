"""Property tests: random legal playouts from random deals keep every invariant."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    MAX_DEAL_NUMBER,
    VARIANT_NAMES,
    IllegalMoveError,
    Position,
    card_text,
    move_text,
    replay,
)
from games.engine.position import HOME

ALL_MOVES = range(52 * 8)
VARIANT_KEYS = [*VARIANT_NAMES, *(name + "+takeback" for name in VARIANT_NAMES)]

deal_numbers = st.one_of(
    st.integers(0, 1000), st.integers(0, MAX_DEAL_NUMBER), st.sampled_from([MAX_DEAL_NUMBER])
)
variants = st.sampled_from(VARIANT_KEYS)
PLAYOUT = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def check_cards(position: Position) -> None:
    """All 52 cards, each once; the card index agrees with the columns."""
    seen: list[int] = []
    for suit, count in enumerate(position.found):
        seen.extend(range(suit * 13, suit * 13 + count))
    for k, col in enumerate(position.cols):
        assert 0 <= position.down[k] <= len(col)
        assert not col or position.down[k] < len(col), "a face-down card lies uncovered"
        for i, card in enumerate(col):
            assert position.col_of[card] == k
            assert position.pos_of[card] == i
            assert position.movable[card] == (i >= position.down[k])
        seen.extend(col)
    assert sorted(seen) == list(range(52))
    for suit, count in enumerate(position.found):
        for card in range(suit * 13, suit * 13 + count):
            assert position.col_of[card] == HOME
            assert not position.movable[card]


def check_masked(position: Position) -> None:
    """The client's view names face-up cards only."""
    view = position.masked()
    face_up = {
        card_text(c) for col, d in zip(position.cols, position.down, strict=True) for c in col[d:]
    }
    face_down = {
        card_text(c) for col, d in zip(position.cols, position.down, strict=True) for c in col[:d]
    }
    shown = [text for col in view["columns"] for text in col["up"]]
    assert set(shown) <= face_up
    assert len(shown) == len(face_up)
    assert [col["down"] for col in view["columns"]] == position.down
    wire = json.dumps(view)
    for text in face_down:
        assert f'"{text}"' not in wire, f"face-down {text} leaked"


def check_score(position: Position) -> None:
    turned = 21 - sum(position.down)
    assert position.score == 5 * turned + 10 * sum(position.found)


def check_moves(position: Position, rng: random.Random) -> list[int]:
    """Generated moves are exactly the ones the checker accepts; each applies and undoes."""
    legal = position.legal_moves()
    assert len(legal) == len(set(legal))
    legal_set = set(legal)
    before = position.to_text()
    for move in ALL_MOVES:
        if move in legal_set:
            assert position.illegal_reason(move) is None, move_text(move)
        else:
            assert position.illegal_reason(move) is not None, move_text(move)
    # A handful of rejected plays, by number and by text: nothing changes.
    rejected = [m for m in rng.sample(range(52 * 8), 12) if m not in legal_set]
    for move in rejected:
        with pytest.raises(IllegalMoveError):
            position.play(move)
        with pytest.raises(IllegalMoveError):
            position.play_text(move_text(move))
    assert position.to_text() == before
    # Every generated move applies, and undo restores the exact text form.
    for move in legal:
        moves_before = position.moves
        position.play(move)
        assert position.moves == moves_before + 1
        check_cards(position)
        position.undo()
        assert position.to_text() == before
    return legal


@PLAYOUT
@given(number=deal_numbers, variant=variants, rng=st.randoms(use_true_random=False))
def test_random_playouts_keep_every_invariant(
    number: int, variant: str, rng: random.Random
) -> None:
    position = Position.deal(number, variant)
    start = position.to_text()
    texts: list[str] = []
    turned: list[str | None] = []
    history = [start]
    for _ in range(rng.randint(0, 120)):
        check_cards(position)
        check_masked(position)
        if not position.variant.foundation_takeback:
            check_score(position)
        else:
            turned_count = 21 - sum(position.down)
            assert position.score == 5 * turned_count + 10 * sum(position.found)
        again = Position.from_text(position.to_text())
        assert again.to_text() == position.to_text()
        legal = check_moves(position, rng)
        assert sorted(again.legal_moves()) == sorted(legal)
        if not legal:
            assert position.status in {"won", "stuck"}
            break
        assert position.status == "playing"
        move = rng.choice(legal)
        texts.append(move_text(move))
        card = position.play(move)
        turned.append(None if card is None else card_text(card))
        history.append(position.to_text())

    # Replay from the deal number gives the same game, twice over.
    first = replay(number, variant, texts)
    second = replay(number, variant, texts)
    for result in (first, second):
        assert result.error is None
        assert result.position.to_text() == position.to_text()
        assert [None if c is None else card_text(c) for c in result.turned] == turned
        assert result.moves == len(texts)
    # Undo walks the whole game back through the same positions.
    while position.can_undo:
        history.pop()
        position.undo()
        assert position.to_text() == history[-1]
    assert position.to_text() == start


@settings(max_examples=200, deadline=None, derandomize=True)
@given(number=deal_numbers, variant=variants)
def test_deals_are_whole_and_deterministic(number: int, variant: str) -> None:
    position = Position.deal(number, variant)
    check_cards(position)
    check_masked(position)
    assert position.score == 0
    assert position.down == [0, 1, 2, 3, 4, 5, 6]
    assert [len(c) for c in position.cols] == [1, 6, 7, 8, 9, 10, 11]
    assert Position.deal(number, variant).to_text() == position.to_text()
    assert Position.from_text(position.to_text()).to_text() == position.to_text()


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=st.text(max_size=12))
def test_any_move_text_parses_or_raises_notation_error(text: str) -> None:
    position = Position.deal(7)
    before = position.to_text()
    try:
        position.play_text(text)
    except ValueError as exc:
        assert len(str(exc)) < 300
        assert position.to_text() == before
