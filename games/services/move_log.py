"""A game's move log, whichever form it is stored in: the one way every reader gets it.

A game's log lives in its ``Move`` rows while it is played and until it is verified;
then ``pack_verified_log`` packs it into ``Game.packed_log`` (games/packed_log.py, a few
bytes a move) and deletes the rows, in the verification's transaction. The packed form is
the same evidence: each reader gets the same ``LogEntry`` list from either.

A reader that loaded the game before it was packed may find its rows gone: the rows are
read first and the packed form after, so one of the two always holds the whole log.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from games.models import Game, Move, Status, Verification
from games.packed_log import LogEntry, pack, unpack

__all__ = [
    "LogEntry",
    "last_move_at_ms",
    "log_entries",
    "logs_of",
    "pack_verified_games",
    "pack_verified_log",
    "unpack_game_log",
]

_ENTRY_FIELDS = ("ply", "text", "turned", "at_ms")


def log_entries(game: Game) -> list[LogEntry]:
    """The game's whole log in ply order (``ply, text, turned, at_ms``)."""
    if game.packed_log is not None:
        return unpack(game.packed_log)
    rows = [
        LogEntry(*row)
        for row in Move.objects.filter(game_id=game.pk).order_by("ply").values_list(*_ENTRY_FIELDS)
    ]
    if rows or not game.ply:
        return rows
    packed = _packed_logs([game.pk]).get(game.pk)  # packed since the game was read
    if packed is None:
        return rows
    game.packed_log = packed
    return unpack(packed)


def logs_of(game_ids: Iterable[int]) -> dict[int, list[LogEntry]]:
    """Each game's whole log, for many games at once: two or three queries however many
    games (a caller streaming thousands passes them a chunk at a time)."""
    ids = list(game_ids)
    logs: dict[int, list[LogEntry]] = {game_id: [] for game_id in ids}
    packed = _packed_logs(ids)
    in_rows = [game_id for game_id in ids if game_id not in packed]
    for game_id, *row in (
        Move.objects.filter(game_id__in=in_rows)
        .order_by("game_id", "ply")
        .values_list("game_id", *_ENTRY_FIELDS)
    ):
        logs[game_id].append(LogEntry(*row))
    emptied = [game_id for game_id in in_rows if not logs[game_id]]
    if emptied:  # packed between the two reads, or simply no moves
        packed.update(_packed_logs(emptied))
    for game_id, data in packed.items():
        logs[game_id] = unpack(data)
    return logs


def last_move_at_ms(game: Game) -> int | None:
    """When the game's last log entry was made (ms from its start); None before any."""
    if game.packed_log is not None:
        entries = unpack(game.packed_log)
        return entries[-1].at_ms if entries else None
    last = Move.objects.filter(game_id=game.pk).order_by("-ply").values_list("at_ms", flat=True)
    found = last.first()
    if found is not None or not game.ply:
        return found
    entries = log_entries(game)
    return entries[-1].at_ms if entries else None


def pack_verified_log(game: Game, log: list[LogEntry] | None = None) -> bool:
    """Pack a finished, verified game's log into its row and delete its Move rows; False
    (nothing changed) for any other game, or one already packed.

    Runs inside the caller's transaction, with the game row locked by it (verification),
    or in its own. ``log`` is the log already read, if the caller has it.
    """
    if (
        game.packed_log is not None
        or game.status == Status.PLAYING
        or game.verification != Verification.VERIFIED
    ):
        return False
    with transaction.atomic():
        if log is None:
            log = log_entries(game)
        if game.packed_log is not None:  # log_entries found it packed meanwhile
            return False
        if len(log) != game.ply:
            raise ValueError(f"game {game.pk}: {game.ply} plies, {len(log)} log entries")
        game.packed_log = pack(log)
        Game.objects.filter(pk=game.pk).update(packed_log=game.packed_log)
        Move.objects.filter(game_id=game.pk).delete()
    return True


def pack_verified_games(*, batch: int = 500, limit: int | None = None) -> int:
    """Pack the logs of verified games still kept in rows, ``batch`` games a transaction,
    in id order; returns how many were packed. Safe to stop and run again: a packed game
    is skipped, and each batch commits on its own."""
    packed = 0
    after = 0
    while limit is None or packed < limit:
        size = batch if limit is None else min(batch, limit - packed)
        with transaction.atomic():
            games = list(
                Game.objects.select_for_update(no_key=True, of=("self",))
                .filter(pk__gt=after, packed_log__isnull=True, verification=Verification.VERIFIED)
                .exclude(status=Status.PLAYING)
                .order_by("pk")[:size]
            )
            logs = logs_of(game.pk for game in games)
            for game in games:
                pack_verified_log(game, logs[game.pk])
        if not games:
            break
        packed += len(games)
        after = games[-1].pk
    return packed


def unpack_game_log(game: Game) -> bool:
    """Put a packed log back into Move rows and clear the packed form (the migration's
    way back); False if the log is in rows already."""
    if game.packed_log is None:
        return False
    with transaction.atomic():
        Move.objects.bulk_create(
            Move(game_id=game.pk, ply=e.ply, text=e.text, turned=e.turned, at_ms=e.at_ms)
            for e in unpack(game.packed_log)
        )
        game.packed_log = None
        Game.objects.filter(pk=game.pk).update(packed_log=None)
    return True


def _packed_logs(game_ids: list[int]) -> dict[int, bytes]:
    found = Game.objects.filter(pk__in=game_ids, packed_log__isnull=False)
    rows = found.values_list("pk", "packed_log")
    return {game_id: bytes(data) for game_id, data in rows if data is not None}
