"""A plain exhaustive search written on top of yukon.engine only: the independent referee
for the C search's move generation on small search spaces."""

from __future__ import annotations

from yukon.engine import FOUNDATION, Position
from yukon.engine.position import HOME

Key = tuple[tuple[tuple[int, ...], int], ...]


def _key(pos: Position) -> Key:
    return tuple(sorted((tuple(col), down) for col, down in zip(pos.cols, pos.down, strict=True)))


def send_safe_cards_home(pos: Position) -> None:
    """The solver's safe auto-foundation rule, on the engine: while an exposed card may go
    home and every card that could be placed on it is home, send it home."""
    moved = True
    while moved:
        moved = False
        for col in pos.cols:
            if col and pos.found[col[-1] // 13] == col[-1] % 13:
                card = col[-1]
                if all(pos.col_of[child] == HOME for child in pos.variant.children[card]):
                    pos.push(card << 3 | FOUNDATION)
                    moved = True


def reference_verdict(start: Position, limit: int, *, auto: bool = False) -> str:
    """``solved``, ``unwinnable`` or ``unknown`` (more than ``limit`` positions).

    With ``auto`` every position is first closed under ``send_safe_cards_home``.
    """
    start = start.copy()
    if auto:
        send_safe_cards_home(start)
    seen = {_key(start)}
    stack = [start]
    while stack:
        pos = stack.pop()
        if pos.is_won():
            return "solved"
        for move in pos.legal_moves():
            nxt = pos.copy()
            nxt.push(move)
            if auto:
                send_safe_cards_home(nxt)
            key = _key(nxt)
            if key not in seen:
                if len(seen) >= limit:
                    return "unknown"
                seen.add(key)
                stack.append(nxt)
    return "unwinnable"
