"""Replay a move log from a deal number: the referee's verdict on a whole game."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .cards import Card
from .errors import EngineError
from .moves import MAX_MOVE_TEXT
from .position import Position
from .variants import Variant


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
    """Play ``moves`` (texts) from the start of the deal; stop at the first bad one.

    A bad deal number or variant raises; a bad move is reported in ``error`` with the
    position as it stood before it.
    """
    position = Position.deal(deal_number, variant)
    result = ReplayResult(position)
    for index, text in enumerate(moves):
        try:
            _, turned = position.play_text(text)
        except EngineError as exc:
            shown = text[:MAX_MOVE_TEXT * 4] if isinstance(text, str) else repr(text)[:24]
            result.error = ReplayError(index, shown, str(exc))
            break
        result.turned.append(turned)
    return result
