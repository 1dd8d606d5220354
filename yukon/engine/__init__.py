"""The rules of Yukon and its variants: pure Python, standard library only, never Django.

Cards and moves are small integers with a fixed text form (``Ah``, ``9h>4``, ``Ac>F``);
a ``Position`` knows the legal moves, plays and undoes them and keeps the score;
``replay_log`` plays a move log (``UNDO`` entries too) step by step, ``walk_log`` shows
each move of a ranked log before it is played; ``replay`` referees a whole ranked log
from a deal number.
"""

from .cards import Card, card_name, card_text, parse_card
from .deal import DEAL_ALGORITHM_VERSION, MAX_DEAL_NUMBER, check_deal_number, deal_columns
from .errors import (
    DealNumberError,
    EngineError,
    IllegalMoveError,
    NotationError,
    UnknownVariantError,
)
from .moves import FOUNDATION, Move, make_move, move_card, move_dest, move_text, parse_move
from .position import MAX_SCORE, Position, deal_position
from .replay import (
    UNDO,
    LogError,
    LogStep,
    ReplayError,
    ReplayResult,
    play_log,
    replay,
    replay_log,
    walk_log,
)
from .variants import VARIANT_NAMES, VARIANTS, Variant, get_variant

__all__ = [
    "DEAL_ALGORITHM_VERSION",
    "FOUNDATION",
    "MAX_DEAL_NUMBER",
    "MAX_SCORE",
    "UNDO",
    "VARIANTS",
    "VARIANT_NAMES",
    "Card",
    "DealNumberError",
    "EngineError",
    "IllegalMoveError",
    "LogError",
    "LogStep",
    "Move",
    "NotationError",
    "Position",
    "ReplayError",
    "ReplayResult",
    "UnknownVariantError",
    "Variant",
    "card_name",
    "card_text",
    "check_deal_number",
    "deal_columns",
    "deal_position",
    "get_variant",
    "make_move",
    "move_card",
    "move_dest",
    "move_text",
    "parse_card",
    "parse_move",
    "play_log",
    "replay",
    "replay_log",
    "walk_log",
]
