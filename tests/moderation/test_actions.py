"""Every moderation action end to end, through the admin's reason forms: the board changes
(the real leaderboard API), the audit log has the row, and the player sees the right state."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game, Tier
from moderation.models import AuditAction, AuditLog, DayVoid, Flag, FlagKind, FlagStatus
from tests.factories import LINES, client_for, make_player, play_daily_through_api, post, result

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]


def board(challenge: Any, client: Client | None = None) -> dict[str, Any]:
    url = f"/api/leaderboards/daily/{challenge.date.isoformat()}/{challenge.tier}/"
    response = (client or Client()).get(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def names(body: dict[str, Any]) -> list[str]:
    return [row["display_name"] for row in body["results"]]


# pytest-django's on-commit runner of the current test (set by the autouse fixture below).
_ON_COMMIT: dict[str, Any] = {}


@pytest.fixture(autouse=True)
def _commits(django_capture_on_commit_callbacks: Any) -> None:
    _ON_COMMIT["capture"] = django_capture_on_commit_callbacks


def admin_action(client: Client, changelist: str, action: str, ids: list[int], reason: str) -> None:
    """Pick an action (the reason form appears), then confirm it with a reason; the
    transaction's on-commit work (the boards' updates) runs as in production."""
    url = f"/admin/{changelist}/"
    data = {"action": action, "_selected_action": [str(i) for i in ids]}
    form = client.post(url, data)
    assert form.status_code == 200, form.content[:500]
    assert b'name="reason"' in form.content and b"give a reason" in form.content
    empty = client.post(url, {**data, "confirm": "yes", "reason": "  "})
    assert empty.status_code == 200 and b"This field is required" in empty.content
    with _ON_COMMIT["capture"](execute=True):
        done = client.post(url, {**data, "confirm": "yes", "reason": reason})
    assert done.status_code == 302, done.content[:500]


def audit(action: str) -> AuditLog:
    return AuditLog.objects.get(action=action)


@pytest.fixture
def field(today_challenges: dict[str, Any]) -> dict[str, User]:
    """Three verified results on today's easy board: Ann, Bob, Cat."""
    players = {name: make_player(name) for name in ("Ann", "Bob", "Cat")}
    easy = today_challenges[Tier.EASY]
    for i, player in enumerate(players.values()):
        result(player, easy, elapsed_ms=90_000 + i * 1000, moves=99)
    return players


def test_a_fast_game_is_flagged_on_verification_and_stays_until_a_moderator_clears_it(
    today_challenges: dict[str, Any],
    mod_client: Client,
    moderator: User,
    django_capture_on_commit_callbacks: Any,
) -> None:
    eve = make_player("Eve")
    game_id = play_daily_through_api(
        client_for(eve), Tier.EASY, LINES[0], django_capture_on_commit_callbacks
    )
    game = Game.objects.get(pk=game_id)
    assert game.verification == "verified" and game.score == 625
    kinds = set(Flag.objects.filter(game=game).values_list("kind", flat=True))
    assert {FlagKind.FAST_MOVES, FlagKind.FAST_FINISH} <= kinds
    flag = Flag.objects.get(game=game, kind=FlagKind.FAST_MOVES)
    assert "consecutive moves each under 150 ms" in flag.reason
    assert flag.thresholds == {"fast_move_ms": 150, "fast_move_run": 8}
    # flagged games stay on the board until a moderator decides
    assert names(board(today_challenges[Tier.EASY])) == ["Eve"]

    # the queue shows it; the game page shows the flag
    queue = mod_client.get("/admin/moderation/flag/?status__exact=open")
    assert queue.status_code == 200 and str(game_id).encode() in queue.content
    admin_action(mod_client, "moderation/flag", "clear_flags", [flag.pk], "Eve is a speed player")
    flag.refresh_from_db()
    assert flag.status == FlagStatus.CLEARED and flag.resolved_by == moderator
    row = audit(AuditAction.CLEAR_FLAG)
    assert (row.actor, row.reason, row.target_type) == (
        moderator,
        "Eve is a speed player",
        "moderation.flag",
    )
    assert names(board(today_challenges[Tier.EASY])) == ["Eve"]


def test_disqualify_takes_the_game_off_the_board_at_once(
    field: dict[str, User],
    today_challenges: dict[str, Any],
    mod_client: Client,
    moderator: User,
) -> None:
    easy = today_challenges[Tier.EASY]
    assert names(board(easy)) == ["Ann", "Bob", "Cat"]  # the Redis board is built
    ann_game = Game.objects.get(player=field["Ann"])
    Flag.objects.create(game=ann_game, kind=FlagKind.EVEN_PACING, reason="test")
    admin_action(mod_client, "games/game", "disqualify_games", [ann_game.pk], "bot pacing")
    assert names(board(easy)) == ["Bob", "Cat"]
    assert board(easy)["served_from"] == "redis"
    ann_game.refresh_from_db()
    assert ann_game.disqualified
    assert Flag.objects.get(game=ann_game).status == FlagStatus.UPHELD
    row = audit(AuditAction.DISQUALIFY)
    assert (row.target_id, row.reason, row.actor_name) == (str(ann_game.pk), "bot pacing", "mod")
    # Ann sees it on her game's replay page
    page = client_for(field["Ann"]).get(f"/replay/{ann_game.pk}/")
    assert b"disqualified by the moderators" in page.content
    assert b"disqualified" not in client_for(field["Bob"]).get(f"/replay/{ann_game.pk}/").content

    # and back again, with its own reason and row
    admin_action(mod_client, "games/game", "requalify_games", [ann_game.pk], "appeal upheld")
    assert names(board(easy)) == ["Ann", "Bob", "Cat"]
    assert audit(AuditAction.REQUALIFY).reason == "appeal upheld"


def test_ban_removes_every_result_refuses_ranked_play_and_tells_the_player_why(
    field: dict[str, User],
    today_challenges: dict[str, Any],
    mod_client: Client,
    moderator: User,
) -> None:
    easy = today_challenges[Tier.EASY]
    yesterday = today_challenges[Tier.EASY].date - dt.timedelta(days=1)
    from tests.factories import make_day

    old = make_day(yesterday, {Tier.EASY: 1})[Tier.EASY]
    bob = field["Bob"]
    result(bob, old)
    assert names(board(easy)) == ["Ann", "Bob", "Cat"] and names(board(old)) == ["Bob"]

    admin_action(mod_client, "moderation/player", "ban_players", [bob.pk], "shared account")
    assert names(board(easy)) == ["Ann", "Cat"] and names(board(old)) == []
    row = audit(AuditAction.BAN)
    assert (row.target_type, row.target_id, row.reason) == (
        "accounts.user",
        str(bob.pk),
        "shared account",
    )
    bob_client = client_for(bob)
    me = bob_client.get("/api/auth/me/").json()["player"]
    assert me["is_banned"] is True and me["ban_reason"] == "shared account"
    refused = post(bob_client, "/api/games/", {"daily": Tier.MEDIUM})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "your account is banned: shared account"
    assert b"Your account is banned: shared account" in bob_client.get("/").content
    # practice stays open
    assert post(bob_client, "/api/games/", {"deal": 5, "variant": "yukon"}).status_code == 201
    assert client_for(field["Ann"]).get("/api/auth/me/").json()["player"]["ban_reason"] is None

    admin_action(mod_client, "moderation/player", "unban_players", [bob.pk], "appeal")
    # the ban took the results: an unban alone does not bring them back (a moderator does)
    assert names(board(easy)) == ["Ann", "Cat"] and names(board(old)) == []
    assert audit(AuditAction.UNBAN).reason == "appeal"
    admin_action(mod_client, "moderation/player", "restore_ban_results", [bob.pk], "upheld")
    assert names(board(easy)) == ["Ann", "Bob", "Cat"] and names(board(old)) == ["Bob"]
    assert audit(AuditAction.RESTORE_RESULTS).reason == "upheld"
    assert bob_client.get("/api/auth/me/").json()["player"]["is_banned"] is False
    assert post(bob_client, "/api/games/", {"daily": Tier.MEDIUM}).status_code == 201

    # banning from a game's page (the game admin's action) works too
    bob_game = Game.objects.get(player=bob, challenge=easy)
    admin_action(mod_client, "games/game", "ban_players_of_games", [bob_game.pk], "again")
    bob.refresh_from_db()
    assert bob.is_banned and names(board(easy)) == ["Ann", "Cat"]


def test_void_day_empties_the_board_and_the_page_says_so(
    field: dict[str, User],
    today_challenges: dict[str, Any],
    mod_client: Client,
    moderator: User,
    django_capture_on_commit_callbacks: Any,
) -> None:
    easy, medium = today_challenges[Tier.EASY], today_challenges[Tier.MEDIUM]
    assert len(names(board(easy))) == 3
    admin_action(
        mod_client, "games/dailychallenge", "void_days", [easy.pk], "the deal leaked early"
    )
    assert board(easy)["count"] == 0
    void = DayVoid.objects.get(challenge=easy)
    assert void.voided_by == moderator and void.reason == "the deal leaked early"
    assert audit(AuditAction.VOID_DAY).target_id == str(easy.pk)
    page = Client().get(f"/leaderboards/daily/?date={easy.date.isoformat()}&tier=easy")
    assert b"This board was voided by the moderators: the deal leaked early" in page.content
    other = Client().get(f"/leaderboards/daily/?date={easy.date.isoformat()}&tier=medium")
    assert b"voided" not in other.content
    # a game finished after the void stays off the board as well
    dan = make_player("Dan")
    play_daily_through_api(client_for(dan), Tier.EASY, LINES[0], django_capture_on_commit_callbacks)
    assert board(easy)["count"] == 0
    assert Game.objects.get(player=dan, challenge=easy).disqualified
    # a voided day's game cannot be put back one by one
    ann_game = Game.objects.get(player=field["Ann"], challenge=easy)
    admin_action(mod_client, "games/game", "requalify_games", [ann_game.pk], "try")
    ann_game.refresh_from_db()
    assert ann_game.disqualified
    assert board(medium)["count"] == 0  # untouched (it was empty)


def test_the_admin_game_page_shows_the_log_with_times_and_a_replay_of_real_cards(
    today_challenges: dict[str, Any],
    mod_client: Client,
    django_capture_on_commit_callbacks: Any,
) -> None:
    eve = make_player("Eve")
    game_id = play_daily_through_api(
        client_for(eve, "10.1.2.3"), Tier.EASY, LINES[0], django_capture_on_commit_callbacks
    )
    page = mod_client.get(f"/admin/games/game/{game_id}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert f"Move log ({len(LINES[0])} entries)" in text
    assert 'id="admin-replay-frames"' in text and "game_admin.js" in text
    assert "10.1.2.3" in text  # where it was started from
    frames = page.context["replay"]
    assert len(frames) == len(LINES[0]) + 1
    assert [len(c["down"]) for c in frames[0]["columns"]] == [0, 1, 2, 3, 4, 5, 6]
    assert frames[-1]["found"] == [13, 13, 13, 13] and frames[-1]["score"] == 625
    assert "Disqualify…" in text and "Ban the player…" in text


def test_the_games_list_filters_and_searches(
    field: dict[str, User],
    today_challenges: dict[str, Any],
    mod_client: Client,
) -> None:
    ann_game = Game.objects.get(player=field["Ann"])
    Flag.objects.create(game=ann_game, kind=FlagKind.SHARED_ADDRESS, reason="test")
    date = today_challenges[Tier.EASY].date

    def listed(query: str) -> set[int]:
        response = mod_client.get(f"/admin/games/game/?{query}")
        assert response.status_code == 200, query
        return {game.pk for game in response.context["cl"].result_list}

    everyone = set(Game.objects.values_list("pk", flat=True))
    assert listed("") == everyone
    assert listed("flag=open") == {ann_game.pk}
    assert listed("flag=kind:shared_address") == {ann_game.pk}
    assert listed("flag=none") == everyone - {ann_game.pk}
    assert listed(f"player={field['Bob'].pk}") == {Game.objects.get(player=field["Bob"]).pk}
    assert listed("q=cat") == {Game.objects.get(player=field["Cat"]).pk}
    assert listed("challenge__tier=easy") == everyone
    assert listed("challenge__tier=hard") == set()
    assert listed(f"challenge__date={date.isoformat()}") == everyone
    assert listed("status__exact=won&verification__exact=verified") == everyone
