"""Receipts: a finished daily game's result, signed by the site (games/receipts.py).

The answer that ends a daily game (the last move, a resign) carries its receipt; it is
kept (``games.Receipt``) exactly as issued, so the player can fetch it again and check
it against the day's games file and close record (``python -m games.verify_day
--receipt``, docs/fair-play.md). A game that ended without such an answer (left in play
at the close, or a receipt lost to a database error) gets its receipt on first request.

A receipt names nothing secret: no deal number, no position, no card, only the result
and the SHA-256 of the log the player has already seen.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

from django.db import DatabaseError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apikit.errors import Conflict, NotFound
from games import receipts, signing
from games.models import Game, Mode, Receipt, Status
from games.services.closing import end_if_day_closed
from games.services.common import Actor
from games.services.move_log import log_entries

logger = logging.getLogger(__name__)

RECEIPT_PENDING = gettext_lazy("the receipt is issued when the game is over")


def issue_receipt(game_id: int) -> dict[str, Any] | None:
    """The game's receipt: the stored one, else made, signed and stored now. None for a
    game that is not a finished daily."""
    stored = Receipt.objects.filter(game_id=game_id).values_list("document", flat=True).first()
    if stored is not None:
        return dict(json.loads(stored))
    game = (
        Game.objects.select_related("challenge", "player")
        .filter(pk=game_id, mode=Mode.DAILY)
        .exclude(status=Status.PLAYING)
        .first()
    )
    if game is None or game.challenge is None or game.player is None:
        return None
    log = log_entries(game)
    document = signing.sign(
        receipts.receipt(
            date=game.challenge.date.isoformat(),
            tier=game.challenge.tier,
            game_id=game.pk,
            player=game.player.display_name,
            status=game.status,
            score=game.score,
            moves=game.moves,
            elapsed_ms=game.elapsed_ms or 0,
            log=(receipts.log_entry(*entry) for entry in log),
            signer=signing.current_key_id(),
        )
    )
    # Two requests may issue at once: the first stored wins, and both answer with it.
    row, _created = Receipt.objects.get_or_create(
        game_id=game.pk,
        defaults={
            "date": game.challenge.date,
            "key_id": document["key_id"],
            "document": json.dumps(document),
        },
    )
    return dict(json.loads(row.document))


def receipt_at_the_end(game_id: int) -> dict[str, Any] | None:
    """The receipt for the answer that ended a daily game, which is committed already: a
    database error here must not turn an accepted move into an error (the player can
    fetch the receipt later, and the close of day issues any still missing)."""
    try:
        return issue_receipt(game_id)
    except DatabaseError:
        logger.warning("game %s: its receipt could not be issued now", game_id, exc_info=True)
        return None


def receipt_for(actor: Actor, game_id: int) -> dict[str, Any]:
    """The receipt of the actor's own finished daily game; 404 for anyone else's."""
    game = Game.objects.filter(pk=game_id).only("player_id", "session_key", "mode").first()
    if game is None or actor.user_id is None or not actor.owns(game):
        raise NotFound(_("no such game"))
    if game.mode != Mode.DAILY:
        raise NotFound(_("only a daily game gets a receipt: this one is not ranked"))
    end_if_day_closed(game_id)
    document = issue_receipt(game_id)
    if document is None:
        raise Conflict(str(RECEIPT_PENDING), status=Status.PLAYING)
    return document


def receipts_of(user_id: int) -> Iterator[dict[str, Any]]:
    """Every receipt of the player's finished daily games, oldest day first."""
    finished = (
        Game.objects.filter(player_id=user_id, mode=Mode.DAILY)
        .exclude(status=Status.PLAYING)
        .order_by("challenge__date", "pk")
        .values_list("pk", flat=True)
    )
    for game_id in finished:
        document = issue_receipt(game_id)
        if document is not None:
            yield document
