"""Where a game was started from grows from an address into an origin (address, network,
device cookie, user agent, when), recorded for archive games too; a flag for accounts
linked by a device or a network; moderators confirm provisional results."""

import ipaddress

import django.utils.timezone
from django.db import migrations, models


def fill_networks(apps, schema_editor):
    GameOrigin = apps.get_model("moderation", "GameOrigin")
    for origin in GameOrigin.objects.all():
        ip = ipaddress.ip_address(origin.address)
        prefix = 24 if ip.version == 4 else 56
        origin.network = str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))
        origin.save(update_fields=["network"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        ("moderation", "0006_league_actions"),
    ]

    operations = [
        migrations.RenameModel("GameAddress", "GameOrigin"),
        migrations.AlterField(
            model_name="gameorigin",
            name="game",
            field=models.OneToOneField(
                on_delete=models.deletion.CASCADE,
                primary_key=True,
                related_name="origin",
                serialize=False,
                to="games.game",
            ),
        ),
        migrations.AddField(
            model_name="gameorigin",
            name="network",
            field=models.CharField(default="", max_length=43),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="gameorigin",
            name="device",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.AddField(
            model_name="gameorigin",
            name="user_agent",
            field=models.CharField(blank=True, default="", max_length=300),
        ),
        migrations.AddField(
            model_name="gameorigin",
            name="created_at",
            field=models.DateTimeField(
                auto_now_add=True, db_index=True, default=django.utils.timezone.now
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill_networks, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="gameorigin",
            index=models.Index(fields=["network"], name="moderation_origin_network"),
        ),
        migrations.AddIndex(
            model_name="gameorigin",
            index=models.Index(fields=["device"], name="moderation_origin_device"),
        ),
        migrations.AlterField(
            model_name="flag",
            name="kind",
            field=models.CharField(
                choices=[
                    ("fast_moves", "Moves faster than a human"),
                    ("even_pacing", "Suspiciously even pacing"),
                    ("fast_finish", "Finished faster than the solver's line allows"),
                    ("fast_reaction", "Used a card faster than anyone can see it"),
                    ("flat_timing", "Timing that ignores the position"),
                    ("solver_line", "Followed the solver's stored line"),
                    ("solver_moves", "Played the solver's move, position after position"),
                    ("perfect_first_try", "New player's perfect game on a hard deal"),
                    ("shared_address", "Several accounts from one address"),
                    ("linked_accounts", "Played after linked accounts turned its cards"),
                    ("clairvoyance", "Kept the win where the face-up cards mislead"),
                ],
                max_length=20,
            ),
        ),
        migrations.AlterField(
            model_name="auditlog",
            name="action",
            field=models.CharField(
                choices=[
                    ("clear_flag", "Cleared a flag"),
                    ("disqualify", "Disqualified a game"),
                    ("requalify", "Put a game back"),
                    ("ban", "Banned a player"),
                    ("unban", "Unbanned a player"),
                    ("end_game", "Ended a game in progress"),
                    ("restore_results", "Restored the results a ban took"),
                    ("void_day", "Voided a day's board"),
                    ("dismiss_report", "Dismissed a report"),
                    ("rename_league", "Renamed a league"),
                    ("close_league", "Closed a league"),
                    ("confirm_result", "Confirmed a provisional result"),
                ],
                max_length=16,
            ),
        ),
    ]
