"""Close records: each closed day's games files, signed and chained (docs/fair-play.md, 5).

Once every game of a closed day is verified (none in play, none pending), the day's
games files are final: ``seal_day`` signs a record of each tier's games digest, its
count of ranked games and the digests of the receipts it left out, linked to the
previous day's record by that record's digest. Days are sealed in date order, so the
chain has no gap: a day that is not final yet holds back the days after it.

Once a day is sealed its files are fixed, so the sealing task (``leaderboards.tasks``) then
writes each tier's file once, for the view to send as stored (``leaderboards.stored_files``).

Idempotent: a record, once made, is never made again or changed (``CloseRecord.date`` is
unique, and a second sealer of the same day computes the same bytes).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.db import connection, transaction
from django.db.models import Max, Min

from games import receipts, signing
from games import services as game_services
from games.models import DailyChallenge, Game, Mode, Receipt, Status, Verification, utc_today
from leaderboards import ranking
from leaderboards.games_file import games_digest
from leaderboards.models import CloseRecord

DAYS_PER_RUN = 31  # a first run on an old site seals a month at a time, oldest first
_SEAL_LOCK = 0x5EA1_C105  # pg_advisory_xact_lock: one sealer at a time


def record_document(record: CloseRecord) -> dict[str, Any]:
    return dict(json.loads(record.document))


def seal_closed_days(*, until: dt.date | None = None, limit: int = DAYS_PER_RUN) -> list[str]:
    """Seal each closed day without a close record, oldest first (up to ``until``); stop
    at the first day that is not final yet. The dates sealed."""
    last = CloseRecord.objects.order_by("-date").values_list("date", flat=True).first()
    days = DailyChallenge.objects.filter(date__lt=utc_today())
    if last is not None:
        days = days.filter(date__gt=last)
    if until is not None:
        days = days.filter(date__lte=until)
    sealed = []
    for day in days.order_by("date").values_list("date", flat=True).distinct()[:limit]:
        if seal_day(day) is None:
            break
        sealed.append(day.isoformat())
    return sealed


def _left_out(challenge: DailyChallenge) -> list[str]:
    """The digests of the receipts of the tier's finished games that are not on its board."""
    left_out = (
        Game.objects.filter(challenge=challenge, mode=Mode.DAILY)
        .exclude(status=Status.PLAYING)
        .exclude(ranking.counts_q())
        .values_list("pk", flat=True)
    )
    digests = []
    for game_id in left_out:
        document = game_services.issue_receipt(game_id)
        if document is not None:
            digests.append(receipts.digest(document))
    return sorted(digests)


def _final(challenges: list[DailyChallenge]) -> bool:
    """No game of the day in play or waiting for verification (archive replays aside)."""
    return not Game.objects.filter(
        challenge__in=challenges, mode=Mode.DAILY, verification=Verification.PENDING
    ).exists()


def seal_day(day: dt.date) -> CloseRecord | None:
    """The day's close record: the stored one, else signed and stored now; None while the
    day is open, not final, or an earlier closed day has no record yet."""
    stored = CloseRecord.objects.filter(date=day).first()
    if stored is not None:
        return stored
    challenges = DailyChallenge.of_day(day)
    if not challenges or not challenges[0].is_closed() or not _final(challenges):
        return None
    previous = CloseRecord.objects.filter(date__lt=day).order_by("-date").first()
    unsealed = DailyChallenge.objects.filter(date__lt=day)
    if previous is not None:
        unsealed = unsealed.filter(date__gt=previous.date)
    if unsealed.exists():
        return None
    tiers = {}
    for challenge in challenges:
        digest, ranked, pending = games_digest(challenge)
        if pending:  # a game finished between the check above and now
            return None
        tiers[challenge.tier] = {
            "games_sha256": digest,
            "ranked": ranked,
            "left_out": _left_out(challenge),
        }
    document = signing.sign(
        receipts.close_record(
            date=day.isoformat(),
            previous=None if previous is None else (previous.date.isoformat(), previous.sha256),
            tiers=tiers,
            signer=signing.current_key_id(),
        )
    )
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_SEAL_LOCK])
        # another sealer may have chained a record to ``previous`` meanwhile: keep theirs
        if CloseRecord.objects.filter(date__gte=day).exists():
            return CloseRecord.objects.filter(date=day).first()
        return CloseRecord.objects.create(
            date=day,
            key_id=document["key_id"],
            document=json.dumps(document),
            sha256=receipts.digest(document),
        )


def published_keys() -> list[dict[str, Any]]:
    """Every key the site signs or signed with: id, public key, whether it is the current
    one, and the first and last day it signed (receipts and close records)."""
    spans: dict[str, list[dt.date]] = {}
    for model in (Receipt, CloseRecord):
        rows = model.objects.values("key_id").annotate(first=Min("date"), last=Max("date"))
        for row in rows:
            span = spans.setdefault(row["key_id"], [row["first"], row["last"]])
            span[0], span[1] = min(span[0], row["first"]), max(span[1], row["last"])
    keys = []
    for key in signing.public_keys():
        first, last = spans.get(key.key_id, [None, None])
        keys.append(
            {
                "key_id": key.key_id,
                "algorithm": "ed25519",
                "public_key": receipts.encode_key(key.public_key),
                "current": key.current,
                "first_date": None if first is None else first.isoformat(),
                "last_date": None if last is None else last.isoformat(),
            }
        )
    return keys
