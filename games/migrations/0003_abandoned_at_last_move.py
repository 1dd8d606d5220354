"""Daily games abandoned by the old sweeper end at their last move, as the close of day now
rules (docs/daily.md): the sweeper used to stamp them with the time it ran, after their day
closed, so the boards, which count only games finished before the close, would lose them
from the day's "played". Rebuild the boards afterwards (`manage.py rebuild_leaderboards`).
"""

import datetime as dt

from django.db import migrations


def end_at_last_move(apps, schema_editor):  # type: ignore[no-untyped-def]
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    late = Game.objects.filter(mode="daily", status="abandoned").select_related("challenge")
    for game in late.iterator():
        closes_at = dt.datetime.combine(
            game.challenge.date + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC
        )
        if game.finished_at is None or game.finished_at < closes_at:
            continue
        last = Move.objects.filter(game_id=game.pk).order_by("-ply").values_list("at_ms", flat=True)
        at_ms = last.first() or 0
        game.finished_at = game.started_at + dt.timedelta(milliseconds=at_ms)
        game.elapsed_ms = at_ms
        game.save(update_fields=["finished_at", "elapsed_ms"])


class Migration(migrations.Migration):
    dependencies = [("games", "0002_challenge_commitment")]

    operations = [migrations.RunPython(end_at_last_move, migrations.RunPython.noop)]
