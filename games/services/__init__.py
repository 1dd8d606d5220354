"""Every change to a game lives here, one module per concern; this package is their door.

- ``playing``: start a daily (a guest's too), an archive or a practice game (by number,
  or from the practice pool), undo, count a hint, resign; a guest's games claimed at
  log-in and at sign-up;
- ``moves``: the move itself, the hot path (hand-written SQL on a prepared cursor);
- ``closing``: the close of day (a daily left in play ends unfinished);
- ``reads``: who may look at a game and at its log; a day's published challenges;
- ``verification``: a finished game's log replayed from the deal, and the sweeps;
- ``move_log``: a game's log from its Move rows or its packed form (once verified), the
  one way every reader gets it; packing, and the batches that pack older games;
- ``provisional``: a new account's ranked result, marked until it is confirmed (and held
  off the boards while moderation finds it linked to a guest's game);
- ``standing``: whether a result stands: disqualify games, put them back, void a day's
  games (moderation decides; the boards hear of it through ``results_changed``);
- ``receipts``: a finished daily's receipt, signed by the site (fair play);
- ``results``: whose results screen may be read (the boards compute its figures);
- ``common``: who is asking (``Actor``), the clock, ending a game.

Views, tasks and the other apps import the names below from ``games.services``; the
modules import each other directly. Each write runs in one transaction with the game
row locked, so a move is acknowledged only once committed.
"""

from games.services.closing import (
    DAY_CLOSED,
    DayClosed,
    abandon_closed_games,
    abandon_game,
    end_if_day_closed,
)
from games.services.common import Actor, status_word, tier_word
from games.services.move_log import (
    LogEntry,
    last_move_at_ms,
    log_entries,
    logs_of,
    pack_verified_games,
    pack_verified_log,
)
from games.services.moves import FACE_DOWN_REASON, MoveResult, play_move
from games.services.playing import (
    PoolExhausted,
    claim_guest_games,
    claim_guest_games_at_sign_up,
    record_hint,
    resign_game,
    start_archive_game,
    start_daily_game,
    start_pooled_practice_game,
    start_practice_game,
    undo_move,
)
from games.services.provisional import (
    confirm_results,
    earlier_dailies,
    hold_results,
    release_results,
)
from games.services.reads import (
    CLOSED_DAY_MAX_AGE,
    get_game_for,
    get_replay_for,
    public_challenges,
    recent_practice_games,
)
from games.services.receipts import (
    issue_receipt,
    receipt_at_the_end,
    receipt_for,
    receipts_of,
)
from games.services.results import get_finished_daily_for, next_deal_at
from games.services.standing import disqualify_games, requalify_games, void_challenge
from games.services.verification import LogRejected, Replayed, sweep_games, verify_game

__all__ = [
    "CLOSED_DAY_MAX_AGE",
    "DAY_CLOSED",
    "FACE_DOWN_REASON",
    "Actor",
    "DayClosed",
    "LogEntry",
    "LogRejected",
    "MoveResult",
    "PoolExhausted",
    "Replayed",
    "abandon_closed_games",
    "abandon_game",
    "claim_guest_games",
    "claim_guest_games_at_sign_up",
    "confirm_results",
    "disqualify_games",
    "earlier_dailies",
    "end_if_day_closed",
    "get_finished_daily_for",
    "get_game_for",
    "get_replay_for",
    "hold_results",
    "issue_receipt",
    "last_move_at_ms",
    "log_entries",
    "logs_of",
    "next_deal_at",
    "pack_verified_games",
    "pack_verified_log",
    "play_move",
    "public_challenges",
    "receipt_at_the_end",
    "receipt_for",
    "receipts_of",
    "recent_practice_games",
    "record_hint",
    "release_results",
    "requalify_games",
    "resign_game",
    "start_archive_game",
    "start_daily_game",
    "start_pooled_practice_game",
    "start_practice_game",
    "status_word",
    "sweep_games",
    "tier_word",
    "undo_move",
    "verify_game",
    "void_challenge",
]
