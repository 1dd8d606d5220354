"""Test data: players, daily challenges, verified results, known winning lines, clients.

Plain functions and constants that tests import; the pytest fixtures built on them stay in
the conftest files. Nothing here runs at import beyond reading the winning lines' JSON.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from django.contrib.auth.models import Group
from django.db import connection
from django.test import Client

from accounts.models import User
from games import services
from games.models import DailyChallenge, Deal, Game, Mode, Status, Tier, Verification, utc_today

TESTS = Path(__file__).parent

# ----- players and clients ------------------------------------------------------------


def make_user(name: str, *, staff: bool = False) -> User:
    """A player with username ``name`` and display name ``name.title()``."""
    # No password: tests log in with force_login, and hashing would only cost time.
    return User.objects.create_user(username=name, display_name=name.title(), is_staff=staff)


def make_player(name: str, *, staff: bool = False, moderator: bool = False, **extra: Any) -> User:
    """A player whose display name is exactly ``name`` (username: ``name.lower()``)."""
    user = User.objects.create_user(
        username=name.lower(), display_name=name, is_staff=staff, **extra
    )
    if moderator:
        user.groups.add(Group.objects.get(name="moderator"))
    return user


def logged_in(user: User) -> Client:
    return client_for(user)


def client_for(user: User | None, address: str = "127.0.0.1") -> Client:
    """A client from ``address``, logged in as ``user`` unless it is None; staff with a
    second factor passed, as the admin requires (accounts/second_factor.py)."""
    client = Client(REMOTE_ADDR=address)
    if user is not None:
        client.force_login(user)
        if user.is_staff:
            pass_second_factor(client, user)
    return client


def at_once(call: Callable[[Any], None], each: Sequence[Any]) -> None:
    """``call(x)`` for every ``x`` of ``each``, each in a thread of its own, all released at
    the same moment (a barrier), each closing its database connection; waits for all."""
    start = threading.Barrier(len(each))

    def run(x: Any) -> None:
        try:
            start.wait()
            call(x)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(x,)) for x in each]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def pass_second_factor(client: Client, user: User) -> None:
    """Give ``user`` a TOTP authenticator and record in the client's session that it was
    used, as allauth does when the code is typed at log-in."""
    from allauth.mfa.models import Authenticator
    from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret

    if not Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).exists():
        TOTP.activate(user, generate_totp_secret())
    session = client.session
    session["account_authentication_methods"] = [
        {"method": "mfa", "at": time.time(), "type": "totp"}
    ]
    session["account_authentication_methods_user"] = str(user.pk)
    session.save()


def current_totp(secret: str, *, margin: float = 3.0) -> str:
    """The code an authenticator app shows now for ``secret``, still current ``margin``
    seconds later: allauth takes a code only in its own 30-second period, and one read
    at a period's last instant would be stale when the server checks it."""
    from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value

    left = 30 - time.time() % 30
    if left < margin:
        time.sleep(left + 0.05)
    return str(format_hotp_value(hotp_value(secret, int(time.time()) // 30)))


def post(client: Client, url: str, data: Any) -> Any:
    return client.post(url, json.dumps(data), content_type="application/json")


class Api:
    """A JSON client: every answer must be JSON with the expected status."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.bodies: list[str] = []

    def call(self, method: str, url: str, data: Any = None, *, raw: str | None = None) -> Any:
        body = raw if raw is not None else (json.dumps(data) if data is not None else None)
        kwargs: dict[str, Any] = {}
        if body is not None:
            kwargs = {"data": body, "content_type": "application/json"}
        response = getattr(self.client, method)(url, HTTP_ACCEPT="application/json", **kwargs)
        text = response.content.decode()
        self.bodies.append(text)
        assert response.status_code < 500, text
        payload = json.loads(text) if text else None
        return response.status_code, payload

    def get(self, url: str) -> Any:
        return self.call("get", url)

    def post(self, url: str, data: Any = None, *, raw: str | None = None) -> Any:
        return self.call("post", url, data, raw=raw)


# ----- deals with known winning lines ------------------------------------------------------


def winning_lines() -> dict[int, list[str]]:
    """Deal number -> a winning line of moves (tests/games/fixtures/winning_lines.json)."""
    data = json.loads((TESTS / "games" / "fixtures" / "winning_lines.json").read_text())
    return {int(k): v for k, v in data["winning_lines"].items()}


# Deals whose winning lines the games tests keep; the line doubles as the solver's line.
LINES = winning_lines()


# ----- daily challenges --------------------------------------------------------------------

# A daily deal number that stands out if it ever leaks into a response.
SECRET_DAILY_NUMBERS = {
    "easy": 18_000_000_000_000_000_123,
    "medium": 9_876_543_210_123_456_789,
    "hard": 12_345_678_901_234_567_891,
}


def make_challenges(
    date: Any = None, numbers: dict[str, int] | None = None
) -> dict[str, DailyChallenge]:
    """One challenge per tier on ``date`` (today), on deals whose numbers stand out."""
    date = date or utc_today()
    numbers = numbers or SECRET_DAILY_NUMBERS
    out = {}
    for tier in Tier.values:
        deal, _ = Deal.objects.get_or_create(number=numbers[tier], variant="yukon")
        out[tier] = DailyChallenge.objects.create(date=date, tier=tier, deal=deal, bot_win_rate=0.5)
    return out


def make_day(date: dt.date | None = None, numbers: dict[str, int] | None = None) -> dict[str, Any]:
    """One challenge per tier on ``date``; each deal's solution is its known winning line."""
    date = date or utc_today()
    numbers = numbers or {Tier.EASY: 0, Tier.MEDIUM: 1, Tier.HARD: 68}
    out: dict[str, DailyChallenge] = {}
    for tier, number in numbers.items():
        deal, _ = Deal.objects.get_or_create(
            number=number, variant="yukon", defaults={"solution": LINES[number]}
        )
        out[tier] = DailyChallenge.objects.create(date=date, tier=tier, deal=deal)
    return out


_numbers = itertools.count(1_000)


def make_challenge(date: dt.date | None = None, tier: str = "easy") -> DailyChallenge:
    """A challenge on a fresh deal number (the board tests never play it)."""
    deal = Deal.objects.create(number=next(_numbers), variant="yukon")
    return DailyChallenge.objects.create(date=date or utc_today(), tier=tier, deal=deal)


# ----- finished games ----------------------------------------------------------------------

FINISH_BASE = dt.datetime(2025, 1, 1, 12, tzinfo=dt.UTC)


def result(
    player: User,
    challenge: DailyChallenge,
    *,
    won: bool = True,
    score: int = 625,
    elapsed_ms: int = 60_000,
    moves: int = 100,
    finished_at: dt.datetime | None = None,
    verification: str = Verification.VERIFIED,
    status: str | None = None,
    save: bool = True,
) -> Game:
    """A finished daily game as the boards see it (no move log behind it)."""
    game = Game(
        player=player,
        deal_id=challenge.deal_id,
        challenge=challenge,
        mode=Mode.DAILY,
        status=status or (Status.WON if won else Status.STUCK),
        verification=verification,
        score=score,
        moves=moves,
        ply=moves,
        elapsed_ms=elapsed_ms,
        finished_at=finished_at or FINISH_BASE,
        verified_at=FINISH_BASE,
        position="-",
    )
    if save:
        game.save()
    return game


def play_daily_through_api(client: Client, tier: str, line: list[str], capture: Any) -> int:
    """Start today's ``tier`` challenge and play ``line`` (as fast as the test runs)."""
    response = post(client, "/api/games/", {"daily": tier})
    assert response.status_code == 201, response.content
    game_id = int(response.json()["id"])
    with capture(execute=True):
        for ply, text in enumerate(line):
            answer = post(client, f"/api/games/{game_id}/moves/", {"ply": ply, "move": text})
            assert answer.status_code == 200, answer.content
    return game_id


class Clock:
    """A fake ``timezone.now`` that the test moves forward (think times of simulated play)."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, ms: float) -> None:
        self.now += dt.timedelta(milliseconds=ms)

    @classmethod
    def for_play(cls) -> Clock:
        """From now, or from 22:00 UTC if that is sooner: the simulated play that follows
        (minutes of think times) never runs into today's close at 00:00 UTC, whatever the
        hour the suite runs at (run at 23:45, it did, and every move after midnight was
        refused as the day's)."""
        now = dt.datetime.now(dt.UTC).replace(microsecond=0)
        return cls(min(now, dt.datetime.combine(now.date(), dt.time(22), tzinfo=dt.UTC)))


@contextlib.contextmanager
def started_from(address: str, device: str = "") -> Iterator[Any]:
    """Games started inside come from ``address`` (and the browser's ``device`` id), as
    moderation.middleware records for a request; yields the origin (its ``device`` is set
    when a start gave the browser a new id)."""
    from moderation.origins import RequestOrigin, request_origin

    origin = RequestOrigin(address=address, device=device, user_agent="Mozilla/5.0 (test)")
    token = request_origin.set(origin)
    try:
        yield origin
    finally:
        request_origin.reset(token)


def play_timed(
    user: User,
    challenge: DailyChallenge,
    moves: list[str],
    gaps_ms: Sequence[float],
    clock: Clock,
    *,
    resign: bool = False,
) -> Game:
    """A ranked game played through the services, each move ``gaps_ms[i]`` after the last."""
    actor = services.Actor(user_id=user.pk)
    game, created = services.start_daily_game(actor, challenge.tier, today=challenge.date)
    assert created
    Game.objects.filter(pk=game.pk).update(started_at=clock.now)
    for ply, (text, gap) in enumerate(zip(moves, gaps_ms, strict=True)):
        clock.advance(gap)
        services.play_move(actor, game.pk, ply, text)
    if resign:
        clock.advance(gaps_ms[-1] if gaps_ms else 1000)
        services.resign_game(actor, game.pk)
    return Game.objects.get(pk=game.pk)


# ----- the network and the browser ---------------------------------------------------------


def closed_port() -> int:
    """A local port where nothing listens (a dead Redis, say)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
# How long a browser test waits for the page after a sign-up: the answer comes no sooner
# than ACCOUNT_SIGNUP_ANSWER_SECONDS (1.5 s, accounts/even_timing.py), then the next page
# loads; on a machine busy with the rest of the suite that took over the 5 s default.
SIGN_UP_WAIT_MS = 15_000


def e2e_fixture(name: str) -> Any:
    """A JSON file of tests/e2e/fixtures (deal 0's winning line, ...)."""
    return json.loads((TESTS / "e2e" / "fixtures" / name).read_text())


def day_name(day: dt.date) -> str:
    """A game's day as shared/local_time.js's dayName writes it in English (Chromium's
    en-US): "Sun, Dec 6, 2026"."""
    return f"{day:%a}, {day:%b} {day.day}, {day.year}"


def short_day_name(day: dt.date) -> str:
    """As shortDayName writes it (a table's column): "Dec 6, 2026"."""
    return f"{day:%b} {day.day}, {day.year}"
