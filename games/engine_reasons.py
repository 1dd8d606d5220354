"""The engine's refusals in the player's language.

The engine never imports Django, so its errors carry a ``kind`` and named ``fields``
(``yukon.engine.errors.REASONS`` holds their English); this table says each kind as a
message with the same fields. Card texts ("9h"), the move's own text and the notation's
examples stay as the game writes them. A kind missing here shows the engine's English;
tests/games/test_engine_reasons.py checks that every kind is listed and reads the same in
English as the engine's text.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext_lazy, pgettext_lazy

from yukon.engine import VARIANTS, EngineError

SUIT_NAMES: dict[str, Promise] = {  # as a foundation is named in a message
    "clubs": pgettext_lazy("suit", "clubs"),
    "diamonds": pgettext_lazy("suit", "diamonds"),
    "hearts": pgettext_lazy("suit", "hearts"),
    "spades": pgettext_lazy("suit", "spades"),
}

# The engine's variant titles ("variant": "Russian" names a game, not a language): the
# messages and the pages' (frontend/templatetags/variant_names.py) say them alike.
VARIANT_TITLES: dict[str, Promise] = {
    "yukon": pgettext_lazy("variant", "Yukon"),
    "russian": pgettext_lazy("variant", "Russian"),
    "alaska": pgettext_lazy("variant", "Alaska"),
    "moosehide": pgettext_lazy("variant", "Moosehide"),
    "moosehide-runs": pgettext_lazy("variant", "Moosehide (runs only)"),
    "double-yukon": pgettext_lazy("variant", "Double Yukon"),
    "triple-yukon": pgettext_lazy("variant", "Triple Yukon"),
    "quadruple-yukon": pgettext_lazy("variant", "Quadruple Yukon"),
}

# How a variant builds (``Variant.build_rule``), by (build, up or down).
_BUILD_RULES: dict[tuple[str, bool], Promise] = {
    ("alternate", False): gettext_lazy("%(title)s builds down in alternating colour"),
    ("alternate", True): gettext_lazy("%(title)s builds up or down in alternating colour"),
    ("suit", False): gettext_lazy("%(title)s builds down in suit"),
    ("suit", True): gettext_lazy("%(title)s builds up or down in suit"),
    ("other_suit", False): gettext_lazy("%(title)s builds down in any suit but the card's own"),
    ("other_suit", True): gettext_lazy(
        "%(title)s builds up or down in any suit but the card's own"
    ),
}

REASON_MESSAGES: dict[str, Promise] = {
    "not_a_move": gettext_lazy("%(move)s is not a move"),
    "foundation_keeps": gettext_lazy(
        "%(card)s is on its foundation, and a card on a foundation stays there"
    ),
    "not_foundation_top": gettext_lazy("%(card)s is not the top card of its foundation"),
    "already_home": gettext_lazy("%(card)s is already home"),
    "face_down": gettext_lazy("%(card)s is face down"),
    "covered": ngettext_lazy(
        "only an exposed card goes home, and %(card)s has %(count)s card on it",
        "only an exposed card goes home, and %(card)s has %(count)s cards on it",
        "count",
    ),
    "home_needs": gettext_lazy(
        "%(card)s cannot go home yet: the %(suit)s foundation needs the %(needed)s first"
    ),
    "no_home_has": gettext_lazy(
        "%(card)s cannot go home yet: no %(suit)s foundation has the %(needed)s on top"
    ),
    "same_column": gettext_lazy("%(card)s is already in column %(column)s"),
    "king_only": gettext_lazy("only a King may move into an empty column, and %(card)s is not one"),
    "whole_column": gettext_lazy(
        "%(card)s already lies at the bottom of column %(column)s; "
        "moving the whole column changes nothing"
    ),
    "does_not_fit": gettext_lazy("%(card)s cannot go on %(onto)s: %(rule)s"),
    "runs_only": gettext_lazy(
        "%(card)s cannot take the cards on it along: in %(title)s only an ordered run moves"
    ),
    "not_in_column": gettext_lazy("%(card)s is not a face-up card of column %(column)s"),
    "which_copy": gettext_lazy(
        "column %(column)s shows %(count)s copies of %(card)s: name the one you mean, %(options)s"
    ),
    "nothing_to_undo": gettext_lazy("there is no move to undo"),
    "move_not_text": gettext_lazy("a move is text like '9h>4', not %(type)s"),
    "empty_move": gettext_lazy(
        "empty move: write it as <card>><column 1-7 or F>, like '9h>4' or 'Ac>F'"
    ),
    "move_too_long": gettext_lazy(
        "move %(text)s is too long: a move is at most %(limit)s characters, like '3:9h>4'"
    ),
    "bad_source": gettext_lazy("move %(text)s: the source column before ':' must be 1-7"),
    "no_arrow": gettext_lazy("move %(text)s has no '>': write it like '9h>4' or 'Ac>F'"),
    "no_destination": gettext_lazy(
        "move %(text)s has no destination after '>': a column 1-%(columns)s or F"
    ),
    "bad_destination": gettext_lazy(
        "move %(text)s: unknown destination %(destination)s, expected a column 1-7 or F"
    ),
    "sourced_move_not_text": gettext_lazy("a move is text like '3:9h>4', not %(type)s"),
    "sourced_empty_move": gettext_lazy(
        "empty move: write it as <column>:<card>><column or F>, like '3:9h>4'"
    ),
    "sourced_move_too_long": gettext_lazy(
        "move %(text)s is too long: a move is at most %(limit)s characters, like '16:9h#2>16'"
    ),
    "no_source": gettext_lazy(
        "move %(text)s does not name its source column: %(title)s plays %(decks)s decks, "
        "so two cards can look the same; write it like '3:9h>4'"
    ),
    "bad_source_column": gettext_lazy(
        "move %(text)s: the source column before ':' must be a column 1-%(columns)s"
    ),
    "bad_destination_column": gettext_lazy(
        "move %(text)s: the destination must be a column 1-%(columns)s"
    ),
    "beyond_board": gettext_lazy(
        "column %(column)s is beyond the board: %(title)s has %(columns)s columns"
    ),
    "sourced_no_arrow": gettext_lazy(
        "move %(text)s has no '>': write it like '3:9h>4' or '3:Ac>F'"
    ),
    "bad_deck": gettext_lazy("move %(text)s: after '#' comes the card's deck, 1-%(decks)s"),
    "no_such_deck": gettext_lazy(
        "%(card)s is a card of a deck that does not exist: "
        "%(title)s plays %(decks)s decks (#1-#%(decks)s)"
    ),
    "no_such_card": gettext_lazy("no card has rank %(rank)s and suit %(suit)s"),
    "card_not_text": gettext_lazy("a card is text like 'Ah', not %(type)s"),
    "empty_card": gettext_lazy(
        "empty card: a card is a rank (A23456789TJQK) and a suit (cdhs), like 'Ah'"
    ),
    "card_length": gettext_lazy(
        "%(text)s is not a card: a card is two characters, like 'Ah' or 'Tc'"
    ),
    "bad_rank": gettext_lazy("%(text)s is not a card: the rank must be one of %(ranks)s"),
    "bad_suit": gettext_lazy("%(text)s is not a card: the suit must be one of %(suits)s"),
    "deal_not_int": gettext_lazy("a deal number is a whole number, not %(type)s"),
    "deal_out_of_range": gettext_lazy("deal number %(number)s is out of range: 0 <= N < 2**64"),
    "variant_not_text": gettext_lazy("a variant is a name, not %(type)s"),
    "unknown_option": gettext_lazy("unknown variant option %(option)s: the only one is 'takeback'"),
    "unknown_variant": gettext_lazy("unknown variant %(text)s: choose one of %(names)s"),
    "no_rules_version": gettext_lazy(
        "%(variant)s has no rules version %(version)s: its rules are at version %(current)s"
    ),
    "no_takeback": gettext_lazy(
        "%(variant)s has no foundation takeback: it is offered for one-deck games only"
    ),
}


def engine_reason(exc: EngineError) -> str:
    """``exc``'s reason in the active language (the engine's English for a kind not listed)."""
    message = REASON_MESSAGES.get(exc.kind)
    if message is None:
        return str(exc)
    fields: dict[str, object] = dict(exc.fields)
    options = fields.get("options")
    if isinstance(options, tuple):
        said = options[0]
        for option in options[1:]:
            # a choice between two (or more) moves, quoted as written: 'a' or 'b'
            said = gettext("%(options)s or %(option)s") % {"options": said, "option": option}
        fields["options"] = said
    suit = fields.get("suit")
    if isinstance(suit, str) and suit in SUIT_NAMES:
        fields["suit"] = str(SUIT_NAMES[suit])
    variant = VARIANTS.get(str(fields.get("variant")))
    if variant is not None:
        title = str(VARIANT_TITLES.get(variant.name, variant.title))
        fields["title"] = title
        if "rule" in fields:
            rule = _BUILD_RULES[(variant.build, variant.up_or_down)]
            fields["rule"] = rule % {"title": title}
    return message % fields
