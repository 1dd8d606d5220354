"""The packed form of a finished game's move log: a few bytes a move, kept on the game's row.

A verified game's log moves out of its per-move rows (``games.Move``, about 130 bytes a
move at rest) into one ``bytes`` value (``Game.packed_log``); ``games.services.move_log``
reads either form. This module is only the codec: pure, no Django.

Format 1, byte by byte::

    0x01                      the format
    varint n                  the number of entries; entry i has ply i
    n times:
      varint symbol           token * TURNED_CODES + turned code
      [varint len, utf-8]     the text itself, when the token is LITERAL
      [varint len, utf-8]     the turned card itself, when the turned code is TURNED_LITERAL
      varint delta            at_ms minus the entry before's (the first: minus 0)

A token codes the move text against the engine's move grammar: ``undo``; a one-deck move
``9h>4`` (its engine number, 0..415); a move naming its source column ``3:9h#2>4`` (source
1..16, face, no copy or copy 1..4, column 1..16 or ``F``); anything else literally. Every
coded text is written back out and compared before it is trusted, so every string
round-trips, and whatever the engine writes costs one symbol. The turned card is its face
(``9h``), or none. Times never go backwards in a verified log, so a delta is never negative.

The token layout is the format: it never follows the variants (a new variant's longer
text takes the literal path until a new format says otherwise).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NamedTuple

from yukon.engine import UNDO
from yukon.engine.cards import CARD_TEXT
from yukon.engine.moves import move_text

FORMAT: Final = 1

FACES: Final = CARD_TEXT[:52]
_FACE_CODE: Final = {face: code for code, face in enumerate(FACES)}
ONE_DECK_MOVES: Final = 52 * 8  # a one-deck move is card << 3 | dest
_ONE_DECK_CODE: Final = {move_text(m): m for m in range(ONE_DECK_MOVES)}
MAX_COLUMN: Final = 16  # the format's, fixed: "16:9h#2>16"
COPIES: Final = 5  # no copy named, or #1..#4
DESTINATIONS: Final = MAX_COLUMN + 1  # columns 1..16, then the foundation

UNDO_TOKEN: Final = 0
LITERAL: Final = 1
FIRST_ONE_DECK: Final = 2
FIRST_SOURCED: Final = FIRST_ONE_DECK + ONE_DECK_MOVES
SOURCED_MOVES: Final = MAX_COLUMN * 52 * COPIES * DESTINATIONS

NO_TURN: Final = 0  # then the faces 1..52
TURNED_LITERAL: Final = 53
TURNED_CODES: Final = 54


class LogEntry(NamedTuple):
    """One entry of a game's log, whichever form it is stored in."""

    ply: int
    text: str
    turned: str  # the face turned up, "" for none
    at_ms: int


class PackedLogError(ValueError):
    """Bytes that are not a packed log, or a log that cannot be packed; says why."""


def pack(entries: Iterable[tuple[int, str, str, int]]) -> bytes:
    """The packed form of ``(ply, text, turned, at_ms)`` entries in ply order.

    Refuses (PackedLogError) a log whose plies are not 0, 1, 2, ... or whose time goes
    backwards: only a verified log is packed, and verification refuses both.
    """
    body = bytearray()
    count = 0
    last_at_ms = 0
    for ply, text, turned, at_ms in entries:
        if ply != count:
            raise PackedLogError(f"ply {count} expected, not {ply}: only a whole log packs")
        if at_ms < last_at_ms:
            raise PackedLogError(f"ply {ply}: time goes backwards ({at_ms} < {last_at_ms})")
        token = text_token(text)
        turned_code = _turned_code(turned)
        _put_varint(body, token * TURNED_CODES + turned_code)
        if token == LITERAL:
            _put_text(body, text)
        if turned_code == TURNED_LITERAL:
            _put_text(body, turned)
        _put_varint(body, at_ms - last_at_ms)
        last_at_ms = at_ms
        count += 1
    head = bytearray([FORMAT])
    _put_varint(head, count)
    return bytes(head + body)


def unpack(data: bytes | memoryview) -> list[LogEntry]:
    """The entries of a packed log; PackedLogError for bytes that are not one."""
    data = bytes(data)  # a memoryview from the database driver, too
    if not data or data[0] != FORMAT:
        raise PackedLogError(f"not a packed log of format {FORMAT}")
    reader = _Reader(data, 1)
    count = reader.varint()
    entries: list[LogEntry] = []
    at_ms = 0
    for ply in range(count):
        token, turned_code = divmod(reader.varint(), TURNED_CODES)
        text = reader.text() if token == LITERAL else token_text(token)
        if turned_code == TURNED_LITERAL:
            turned = reader.text()
        else:
            turned = FACES[turned_code - 1] if turned_code else ""
        at_ms += reader.varint()
        entries.append(LogEntry(ply, text, turned, at_ms))
    if reader.offset != len(data):
        raise PackedLogError(f"{len(data) - reader.offset} bytes left after {count} entries")
    return entries


def text_token(text: str) -> int:
    """The token of a move text: LITERAL when the grammar does not give it back exactly."""
    if text == UNDO:
        return UNDO_TOKEN
    one_deck = _ONE_DECK_CODE.get(text)
    if one_deck is not None:
        return FIRST_ONE_DECK + one_deck
    token = _sourced_token(text)
    if token is not None and token_text(token) == text:
        return token
    return LITERAL


def token_text(token: int) -> str:
    """The move text of a token (not LITERAL)."""
    if token == UNDO_TOKEN:
        return UNDO
    if FIRST_ONE_DECK <= token < FIRST_SOURCED:
        return move_text(token - FIRST_ONE_DECK)
    if not FIRST_SOURCED <= token < FIRST_SOURCED + SOURCED_MOVES:
        raise PackedLogError(f"no move has token {token}")
    rest, dest = divmod(token - FIRST_SOURCED, DESTINATIONS)
    rest, copy = divmod(rest, COPIES)
    source, face = divmod(rest, 52)
    named_copy = f"#{copy}" if copy else ""
    to = "F" if dest == MAX_COLUMN else str(dest + 1)
    return f"{source + 1}:{FACES[face]}{named_copy}>{to}"


def _sourced_token(text: str) -> int | None:
    source_text, colon, body = text.partition(":")
    card_text, arrow, dest_text = body.partition(">")
    face_text, hash_, copy_text = card_text.partition("#")
    face = _FACE_CODE.get(face_text)
    source = _column(source_text)
    dest = MAX_COLUMN if dest_text == "F" else _column(dest_text)
    copy = int(copy_text) if hash_ and copy_text in ("1", "2", "3", "4") else 0
    if not (colon and arrow) or face is None or source is None or dest is None:
        return None
    if hash_ and not copy:
        return None
    return FIRST_SOURCED + ((source * 52 + face) * COPIES + copy) * DESTINATIONS + dest


def _column(text: str) -> int | None:
    if text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_COLUMN:
        return int(text) - 1
    return None


def _turned_code(turned: str) -> int:
    if not turned:
        return NO_TURN
    face = _FACE_CODE.get(turned)
    return TURNED_LITERAL if face is None else face + 1


def _put_varint(out: bytearray, value: int) -> None:
    """LEB128: seven bits a byte, low bits first, the high bit set on all but the last."""
    if value < 0:
        raise PackedLogError(f"a varint is never negative ({value})")
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)


def _put_text(out: bytearray, text: str) -> None:
    raw = text.encode()
    _put_varint(out, len(raw))
    out += raw


class _Reader:
    def __init__(self, data: bytes, offset: int) -> None:
        self.data = data
        self.offset = offset

    def varint(self) -> int:
        value = shift = 0
        while True:
            if self.offset >= len(self.data):
                raise PackedLogError("the packed log ends inside a number")
            byte = self.data[self.offset]
            self.offset += 1
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7

    def text(self) -> str:
        length = self.varint()
        end = self.offset + length
        if end > len(self.data):
            raise PackedLogError("the packed log ends inside a text")
        raw = self.data[self.offset : end]
        self.offset = end
        try:
            return raw.decode()
        except UnicodeDecodeError as exc:
            raise PackedLogError("a text in the packed log is not UTF-8") from exc
