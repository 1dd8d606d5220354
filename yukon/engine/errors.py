"""The engine's exceptions: every one is a ValueError with a message a person can read.

A refusal a player can meet also carries a ``kind`` (a key of ``REASONS``) and the named
``fields`` its text is made of, so a layer above can say it in the player's language: the
texts below are %-templates, the same ones such a layer's translation table uses as its
messages. Fields are card texts as the game writes them ("9h"), numbers, names, or a tuple
of choices (written "a or b" here).
"""

from __future__ import annotations

from typing import Final

Field = str | int | tuple[str, ...]

# kind -> its English text; a (singular, plural, count field) triple when a number decides.
REASONS: Final[dict[str, str | tuple[str, str, str]]] = {
    # a well-formed move the rules refuse (IllegalMoveError)
    "not_a_move": "%(move)s is not a move",
    "foundation_keeps": "%(card)s is on its foundation, and a card on a foundation stays there",
    "not_foundation_top": "%(card)s is not the top card of its foundation",
    "already_home": "%(card)s is already home",
    "face_down": "%(card)s is face down",
    "covered": (
        "only an exposed card goes home, and %(card)s has %(count)s card on it",
        "only an exposed card goes home, and %(card)s has %(count)s cards on it",
        "count",
    ),
    "home_needs": (
        "%(card)s cannot go home yet: the %(suit)s foundation needs the %(needed)s first"
    ),
    "no_home_has": (
        "%(card)s cannot go home yet: no %(suit)s foundation has the %(needed)s on top"
    ),
    "same_column": "%(card)s is already in column %(column)s",
    "king_only": "only a King may move into an empty column, and %(card)s is not one",
    "whole_column": (
        "%(card)s already lies at the bottom of column %(column)s; "
        "moving the whole column changes nothing"
    ),
    "does_not_fit": "%(card)s cannot go on %(onto)s: %(rule)s",
    "runs_only": (
        "%(card)s cannot take the cards on it along: in %(title)s only an ordered run moves"
    ),
    "not_in_column": "%(card)s is not a face-up card of column %(column)s",
    "which_copy": (
        "column %(column)s shows %(count)s copies of %(card)s: name the one you mean, %(options)s"
    ),
    "nothing_to_undo": "there is no move to undo",
    # a move's text (NotationError)
    "move_not_text": "a move is text like '9h>4', not %(type)s",
    "empty_move": "empty move: write it as <card>><column 1-7 or F>, like '9h>4' or 'Ac>F'",
    "move_too_long": (
        "move %(text)s is too long: a move is at most %(limit)s characters, like '3:9h>4'"
    ),
    "bad_source": "move %(text)s: the source column before ':' must be 1-7",
    "no_arrow": "move %(text)s has no '>': write it like '9h>4' or 'Ac>F'",
    "no_destination": "move %(text)s has no destination after '>': a column 1-%(columns)s or F",
    "bad_destination": (
        "move %(text)s: unknown destination %(destination)s, expected a column 1-7 or F"
    ),
    # a multi-deck move's text
    "sourced_move_not_text": "a move is text like '3:9h>4', not %(type)s",
    "sourced_empty_move": ("empty move: write it as <column>:<card>><column or F>, like '3:9h>4'"),
    "sourced_move_too_long": (
        "move %(text)s is too long: a move is at most %(limit)s characters, like '16:9h#2>16'"
    ),
    "no_source": (
        "move %(text)s does not name its source column: %(title)s plays %(decks)s decks, "
        "so two cards can look the same; write it like '3:9h>4'"
    ),
    "bad_source_column": (
        "move %(text)s: the source column before ':' must be a column 1-%(columns)s"
    ),
    "bad_destination_column": "move %(text)s: the destination must be a column 1-%(columns)s",
    "beyond_board": "column %(column)s is beyond the board: %(title)s has %(columns)s columns",
    "sourced_no_arrow": "move %(text)s has no '>': write it like '3:9h>4' or '3:Ac>F'",
    "bad_deck": "move %(text)s: after '#' comes the card's deck, 1-%(decks)s",
    "no_such_deck": (
        "%(card)s is a card of a deck that does not exist: "
        "%(title)s plays %(decks)s decks (#1-#%(decks)s)"
    ),
    # a card's text (NotationError)
    "no_such_card": "no card has rank %(rank)s and suit %(suit)s",
    "card_not_text": "a card is text like 'Ah', not %(type)s",
    "empty_card": "empty card: a card is a rank (A23456789TJQK) and a suit (cdhs), like 'Ah'",
    "card_length": "%(text)s is not a card: a card is two characters, like 'Ah' or 'Tc'",
    "bad_rank": "%(text)s is not a card: the rank must be one of %(ranks)s",
    "bad_suit": "%(text)s is not a card: the suit must be one of %(suits)s",
    # a deal number (DealNumberError)
    "deal_not_int": "a deal number is a whole number, not %(type)s",
    "deal_out_of_range": "deal number %(number)s is out of range: 0 <= N < 2**64",
    # a variant's name (UnknownVariantError)
    "variant_not_text": "a variant is a name, not %(type)s",
    "unknown_option": "unknown variant option %(option)s: the only one is 'takeback'",
    "unknown_variant": "unknown variant %(text)s: choose one of %(names)s",
    "no_rules_version": (
        "%(variant)s has no rules version %(version)s: its rules are at version %(current)s"
    ),
    "no_takeback": (
        "%(variant)s has no foundation takeback: it is offered for one-deck games only"
    ),
}


def render(kind: str, fields: dict[str, Field], *, alternatives: str = " or ") -> str:
    """The English text of reason ``kind`` with ``fields`` filled in."""
    template = REASONS[kind]
    values = {
        name: alternatives.join(value) if isinstance(value, tuple) else value
        for name, value in fields.items()
    }
    if isinstance(template, tuple):
        one, other, count = template
        template = one if values[count] == 1 else other
    return template % values


class EngineError(ValueError):
    """Base class of everything the engine rejects.

    ``EngineError(kind="face_down", card="9h")`` says reason ``kind`` (``REASONS``);
    ``EngineError("text")`` is a message with no kind, for what only developers meet
    (a malformed stored position).
    """

    kind: str
    fields: dict[str, Field]

    def __init__(self, message: str | None = None, /, *, kind: str = "", **fields: Field) -> None:
        super().__init__(render(kind, fields) if message is None else message)
        self.kind = kind
        self.fields = fields


class NotationError(EngineError):
    """Text that is not a card, a move or a position in the fixed notation."""


class IllegalMoveError(EngineError):
    """A well-formed move that the rules do not allow in this position."""


class UnknownVariantError(EngineError):
    """A variant name the engine does not know."""


class DealNumberError(EngineError):
    """A deal number outside 0 <= N < 2**64, or not an integer."""


def shorten(text: str, limit: int = 20) -> str:
    """Quote outside input for an error message without echoing a huge string back."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text)} characters)"
