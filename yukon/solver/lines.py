"""Winning lines without their detours.

A depth-first search's line is the path it happened to take: where it found the win deep
in a long search (the proof search of a hard Double Yukon deal), the line wanders through
positions it could have skipped, and the same position can come back later in it (the
search's table keys positions up to the order of their columns and, with twin classes,
up to flips; a line names concrete columns and copies). ``shorten_line`` keeps the line's
own positions and takes two kinds of shortcut, again until neither applies:

* a loop: when the line meets a position again, everything between goes;
* a jump: when a legal move reaches a position the line meets later than the next one,
  that move replaces the moves in between.

Every move it keeps or takes is legal where it is played (each is generated or replayed
by the engine), and the line ends where the original ends: won. It is never longer than
the original, and it is not the shortest win: only positions on the original line count.
Pure: no Django, no solver search (the engine alone).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from yukon.engine import Position


def _key(position: Position) -> Hashable:
    """The position as play sees it: the columns (the physical cards: a multi-deck line
    names copies, so a copy swapped is another position), face-down counts, foundations;
    not the score or the count of moves."""
    return (
        tuple(tuple(column) for column in position.cols),
        tuple(position.down),
        tuple(position.found),
    )


def _one_pass(start: Position, line: Sequence[str]) -> list[str]:
    position = start.copy()
    keys = [_key(position)]
    for text in line:
        position.play_text(text)
        keys.append(_key(position))
    if not position.is_won():
        raise ValueError(f"the line does not win ({sum(position.found)} cards home at its end)")
    last = {key: index for index, key in enumerate(keys)}  # each position's last time
    position = start.copy()
    out: list[str] = []
    at = 0
    while at < len(line):
        again = last[keys[at]]
        if again > at:  # a loop: on from the last time the line is here
            at = again
            continue
        reach, jump = at + 1, None
        for move in position.legal_moves():
            child = position.copy()
            child.push(move)
            later = last.get(_key(child), -1)
            if later > reach:
                reach, jump = later, move
        if jump is None:
            out.append(line[at])
            position.play_text(line[at])
        else:
            out.append(position.move_text(jump))
            position.push(jump)
        at = reach
    return out


def shorten_line(start: Position, line: Sequence[str]) -> list[str]:
    """``line`` (move texts that win from ``start``) with its loops and detours taken out;
    ValueError (the engine's errors are ValueErrors) when it does not replay to a win."""
    shorter = list(line)
    while True:
        again = _one_pass(start, shorter)
        if len(again) == len(shorter):
            return again
        shorter = again
