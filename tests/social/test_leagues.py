"""Leagues through the API: create, invite, join, leave, remove, limits, bad input, and
that a private league shows nothing to anyone who is not a member now."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import DailyChallenge, Verification, utc_today
from leaderboards.serializers import DailyBoard, LeagueBoard
from moderation import services as moderation
from moderation.models import AuditLog, LeagueReport
from social.models import League, Membership
from tests.factories import Api, logged_in, make_challenge, make_player, result

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def api(user: User | None) -> Api:
    return Api(logged_in(user) if user is not None else Client())


def create(owner: User, name: str = "Friday Club") -> dict[str, Any]:
    status, body = api(owner).post("/api/leagues/", {"name": name})
    assert status == 201, body
    return body


def token_of(league: dict[str, Any]) -> str:
    return league["invite_url"].rstrip("/").rsplit("/", 1)[1]


def join(user: User, token: str, expect: int = 201) -> Any:
    status, body = api(user).post(f"/api/leagues/join/{token}/")
    assert status == expect, body
    return body


@pytest.fixture
def ann() -> User:
    return make_player("Ann")


@pytest.fixture
def bob() -> User:
    return make_player("Bob")


@pytest.fixture
def eve() -> User:
    return make_player("Eve")


def test_the_leagues_page_and_its_answers_speak_the_readers_language(ann: User) -> None:
    """Accept-Language picks the page's words and the API's messages (issue 43)."""
    client = logged_in(ann)
    page = client.get("/leagues/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Ligen und Freunde" in page and "Leagues and friends" not in page
    missing = client.get("/api/leagues/999999/", HTTP_ACCEPT_LANGUAGE="es")
    assert missing.status_code == 404
    assert missing.json()["detail"] == "no existe esa liga (o no eres miembro)"


def test_create_join_and_see_members(ann: User, bob: User) -> None:
    league = create(ann)
    assert league["is_owner"] and league["member_count"] == 1
    token = token_of(league)
    assert len(token) >= 32  # 192 random bits, url-safe
    status, preview = Api(Client()).get(f"/api/leagues/join/{token}/")
    assert status == 200 and preview["name"] == "Friday Club" and preview["member_count"] == 1
    joined = join(bob, token)
    assert [m["display_name"] for m in joined["members"]] == ["Ann", "Bob"]
    assert join(bob, token, expect=200)["member_count"] == 2  # a second click changes nothing
    status, mine = api(bob).get("/api/leagues/")
    assert status == 200 and [row["name"] for row in mine] == ["Friday Club"]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("x", "2 to 40 characters"),
        ("y" * 41, "2 to 40 characters"),
        ("<script>", "uses letters, digits"),
        ("  ", "2 to 40 characters"),
    ],
)
def test_bad_names_are_400_with_a_reason(ann: User, name: str, says: str) -> None:
    status, body = api(ann).post("/api/leagues/", {"name": name})
    assert status == 400 and says in str(body), body


@pytest.mark.parametrize(
    "name",
    [
        "The Friday Night Yukon Solitaire Club Team",  # 42: one word past the limit
        "y" * 41,
        "w" * 201,  # past what the request may carry for a name, too: the same rule
    ],
)
def test_a_name_too_long_is_400_with_the_rule_never_cut(ann: User, name: str) -> None:
    client = logged_in(ann)
    for language, rule in (
        ("en", "A league name has 2 to 40 characters."),
        ("de", "Ein Liganame hat 2 bis 40 Zeichen."),
    ):
        response = client.post(
            "/api/leagues/",
            {"name": name},
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert response.status_code == 400, response.content
        assert response.json()["detail"] == rule, response.content
    assert not League.objects.exists()  # nothing made under a shortened name


def test_name_not_text_and_look_alike_names(ann: User, bob: User) -> None:
    status, body = api(ann).post("/api/leagues/", {"name": ["a", "b"]})
    assert status == 400, body
    status, body = api(ann).post("/api/leagues/", raw="{not json")
    assert status == 400, body
    create(ann, "Alice Club")
    status, body = api(bob).post("/api/leagues/", {"name": "AIice  CLUB"})  # I for l, case
    assert status == 400 and "too close" in body["detail"], body


def test_guests_cannot_create_or_join(ann: User) -> None:
    token = token_of(create(ann))
    client = Client(enforce_csrf_checks=False)
    status, body = Api(client).post("/api/leagues/", {"name": "Guests"})
    assert status == 403, body
    status, body = Api(client).post(f"/api/leagues/join/{token}/")
    assert status == 403, body


def test_limits_per_player_and_per_league(settings: Any, ann: User, bob: User, eve: User) -> None:
    settings.LEAGUES_PER_PLAYER = 2
    settings.LEAGUE_MAX_MEMBERS = 2
    first = create(ann, "One")
    create(ann, "Two")
    status, body = api(ann).post("/api/leagues/", {"name": "Three"})
    assert status == 409 and "most a player may be in (2)" in body["detail"], body
    assert body["limit"] == 2
    join(bob, token_of(first))
    body = join(eve, token_of(first), expect=409)
    assert "full" in body["detail"] and body["limit"] == 2
    # Leaving frees a place, under both limits.
    status, _ = api(bob).post(f"/api/leagues/{first['id']}/leave/")
    assert status == 204
    join(eve, token_of(first))


def test_non_members_see_nothing_of_a_private_league(ann: User, bob: User, eve: User) -> None:
    league = create(ann)
    join(bob, token_of(league))
    challenge = make_challenge()
    result(bob, challenge)
    lid = league["id"]
    board = f"/api/leaderboards/daily/{challenge.date}/{challenge.tier}/?league={lid}"
    for path in (
        f"/api/leagues/{lid}/",
        f"/api/leaderboards/leagues/{lid}/",
        board,
        f"/api/leaderboards/streaks/?league={lid}",
        f"/api/leaderboards/alltime/?league={lid}",
    ):
        status, body = api(eve).get(path)
        assert status == 404, (path, body)
        assert "Friday" not in str(body) and "Bob" not in str(body)
        status, body = api(bob).get(path)
        assert status == 200, (path, body)
    for path in (f"/api/leagues/{lid}/leave/", f"/api/leagues/{lid}/invite/"):
        status, body = api(eve).post(path)
        assert status == 404, (path, body)
    status, body = api(None).get(board)
    assert status == 403, body
    # An unknown league looks the same as someone else's.
    status, body = api(eve).get("/api/leagues/999999/")
    assert status == 404 and body["detail"] == "no such league (or you are not a member)"


def test_a_league_and_its_ranked_members_in_one_query(
    ann: User, bob: User, eve: User, django_assert_num_queries: Any
) -> None:
    """The boards' door to a league (``social.services.league_circle``): one query for a
    member; the same NotFound as ``league_of_member`` for anyone else, a closed league or
    a removed member; a league whose members are all banned is found, with none ranked."""
    from apikit.errors import NotFound
    from social.services import league_circle

    league = create(ann)
    join(bob, token_of(league))
    lid = league["id"]
    with django_assert_num_queries(1):
        found = league_circle(bob.pk, lid)
    assert (found.league_id, found.name, found.players) == (
        lid,
        "Friday Club",
        {ann.pk: "Ann", bob.pk: "Bob"},
    )
    for user_id in (eve.pk, None):
        with pytest.raises(NotFound, match="not a member"):
            league_circle(user_id, lid)
    with pytest.raises(NotFound):
        league_circle(ann.pk, 999_999)
    User.objects.filter(pk__in=[ann.pk, bob.pk]).update(is_banned=True)
    assert league_circle(bob.pk, lid).players == {}
    Membership.objects.filter(player=bob).update(removed_at=dt.datetime.now(dt.UTC))
    with pytest.raises(NotFound):
        league_circle(bob.pk, lid)
    League.objects.filter(pk=lid).update(closed_at=dt.datetime.now(dt.UTC))
    with pytest.raises(NotFound):
        league_circle(ann.pk, lid)


def test_a_removed_member_loses_access_at_once_and_cannot_rejoin(
    ann: User, bob: User, eve: User
) -> None:
    league = create(ann)
    token = token_of(league)
    join(bob, token)
    bob_api = api(bob)  # one session, kept across the removal
    lid = league["id"]
    assert bob_api.get(f"/api/leaderboards/leagues/{lid}/")[0] == 200
    status, body = api(bob).call("delete", f"/api/leagues/{lid}/members/Ann/")
    assert status == 403 and "owner" in body["detail"]  # only the owner removes
    status, _ = api(ann).call("delete", f"/api/leagues/{lid}/members/bob/")
    assert status == 204
    for path in (f"/api/leagues/{lid}/", f"/api/leaderboards/leagues/{lid}/"):
        status, body = bob_api.get(path)
        assert status == 404, (path, body)
    body = join(bob, token, expect=403)
    assert "removed you" in body["detail"]
    status, body = api(ann).call("delete", f"/api/leagues/{lid}/members/Ann/")
    assert status == 409, body
    status, body = api(ann).call("delete", f"/api/leagues/{lid}/members/Nobody/")
    assert status == 404 and body["detail"] == "“Nobody” is not a member of this league", body
    # PostgreSQL cannot hold a NUL: the query failed, and the answer was the database
    # fallback's "a value is out of range"
    status, body = api(ann).call("delete", f"/api/leagues/{lid}/members/%00/")
    assert status == 404 and "is not a member of this league" in body["detail"], body
    join(eve, token)


def test_owner_replaces_the_link_and_the_old_one_joins_nobody(ann: User, bob: User) -> None:
    league = create(ann)
    old = token_of(league)
    status, renewed = api(ann).post(f"/api/leagues/{league['id']}/invite/")
    assert status == 200 and token_of(renewed) != old
    body = join(bob, old, expect=404)
    assert "not valid" in body["detail"]
    status, body = api(bob).get(f"/api/leagues/join/{old}/")
    assert status == 404, body
    join(bob, token_of(renewed))
    status, body = api(bob).post(f"/api/leagues/{league['id']}/invite/")
    assert status == 403, body  # a member, not the owner
    for bad in ("x", "a" * 200, "%00" * 20):
        status, body = api(bob).post(f"/api/leagues/join/{bad}/")
        assert status == 404, (bad, body)


def test_owner_leaving_hands_over_and_the_last_one_closes_it(ann: User, bob: User) -> None:
    league = create(ann)
    join(bob, token_of(league))
    assert api(ann).post(f"/api/leagues/{league['id']}/leave/")[0] == 204
    assert League.objects.get(pk=league["id"]).owner_id == bob.pk
    assert api(bob).post(f"/api/leagues/{league['id']}/leave/")[0] == 204
    assert League.objects.get(pk=league["id"]).closed_at is not None
    join(ann, token_of(league), expect=404)


def test_league_board_ranks_members_by_the_board_rules(ann: User, bob: User, eve: User) -> None:
    league = create(ann)
    join(bob, token_of(league))
    outsider = make_player("Zed")
    easy = make_challenge(tier="easy")
    mine = result(ann, easy, score=625, elapsed_ms=90_000)
    result(bob, easy, score=625, elapsed_ms=60_000)
    result(outsider, easy, score=625, elapsed_ms=1_000)  # faster, not a member
    result(eve, easy, elapsed_ms=1_000)  # not a member either
    pending = make_player("Pen")
    join(pending, token_of(league))
    result(pending, easy, elapsed_ms=10, verification=Verification.PENDING)  # not verified
    status, body = api(ann).get(f"/api/leaderboards/leagues/{league['id']}/")
    assert status == 200, body
    LeagueBoard(data=body).is_valid(raise_exception=True)
    (today,) = body["today"]
    assert [(r["display_name"], r["rank"]) for r in today["results"]] == [("Bob", 1), ("Ann", 2)]
    assert [r["me"] for r in today["results"]] == [False, True]
    # the day is open: Ann's own replay is linked, Bob's opens at the close
    assert [r["replay_url"] for r in today["results"]] == [None, f"/replay/{mine.pk}/"]
    assert [(r["display_name"], r["points"]) for r in body["week"]["results"]] == [
        ("Bob", 10),
        ("Ann", 7),
    ]
    assert {r["display_name"] for r in body["streaks"]} == {"Ann", "Bob", "Pen"}
    # The global board filtered to the league gives the same ranks.
    path = f"/api/leaderboards/daily/{easy.date}/easy/?league={league['id']}"
    status, board = api(ann).get(path)
    assert status == 200 and board["circle"]["kind"] == "league"
    DailyBoard(data=board).is_valid(raise_exception=True)
    assert [(r["display_name"], r["rank"]) for r in board["results"]] == [("Bob", 1), ("Ann", 2)]
    status, body = api(ann).get(path.replace("league=", "following=true&league="))
    assert status == 400, body
    status, body = api(ann).get(path.replace(f"league={league['id']}", "league=abc"))
    assert status == 400, body


def test_the_long_tables_come_a_page_at_a_time_with_your_own_row(ann: User) -> None:
    """A league near its member limit: the week, month and streak tables come 50 rows a
    page (a 1,000-row answer polled every 10 s by every member was most of the page's
    cost); the viewer's own row is added when it is not on the page."""
    league = create(ann)
    easy = make_challenge(tier="easy")
    others = [make_player(f"P{i:02d}") for i in range(59)]
    Membership.objects.bulk_create(Membership(league_id=league["id"], player=p) for p in others)
    for index, player in enumerate(others):
        result(player, easy, elapsed_ms=60_000 + index)
    result(ann, easy, won=False)  # last everywhere: no win, no streak
    path = f"/api/leaderboards/leagues/{league['id']}/"
    status, first = api(ann).get(path)
    assert status == 200, first
    LeagueBoard(data=first).is_valid(raise_exception=True)
    assert (first["page"], first["pages"], first["page_size"], first["members"]) == (1, 2, 50, 60)
    assert first["week"]["count"] == first["month"]["count"] == 60
    for rows in (first["week"]["results"], first["month"]["results"], first["streaks"]):
        assert len(rows) == 51, len(rows)
        assert [r["display_name"] for r in rows[:50]] == [f"P{i:02d}" for i in range(50)]
        assert rows[-1]["display_name"] == "Ann" and rows[-1]["me"]
        assert not any(r["me"] for r in rows[:50])
    assert [r["rank"] for r in first["week"]["results"]][-1] == 60
    status, second = api(ann).get(f"{path}?page=2")
    assert status == 200, second
    assert [r["display_name"] for r in second["week"]["results"]] == [
        *(f"P{i:02d}" for i in range(50, 59)),
        "Ann",
    ]
    assert len(second["streaks"]) == 10 and second["streaks"][-1]["me"]
    # today's board is the same first page on every page of the tables
    assert second["today"] == first["today"]
    status, body = api(ann).get(f"{path}?page=3")
    assert status == 404 and "page 3 does not exist" in body["detail"], body
    for bad in ("0", "abc", "-1"):
        status, body = api(ann).get(f"{path}?page={bad}")
        assert status == 400 and "page" in body["errors"], body


def test_weekly_and_monthly_points_and_ties(ann: User, bob: User, eve: User) -> None:
    league = create(ann)
    for user in (bob, eve):
        join(user, token_of(league))
    today = utc_today()
    monday = today - dt.timedelta(days=today.weekday())
    days = [monday + dt.timedelta(days=n) for n in range(min(2, today.weekday() + 1))]
    for day in days:
        challenge: DailyChallenge = make_challenge(day)
        result(ann, challenge, elapsed_ms=50_000)
        result(bob, challenge, elapsed_ms=50_000)  # tied with Ann: both rank 1
        result(eve, challenge, won=False, score=100)
    status, body = api(eve).get(f"/api/leaderboards/leagues/{league['id']}/")
    assert status == 200, body
    week = {r["display_name"]: (r["rank"], r["points"]) for r in body["week"]["results"]}
    n = len(days)
    assert week == {"Ann": (1, 10 * n), "Bob": (1, 10 * n), "Eve": (3, 5 * n)}


def test_follow_and_the_following_board(ann: User, bob: User, eve: User) -> None:
    challenge = make_challenge()
    for user, ms in ((ann, 30_000), (bob, 20_000), (eve, 10_000)):
        result(user, challenge, elapsed_ms=ms)
    status, body = api(ann).post("/api/follows/", {"display_name": "bob"})
    assert status == 201 and body["following"] == ["Bob"]
    assert api(ann).post("/api/follows/", {"display_name": "Bob"})[0] == 200
    path = f"/api/leaderboards/daily/{challenge.date}/{challenge.tier}/?following=true"
    status, board = api(ann).get(path)
    assert [(r["display_name"], r["rank"]) for r in board["results"]] == [("Bob", 1), ("Ann", 2)]
    status, streaks = api(ann).get("/api/leaderboards/alltime/?following=true")
    assert status == 200 and {r["display_name"] for r in streaks["results"]} == {"Ann", "Bob"}
    assert [r["rank"] for r in streaks["results"]] == [1, 1]  # equal on all three keys
    assert api(ann).call("delete", "/api/follows/Bob/")[0] == 204
    assert api(ann).call("delete", "/api/follows/Bob/")[0] == 404
    status, body = api(ann).post("/api/follows/", {"display_name": "ann"})
    assert status == 400 and "yourself" in body["detail"]
    # the follow form shows this sentence: it was "no player named 'Nobody'", Python's quotes
    assert api(ann).post("/api/follows/", {"display_name": " Nobody "}) == (
        404,
        {"detail": "No player is called “Nobody”."},
    )
    assert api(ann).post("/api/follows/", {})[0] == 400
    assert api(ann).post("/api/follows/", {"display_name": 5})[0] == 400  # not "5"


def test_follow_limit(settings: Any, ann: User, bob: User, eve: User) -> None:
    settings.FOLLOWS_PER_PLAYER = 1
    assert api(ann).post("/api/follows/", {"display_name": "Bob"})[0] == 201
    status, body = api(ann).post("/api/follows/", {"display_name": "Eve"})
    assert status == 409 and body["limit"] == 1


def test_reported_name_reaches_the_queue_and_moderators_rename_or_close(
    ann: User, bob: User, eve: User
) -> None:
    league = create(ann, "Rude Name")
    join(bob, token_of(league))
    status, body = api(bob).post(f"/api/leagues/{league['id']}/report/", {"reason": "rude"})
    assert status == 201 and body["reported_name"] == "Rude Name"
    assert api(bob).post(f"/api/leagues/{league['id']}/report/", {"reason": "x"})[0] == 200
    status, body = api(eve).post(f"/api/leagues/{league['id']}/report/", {"reason": "rude"})
    assert status == 404  # not a member; with the invite link they may report it
    status, body = api(eve).post(
        f"/api/leagues/join/{token_of(league)}/report/", {"reason": "rude"}
    )
    assert status == 201, body
    assert api(eve).post(f"/api/leagues/join/{token_of(league)}/report/", {})[0] == 400
    assert LeagueReport.objects.filter(status="open").count() == 2

    mod = make_player("Mod", staff=True, moderator=True)
    moderation.rename_league(mod, league["id"], "name reported as rude")
    renamed = League.objects.get(pk=league["id"])
    assert renamed.name == f"League {league['id']}"
    assert LeagueReport.objects.filter(status="open").count() == 0
    entry = AuditLog.objects.get(action="rename_league")
    assert "'Rude Name'" in entry.reason and entry.target_type == "social.league"

    moderation.close_league(mod, league["id"], "still abusive")
    assert AuditLog.objects.filter(action="close_league", target_id=str(league["id"])).exists()
    status, body = api(bob).get(f"/api/leagues/{league['id']}/")
    assert status == 404, body
    join(eve, token_of(league), expect=404)
    assert api(bob).get("/api/leagues/")[1] == []


def test_moderation_queue_pages_for_league_reports(ann: User, bob: User) -> None:
    league = create(ann, "Rude Name")
    join(bob, token_of(league))
    api(bob).post(f"/api/leagues/{league['id']}/report/", {"reason": "rude"})
    mod = make_player("Mod", staff=True, moderator=True)
    client = logged_in(mod)
    page = client.get("/admin/moderation/leaguereport/")
    assert page.status_code == 200 and b"Rude Name" in page.content
    report = LeagueReport.objects.get()
    page = client.post(
        "/admin/moderation/leaguereport/",
        {
            "action": "close_leagues_reported",
            "_selected_action": [str(report.pk)],
            "confirm": "yes",
            "reason": "abusive",
        },
    )
    assert page.status_code in (200, 302), page.content
    assert League.objects.get(pk=league["id"]).closed_at is not None
    assert AuditLog.objects.filter(action="close_league", actor=mod).count() == 1
    # A player (not staff) gets nothing of the queue.
    assert logged_in(bob).get("/admin/moderation/leaguereport/").status_code == 403


def test_a_board_poll_costs_a_304_while_nothing_changed(ann: User, bob: User) -> None:
    league = create(ann)
    client = logged_in(ann)
    path = f"/api/leaderboards/leagues/{league['id']}/"
    first = client.get(path)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    again = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    join(bob, token_of(league))
    result(bob, make_challenge())
    changed = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_league_boards_drop_banned_players_and_disqualified_results(
    ann: User, bob: User, eve: User
) -> None:
    league = create(ann)
    for user in (bob, eve):
        join(user, token_of(league))
    challenge = make_challenge()
    result(ann, challenge, elapsed_ms=90_000)
    result(bob, challenge, elapsed_ms=10_000)
    dq = result(eve, challenge, elapsed_ms=20_000)
    dq.disqualified = True
    dq.save(update_fields=["disqualified"])
    User.objects.filter(pk=bob.pk).update(is_banned=True)
    status, body = api(ann).get(f"/api/leaderboards/leagues/{league['id']}/")
    assert status == 200, body
    (today,) = body["today"]
    assert [(r["display_name"], r["rank"]) for r in today["results"]] == [("Ann", 1)]
    assert [r["display_name"] for r in body["week"]["results"]] == ["Ann"]
    assert {r["display_name"] for r in body["streaks"]} == {"Ann", "Eve"}
    path = f"/api/leaderboards/daily/{challenge.date}/{challenge.tier}/?league={league['id']}"
    assert [r["display_name"] for r in api(ann).get(path)[1]["results"]] == ["Ann"]


def test_week_and_month_each_count_their_own_days(ann: User) -> None:
    from leaderboards.circles import month_of, week_of

    league = create(ann)
    today = utc_today()
    days = {week_of(today)[0], month_of(today)[0], today}
    for day in days:
        result(ann, make_challenge(day), finished_at=dt.datetime.combine(day, dt.time(9), dt.UTC))
    status, body = api(ann).get(f"/api/leaderboards/leagues/{league['id']}/")
    assert status == 200, body
    for key, (start, end) in (("week", week_of(today)), ("month", month_of(today))):
        inside = sum(1 for day in days if start <= day <= end)
        assert body[key]["start"] == start.isoformat() and body[key]["end"] == end.isoformat()
        assert body[key]["results"][0]["points"] == 10 * inside, (key, body[key])
        assert body[key]["results"][0]["played"] == inside


def test_the_players_data_download_lists_leagues_follows_and_reports(ann: User, bob: User) -> None:
    league = create(ann, "Export Club")
    join(bob, token_of(league))
    api(bob).post("/api/follows/", {"display_name": "Ann"})
    api(bob).post(f"/api/leagues/{league['id']}/report/", {"reason": "odd name"})
    response = logged_in(bob).get("/api/auth/export/")
    assert response.status_code == 200, response.content
    data = response.json()
    assert [(x["name"], x["owner"]) for x in data["leagues"]] == [("Export Club", False)]
    assert [f["display_name"] for f in data["following"]] == ["Ann"]
    assert [r["reason"] for r in data["league_reports_made"]] == ["odd name"]
