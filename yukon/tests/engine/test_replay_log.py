"""The move log's one replay (``replay_log``): undo entries, turned cards, errors by entry.

Checked against the plain rules: a log with undos replays to the position its standing
moves reach when played from the deal, with the cards each move turned.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yukon.engine import (
    MAX_DEAL_NUMBER,
    UNDO,
    LogError,
    NotationError,
    Position,
    move_text,
    play_log,
    replay,
    replay_log,
    walk_log,
)

LOGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def random_log(number: int, seed: int, length: int) -> list[str]:
    """A practice log: legal moves, with an undo now and then when a move stands."""
    rng = random.Random(seed)
    position = Position.deal(number)
    log: list[str] = []
    for _ in range(length):
        legal = position.legal_moves()
        if position.can_undo and (not legal or rng.random() < 0.25):
            position.undo()
            log.append(UNDO)
        elif legal:
            move = rng.choice(legal)
            position.play(move)
            log.append(move_text(move))
    return log


def standing_by_stack(log: list[str]) -> list[int]:
    """The undo rule written out plainly: each undo takes back the last move standing."""
    stack: list[int] = []
    for index, text in enumerate(log):
        if text == UNDO:
            stack.pop()
        else:
            stack.append(index)
    return stack


@LOGS
@given(st.integers(0, MAX_DEAL_NUMBER), st.integers(0, 2**32), st.integers(0, 120))
def test_a_log_replays_to_its_standing_moves_played_from_the_deal(
    number: int, seed: int, length: int
) -> None:
    log = random_log(number, seed, length)
    position = Position.deal(number)
    standing = play_log(position, log)
    assert standing == standing_by_stack(log)
    fresh = Position.deal(number)
    for index in standing:
        fresh.play_text(log[index])
    assert position.to_text() == fresh.to_text()
    assert position.score == fresh.score and position.moves == len(standing)


@LOGS
@given(st.integers(0, MAX_DEAL_NUMBER), st.integers(0, 2**32), st.integers(1, 120))
def test_each_step_turns_the_card_the_move_turns_and_undo_turns_none(
    number: int, seed: int, length: int
) -> None:
    log = random_log(number, seed, length)
    mirror = Position.deal(number)
    for step in replay_log(Position.deal(number), log):
        assert step.text == log[step.ply]
        if step.is_undo:
            mirror.undo()
            assert step.turned is None
        else:
            _, turned = mirror.play_text(step.text)
            assert step.turned == turned
        assert step.position.to_text() == mirror.to_text()


@LOGS
@given(st.integers(0, MAX_DEAL_NUMBER), st.integers(0, 2**32), st.integers(0, 80))
def test_a_replay_is_deterministic(number: int, seed: int, length: int) -> None:
    log = random_log(number, seed, length)

    def trace() -> list[tuple[int, str, int | None, str, list[int]]]:
        return [
            (s.ply, s.text, s.turned, s.position.to_text(), list(s.standing))
            for s in replay_log(Position.deal(number), log)
        ]

    assert trace() == trace()


def test_undo_at_the_start_is_refused() -> None:
    with pytest.raises(LogError) as caught:
        play_log(Position.deal(0), [UNDO])
    assert caught.value.ply == 0 and caught.value.nothing_to_undo


def test_undo_after_every_move_is_taken_back_is_refused() -> None:
    log = random_log(3, 1, 6)
    moves = [text for text in log if text != UNDO][:2]
    position = Position.deal(3)
    with pytest.raises(LogError) as caught:
        play_log(position, [moves[0], UNDO, UNDO])
    assert caught.value.ply == 2 and caught.value.nothing_to_undo
    assert position.to_text() == Position.deal(3).to_text()


def test_undo_takes_back_the_last_move_standing() -> None:
    start = Position.deal(7)
    first = move_text(start.legal_moves()[0])
    after_first = start.copy()
    after_first.play_text(first)
    second = move_text(after_first.legal_moves()[0])
    steps = [
        (list(s.standing), s.position.to_text())
        for s in replay_log(Position.deal(7), [first, second, UNDO])
    ]
    assert steps[2] == ([0], after_first.to_text())


def test_without_undo_an_undo_entry_is_not_a_move() -> None:
    with pytest.raises(LogError) as caught:
        play_log(Position.deal(0), [UNDO], undo=False)
    assert isinstance(caught.value.__cause__, NotationError)
    assert not caught.value.nothing_to_undo
    assert replay(0, "yukon", [UNDO]).error is not None


def test_an_illegal_entry_stops_the_replay_at_its_index_with_the_position_before_it() -> None:
    log = [text for text in random_log(11, 5, 12) if text != UNDO][:3]
    position = Position.deal(11)
    before = Position.deal(11)
    for text in log:
        before.play_text(text)
    with pytest.raises(LogError) as caught:
        play_log(position, [*log, "Ks>F"])
    assert caught.value.ply == len(log) and caught.value.text == "Ks>F"
    assert position.to_text() == before.to_text()


def ranked_log(number: int, seed: int, length: int) -> list[str]:
    rng = random.Random(seed)
    position = Position.deal(number)
    log: list[str] = []
    for _ in range(length):
        legal = position.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        position.play(move)
        log.append(move_text(move))
    return log


@LOGS
@given(
    number=st.integers(0, MAX_DEAL_NUMBER),
    seed=st.integers(0, 2**32),
    length=st.integers(0, 60),
    bad_at=st.integers(0, 70),
    bad=st.sampled_from(["Kh>9", "zz", "undo", "Ah>F"]),
)
def test_walk_log_shows_each_move_before_it_is_played(
    number: int, seed: int, length: int, bad_at: int, bad: str
) -> None:
    """Each move comes in the position it was played from, as ``replay_log`` had it one
    step earlier; the walk ends quietly at the first entry that is not a legal move."""
    log = ranked_log(number, seed, length)
    log[bad_at:bad_at] = [bad]
    walked = Position.deal(number)
    stepped = Position.deal(number)
    seen: list[int] = []
    turned: list[int] = []
    for ply, move in walk_log(walked, log):
        assert walked.cols == stepped.cols and walked.down == stepped.down
        assert move_text(move) == log[ply]
        if seen:
            turned.append(walked.last_turned)
        seen.append(ply)
        stepped.play_text(log[ply])
    if seen:
        turned.append(walked.last_turned)
    good = next(
        (i for i, text in enumerate(log) if not _legal_here(number, log[:i], text)), len(log)
    )
    assert seen == list(range(good))
    expected = Position.deal(number)
    steps = list(replay_log(expected, log[:good], undo=False))
    assert turned == [-1 if s.turned is None else s.turned for s in steps]
    assert walked.cols == expected.cols


def _legal_here(number: int, before: list[str], text: str) -> bool:
    position = Position.deal(number)
    for entry in before:
        position.play_text(entry)
    try:
        return position.is_legal(position.parse_move(text))
    except NotationError:
        return False
