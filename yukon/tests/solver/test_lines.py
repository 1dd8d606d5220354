"""Winning lines without their detours (``yukon.solver.lines.shorten_line``)."""

from __future__ import annotations

import pytest

from yukon.engine import Position, deal_position
from yukon.solver import solve, verify_line
from yukon.solver.lines import _key, shorten_line

# A random 64-bit Double Yukon deal whose search wins deep in its first run: a line of
# thousands of moves (a weekly's par once read 11,071 moves for such a line).
WANDERING = 15149836622520594227


def positions(start: Position, line: list[str]) -> list[object]:
    position = start.copy()
    keys = [_key(position)]
    for text in line:
        position.play_text(text)
        keys.append(_key(position))
    return keys


def assert_shortened(start: Position, line: list[str], short: list[str]) -> None:
    assert verify_line(start, short) is None
    assert len(short) <= len(line)
    # it keeps to the original line's positions, in their order, each once
    original = positions(start, line)
    kept = positions(start, short)
    assert len(set(kept)) == len(kept)
    last = {key: index for index, key in enumerate(original)}
    order = [last[key] for key in kept]
    assert order == sorted(order) and order[-1] == len(line)


def test_a_wandering_multi_deck_line_loses_its_detours() -> None:
    start = deal_position(WANDERING, "double-yukon")
    result = solve(start, nodes=200_000)
    assert result.verdict == "solved"
    assert len(result.moves) > 5_000, len(result.moves)  # the deal still makes the point
    short = shorten_line(start, result.moves)
    assert_shortened(start, result.moves, short)
    assert len(short) < 300, len(short)  # Double Yukon's lines: about 190 moves
    assert shorten_line(start, short) == short  # nothing left to take out


def after(position: Position, move: int) -> Position:
    child = position.copy()
    child.push(move)
    return child


def there_and_back(start: Position, line: list[str]) -> list[str]:
    """The line with a detour wherever one move and another lead back to where it was."""
    position, out = start.copy(), []
    for text in line:
        here = _key(position)
        for move in position.legal_moves():
            away = after(position, move)
            back = next((m for m in away.legal_moves() if _key(after(away, m)) == here), None)
            if back is not None:
                out += [position.move_text(move), away.move_text(back)]
                break
        out.append(text)
        position.play_text(text)
    return out


@pytest.mark.parametrize("deal", [0, 1, 14])
def test_loops_go_and_the_line_stays_a_win(deal: int) -> None:
    start = deal_position(deal)
    line = solve(start, seconds=5).moves
    looping = there_and_back(start, line)
    assert len(looping) > len(line) + 20  # flips back and forth, as a search may make them
    short = shorten_line(start, looping)
    assert_shortened(start, looping, short)
    assert len(short) <= len(line)


def test_a_line_that_does_not_win_is_refused() -> None:
    start = deal_position(0)
    line = solve(start, seconds=5).moves
    with pytest.raises(ValueError, match="does not win"):
        shorten_line(start, line[:-1])
    with pytest.raises(ValueError):
        shorten_line(start, ["Kh>F", *line])  # not a legal move at the start
