"""How long the games app keeps the games of guests who never made an account, and the
sessions that tie a guest's games to a browser.

A guest's game becomes an account's only through its session (a sign-up or a log-in from
that browser: ``claim_guest_games``), and it is in no public proof: the games file, the
board, the receipts and the close records hold daily games only (docs/fair-play.md). So
a guest's daily goes ``GUEST_GAME_DAYS`` days after its day closed, and a guest's
practice game ``GUEST_GAME_DAYS`` days after it started once its session has ended, with
its move log, its origin and its analysis. The games of a challenge with a case still
open (a flag, a report: ``games.signals.challenges_under_review``) are kept until it is
closed (docs/operations.md, "Data retention").

Expired sessions are cleared here too (``manage.py clearsessions``), a logged-in player's
as well as a guest's: the session table is no app's, and a guest's session is what its
games hang on.
"""

from __future__ import annotations

import datetime as dt
from importlib import import_module

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from games.models import Game, Mode
from games.signals import challenges_under_review

BATCH = 500  # games deleted per transaction: each takes its log, origin and analysis along


def unclaimed_guest_games(now: dt.datetime) -> QuerySet[Game]:
    """The guests' games no account took that have served their purpose by ``now``."""
    since = now - dt.timedelta(days=settings.GUEST_GAME_DAYS)
    live_session = Session.objects.filter(session_key=OuterRef("session_key"), expire_date__gt=now)
    dailies = Game.objects.filter(
        player__isnull=True, mode=Mode.GUEST, challenge__date__lt=since.date()
    )
    practice = Game.objects.filter(
        player__isnull=True, mode=Mode.PRACTICE, started_at__lt=since
    ).exclude(Exists(live_session))
    kept = {
        challenge_id
        for _receiver, challenge_ids in challenges_under_review.send(sender=Game)
        for challenge_id in challenge_ids or ()
    }
    return (dailies.exclude(challenge_id__in=kept) | practice).order_by()


def purge_guest_games(now: dt.datetime | None = None) -> int:
    """Delete the unclaimed guests' games past their time; return how many went."""
    expired = unclaimed_guest_games(now or timezone.now())
    deleted = 0
    while ids := list(expired.values_list("pk", flat=True)[:BATCH]):
        with transaction.atomic():
            # a log-in claiming one of them meanwhile wins: the lock waits for it, and a
            # game it gave to an account is no longer a guest's
            unclaimed = Game.objects.select_for_update().filter(pk__in=ids, player__isnull=True)
            going = list(unclaimed.values_list("pk", flat=True))
            Game.objects.filter(pk__in=going).delete()
        deleted += len(going)
    return deleted


def clear_expired_sessions() -> None:
    """Delete the sessions past their expiry: nobody can use one any more."""
    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()
