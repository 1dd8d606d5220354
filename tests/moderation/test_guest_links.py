"""A guest's game is a scout: its origin is recorded and linked like an account's, and a new
account's result linked to one (or a guest's own game, signed up from, linked to anything)
is held off every board until a moderator confirms it (moderation/guest_links.py)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import DailyChallenge, Game, Mode, Tier
from moderation import services as moderation
from moderation.models import Flag, FlagKind, FlagStatus, GameOrigin
from moderation.origins import DEVICE_COOKIE, linked_games
from tests.factories import (
    LINES,
    Clock,
    make_challenge,
    make_day,
    make_player,
    play_timed,
    result,
    started_from,
)

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

LINE = LINES[0]  # deal 0, the easy challenge of make_day()
HUMAN = [1800 + 650 * (i % 7) for i in range(len(LINE))]
PASSWORD = "a long enough pass 42"


def board(date: dt.date) -> list[str]:
    answer = Client().get(f"/api/leaderboards/daily/{date.isoformat()}/easy/")
    assert answer.status_code == 200, answer.content
    return [row["display_name"] for row in answer.json()["results"]]


def flag_of(game: Game, kind: str = FlagKind.GUEST_LINKED) -> Flag | None:
    return Flag.objects.filter(game_id=game.pk, kind=kind).first()


def guest_scout(challenge: DailyChallenge, clock: Clock, moves: int, session: str) -> Game:
    """A guest turns the deal's cards over and leaves its game in play."""
    actor = services.Actor(user_id=None, session_key=session)
    game, created = services.start_daily_game(actor, challenge.tier, today=challenge.date)
    assert created and game.mode == Mode.GUEST
    Game.objects.filter(pk=game.pk).update(started_at=clock.now)
    for ply, text in enumerate(LINE[:moves]):
        clock.advance(HUMAN[ply])
        services.play_move(actor, game.pk, ply, text)
    return game


def main_wins(player: User, challenge: DailyChallenge, clock: Clock, capture: Any) -> Game:
    with capture(execute=True):
        game = play_timed(player, challenge, LINE, HUMAN, clock)
    game.refresh_from_db()
    assert game.verification == "verified"
    return game


def established(name: str, clock: Clock) -> User:
    """A month-old account with three verified dailies: its results are never provisional."""
    player = make_player(name)
    User.objects.filter(pk=player.pk).update(date_joined=clock.now - dt.timedelta(days=30))
    for days in (4, 3, 2):
        past = make_challenge(clock.now.date() - dt.timedelta(days=days))
        result(player, past, finished_at=clock.now - dt.timedelta(days=days))
    player.refresh_from_db()
    return player


def test_a_guest_scout_on_the_same_device_holds_a_new_accounts_win_until_confirmed(
    clock: Clock, django_capture_on_commit_callbacks: Any, moderator: User
) -> None:
    """Attack 3: a guest window turns the cards over; a fresh account on the same device
    (another network) then wins. The win is held off the board, flagged, until a moderator
    confirms it."""
    easy = make_day()[Tier.EASY]
    with started_from("198.51.100.5", "a" * 32):
        scout = guest_scout(easy, clock, 30, "scout-session")
    assert GameOrigin.objects.get(game_id=scout.pk).device == "a" * 32
    clock.advance(60_000)
    with started_from("203.0.113.9", "a" * 32):
        main = main_wins(make_player("Main"), easy, clock, django_capture_on_commit_callbacks)

    assert (main.provisional, main.held) == (True, True)
    held = flag_of(main)
    assert held is not None and held.status == FlagStatus.OPEN
    assert held.measured["games"] == [scout.pk] and held.measured["shared"] == ["device"]
    assert held.measured["accounts"] == ["a guest (session scout-se)"]
    seen = flag_of(main, FlagKind.LINKED_ACCOUNTS)
    assert seen is not None and seen.measured["seen_hidden_cards"] > 0
    assert board(easy.date) == []

    # the close check leaves it to a moderator ...
    assert moderation.confirm_provisional(easy.date + dt.timedelta(days=1)) == []
    # ... who confirms it: on the board, no longer marked, the hold's flag settled
    with django_capture_on_commit_callbacks(execute=True):
        moderation.confirm_result(moderator, main.pk, "a family sharing a tablet")
    main.refresh_from_db()
    assert (main.provisional, main.held) == (False, False)
    assert flag_of(main).status == FlagStatus.CLEARED  # type: ignore[union-attr]
    assert board(easy.date) == ["Main"]
    # a later verification of the scout's game cannot hold it again
    with django_capture_on_commit_callbacks(execute=True):
        services.abandon_game(scout.pk)
    assert not Game.objects.get(pk=main.pk).held


def test_a_guest_who_played_in_two_windows_and_signs_up_from_one_is_held(
    django_capture_on_commit_callbacks: Any, moderator: User
) -> None:
    """Several private windows on one network, then a sign-up from the best: the claimed
    game is held, since another game of the day is linked to it."""
    make_day()
    windows = [Client(REMOTE_ADDR="198.51.100.5"), Client(REMOTE_ADDR="198.51.100.77")]
    games = []
    for window, moves in zip(windows, (LINE[:10], LINE), strict=True):
        started = _post(window, "/api/games/", {"daily": "easy"})
        with django_capture_on_commit_callbacks(execute=True):
            for ply, text in enumerate(moves):
                _post(window, f"/api/games/{started['id']}/moves/", {"ply": ply, "move": text})
        games.append(Game.objects.get(pk=started["id"]))
    worse, best = games
    with django_capture_on_commit_callbacks(execute=True):
        _post(
            windows[1],
            "/_allauth/browser/v1/auth/signup",
            {"username": "best", "password": PASSWORD},
        )
    best.refresh_from_db()
    assert (best.mode, best.provisional, best.held) == (Mode.DAILY, True, True)
    held = flag_of(best)
    assert held is not None and held.measured["games"] == [worse.pk]
    assert held.measured["played_as_guest"] is True
    assert board(best.challenge.date) == []  # type: ignore[union-attr]
    # the game is judged now that it is a daily (a worker's task, queued at sign-up)
    assert Flag.objects.filter(game=best).exclude(kind=FlagKind.GUEST_LINKED).exists()
    # clearing the hold's flag is a moderator's word too: back on the board, provisional
    with django_capture_on_commit_callbacks(execute=True):
        moderation.clear_flag(moderator, held.pk, "a shared computer at a library")
    best.refresh_from_db()
    assert (best.provisional, best.held) == (True, False)
    assert board(best.challenge.date) == ["best"]  # type: ignore[union-attr]


def _post(client: Client, url: str, data: Any) -> Any:
    response = client.post(url, json.dumps(data), content_type="application/json")
    assert response.status_code in (200, 201), response.content
    return response.json()


def test_a_guest_start_through_the_api_links_like_an_accounts(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    """The scout is a browser with no account: its start gives it the device id that then
    links the account's game played in the same browser."""
    easy = make_day()[Tier.EASY]
    browser = Client(REMOTE_ADDR="198.51.100.5")
    started = _post(browser, "/api/games/", {"daily": "easy"})
    device = browser.cookies[DEVICE_COOKIE].value
    for ply, text in enumerate(LINE[:20]):
        clock.advance(HUMAN[ply])
        _post(browser, f"/api/games/{started['id']}/moves/", {"ply": ply, "move": text})
    with started_from("203.0.113.9", device):
        main = main_wins(make_player("Main"), easy, clock, django_capture_on_commit_callbacks)
    assert [link.game_id for link in linked_games(main)] == [started["id"]]
    assert main.held and board(easy.date) == []


def test_an_established_account_linked_to_a_guest_is_flagged_not_held(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    easy = make_day()[Tier.EASY]
    with started_from("198.51.100.5", "b" * 32):
        guest_scout(easy, clock, 30, "scout-session")
    with started_from("198.51.100.9", "c" * 32):
        game = main_wins(
            established("Regular", clock), easy, clock, django_capture_on_commit_callbacks
        )
    assert (game.provisional, game.held) == (False, False)
    assert flag_of(game) is None
    assert flag_of(game, FlagKind.LINKED_ACCOUNTS) is not None
    assert board(easy.date) == ["Regular"]


def test_a_players_own_guest_game_links_to_their_daily_wherever_it_was_played(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    """Scout as a guest, log in (the game joins the history), then play the ranked daily on
    another network and device: the player's own guest game links by the player. A new
    account's result is held for it; an established one's is flagged."""
    easy = make_day()[Tier.EASY]
    for name, player in (("Young", make_player("Young")), ("Old", established("Old", clock))):
        session = f"{name}-window"
        with started_from("198.51.100.5", "d" * 32):
            scout = guest_scout(easy, clock, 30, session)
        assert services.claim_guest_games(player, session) == 1
        with started_from(f"203.0.113.{len(name)}", ""):
            game = main_wins(player, easy, clock, django_capture_on_commit_callbacks)
        links = linked_games(game)
        assert [(link.game_id, link.shared) for link in links if link.owner.startswith(name)] == [
            (scout.pk, ("player",))
        ]
        assert flag_of(game, FlagKind.LINKED_ACCOUNTS) is not None
        assert game.held is (name == "Young")
    assert board(easy.date) == ["Old"]
