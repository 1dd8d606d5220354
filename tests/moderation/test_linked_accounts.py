"""One player with many accounts: a scout turns the daily's cards over, a fresh account then
plays it. Games of one challenge are linked by a device cookie or a network, whatever became
of them, and a ranked game is flagged with what its linked games turned before it did.
Archive games, which earn badges, get the same checks as dailies."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from games import services
from games.models import Game, Move, Status, Tier
from moderation import flags, origins
from moderation.models import Flag, FlagKind, GameOrigin
from tests.factories import (
    LINES,
    Clock,
    client_for,
    make_day,
    make_player,
    play_timed,
    post,
    started_from,
)

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

LINE = LINES[0]  # deal 0, the easy challenge of make_day()
HUMAN = [1800 + 650 * (i % 7) for i in range(len(LINE))]


def linked_flag(game_id: int) -> Flag | None:
    return Flag.objects.filter(game_id=game_id, kind=FlagKind.LINKED_ACCOUNTS).first()


def scout(name: str, challenge: Any, clock: Clock, moves: int) -> Game:
    """A throwaway account turns cards over and leaves its game in play."""
    return play_timed(make_player(name), challenge, LINE[:moves], HUMAN[:moves], clock)


def main_game(challenge: Any, clock: Clock, capture: Any, name: str = "Main") -> Game:
    with capture(execute=True):
        game = play_timed(make_player(name), challenge, LINE, HUMAN, clock)
    game.refresh_from_db()
    assert game.status == Status.WON and game.verification == "verified"
    return game


@pytest.mark.parametrize(
    ("scout_from", "main_from", "shared"),
    [
        (("198.51.100.5", "a" * 32), ("203.0.113.9", "a" * 32), ["device"]),
        (("198.51.100.5", "b" * 32), ("198.51.100.77", "c" * 32), ["network"]),
        (("2001:db8:0:1a::5", "b" * 32), ("2001:db8:0:1b::9", ""), ["network"]),
    ],
    ids=["same-device", "same-ipv4-24", "same-ipv6-56"],
)
def test_a_scout_sharing_a_device_or_network_flags_the_main_account(
    clock: Clock,
    django_capture_on_commit_callbacks: Any,
    scout_from: tuple[str, str],
    main_from: tuple[str, str],
    shared: list[str],
) -> None:
    easy = make_day()[Tier.EASY]
    with started_from(*scout_from):
        scouted = scout("Scout", easy, clock, 30)
    turned = set(scouted.log.exclude(turned="").values_list("turned", flat=True))
    assert turned, "the scout turned cards over"
    clock.advance(60_000)
    with started_from(*main_from):
        game = main_game(easy, clock, django_capture_on_commit_callbacks)
    flag = linked_flag(game.pk)
    assert flag is not None, "a scout's game still in play links at verification"
    assert flag.measured["accounts"] == ["Scout"]
    assert flag.measured["shared"] == shared
    assert flag.measured["seen_hidden_cards"] == len(turned)
    assert flag.measured["games"] == [scouted.pk]
    assert linked_flag(scouted.pk) is None  # the scout saw nothing in advance


def test_two_scouts_add_up_what_they_saw(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    easy = make_day()[Tier.EASY]
    with started_from("198.51.100.5", "d" * 32):
        first = scout("ScoutA", easy, clock, 12)
    with started_from("203.0.113.80", "d" * 32):  # the same phone on another network
        second = play_timed(make_player("ScoutB"), easy, LINE[:40], HUMAN[:40], clock)
    seen = set(
        Move.objects.filter(game_id__in=[first.pk, second.pk])
        .exclude(turned="")
        .values_list("turned", flat=True)
    )
    assert len(seen) > 10
    with started_from("198.51.100.6", "e" * 32):
        game = main_game(easy, clock, django_capture_on_commit_callbacks)
    flag = linked_flag(game.pk)
    assert flag is not None
    assert flag.measured["accounts"] == ["ScoutA", "ScoutB"]
    assert flag.measured["seen_hidden_cards"] == len(seen)


def test_a_scout_sent_out_after_the_first_move_still_counts(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    """Making one move before scouting hides nothing: a card counts when a linked game
    turned it before this game did."""
    easy = make_day()[Tier.EASY]
    main = make_player("Main")
    actor = services.Actor(user_id=main.pk)
    with started_from("198.51.100.5", "f" * 32):
        game, _ = services.start_daily_game(actor, Tier.EASY, today=easy.date)
        Game.objects.filter(pk=game.pk).update(started_at=clock.now)
        clock.advance(2000)
        services.play_move(actor, game.pk, 0, LINE[0])
    with started_from("198.51.100.200", ""):
        scouted = scout("Scout", easy, clock, 40)
    with started_from("198.51.100.5", "f" * 32), django_capture_on_commit_callbacks(execute=True):
        for ply, text in enumerate(LINE[1:], start=1):
            clock.advance(HUMAN[ply])
            services.play_move(actor, game.pk, ply, text)
    flag = linked_flag(game.pk)
    assert flag is not None
    assert flag.measured["games"] == [scouted.pk]
    assert flag.measured["seen_hidden_cards"] > 0


def test_nothing_shared_links_nothing(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    easy = make_day()[Tier.EASY]
    with started_from("198.51.100.5", "1" * 32):
        scout("Elsewhere", easy, clock, 30)
    with started_from("203.0.113.9", "2" * 32):
        game = main_game(easy, clock, django_capture_on_commit_callbacks)
    assert linked_flag(game.pk) is None
    assert origins.linked_games(game) == []


def test_the_check_runs_again_when_a_linked_game_ends(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    """A flag cleared by hand comes back only as a moderator decides; a missing one is
    raised when the scout's game ends and is verified (at the latest at the close)."""
    easy = make_day()[Tier.EASY]
    with started_from("198.51.100.5", "3" * 32):
        scouted = scout("Scout", easy, clock, 30)
    with started_from("198.51.100.9", "4" * 32):
        game = main_game(easy, clock, django_capture_on_commit_callbacks)
    Flag.objects.filter(game_id=game.pk).delete()  # as if the link was made after
    with django_capture_on_commit_callbacks(execute=True):
        services.abandon_game(scouted.pk)  # the close ends the scout's game
    assert linked_flag(game.pk) is not None
    assert flags.recheck_links(Game.objects.get(pk=scouted.pk)) == []  # idempotent


def test_a_start_gives_the_browser_a_device_id_and_only_a_start_does(
    django_capture_on_commit_callbacks: Any,
) -> None:
    make_day()
    client = client_for(make_player("Ann"), address="198.51.100.5")
    page = client.get("/")
    assert origins.DEVICE_COOKIE not in page.cookies, "a page a cache may share sets none"
    response = post(client, "/api/games/", {"daily": "easy"})
    assert response.status_code == 201, response.content
    cookie = response.cookies[origins.DEVICE_COOKIE]
    assert origins.is_device_id(cookie.value)
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    origin = GameOrigin.objects.get(game_id=response.json()["id"])
    assert (origin.address, origin.network, origin.device) == (
        "198.51.100.5",
        "198.51.100.0/24",
        cookie.value,
    )
    # the next start keeps the id the browser sends; a forged one is replaced
    other = client_for(make_player("Bob"), address="203.0.113.1")
    other.cookies[origins.DEVICE_COOKIE] = cookie.value
    assert post(other, "/api/games/", {"daily": "medium"}).status_code == 201
    assert GameOrigin.objects.filter(device=cookie.value).count() == 2
    forged = client_for(make_player("Cat"), address="203.0.113.2")
    forged.cookies[origins.DEVICE_COOKIE] = "<script>"
    answer = post(forged, "/api/games/", {"daily": "easy"})
    assert origins.is_device_id(answer.cookies[origins.DEVICE_COOKIE].value)


def test_origins_are_in_the_data_export_and_forgotten_after_the_retention_time(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    make_day()
    player = make_player("Ann")
    client = client_for(player, address="198.51.100.5")
    game_id = post(client, "/api/games/", {"daily": "easy"}).json()["id"]
    export = client.get("/api/auth/export/")
    assert export.status_code == 200, export.content
    found = export.json()["game_origins"]
    assert [(o["game"], o["network"]) for o in found] == [(game_id, "198.51.100.0/24")]
    settings.MODERATION_ORIGIN_DAYS = 30
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=29)
    assert origins.purge_origins(later) == 0
    assert origins.purge_origins(later + dt.timedelta(days=2)) == 1
    assert not GameOrigin.objects.exists()


def test_archive_games_get_the_same_checks(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    """A bot replaying a closed day from the archive (its deal public by then) is flagged,
    and archive scouts link like daily ones."""
    past = (clock.now - dt.timedelta(days=3)).date()
    make_day(past)
    bot = make_player("Bot")
    actor = services.Actor(user_id=bot.pk)
    with started_from("198.51.100.5", "9" * 32), django_capture_on_commit_callbacks(execute=True):
        game, _ = services.start_archive_game(actor, past, Tier.EASY)
        Game.objects.filter(pk=game.pk).update(started_at=clock.now)
        for ply, text in enumerate(LINE):
            clock.advance(90)  # a script
            services.play_move(actor, game.pk, ply, text)
    game.refresh_from_db()
    assert game.verification == "verified"
    kinds = set(Flag.objects.filter(game_id=game.pk).values_list("kind", flat=True))
    assert {FlagKind.FAST_MOVES, FlagKind.SOLVER_LINE} <= kinds
    assert GameOrigin.objects.filter(game_id=game.pk).exists()


def test_a_moderator_sees_the_cluster_side_by_side(
    clock: Clock, django_capture_on_commit_callbacks: Any, mod_client: Any
) -> None:
    easy = make_day()[Tier.EASY]
    with started_from("198.51.100.5", "5" * 32):
        scouted = scout("Scout", easy, clock, 30)
    with started_from("198.51.100.9", "6" * 32):
        game = main_game(easy, clock, django_capture_on_commit_callbacks)
    page = mod_client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Linked games on this challenge" in html
    assert f"/admin/games/game/{scouted.pk}/change/" in html
    seen = linked_flag(game.pk).measured["seen_hidden_cards"]  # type: ignore[union-attr]
    assert f"<td>{seen}: " in html  # how many, then which cards, it turned before this game
    alone = mod_client.get(f"/admin/games/game/{scouted.pk}/change/").content.decode()
    assert f"/admin/games/game/{game.pk}/change/" in alone  # the scout's page links back


def test_behind_a_proxy_the_origin_is_the_proxys_hop_not_what_the_client_wrote(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """docker-compose.yml sets NUM_PROXIES=1 and no MODERATION_CLIENT_ADDRESS_HEADER: every
    start was recorded with the proxy's own address (REMOTE_ADDR), so every player shared one
    network and the linked-accounts check meant nothing. The hop the proxy appends to
    X-Forwarded-For is the client's; what the client wrote before it is not read."""
    settings.NUM_PROXIES = 1
    make_day()
    ids = []
    for name, forwarded in [("Ann", "198.51.100.5"), ("Bob", "10.0.0.1, 203.0.113.9")]:
        client = client_for(make_player(name), address="172.18.0.2")  # the proxy
        client.defaults["HTTP_X_FORWARDED_FOR"] = forwarded
        response = post(client, "/api/games/", {"daily": "easy"})
        assert response.status_code == 201, response.content
        ids.append(response.json()["id"])
    assert [GameOrigin.objects.get(game_id=i).network for i in ids] == [
        "198.51.100.0/24",
        "203.0.113.0/24",
    ]
