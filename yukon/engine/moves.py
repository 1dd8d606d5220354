"""Moves as small integers, and their text form ``<card>><dest>`` (``9h>4``, ``Ac>F``, ``3:9h>4``).

A move is ``card << 3 | dest`` where dest 0..6 is a column (shown as 1..7) and 7 is the
card's foundation. The optional ``3:`` prefix names the source column; the card alone
already identifies the source, so the prefix is only checked, never needed.

Multi-deck games (two identical cards may both be face up) always name the source column,
``3:9h>4`` or ``12:Ah>F``, columns 1..16; when the column holds two face-up copies of the
card, the copy's deck follows the card, ``3:9h#2>4``. There a move is ``card << 5 | dest``
with ``card`` the physical card (``deck * 52 + face``) and dest 31 a foundation
(``Variant.shift`` and ``Variant.home``); ``Position.parse_move`` and ``Position.move_text``
read and write both forms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from .cards import CARD_TEXT, Card, parse_card
from .errors import NotationError, shorten

if TYPE_CHECKING:
    from .variants import Variant

Move = int
FOUNDATION: Final = 7
MAX_SINGLE_DECK_MOVE_TEXT: Final = 6  # "3:9h>4"


def make_move(card: Card, dest: int) -> Move:
    """The move of ``card`` to column ``dest`` (0..6) or to its foundation (FOUNDATION)."""
    return card << 3 | dest


def move_card(move: Move) -> Card:
    return move >> 3


def move_dest(move: Move) -> int:
    return move & 7


def move_text(move: Move) -> str:
    """``9h>4`` for the nine of hearts onto column 4, ``Ac>F`` for the ace of clubs home."""
    dest = move & 7
    return CARD_TEXT[move >> 3] + (">F" if dest == FOUNDATION else f">{dest + 1}")


class ParsedMove(NamedTuple):
    move: Move
    source: int | None  # the column named by a ``3:`` prefix (0..6), if any


_BY_TEXT: Final = {move_text(m): m for m in range(52 * 8)}
MAX_MULTI_DECK_MOVE_TEXT: Final = 10  # "16:9h#2>16"


class SourcedMove(NamedTuple):
    """A multi-deck move as written: ``source:face[#deck]>dest``."""

    source: int  # column 0..15
    face: Card  # 0..51
    deck: int | None  # 0..3 when a ``#n`` names the copy
    dest: int | None  # column 0..15, None for a foundation


def _column(text: str, bad_kind: str, variant: Variant) -> int:
    columns = variant.columns
    if not (text.isascii() and text.isdigit()) or text.startswith("0"):
        raise NotationError(kind=bad_kind, text=shorten(text), columns=columns)
    number = int(text)
    if number > columns:
        raise NotationError(
            kind="beyond_board",
            column=number,
            title=variant.title,
            columns=columns,
            variant=variant.name,
        )
    return number - 1


def parse_sourced_move(text: str, variant: Variant) -> SourcedMove:
    """Read a multi-deck move (``3:9h>4``, ``12:Ah>F``, ``3:9h#2>4``) with exact reasons."""
    if not isinstance(text, str):
        raise NotationError(kind="sourced_move_not_text", type=type(text).__name__)
    if not text:
        raise NotationError(kind="sourced_empty_move")
    if len(text) > MAX_MULTI_DECK_MOVE_TEXT:
        raise NotationError(
            kind="sourced_move_too_long", text=shorten(text), limit=MAX_MULTI_DECK_MOVE_TEXT
        )
    decks = variant.decks
    prefix, colon, body = text.partition(":")
    if not colon:
        raise NotationError(
            kind="no_source",
            text=shorten(text),
            title=variant.title,
            decks=decks,
            variant=variant.name,
        )
    source = _column(prefix, "bad_source_column", variant)
    card_part, arrow, dest_part = body.partition(">")
    if not arrow:
        raise NotationError(kind="sourced_no_arrow", text=shorten(text))
    face_text, hash_, deck_text = card_part.partition("#")
    face = parse_card(face_text)
    deck: int | None = None
    if hash_:
        if deck_text not in ("1", "2", "3", "4"):
            raise NotationError(kind="bad_deck", text=shorten(text), decks=decks)
        deck = int(deck_text) - 1
        if deck >= decks:
            raise NotationError(
                kind="no_such_deck",
                card=f"{face_text}#{deck_text}",
                title=variant.title,
                decks=decks,
                variant=variant.name,
            )
    if not dest_part:
        raise NotationError(kind="no_destination", text=shorten(text), columns=variant.columns)
    dest = None if dest_part == "F" else _column(dest_part, "bad_destination_column", variant)
    return SourcedMove(source, face, deck, dest)


def parse_move(text: str) -> ParsedMove:
    """Read a move's text; raise NotationError saying exactly what is wrong."""
    if not isinstance(text, str):
        raise NotationError(kind="move_not_text", type=type(text).__name__)
    move = _BY_TEXT.get(text)
    if move is not None:
        return ParsedMove(move, None)
    if not text:
        raise NotationError(kind="empty_move")
    if len(text) > MAX_SINGLE_DECK_MOVE_TEXT:
        raise NotationError(
            kind="move_too_long", text=shorten(text), limit=MAX_SINGLE_DECK_MOVE_TEXT
        )
    source: int | None = None
    body = text
    if ":" in text:
        prefix, _, body = text.partition(":")
        if len(prefix) != 1 or prefix not in "1234567":
            raise NotationError(kind="bad_source", text=shorten(text))
        source = int(prefix) - 1
    card_part, arrow, dest_part = body.partition(">")
    if not arrow:
        raise NotationError(kind="no_arrow", text=shorten(text))
    parse_card(card_part)  # raises with the card's own reason
    if not dest_part:
        raise NotationError(kind="no_destination", text=shorten(text), columns=7)
    move = _BY_TEXT.get(body)
    if move is None:
        raise NotationError(
            kind="bad_destination", text=shorten(text), destination=shorten(dest_part)
        )
    return ParsedMove(move, source)


__all__ = [
    "FOUNDATION",
    "Move",
    "ParsedMove",
    "SourcedMove",
    "make_move",
    "move_card",
    "move_dest",
    "move_text",
    "parse_move",
    "parse_sourced_move",
]
