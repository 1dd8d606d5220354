"""Deal numbers to layouts: SplitMix64 + Fisher-Yates + the Yukon column layout.

The algorithm is fixed by ARCHITECTURE.md and versioned: a change would get a new
``DEAL_ALGORITHM_VERSION`` so that no stored deal or replay ever silently changes.
"""

from typing import Final

from .cards import Card
from .errors import DealNumberError

DEAL_ALGORITHM_VERSION: Final = 1
MAX_DEAL_NUMBER: Final = 2**64 - 1
_MASK: Final = 2**64 - 1
# Cards per column and face-down cards per column, column 1 first.
COLUMN_SIZES: Final = (1, 6, 7, 8, 9, 10, 11)
FACE_DOWN: Final = (0, 1, 2, 3, 4, 5, 6)
FACE_UP: Final = (1, 5, 5, 5, 5, 5, 5)


def check_deal_number(number: object) -> int:
    """Return ``number`` if it is a valid deal number, else raise DealNumberError."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealNumberError(kind="deal_not_int", type=type(number).__name__)
    if not 0 <= number <= MAX_DEAL_NUMBER:
        # Never format a huge int in full: past 4300 digits str() itself raises ValueError.
        shown = str(number) if number.bit_length() <= 128 else f"of {number.bit_length()} bits"
        raise DealNumberError(kind="deal_out_of_range", number=shown)
    return number


def shuffled_deck(number: int, decks: int = 1) -> list[Card]:
    """The pack after the Fisher-Yates shuffle driven by SplitMix64 seeded with ``number``.

    With several decks the unshuffled pack is the single deck's order repeated once per
    deck (physical card ``deck * 52 + face``), shuffled the same way over all its cards.
    """
    state = check_deal_number(number)
    deck = list(range(52 * decks))
    for i in range(len(deck) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        j = z % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_columns(
    number: int, sizes: tuple[int, ...] = COLUMN_SIZES, decks: int = 1
) -> list[list[Card]]:
    """The columns of deal ``number`` (Yukon's seven by default), each bottom card first."""
    deck = shuffled_deck(number, decks)
    columns = []
    start = 0
    for size in sizes:
        columns.append(deck[start : start + size])
        start += size
    return columns
