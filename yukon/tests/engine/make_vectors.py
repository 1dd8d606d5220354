"""Write the shared engine vectors: ``python -m yukon.tests.engine.make_vectors`` (repo root).

The committed JSON files under ``yukon/tests/engine/vectors/`` are the reference, not this
script: ``test_vectors.py`` checks the engine against them, and the browser client's tests
will check its mirror of the rules against the same files. Re-run this only on purpose
(a new vector, or a deliberate rules change with a new deal-algorithm version) and review
the diff. Formats are described in docs/engine.md.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from yukon.engine import (
    DEAL_ALGORITHM_VERSION,
    MAX_DEAL_NUMBER,
    Position,
    card_text,
    move_text,
    replay,
)
from yukon.engine.deal import shuffled_deck
from yukon.tests.engine.hand_positions import HAND_POSITIONS, MULTI_DECK_HAND_POSITIONS

VECTORS = Path(__file__).resolve().parent / "vectors"
DEALS = [0, 1, 2, 42, MAX_DEAL_NUMBER]
KNOWN_WINS = ["0", "1", "42", "68", "1000", "123456789"]
# moosehide-runs kept the place (and so the random choices) of the old "moosehide";
# new entries go at the end, so the vectors of the others never change.
PLAYOUT_VARIANTS = [
    "yukon",
    "russian",
    "alaska",
    "moosehide-runs",
    "yukon+takeback",
    "alaska+takeback",
    "moosehide",
    "moosehide+takeback",
]


def deal_vectors() -> dict[str, Any]:
    deals = []
    for number in DEALS:
        position = Position.deal(number)
        deals.append(
            {
                "number": str(number),
                "deck": [card_text(c) for c in shuffled_deck(number)],
                "columns": [[card_text(c) for c in col] for col in position.cols],
                "face_down": position.down,
                "text": position.to_text(),
            }
        )
    return {
        "about": "Deal number -> layout (SplitMix64 + Fisher-Yates, ARCHITECTURE.md). "
        "Numbers are decimal strings: 2**64-1 does not fit a JavaScript number.",
        "algorithm_version": DEAL_ALGORITHM_VERSION,
        "deals": deals,
        "bad_numbers": ["18446744073709551616", "-1"],
    }


def random_playout(rng: random.Random, number: int, variant: str, length: int) -> list[str]:
    """Random legal moves, mostly preferring ones that send a card home or turn one up."""
    position = Position.deal(number, variant)
    texts = []
    for _ in range(length):
        legal = sorted(position.legal_moves())
        if not legal:
            break
        useful = [m for m in legal if m & 7 == 7 or _turns_a_card(position, m)]
        move = rng.choice(useful if useful and rng.random() < 0.7 else legal)
        position.play(move)
        texts.append(move_text(move))
    return texts


def _turns_a_card(position: Position, move: int) -> bool:
    card = move >> 3
    k = position.col_of[card]
    return k < 7 and position.pos_of[card] == position.down[k] > 0


def position_vectors() -> dict[str, Any]:
    entries: list[dict[str, Any]] = [
        {"name": hand.name, "source": "hand", "text": hand.text, "legal": hand.legal}
        for hand in HAND_POSITIONS
    ]

    def add(name: str, position: Position) -> None:
        legal = sorted(move_text(m) for m in position.legal_moves())
        entries.append(
            {"name": name, "source": "playout", "text": position.to_text(), "legal": legal}
        )

    rng = random.Random(2024)
    for variant in PLAYOUT_VARIANTS:
        add(f"{variant}-deal-0-start", Position.deal(0, variant))
        for _ in range(3):
            number = rng.randrange(MAX_DEAL_NUMBER + 1)
            texts = random_playout(rng, number, variant, 80)
            plies = sorted(rng.sample(range(1, len(texts) + 1), min(3, len(texts))))
            for ply in plies:
                position = replay(number, variant, texts[:ply]).position
                add(f"{variant}-deal-{number}-after-{ply}", position)
    return {
        "about": "Positions in the engine's text form with their legal moves, sorted. "
        "'hand' entries were counted by hand (yukon/tests/engine/hand_positions.py).",
        "positions": entries,
    }


def game_entry(name: str, number: int, variant: str, texts: list[str]) -> dict[str, Any]:
    result = replay(number, variant, texts)
    entry: dict[str, Any] = {
        "name": name,
        "deal": str(number),
        "variant": variant,
        "moves": texts,
        "score": result.score,
        "won": result.won,
        "status": result.position.status,
        "turned": [None if c is None else card_text(c) for c in result.turned],
        "final": result.position.to_text(),
    }
    if result.error is not None:
        entry["error"] = {"index": result.error.index, "move": result.error.move}
    return entry


def game_vectors() -> dict[str, Any]:
    known = json.loads((VECTORS / "known-deals.json").read_text())["winning_lines"]
    games = [
        game_entry(f"known-win-{deal}", int(deal), "yukon", known[deal]) for deal in KNOWN_WINS
    ]
    rng = random.Random(68)
    for variant in PLAYOUT_VARIANTS:
        for _ in range(2):
            number = rng.randrange(1000)
            texts = random_playout(rng, number, variant, 200)
            games.append(game_entry(f"random-{variant}-{number}", number, variant, texts))
    games.append(game_entry("illegal-card-on-card", 0, "yukon", ["8d>6", "9c>7", "Qc>1"]))
    games.append(game_entry("bad-notation", 0, "yukon", ["8d>6", "Zz"]))
    games.append(game_entry("face-down-card", 0, "russian", ["Jh>F"]))
    games.append(game_entry("foundation-stays", 0, "yukon", [*known["0"][:4], "As>2"]))
    return {
        "about": "Whole games replayed from a deal number. 'final' is the position after "
        "the last legal move; 'error' (index, move) marks the first move the rules reject.",
        "games": games,
    }


MULTI_DECK_VARIANTS = ["double-yukon", "triple-yukon", "quadruple-yukon"]
MULTI_DECK_DEALS = [0, 1, MAX_DEAL_NUMBER]


def multi_deck_vectors() -> dict[str, Any]:
    """Deals 0, 1 and 2**64-1 of each multi-deck variant, hand-counted positions, playouts."""
    deals = []
    for variant in MULTI_DECK_VARIANTS:
        for number in MULTI_DECK_DEALS:
            position = Position.deal(number, variant)
            pack = shuffled_deck(number, position.variant.decks)
            deals.append(
                {
                    "variant": variant,
                    "number": str(number),
                    "deck": [card_text(c) for c in pack],
                    "copies": [c // 52 + 1 for c in pack],
                    "face_down": position.down,
                    "column_sizes": [len(col) for col in position.cols],
                    "text": position.to_text(),
                }
            )
    positions: list[dict[str, Any]] = [
        {"name": hand.name, "source": "hand", "text": hand.text, "legal": hand.legal}
        for hand in MULTI_DECK_HAND_POSITIONS
    ]
    games = []
    rng = random.Random(18)
    for variant in MULTI_DECK_VARIANTS:
        number = rng.randrange(MAX_DEAL_NUMBER + 1)
        position = Position.deal(number, variant)
        texts = []
        for ply in range(120):
            legal = sorted(position.legal_moves())
            if not legal:
                break
            if ply in (40, 80):  # (its moves as read back from the text: copies renumbered)
                again = Position.from_text(position.to_text())
                positions.append(
                    {
                        "name": f"{variant}-deal-{number}-after-{ply}",
                        "source": "playout",
                        "text": position.to_text(),
                        "legal": sorted(again.move_text(m) for m in again.legal_moves()),
                    }
                )
            useful = [m for m in legal if position.move_dest(m) is None]
            move = rng.choice(useful if useful and rng.random() < 0.7 else legal)
            texts.append(position.move_text(move))
            position.play(move)
        games.append(game_entry(f"random-{variant}-{number}", number, variant, texts))
    return {
        "about": "Multi-deck variants: deals (deck = the shuffled pack by face, copies = "
        "its deck, 1..4; columns take it in turn, bottom card first), positions with "
        "their legal moves ('hand' ones counted by hand), and replayed games.",
        "algorithm_version": DEAL_ALGORITHM_VERSION,
        "deals": deals,
        "positions": positions,
        "games": games,
    }


def write(name: str, data: dict[str, Any]) -> None:
    (VECTORS / name).write_text(json.dumps(data, indent=1) + "\n")


def main() -> None:
    write("deals.json", deal_vectors())
    write("positions.json", position_vectors())
    write("games.json", game_vectors())
    write("multi-deck.json", multi_deck_vectors())


if __name__ == "__main__":
    main()
