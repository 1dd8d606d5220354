"""A plain exhaustive search written on top of games.engine only: the independent referee
for the C search's move generation on small search spaces."""

from __future__ import annotations

from games.engine import Position

Key = tuple[tuple[tuple[int, ...], int], ...]


def _key(pos: Position) -> Key:
    return tuple(sorted((tuple(col), down) for col, down in zip(pos.cols, pos.down, strict=True)))


def reference_verdict(start: Position, limit: int) -> str:
    """``solved``, ``unwinnable`` or ``unknown`` (more than ``limit`` positions)."""
    seen = {_key(start)}
    stack = [start.copy()]
    while stack:
        pos = stack.pop()
        if pos.is_won():
            return "solved"
        for move in pos.legal_moves():
            nxt = pos.copy()
            nxt.push(move)
            key = _key(nxt)
            if key not in seen:
                if len(seen) >= limit:
                    return "unknown"
                seen.add(key)
                stack.append(nxt)
    return "unwinnable"
