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
    # (the move's card and column read as Position.move_card and move_dest do, inline:
    # this runs for every legal move of every playout)
    variant = pos.variant
    shift = variant.shift
    card = move >> shift
    k = pos.col_of[card]
    if k == HOME:  # a take-back (the option): only if nothing else
        return -60.0
    dest = move & ((1 << shift) - 1)
    height = pos.pos_of[card]
    down = pos.down[k]
    value = 0.0
    if height > 0 and height == down:  # it turns a card: dig where the most are hidden
        value += 80 + 6 * down
    if dest == variant.home:
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
        return value + 30 + 10 * down
    if height == 0:  # empties a column: only worth it with a King ready to fill it
        value += 15 if king_waiting else -35
    return value


def _key(pos: Position) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    return tuple(map(tuple, pos.cols)), tuple(pos.down)


def play_once(pos: Position, rng: random.Random, noise: float = 25.0) -> bool:
    """Play one game from ``pos`` (which is changed); return True when it is won.

    The bot never returns to a position it has already been in, so every game ends.
    """
    variant = pos.variant
    kings, cards, shift, home = variant.kings, variant.cards, variant.shift, variant.home
    mask = (1 << shift) - 1
    draw = rng.random
    down, found, movable = pos.down, pos.found, pos.movable
    col_of, pos_of = pos.col_of, pos.pos_of
    here = _key(pos)
    seen = {here}
    for _ in range(MAX_PLAYOUT_MOVES * variant.decks):
        moves = pos.legal_moves()
        if not moves:
            break
        hidden_left = sum(down)
        king_waiting = any(movable[king] and pos_of[king] > 0 for king in kings)
        best_move: Move | None = None
        best = 0.0
        best_key = here
        here_cols, here_down = here
        for move in moves:
            value = _move_value(pos, move, hidden_left, king_waiting) + draw() * noise
            if best_move is None or value > best:
                # The key the position would have after ``move`` (what push() then _key()
                # would give), made from this position's key without playing the move.
                card, dest = move >> shift, move & mask
                k = col_of[card]
                after = list(here_cols)
                after_down = here_down
                if k == HOME:  # a take-back onto column ``dest``
                    after[dest] = (*here_cols[dest], card)
                else:
                    source = here_cols[k]
                    height = pos_of[card]
                    left = source[:height]
                    after[k] = left
                    if dest != home:
                        after[dest] = here_cols[dest] + source[height:]
                    if left and len(left) == here_down[k]:  # a card turns face up
                        after_down = (*here_down[:k], here_down[k] - 1, *here_down[k + 1 :])
                key = (tuple(after), after_down)
                if key in seen:
                    continue
                best, best_move, best_key = value, move, key
        if best_move is None:
            break
        pos.push(best_move)
        if sum(found) == cards:
            return True
        here = best_key
        seen.add(here)
    return pos.is_won()


def rate_deal(number: int, variant: str = "yukon", playouts: int = 200, seed: int = 0) -> Rating:
    """How many of ``playouts`` games the bot wins on deal ``number`` (deterministic per seed)."""
    rng = random.Random(f"{seed}:{variant}:{number}")
    start = Position.deal(number, variant)
    wins = sum(play_once(start.copy(), rng) for _ in range(playouts))
    return Rating(playouts, wins)
