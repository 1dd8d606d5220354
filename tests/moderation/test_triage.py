"""The queue's triage (moderation/triage.py): flags ordered by what their result affects,
the reason in words, kept true as boards change and days close, and the board's own ranks."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Deal, Game, Mode, Status, Tier, utc_today
from leaderboards.day_board import postgres_ranking
from moderation import services, triage
from moderation.models import Flag, FlagKind
from tests.factories import make_challenges, make_player, result

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]


def flag(game: Game, kind: str = FlagKind.FLAT_TIMING) -> Flag:
    return Flag.objects.create(game=game, kind=kind, reason=f"{kind} measured")


def board(challenge: Any, count: int, *, prefix: str) -> list[Game]:
    """``count`` verified results, best first (rank i + 1), by players of their own."""
    return [
        result(make_player(f"{prefix}{i}"), challenge, elapsed_ms=60_000 + i * 1000)
        for i in range(count)
    ]


def queue(client: Client) -> str:
    response = client.get("/admin/moderation/flag/")
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


@pytest.mark.slow  # the admin's queue page, rendered for the first time in the process
def test_the_queue_puts_today_s_top_10_first_and_an_unranked_practice_game_last(
    mod_client: Client, moderator: User, django_capture_on_commit_callbacks: Any
) -> None:
    today = utc_today()
    open_day = make_challenges(today)
    numbers = {tier: 7000 + i for i, tier in enumerate(Tier.values)}
    closed_day = make_challenges(today - dt.timedelta(days=1), numbers)
    today_hard = board(open_day[Tier.HARD], 12, prefix="H")
    yesterday_easy = board(closed_day[Tier.EASY], 3, prefix="Y")
    practice = Game.objects.create(
        player=make_player("Pat"),
        deal=Deal.objects.create(number=424242),
        mode=Mode.PRACTICE,
        status=Status.WON,
        position="-",
    )
    # Created worst first, so that "newest first" (the old queue) would be the wrong order.
    weak_top = flag(today_hard[2])  # rank 3 today, the least certain kind
    flags = {
        "practice": flag(practice, FlagKind.SOLVER_LINE),
        "rank 12 today": flag(today_hard[11], FlagKind.SOLVER_LINE),
        "closed top": flag(yesterday_easy[0], FlagKind.SOLVER_LINE),
        "top today": weak_top,
    }
    assert triage.triage(Flag.objects.all(), today) == 4

    order = list(Flag.objects.order_by(*triage_ordering()).values_list("pk", flat=True))
    expected = ["top today", "closed top", "rank 12 today", "practice"]
    assert order == [flags[name].pk for name in expected]
    weak_top.refresh_from_db()
    assert weak_top.priority_reason == "rank 3 on today's hard board"
    assert weak_top.priority == triage.OPEN_TOP_10 * 10 + triage.STRENGTH[FlagKind.FLAT_TIMING]
    page = queue(mod_client)
    reasons = [
        "rank 3 on today&#x27;s hard board",
        f"rank 1 on the easy board of {(today - dt.timedelta(days=1)).isoformat()} (closed)",
        "rank 12 on today&#x27;s hard board",
        "unranked: a practice game",
    ]
    places = [page.index(reason) for reason in reasons]
    assert places == sorted(places), page

    # The board changes: a better result leaves it, and rank 3 becomes rank 2 (the boards'
    # signal after commit), and rank 12 rank 11.
    with django_capture_on_commit_callbacks(execute=True):
        services.disqualify_game(moderator, today_hard[0].pk, "bot")
    weak_top.refresh_from_db()
    assert weak_top.priority_reason == "rank 2 on today's hard board"
    assert Flag.objects.get(pk=flags["rank 12 today"].pk).board_rank == 11

    # The day closes: the periodic triage moves today's flags to the closed day's bands.
    assert triage.triage_stale(today + dt.timedelta(days=1)) == 2
    weak_top.refresh_from_db()
    assert weak_top.priority == triage.CLOSED_TOP_10 * 10 + triage.STRENGTH[FlagKind.FLAT_TIMING]
    assert weak_top.priority_reason == f"rank 2 on the hard board of {today.isoformat()} (closed)"


def triage_ordering() -> list[Any]:
    from moderation.admin import FLAG_QUEUE_ORDER

    return FLAG_QUEUE_ORDER


def test_a_held_result_is_triaged_where_it_would_rank_and_a_new_flag_is_listed_first() -> None:
    easy = make_challenges()[Tier.EASY]
    games = board(easy, 3, prefix="E")
    held = result(make_player("Hal"), easy, elapsed_ms=30_000)  # the best time
    Game.objects.filter(pk=held.pk).update(held=True, provisional=True)
    untriaged = flag(games[2], FlagKind.FAST_MOVES)
    guest_flag = flag(held, FlagKind.GUEST_LINKED)
    triage.triage(Flag.objects.filter(pk=guest_flag.pk))
    guest_flag.refresh_from_db()
    assert guest_flag.priority_reason == "would rank 1 on today's easy board (held off it)"
    assert guest_flag.board_rank == 1
    # The flag no hook triaged (priority null) heads the queue until the periodic triage.
    assert Flag.objects.order_by(*triage_ordering()).first() == untriaged
    assert triage.triage_stale() == 1


def test_the_rank_is_the_board_s_own_ties_included() -> None:
    easy = make_challenges()[Tier.EASY]
    ties: list[dict[str, Any]] = [
        {"won": True, "score": 625, "elapsed_ms": 50_000, "moves": 90},
        {"won": True, "score": 625, "elapsed_ms": 50_000, "moves": 90},  # shares rank 1
        {"won": True, "score": 625, "elapsed_ms": 50_000, "moves": 95},
        {"won": False, "score": 400, "elapsed_ms": 20_000, "moves": 40},
        {"won": False, "score": 400, "elapsed_ms": 20_000, "moves": 40},
        {"won": False, "score": 300, "elapsed_ms": 10_000, "moves": 30},
    ]
    games = [result(make_player(f"T{i}"), easy, **kwargs) for i, kwargs in enumerate(ties)]
    off = result(make_player("Late"), easy, finished_at=dt.datetime(2099, 1, 1, tzinfo=dt.UTC))
    ranks = triage.board_ranks(easy, [g.pk for g in [*games, off]])
    assert ranks == dict(postgres_ranking(easy.pk))
    assert sorted(ranks.values()) == [1, 1, 3, 4, 4, 6]
