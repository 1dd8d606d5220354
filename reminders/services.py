"""Reminders: the player's choices, their push subscriptions, who is due now, and sending.

A run (``reminders.tasks.queue_reminders``, every REMINDER_WINDOW) takes the players whose
chosen local time has passed since the run before (``due_player_ids``) and sends each
batch (``send_reminders``). Per player and UTC day at most one reminder of each kind:

- ``streak``: they won a daily yesterday (UTC) and have not started one of today's, so
  the streak ends at today's close, 00:00 UTC: "Your streak ends in 2 hours."
- ``rival``: they won one of today's challenges and a member of one of their leagues won
  it faster: "A league rival beat your time."

Sending is idempotent: the ``SentReminder`` row is inserted first and only the worker whose
insert succeeds sends (a unique violation means another run has it). A reminder whose
sending then fails is not tried again that day: at most once, never twice.
"""

from __future__ import annotations

import datetime as dt
import logging
import zoneinfo
from collections import defaultdict
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import requests
from allauth.account.models import EmailAddress
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.language import in_language_of
from accounts.models import User
from apikit.errors import Conflict, ServiceError
from games.models import Game, Mode, Status, closes_at
from leaderboards.ranking import counts_q, daily_tiers_q
from reminders import mail, push
from reminders.models import Kind, PushSubscription, ReminderPreferences, SentReminder
from social.models import Membership

logger = logging.getLogger(__name__)

# The beat's period (yukon_site/settings.py, "queue-reminders": every 15 minutes). A run
# looks back two periods, so one late or lost run loses no reminder (the sent log keeps a
# second look from sending twice).
REMINDER_WINDOW = dt.timedelta(minutes=15)
LOOK_BACK = 2 * REMINDER_WINDOW
# The sent log is needed for one day (idempotency); kept a while to answer "did it go?".
SENT_LOG_DAYS = 30
UNSUBSCRIBE_SALT = "reminders.unsubscribe"
ENDPOINT_MAX_LENGTH = 2048
NO_VERIFIED_ADDRESS = gettext_lazy(
    "Email reminders go only to a verified address: add or confirm your email address "
    "first (Account, Email address)."
)
PUSH_HOST_REFUSED = gettext_lazy("That push service is not one this site sends to.")


class PushNotConfigured(ServiceError):
    http_status = 503


# ----- the player's choices ----------------------------------------------------------------


@cache
def time_zones() -> frozenset[str]:
    """The IANA zones of places: the host's own "localtime" and tzdata's "Factory" are
    zone files, not places, whatever the host has installed."""
    return frozenset(zoneinfo.available_timezones()) - {"localtime", "Factory"}


def preferences_of(player: User) -> ReminderPreferences:
    """The player's preferences; the defaults (everything off), unsaved, if they have none."""
    found = ReminderPreferences.objects.filter(player=player).first()
    return found or ReminderPreferences(player=player)


def verified_address(player: User) -> str | None:
    """The address email reminders go to: the player's verified one, if any."""
    address = (
        EmailAddress.objects.filter(user=player, verified=True)
        .order_by("-primary", "pk")
        .values_list("email", flat=True)
        .first()
    )
    return address or None


def save_preferences(player: User, **changes: Any) -> ReminderPreferences:
    """Change the named preferences (push, email, local_time, time_zone, streak, rival);
    a ServiceError (400) says why not, a Conflict (409) that email needs a verified address."""
    if changes.get("time_zone") is not None and changes["time_zone"] not in time_zones():
        raise ServiceError(
            _("unknown time zone %(zone)s: an IANA name like Europe/Paris")
            % {"zone": repr(changes["time_zone"])},
            field="time_zone",
        )
    if changes.get("email") and verified_address(player) is None:
        raise Conflict(str(NO_VERIFIED_ADDRESS), field="email")
    with transaction.atomic():
        preferences, _created = ReminderPreferences.objects.select_for_update().get_or_create(
            player=player
        )
        for name, value in changes.items():
            if value is not None:
                setattr(preferences, name, value)
        preferences.save()
    return preferences


def subscribe(player: User, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Keep a browser's push subscription for ``player`` (one who subscribed this browser
    before gives it up: an endpoint is one browser's)."""
    if not push.allowed_endpoint(endpoint):
        raise ServiceError(str(PUSH_HOST_REFUSED), field="endpoint")
    subscription, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"player": player, "p256dh": p256dh, "auth": auth}
    )
    return subscription


def unsubscribe(player: User, endpoint: str) -> bool:
    """Forget the player's subscription of ``endpoint``; whether there was one."""
    if "\x00" in endpoint or len(endpoint) > ENDPOINT_MAX_LENGTH:
        return False  # never stored (PostgreSQL text holds no NUL): nothing to look up
    deleted, _ = PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()
    return bool(deleted)


# ----- one-click unsubscribe from email reminders -----------------------------------------


def unsubscribe_token(player_id: int) -> str:
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign(str(player_id))


def player_of_token(token: str) -> int | None:
    try:
        return int(signing.Signer(salt=UNSUBSCRIBE_SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        return None


def turn_email_off(player_id: int) -> None:
    ReminderPreferences.objects.filter(player_id=player_id).update(
        email=False, updated_at=timezone.now()
    )


# ----- who is due --------------------------------------------------------------------------


def slot_end(now: dt.datetime) -> dt.datetime:
    """The quarter hour a run at ``now`` stands for (runs start a moment after it)."""
    now = now.astimezone(dt.UTC)
    minutes = REMINDER_WINDOW.total_seconds() // 60
    return now.replace(minute=int(now.minute // minutes * minutes), second=0, microsecond=0)


def _local_window(zone: str, start: dt.datetime, end: dt.datetime) -> Q | None:
    """Local times in ``zone`` that fall in (start, end] (UTC instants): a Q on local_time,
    or None when there are none (a clock put back repeats times already looked at)."""
    tz = zoneinfo.ZoneInfo(zone)
    low = start.astimezone(tz).replace(tzinfo=None)
    high = end.astimezone(tz).replace(tzinfo=None)
    if high <= low:
        return None
    if low.date() == high.date():
        return Q(local_time__gt=low.time(), local_time__lte=high.time())
    return Q(local_time__gt=low.time()) | Q(local_time__lte=high.time())  # past midnight


def due_player_ids(now: dt.datetime) -> list[int]:
    """Players with reminders on whose chosen local time has passed since the last runs,
    who have had none today (UTC): the candidates; ``send_reminders`` decides."""
    end = slot_end(now)
    start = end - LOOK_BACK
    enabled = ReminderPreferences.objects.filter(Q(push=True) | Q(email=True)).filter(
        Q(streak=True) | Q(rival=True)
    )
    # zones with the same clock now share a window: one query per distinct offset
    by_window: dict[tuple[dt.datetime, dt.datetime], list[str]] = defaultdict(list)
    for zone in enabled.values_list("time_zone", flat=True).distinct():
        if zone in time_zones():
            tz = zoneinfo.ZoneInfo(zone)
            key = (
                start.astimezone(tz).replace(tzinfo=None),
                end.astimezone(tz).replace(tzinfo=None),
            )
            by_window[key].append(zone)
    sent_today = SentReminder.objects.filter(day=end.date()).values("player_id")
    ids: list[int] = []
    for zones in by_window.values():
        window = _local_window(zones[0], start, end)
        if window is None:
            continue
        ids.extend(
            enabled.filter(window, time_zone__in=zones)
            .filter(player__is_active=True, player__deleted_at__isnull=True)
            .exclude(player_id__in=sent_today)
            .values_list("player_id", flat=True)
        )
    return sorted(ids)


# ----- what each is sent --------------------------------------------------------------------


def streak_text(now: dt.datetime) -> str:
    """How long until today's close (00:00 UTC), in words that never promise more than a
    few minutes beyond the truth: "in 2 hours" from 1:55 to 2:05, else "in under 3 hours".
    In the active language (``send_reminders``: the player's)."""
    now = now.astimezone(dt.UTC)
    closes = closes_at(now.date())
    minutes = int((closes - now).total_seconds() // 60)
    if minutes < 55:
        count = max(minutes, 1)
        return ngettext(
            "Your streak ends in %(count)s minute.", "Your streak ends in %(count)s minutes.", count
        ) % {"count": count}
    hours, rest = divmod(minutes, 60)
    if rest >= 55:
        hours, rest = hours + 1, 0
    if rest <= 5:
        return ngettext(
            "Your streak ends in %(count)s hour.", "Your streak ends in %(count)s hours.", hours
        ) % {"count": hours}
    return ngettext(
        "Your streak ends in under %(count)s hour.",
        "Your streak ends in under %(count)s hours.",
        hours + 1,
    ) % {"count": hours + 1}


RIVAL_TEXT = gettext_lazy("A league rival beat your time.")


def _started_today(ids: Sequence[int], day: dt.date) -> set[int]:
    return set(
        Game.objects.filter(
            daily_tiers_q(), player_id__in=ids, mode=Mode.DAILY, challenge__date=day
        ).values_list("player_id", flat=True)
    )


def _won_on(ids: Iterable[int], day: dt.date) -> set[int]:
    return set(
        Game.objects.filter(
            counts_q(),
            daily_tiers_q(),
            player_id__in=list(ids),
            status=Status.WON,
            challenge__date=day,
        ).values_list("player_id", flat=True)
    )


def _wins_on(day: dt.date, **among: Any) -> list[tuple[int, int, int]]:
    """Counted wins of ``day``'s challenges, filtered by ``among``: (player, challenge, ms)."""
    wins = Game.objects.filter(
        counts_q(), status=Status.WON, challenge__date=day, elapsed_ms__isnull=False, **among
    ).values_list("player_id", "challenge_id", "elapsed_ms")
    # every filtered column is set: a counted daily has a player, a challenge and a time
    return [(p, c, ms) for p, c, ms in wins if p is not None and c is not None and ms is not None]


def _beaten_by_a_rival(ids: Iterable[int], day: dt.date) -> set[int]:
    """Players among ``ids`` with a counted win of one of ``day``'s challenges that a
    current member of one of their open leagues won in less time."""
    mine = _wins_on(day, player_id__in=list(ids))
    if not mine:
        return set()
    current = Membership.objects.filter(removed_at__isnull=True, league__closed_at__isnull=True)
    leagues_of: dict[int, set[int]] = defaultdict(set)
    for player_id, league_id in current.filter(
        player_id__in={p for p, _c, _ms in mine}
    ).values_list("player_id", "league_id"):
        leagues_of[player_id].add(league_id)
    members_of: dict[int, set[int]] = defaultdict(set)
    for league_id, player_id in current.filter(
        league_id__in={league for leagues in leagues_of.values() for league in leagues}
    ).values_list("league_id", "player_id"):
        members_of[league_id].add(player_id)
    rivals = {m for members in members_of.values() for m in members}
    fastest: dict[tuple[int, int], int] = {}
    for player_id, challenge_id, elapsed in _wins_on(
        day, player_id__in=rivals, challenge_id__in={c for _player, c, _ms in mine}
    ):
        fastest[player_id, challenge_id] = elapsed
    beaten = set()
    for player_id, challenge_id, elapsed in mine:
        circle = {m for league in leagues_of[player_id] for m in members_of[league]}
        circle.discard(player_id)
        if any(fastest.get((rival, challenge_id), elapsed) < elapsed for rival in circle):
            beaten.add(player_id)
    return beaten


def reminders_due(ids: Sequence[int], now: dt.datetime) -> dict[int, Kind]:
    """Which reminder each of ``ids`` is due now, by its preferences and today's games."""
    day = now.astimezone(dt.UTC).date()
    preferences = ReminderPreferences.objects.filter(
        Q(push=True) | Q(email=True), player_id__in=ids
    )
    started = _started_today(ids, day)
    at_stake = _won_on(set(ids) - started, day - dt.timedelta(days=1))
    beaten = _beaten_by_a_rival(started, day) if started else set()
    due: dict[int, Kind] = {}
    for p in preferences:
        if p.streak and p.player_id in at_stake:
            due[p.player_id] = Kind.STREAK
        elif p.rival and p.player_id in beaten:
            due[p.player_id] = Kind.RIVAL
    return due


# ----- sending ------------------------------------------------------------------------------


def claim(player_id: int, day: dt.date, kind: str) -> SentReminder | None:
    """The sent log's row for this reminder if this caller inserted it, None if another
    did: only the caller that gets the row sends (committed before anything is sent)."""
    try:
        with transaction.atomic():
            return SentReminder.objects.create(player_id=player_id, day=day, kind=kind)
    except IntegrityError:
        return None


def send_reminders(ids: Sequence[int], now: dt.datetime) -> dict[str, int]:
    """Send each player of ``ids`` the reminder due now, once a day per kind, by push to
    each subscribed browser and by email to a verified address, as they chose. Counts of
    what happened."""
    counts = {"sent": 0, "skipped": 0, "pushes": 0, "emails": 0, "gone": 0}
    day = now.astimezone(dt.UTC).date()
    due = reminders_due(ids, now)
    counts["skipped"] = len(ids) - len(due)
    if not due:
        return counts
    preferences = {
        p.player_id: p
        for p in ReminderPreferences.objects.filter(player_id__in=list(due)).select_related(
            "player"
        )
    }
    closes = closes_at(day)
    ttl = max(60, int((closes - now).total_seconds()))  # a reminder after the close is stale
    with requests.Session() as session:
        for player_id, kind in due.items():
            row = claim(player_id, day, kind)
            if row is None:
                counts["skipped"] += 1
                continue
            # the push and the mail in the player's language (accounts/language.py)
            with in_language_of(preferences[player_id].player):
                text = streak_text(now) if kind == Kind.STREAK else str(RIVAL_TEXT)
                sent = _deliver(
                    preferences[player_id],
                    row,
                    kind=kind,
                    text=text,
                    ttl=ttl,
                    session=session,
                    counts=counts,
                )
            counts["sent"] += int(sent)
    return counts


def _deliver(
    preferences: ReminderPreferences,
    row: SentReminder,
    *,
    kind: str,
    text: str,
    ttl: int,
    session: requests.Session,
    counts: dict[str, int],
) -> bool:
    player = preferences.player
    if preferences.push and push.configured():
        message = {"title": "Yukon Daily", "body": text, "tag": kind, "url": _link(kind)}
        for subscription in PushSubscription.objects.filter(player=player).order_by("pk"):
            outcome = push.send_push(subscription, message, ttl=ttl, session=session)
            if outcome.gone:
                subscription.delete()
                counts["gone"] += 1
            elif outcome.delivered:
                row.pushes += 1
                PushSubscription.objects.filter(pk=subscription.pk).update(
                    last_success_at=timezone.now()
                )
    if preferences.email and (address := verified_address(player)):
        mail.send_reminder_mail(
            address, text, link=_link(kind), unsubscribe_token=unsubscribe_token(player.pk)
        )
        row.emailed = True
    row.save(update_fields=["pushes", "emailed"])
    counts["pushes"] += row.pushes
    counts["emails"] += int(row.emailed)
    return bool(row.pushes or row.emailed)


def _link(kind: str) -> str:
    return "/leagues/" if kind == Kind.RIVAL else "/"


def purge_sent_log(today: dt.date) -> int:
    deleted, _ = SentReminder.objects.filter(
        day__lt=today - dt.timedelta(days=SENT_LOG_DAYS)
    ).delete()
    return deleted


# ----- the player's data ------------------------------------------------------------------


def export_of(player: Any) -> dict[str, Any]:
    """For the download of their data (accounts.signals.personal_data). The browsers' keys
    are named, not copied, as every secret in the export."""
    preferences = ReminderPreferences.objects.filter(player=player).first()
    return {
        "reminders": {
            "preferences": None
            if preferences is None
            else {
                "push": preferences.push,
                "email": preferences.email,
                "local_time": preferences.local_time.strftime("%H:%M"),
                "time_zone": preferences.time_zone,
                "streak": preferences.streak,
                "rival": preferences.rival,
                "updated_at": preferences.updated_at.isoformat(),
            },
            "push_subscriptions": [
                {
                    "endpoint": s.endpoint,
                    "keys": "p256dh and auth (not copied)",
                    "created_at": s.created_at.isoformat(),
                    "last_success_at": s.last_success_at.isoformat() if s.last_success_at else None,
                }
                for s in PushSubscription.objects.filter(player=player).order_by("pk")
            ],
            "sent": [
                {"day": r.day.isoformat(), "kind": r.kind, "sent_at": r.sent_at.isoformat()}
                for r in SentReminder.objects.filter(player=player).order_by("day", "kind")
            ],
        }
    }


def forget_player(player: Any) -> None:
    """A deleted account (accounts.signals.account_deleted): no reminder, subscription or
    log of it is kept."""
    ReminderPreferences.objects.filter(player=player).delete()
    PushSubscription.objects.filter(player=player).delete()
    SentReminder.objects.filter(player=player).delete()
