"""Replay a move log from a deal: the one place that knows how a log is played back.

A log is a list of move texts (``9h>4``) and, in practice games, ``UNDO`` entries that
take back the move before them. ``replay_log`` plays one step by step (the referee, the
admin's step-through, the analysis and undo all read a log through it); ``walk_log``
shows each move of a ranked log in the position it was played from (moderation's
checks); ``replay`` referees a whole ranked game from a deal number.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from .cards import Card
from .errors import EngineError
from .moves import MAX_SINGLE_DECK_MOVE_TEXT, Move
from .position import Position
from .variants import Variant

UNDO: Final = "undo"  # the log entry of a practice undo: it takes back the move before it


class LogStep(NamedTuple):
    """One log entry played. ``position`` and ``standing`` are live: the replay goes on
    changing them, so copy what must outlive the next step. (A tuple: the cheapest thing
    to make once per move of every replay.)"""

    ply: int  # the entry's 0-based place in the log
    text: str
    turned: Card | None  # the card this entry turned face up (never for an undo)
    position: Position  # the position after the entry
    standing: Sequence[int]  # indices of the entries that stand (undone ones removed)

    @property
    def is_undo(self) -> bool:
        return self.text == UNDO


# LogStep(...) without the generated __new__, a Python call per step: a step costs about
# 0.3 microseconds, against about 2 for playing the move (bench/bench_engine.py).
_new_step = tuple.__new__


class LogError(EngineError):
    """An entry the log cannot hold; ``ply`` is where, the replay stopped before it."""

    def __init__(self, ply: int, text: str, reason: str, *, nothing_to_undo: bool = False):
        super().__init__(f"entry {ply}: {reason}")
        self.ply = ply
        self.text = text
        self.reason = reason
        self.nothing_to_undo = nothing_to_undo


def replay_log(position: Position, texts: Iterable[str], *, undo: bool = True) -> Iterator[LogStep]:
    """Play ``texts`` on ``position`` (changed in place), yielding a step per entry.

    With ``undo`` an ``UNDO`` entry takes back the last move that stands; an undo with
    nothing to take back raises LogError. Without it ``UNDO`` is text like any other, so
    not a move (a ranked log). An entry that is not a legal move raises LogError (its
    ``__cause__`` is the engine's reason), with the position as it stood before it.
    """
    standing: list[int] = []
    for ply, text in enumerate(texts):
        turned: Card | None = None
        if undo and text == UNDO:
            if not standing:
                raise LogError(ply, text, "undo with no move to take back", nothing_to_undo=True)
            position.undo()
            standing.pop()
        else:
            try:
                _, turned = position.play_text(text)
            except EngineError as exc:
                raise LogError(ply, _shown(text), str(exc)) from exc
            standing.append(ply)
        yield _new_step(LogStep, (ply, text, turned, position, standing))


def play_log(position: Position, texts: Iterable[str], *, undo: bool = True) -> list[int]:
    """Replay the whole log on ``position``; return the indices of the entries that stand."""
    standing: Sequence[int] = ()
    for step in replay_log(position, texts, undo=undo):
        standing = step.standing
    return list(standing)


def walk_log(position: Position, texts: Iterable[str]) -> Iterator[tuple[int, Move]]:
    """Each move of a ranked log as (ply, move), yielded while ``position`` (changed in
    place) still stands *before* it; the move is played when the walk resumes.

    Moderation judges each choice in the position it was made from, which
    ``replay_log`` (a step after each entry) cannot show. The walk ends quietly at the
    first entry that is not a legal move: a refereed log has none, and a check of a log
    judges what there is of it.
    """
    for ply, text in enumerate(texts):
        try:
            move = position.parse_move(text)
        except EngineError:
            return
        if not position.is_legal(move):
            return
        yield ply, move
        position.push(move)


def _shown(text: object) -> str:
    """Outside text, cut short for an error message."""
    return text[: MAX_SINGLE_DECK_MOVE_TEXT * 4] if isinstance(text, str) else repr(text)[:24]


@dataclass(frozen=True)
class ReplayError:
    index: int  # 0-based index of the first move that could not be played
    move: str
    reason: str


@dataclass
class ReplayResult:
    position: Position
    turned: list[Card | None] = field(default_factory=list)  # per move played
    error: ReplayError | None = None

    @property
    def score(self) -> int:
        return self.position.score

    @property
    def won(self) -> bool:
        return self.position.is_won()

    @property
    def moves(self) -> int:
        return self.position.moves


def replay(deal_number: int, variant: Variant | str, moves: Iterable[str]) -> ReplayResult:
    """Play ``moves`` (texts, no undo) from the start of the deal; stop at the first bad one.

    A bad deal number or variant raises; a bad move is reported in ``error`` with the
    position as it stood before it.
    """
    result = ReplayResult(Position.deal(deal_number, variant))
    try:
        for step in replay_log(result.position, moves, undo=False):
            result.turned.append(step.turned)
    except LogError as error:
        result.error = ReplayError(error.ply, error.text, error.reason)
    return result
