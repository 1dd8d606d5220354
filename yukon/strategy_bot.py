"""A human-like Yukon player, used to measure how hard a deal is for people.

The solver sees every card and says whether a deal *can* be won; this bot sees only
what a player sees and follows the usual advice (turn face-down cards first, dig where
most cards are hidden, send Aces and low cards home at once but keep 4s and up as
landing places, empty a column only for a King, preferably the one that uncovers the
most), with some randomness. The share of its playouts it wins rates a deal's
difficulty. It reads only face-up cards and the count of face-down ones.

It plays the multi-deck variants too (Double, Triple, Quadruple Yukon): a card home goes
to any foundation of its suit that takes it, "safe" looks at every foundation of the
opposite colour, and a game may last longer in proportion to the decks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from yukon.engine import Move, Position
from yukon.engine.position import HOME

MAX_PLAYOUT_MOVES = 300


@dataclass(frozen=True)
class Rating:
    playouts: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.playouts if self.playouts else 0.0


def _safe_home(pos: Position, card: int) -> bool:
    """Sending ``card`` home can cost nothing: no tableau card can need it any more."""
    rank = card % 13 + 1
    if rank <= 2:
        return True
    suit = card % 52 // 13
    found = pos.found  # foundation p builds suit p % 4 (one per suit with one deck)
    if pos.variant.build == "other_suit":  # Moosehide: any other suit's card may go on it
        return rank <= 1 + min(n for p, n in enumerate(found) if p % 4 != suit)
    red = suit in (1, 2)
    opposite = [n for p, n in enumerate(found) if (p % 4 in (1, 2)) != red]
    return rank <= 1 + min(opposite)


def _move_value(pos: Position, move: Move, hidden_left: int, king_waiting: bool) -> float:
    card, dest = pos.move_card(move), pos.move_dest(move)
    k = pos.col_of[card]
    if k == HOME:  # a take-back (the option): only if nothing else
        return -60.0
    height = pos.pos_of[card]
    turns = height > 0 and height == pos.down[k]
    value = 0.0
    if turns:
        value += 80 + 6 * pos.down[k]  # dig where the most cards are hidden
    if dest is None:  # home
        rank = card % 13 + 1
        if rank == 1:
            value += 100
        elif _safe_home(pos, card) or hidden_left == 0:
            value += 50
        elif rank <= 3:
            value += 25
        else:
            value -= 40  # a 4 or higher is a landing place: keep it
        return value
    if not pos.cols[dest]:  # a King into an empty column
        return value + 30 + 10 * pos.down[k]
    if height == 0:  # empties a column: only worth it with a King ready to fill it
        value += 15 if king_waiting else -35
    return value


def _key(pos: Position) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    return tuple(map(tuple, pos.cols)), tuple(pos.down)


def play_once(pos: Position, rng: random.Random, noise: float = 25.0) -> bool:
    """Play one game from ``pos`` (which is changed); return True when it is won.

    The bot never returns to a position it has already been in, so every game ends.
    """
    seen = {_key(pos)}
    kings = pos.variant.kings
    for _ in range(MAX_PLAYOUT_MOVES * pos.variant.decks):
        moves = pos.legal_moves()
        if not moves:
            break
        hidden_left = sum(pos.down)
        king_waiting = any(pos.movable[king] and pos.pos_of[king] > 0 for king in kings)
        best: tuple[float, Move] | None = None
        for move in moves:
            value = _move_value(pos, move, hidden_left, king_waiting) + rng.random() * noise
            if best is None or value > best[0]:
                pos.push(move)
                repeats = _key(pos) in seen
                pos.undo()
                if repeats:
                    continue
                best = (value, move)
        if best is None:
            break
        pos.push(best[1])
        if pos.is_won():
            return True
        seen.add(_key(pos))
    return pos.is_won()


def rate_deal(number: int, variant: str = "yukon", playouts: int = 200, seed: int = 0) -> Rating:
    """How many of ``playouts`` games the bot wins on deal ``number`` (deterministic per seed)."""
    rng = random.Random(f"{seed}:{variant}:{number}")
    start = Position.deal(number, variant)
    wins = sum(play_once(start.copy(), rng) for _ in range(playouts))
    return Rating(playouts, wins)
