"""Cards as small integers, and their text form: rank `A23456789TJQK` + suit `cdhs`.

A card is ``suit * 13 + rank - 1`` (clubs, diamonds, hearts, spades), the index of the
card in the unshuffled deck of the deal algorithm. Integers keep the engine's hot path fast.

Multi-deck variants play 2, 3 or 4 decks: a physical card is ``deck * 52 + face``, its
index in the unshuffled pack (the single deck's order repeated once per deck). Its face,
``card % 52``, is what the player sees; its deck (shown ``#1``..``#4``) only tells two
identical cards apart when that matters.
"""

from typing import Final

from .errors import NotationError, shorten

Card = int

RANKS: Final = "A23456789TJQK"
SUITS: Final = "cdhs"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES: Final = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
KING: Final = 13
ALL_CARDS: Final = tuple(range(52))
MAX_DECKS: Final = 4


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (1 = Ace .. 13 = King) and ``suit`` (0 = clubs .. 3 = spades)."""
    if not 1 <= rank <= 13 or not 0 <= suit <= 3:
        raise NotationError(kind="no_such_card", rank=rank, suit=suit)
    return suit * 13 + rank - 1


def rank_of(card: Card) -> int:
    """1 for an Ace up to 13 for a King."""
    return card % 13 + 1


def suit_of(card: Card) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card % 52 // 13


def is_red(card: Card) -> bool:
    return card % 52 // 13 in (1, 2)


def deck_of(card: Card) -> int:
    """The deck a physical card comes from: 0 for the first (the only one of one-deck games)."""
    return card // 52


# Indexed by physical card (0 .. 4 * 52 - 1): the text of its face.
CARD_TEXT: Final = tuple(RANKS[c % 13] + SUITS[c % 52 // 13] for c in range(MAX_DECKS * 52))
_BY_TEXT: Final = {CARD_TEXT[card]: card for card in ALL_CARDS}


def card_text(card: Card) -> str:
    """``Ah``, ``Tc``, ``Ks`` (the face: the same for every deck's copy)."""
    return CARD_TEXT[card]


def card_name(card: Card) -> str:
    """``nine of hearts``: for screen readers and messages."""
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card % 52 // 13]}"


def parse_card(text: str) -> Card:
    """Read ``Ah``-style text; raise NotationError with the reason otherwise."""
    if not isinstance(text, str):
        raise NotationError(kind="card_not_text", type=type(text).__name__)
    card = _BY_TEXT.get(text)
    if card is not None:
        return card
    if not text:
        raise NotationError(kind="empty_card")
    if len(text) != 2:
        raise NotationError(kind="card_length", text=shorten(text))
    if text[0] not in RANKS:
        raise NotationError(kind="bad_rank", text=shorten(text), ranks=RANKS)
    raise NotationError(kind="bad_suit", text=shorten(text), suits=SUITS)
