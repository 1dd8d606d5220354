"""Bans and ranked games: a ban ends the games in progress, and the
results it took stay off every board after an unban until a moderator restores them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game, Status, Tier
from moderation import services
from moderation.models import AuditAction, AuditLog, Ban
from tests.factories import LINES, client_for, make_player, post, result

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _boards_read_fresh(settings: Any) -> None:
    """Without Redis a process keeps a board page 2 s (leaderboards.day_board's
    ExpiringProcessCache); these tests read the board right after each change."""
    settings.LEADERBOARD_ROWS_SECONDS = 0


@pytest.fixture
def capture(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


def board_names(challenge: Any) -> list[str]:
    url = f"/api/leaderboards/daily/{challenge.date.isoformat()}/{challenge.tier}/"
    response = Client().get(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 200, response.content
    return [row["display_name"] for row in response.json()["results"]]


def audited(action: str, target: Any) -> list[str]:
    return list(
        AuditLog.objects.filter(
            action=action, target_type=target._meta.label_lower, target_id=str(target.pk)
        ).values_list("reason", flat=True)
    )


def test_a_ban_ends_the_daily_in_progress_and_refuses_its_next_move(
    today_challenges: dict[str, Any], moderator: User, capture: Any
) -> None:
    bob = make_player("Bob")
    bob_client = client_for(bob)
    started = post(bob_client, "/api/games/", {"daily": Tier.EASY})
    assert started.status_code == 201
    game_id = started.json()["id"]
    line = LINES[0]
    for ply, text in enumerate(line[:3]):
        answer = post(bob_client, f"/api/games/{game_id}/moves/", {"ply": ply, "move": text})
        assert answer.status_code == 200, answer.content

    with capture(execute=True):
        services.ban_player(moderator, bob.pk, "plays with a script")

    refused = post(bob_client, f"/api/games/{game_id}/moves/", {"ply": 3, "move": line[3]})
    assert refused.status_code == 409, refused.content
    assert refused.json()["status"] == Status.ABANDONED
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.ply, game.disqualified) == (Status.ABANDONED, 3, True)
    assert audited(AuditAction.END_GAME, game) == ["player banned: plays with a script"]
    assert audited(AuditAction.DISQUALIFY, game) == ["player banned: plays with a script"]
    assert audited(AuditAction.BAN, bob) == ["plays with a script"]
    # the rest of the line, the attack of the issue: nothing more is stored
    for ply, text in enumerate(line[3:], start=3):
        answer = post(bob_client, f"/api/games/{game_id}/moves/", {"ply": ply, "move": text})
        assert answer.status_code in (403, 409), answer.content
    assert Game.objects.get(pk=game_id).ply == 3
    assert board_names(today_challenges[Tier.EASY]) == []


def test_unban_brings_nothing_back_until_a_moderator_restores_what_the_ban_took(
    today_challenges: dict[str, Any], moderator: User, capture: Any
) -> None:
    easy, medium, hard = (today_challenges[t] for t in (Tier.EASY, Tier.MEDIUM, Tier.HARD))
    ann, bob = make_player("Ann"), make_player("Bob")
    result(ann, easy, elapsed_ms=90_000)
    bob_easy = result(bob, easy, elapsed_ms=80_000)
    result(bob, medium)
    own_decision = result(bob, hard)
    with capture(execute=True):
        services.disqualify_game(moderator, own_decision.pk, "impossible time")
    assert board_names(easy) == ["Bob", "Ann"] and board_names(hard) == []

    with capture(execute=True):
        ban = services.ban_player(moderator, bob.pk, "shared account")
    assert set(ban.disqualified_games.values_list("pk", flat=True)) == {
        bob_easy.pk,
        Game.objects.get(player=bob, challenge=medium).pk,
    }
    assert board_names(easy) == ["Ann"] and board_names(medium) == []
    with pytest.raises(services.Conflict, match="lift the ban first"):
        services.restore_ban_results(moderator, bob.pk, "too early")

    with capture(execute=True):
        services.unban_player(moderator, bob.pk, "appeal heard")
    # The result was hidden while the ban stood; an unban alone no longer brings it back.
    assert board_names(easy) == ["Ann"] and board_names(medium) == []
    assert Game.objects.get(pk=bob_easy.pk).disqualified

    with capture(execute=True):
        assert services.restore_ban_results(moderator, bob.pk, "appeal upheld") == 2
    assert board_names(easy) == ["Bob", "Ann"] and board_names(medium) == ["Bob"]
    assert board_names(hard) == []  # disqualified on its own before the ban: stays out
    assert audited(AuditAction.RESTORE_RESULTS, bob) == ["appeal upheld"]
    why = "results restored after a ban: appeal upheld"
    assert audited(AuditAction.REQUALIFY, bob_easy) == [why]
    assert not Ban.disqualified_games.through.objects.exists()
    with capture(execute=True):  # a second restore has nothing left to restore
        assert services.restore_ban_results(moderator, bob.pk, "again") == 0


def test_a_moderators_own_disqualification_of_a_taken_result_survives_a_restore(
    today_challenges: dict[str, Any], moderator: User, capture: Any
) -> None:
    easy = today_challenges[Tier.EASY]
    bob = make_player("Bob")
    game = result(bob, easy)
    with capture(execute=True):
        services.ban_player(moderator, bob.pk, "bot")
        services.disqualify_game(moderator, game.pk, "the replay is a solver line")
        services.unban_player(moderator, bob.pk, "appeal")
        assert services.restore_ban_results(moderator, bob.pk, "appeal upheld") == 0
    assert Game.objects.get(pk=game.pk).disqualified and board_names(easy) == []


def test_the_admin_restores_a_players_results_with_a_reason(
    today_challenges: dict[str, Any], moderator: User, mod_client: Client, capture: Any
) -> None:
    easy = today_challenges[Tier.EASY]
    bob = make_player("Bob")
    result(bob, easy)
    with capture(execute=True):
        services.ban_player(moderator, bob.pk, "bot")
        services.unban_player(moderator, bob.pk, "appeal")
    url = "/admin/moderation/player/"
    data = {"action": "restore_ban_results", "_selected_action": [str(bob.pk)]}
    form = mod_client.post(url, data)
    assert form.status_code == 200 and b'name="reason"' in form.content
    with capture(execute=True):
        done = mod_client.post(url, {**data, "confirm": "yes", "reason": "appeal upheld"})
    assert done.status_code == 302
    assert board_names(easy) == ["Bob"]
    assert audited(AuditAction.RESTORE_RESULTS, bob) == ["appeal upheld"]
