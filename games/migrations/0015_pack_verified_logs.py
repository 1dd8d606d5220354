"""Pack the logs of the games verified before packing existed (docs/operations.md).

Batches of BATCH games, each committed on its own (the migration is not atomic): an
interrupted ``migrate`` is run again and goes on where it stopped, skipping the games
already packed. ``manage.py pack_move_logs`` does the same work outside ``migrate`` (a
large database packs most of its games there first, and this migration then finds few
left). The way back puts the packed logs into Move rows again.

The historical models and the pure codec only: no service code, which follows the
current models.
"""

from typing import Any

from django.db import migrations, transaction

from games.packed_log import pack, unpack

BATCH = 500


def pack_verified_logs(apps: Any, schema_editor: Any) -> None:
    game_model = apps.get_model("games", "Game")
    move_model = apps.get_model("games", "Move")
    after = 0
    while True:
        with transaction.atomic(using=schema_editor.connection.alias):
            games = list(
                game_model.objects.select_for_update(no_key=True, of=("self",))
                .filter(pk__gt=after, packed_log__isnull=True, verification="verified")
                .exclude(status="playing")
                .order_by("pk")
                .values_list("pk", "ply")[:BATCH]
            )
            if not games:
                return
            logs: dict[int, list[tuple[int, str, str, int]]] = {pk: [] for pk, _ in games}
            rows = (
                move_model.objects.filter(game_id__in=list(logs))
                .order_by("game_id", "ply")
                .values_list("game_id", "ply", "text", "turned", "at_ms")
            )
            for game_id, *entry in rows:
                logs[game_id].append((entry[0], entry[1], entry[2], entry[3]))
            for pk, ply in games:
                if len(logs[pk]) != ply:  # verification checked it: a log since altered
                    raise RuntimeError(f"game {pk}: {ply} plies, {len(logs[pk])} log entries")
                game_model.objects.filter(pk=pk).update(packed_log=pack(logs[pk]))
            move_model.objects.filter(game_id__in=list(logs)).delete()
        after = games[-1][0]


def unpack_packed_logs(apps: Any, schema_editor: Any) -> None:
    game_model = apps.get_model("games", "Game")
    move_model = apps.get_model("games", "Move")
    while True:
        with transaction.atomic(using=schema_editor.connection.alias):
            games = list(
                game_model.objects.filter(packed_log__isnull=False)
                .order_by("pk")
                .values_list("pk", "packed_log")[:BATCH]
            )
            if not games:
                return
            move_model.objects.bulk_create(
                move_model(game_id=pk, ply=e.ply, text=e.text, turned=e.turned, at_ms=e.at_ms)
                for pk, data in games
                for e in unpack(data)
            )
            game_model.objects.filter(pk__in=[pk for pk, _ in games]).update(packed_log=None)


class Migration(migrations.Migration):
    atomic = False  # each batch commits: an interrupted run resumes

    dependencies = [
        ("games", "0014_game_packed_log"),
    ]

    operations = [
        migrations.RunPython(pack_verified_logs, unpack_packed_logs, elidable=True),
    ]
