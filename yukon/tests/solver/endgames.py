"""Deterministic small endgames (12 to 20 cards left) for the soundness tests.

Two kinds: random layouts of the top cards of each suit (often lost, some won), and
positions from real play: a point of a winning line where 12 to 20 cards are left,
then a few random legal moves (so some are lost, some won).
"""

from __future__ import annotations

import random

from yukon.engine import Position
from yukon.solver import solve


def random_endgame(
    rng: random.Random,
    variant: str = "yukon",
    left: tuple[int, int] = (12, 20),
    lowest_foundation: int = 4,
    fewest_columns: int = 3,
) -> Position:
    """A random layout of ``left`` cards (the top cards of each suit), some face down."""
    cards_left = rng.randint(*left)
    while True:
        found = [rng.randint(lowest_foundation, 13) for _ in range(4)]
        if sum(13 - f for f in found) == cards_left:
            break
    cards = [s * 13 + r for s in range(4) for r in range(found[s], 13)]
    rng.shuffle(cards)
    cols: list[list[int]] = [[] for _ in range(7)]
    used = rng.randint(fewest_columns, 7)
    for card in cards:
        cols[rng.randrange(used)].append(card)
    down = [rng.randint(0, len(c) - 1) if c else 0 for c in cols]
    return Position(variant, cols, down, found)


def played_endgames(
    deal: int, count: int, rng: random.Random, variant: str = "yukon"
) -> list[Position]:
    result = solve(deal, variant=variant, nodes=200_000, restarts=False)
    if result.verdict != "solved":
        return []
    start = Position.deal(deal, variant)
    line = result.moves
    points = []
    pos = start.copy()
    for text in line:
        pos.play_text(text)
        left = 52 - sum(pos.found)
        if 12 <= left <= 20:
            points.append(pos.copy())
    return [random_walk(rng.choice(points), rng.randint(1, 6), rng) for _ in range(count)]


def random_walk(pos: Position, steps: int, rng: random.Random) -> Position:
    """``pos`` after up to ``steps`` random legal moves, as a new position of its own."""
    pos = pos.copy()
    for _ in range(steps):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
    return Position.from_text(pos.to_text())


def midgames(variant: str, count: int, seed: int) -> list[Position]:
    """Positions of real deals after 0 to 40 random legal moves: most of the deal is
    still face down, unlike the endgames."""
    rng = random.Random(seed)
    return [
        random_walk(Position.deal(rng.randint(1, 100_000), variant), rng.randint(0, 40), rng)
        for _ in range(count)
    ]


def endgames(
    seed: int = 2024, randoms: int = 300, played: int = 200, variant: str = "yukon"
) -> list[Position]:
    rng = random.Random(seed)
    games = [random_endgame(rng, variant) for _ in range(randoms)]
    deals = [1, 2, 4, 7, 12, 14, 15, 16, 19, 21]
    per = played // len(deals)
    for deal in deals:
        games.extend(played_endgames(deal, per, rng, variant))
    return games
