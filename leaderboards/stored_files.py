"""Sealed days' games files, written once and served as stored files (docs/capacity.md, the
games file wall; docs/operations.md, "Games files").

Streaming a day's file from PostgreSQL costs about 0.4 ms of web CPU a game: past about
57,000 games a tier's download outlives gunicorn's timeout. Once a day is sealed (its
close record signed: every game verified, none pending) its file is fixed, so the worker
writes each tier's file once, gzip, to Django's default storage (``MEDIA_ROOT``), with a
``GamesFile`` row that says it is there, and the view sends those bytes as they are.

What changes a sealed day's file after the seal drops its copy (``drop``): a game
disqualified or put back, a result held or released, a player banned or unbanned, a day
voided (``accounts.signals.results_changed``), a player renamed, anonymised or deleted
(their name is in the file). Readers then get the live stream again, and the beat's
sealing run writes the copy anew (``write_due``). A writer that read the games before such
a change never installs its copy: the drop moved the row's ``generation`` on.
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import logging
import tempfile
import zlib
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

from django.core.files import File
from django.core.files.storage import Storage, default_storage
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from games import receipts
from games.models import DailyChallenge, Game, Mode
from leaderboards import games_file
from leaderboards.models import CloseRecord, GamesFile

logger = logging.getLogger(__name__)

FOLDER = "games-files"
GZIP_LEVEL = 6  # 9 costs twice the CPU for a few per cent less on these logs
WRITES_PER_RUN = 3  # one day's tiers a sealing run: about 2 minutes at 100,000 games each
CHUNK_BYTES = 1 << 16


def storage() -> Storage:
    return default_storage


def _file_name(challenge: DailyChallenge, sha256: str) -> str:
    return f"{FOLDER}/{challenge.date.isoformat()}/{challenge.tier}-{sha256[:16]}.jsonl.gz"


# ----- writing (the worker) ------------------------------------------------------------


def write(challenge: DailyChallenge) -> GamesFile | None:
    """Write the tier's games file to storage and record it; None if a game of the day
    waits for verification (the file is not final) or a change dropped it meanwhile.

    Reads the primary, not the replica: a copy written from a lagging replica just after
    a drop would bring back what the drop took out."""
    row, _ = GamesFile.objects.get_or_create(challenge=challenge)
    generation = row.generation  # read before the games: see ``drop``
    game_ids = games_file._ranked_ids(challenge)
    not_ranked = games_file._not_ranked(challenge)
    if not_ranked["pending"]:
        return None
    entries = games_file._entries(
        games_file._header(challenge, len(game_ids), not_ranked), game_ids
    )
    with tempfile.TemporaryFile() as spool:
        sha256, length = _write_gzip((receipts.file_line(entry) for entry in entries), spool)
        size = spool.tell()
        spool.seek(0)
        name = storage().save(_file_name(challenge, sha256), File(spool))
    with transaction.atomic():
        current = GamesFile.objects.select_for_update().filter(pk=row.pk).first()
        if current is None or current.generation != generation:
            transaction.on_commit(lambda: _delete_files([name]))
            return None
        replaced = current.name
        current.name, current.size, current.length = name, size, length
        current.sha256, current.games, current.written_at = sha256, len(game_ids), timezone.now()
        current.save()
        if replaced and replaced != name:
            transaction.on_commit(lambda: _delete_files([replaced]))
    return current


def _write_gzip(lines: Iterable[bytes], out: IO[bytes]) -> tuple[str, int]:
    """Gzip ``lines`` into ``out`` (mtime 0: the same file gives the same bytes); the
    SHA-256 and length of the uncompressed file."""
    hashed, length = hashlib.sha256(), 0
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=GZIP_LEVEL, mtime=0) as packed:
        for line in lines:
            hashed.update(line)
            length += len(line)
            packed.write(line)
    return hashed.hexdigest(), length


def due(*, since: dt.date | None = None) -> QuerySet[DailyChallenge]:
    """Sealed days' challenges without a stored copy, newest first (the most read)."""
    stored = GamesFile.objects.exclude(name="").values("challenge_id")
    challenges = DailyChallenge.objects.filter(date__in=CloseRecord.objects.values("date"))
    if since is not None:
        challenges = challenges.filter(date__gte=since)
    return challenges.exclude(pk__in=stored).order_by("-date", "tier")


def write_due(limit: int = WRITES_PER_RUN) -> list[str]:
    """Write the copies that are missing (new seals, and copies dropped since), at most
    ``limit``: the sealing task's second step. ``<date>/<tier>`` of each written."""
    written = []
    for challenge in due()[:limit]:
        try:
            copy = write(challenge)
        except OSError:  # a full or broken disk: readers keep the stream; the beat retries
            logger.exception("could not store the games file of challenge %s", challenge.pk)
            continue
        if copy is not None:
            written.append(f"{challenge.date.isoformat()}/{challenge.tier}")
    return written


# ----- dropping (whatever changes a sealed day's file) -----------------------------------


def drop(challenge_ids: Iterable[int]) -> int:
    """Forget the stored copies of these challenges' files (the next reader gets the live
    stream; ``write_due`` writes them again). Call after the change has committed. The
    copies dropped."""
    ids = sorted(set(challenge_ids))
    if not ids:
        return 0
    with transaction.atomic():
        rows = GamesFile.objects.select_for_update().filter(challenge_id__in=ids)
        names = [name for name in rows.values_list("name", flat=True) if name]
        # every row, copy or none: a writer still reading the old games loses its turn
        rows.update(name="", size=0, length=0, sha256="", games=0, generation=F("generation") + 1)
        transaction.on_commit(lambda: _delete_files(names))
    return len(names)


def _delete_files(names: Sequence[str]) -> None:
    for name in names:
        try:
            storage().delete(name)
        except Exception:  # any backend's error: a stray file is harmless
            logger.warning("could not delete the stored games file %s", name, exc_info=True)


def _challenges_of(*, games: Sequence[int] = (), players: Sequence[int] = ()) -> set[int]:
    daily = Game.objects.filter(mode=Mode.DAILY, challenge__isnull=False)
    found: set[int] = set()
    if games:
        found |= set(daily.filter(pk__in=games).values_list("challenge_id", flat=True))
    if players:
        found |= set(daily.filter(player_id__in=players).values_list("challenge_id", flat=True))
    return found


def drop_for(
    *, games: Sequence[int] = (), players: Sequence[int] = (), challenges: Sequence[int] = ()
) -> int:
    """``drop`` the files of the days of these games, of every daily these players
    played, and of these challenges."""
    return drop(_challenges_of(games=games, players=players) | set(challenges))


def on_results_changed(
    sender: Any,
    games: Sequence[int] = (),
    players: Sequence[int] = (),
    challenges: Sequence[int] = (),
    **kwargs: Any,
) -> None:
    """Receiver of ``accounts.signals.results_changed`` (after commit): which results count
    changed, so their days' files did."""
    try:
        drop_for(games=games, players=players, challenges=challenges)
    except Exception:  # the boards' and moderation's receivers must still run
        logger.exception("could not drop the stored games files of %s", kwargs or sender)


IN_FILES = ("display_name", "is_banned")  # what of a player the files show, or depend on


def on_player_saving(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    """``pre_save`` of the user model: note a new display name (renamed, or ``deleted
    player`` after a deletion), which every file listing the player shows, or a ban laid
    or lifted by a bare save (the admin's form) rather than ``ban_account``."""
    update_fields = kwargs.get("update_fields")
    if raw or instance.pk is None:
        return
    if update_fields is not None and not set(IN_FILES) & set(update_fields):
        return  # a log-in's last_login, a setting: nothing in any file
    before = sender.objects.filter(pk=instance.pk).values_list(*IN_FILES).first()
    now = tuple(getattr(instance, field) for field in IN_FILES)
    instance._games_files_changed = before is not None and tuple(before) != now


def on_player_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """``post_save`` of the user model: drop the player's files once committed."""
    if getattr(instance, "_games_files_changed", False):
        instance._games_files_changed = False
        player_id = instance.pk
        transaction.on_commit(lambda: on_results_changed(sender, players=[player_id]))


def on_player_deleting(sender: Any, instance: Any, **kwargs: Any) -> None:
    """``pre_delete`` of the user model: their games go with them (cascade), so the files
    of their days change; found now, dropped once the deletion has committed."""
    ids = _challenges_of(players=[instance.pk])
    if ids:
        transaction.on_commit(lambda: on_results_changed(sender, challenges=sorted(ids)))


# ----- reading (the view) ------------------------------------------------------------------


def stored(challenge: DailyChallenge) -> GamesFile | None:
    """The challenge's stored copy, if there is one to serve (from the primary: a drop
    must show at once)."""
    return GamesFile.objects.filter(challenge=challenge).exclude(name="").first()


def open_gzip(row: GamesFile) -> File | None:
    """The stored gzip bytes, open; None (the copy forgotten, so the beat writes it
    again) if the storage cannot give them: an operator deleted the file, a disk error."""
    try:
        handle = storage().open(row.name, "rb")
    except Exception:  # any backend's error: the reader gets the live stream
        logger.warning(
            "stored games file %s unreadable; streaming instead", row.name, exc_info=True
        )
    else:
        if handle.size == row.size:
            return handle
        handle.close()
        logger.warning("stored games file %s is not the size written; streaming", row.name)
    forget(row)
    return None


def forget(row: GamesFile) -> None:
    """Drop this copy only (not one written since): its file is gone or broken."""
    GamesFile.objects.filter(pk=row.pk, name=row.name).update(
        name="", size=0, length=0, sha256="", games=0, generation=F("generation") + 1
    )


def uncompressed(handle: File) -> Iterator[bytes] | None:
    """The file's bytes, decompressed chunk by chunk (for a client without gzip); None if
    its first chunk is not gzip. A copy broken further on ends the download short, as a
    cut connection would (the end line is missing)."""
    inflate = zlib.decompressobj(wbits=31)  # 31: gzip's header and trailer
    try:
        first = inflate.decompress(handle.read(CHUNK_BYTES))
    except (OSError, zlib.error):
        first = b""
    if not first:
        handle.close()
        return None
    return _inflated(handle, inflate, first)


def _inflated(handle: File, inflate: Any, first: bytes) -> Iterator[bytes]:
    try:
        if first:
            yield first
        while chunk := handle.read(CHUNK_BYTES):
            if out := inflate.decompress(chunk):
                yield out
        if tail := inflate.flush():
            yield tail
    finally:
        handle.close()
