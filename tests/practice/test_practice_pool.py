"""The practice pool: proven, rated deals per variant and tier, dealt once per player, never
a daily's deal; top-up, exhaustion (503 with Retry-After), the refill task and command,
the embedded default's refill thread, failures in the admin and /metrics, bad input.

Everything runs the real solver and strategy bot. Where a test needs known deals it hands
the refill a list of numbers instead of the cryptographic source: Yukon deals 2, 11, 14
(hard), 1, 6 (easy), 0, 9 (medium) under the daily budgets (200 bot playouts, seed 0);
Double Yukon deal 6 (hard: the bot wins 7 %).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.management import CommandError, call_command
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from accounts.models import User
from games import daily, practice_pool, tasks
from games.daily import candidate_number
from games.models import (
    DailyChallenge,
    Deal,
    Game,
    PracticeDeal,
    PracticePoolStatus,
    Tier,
    Verdict,
    is_weekly_day,
    utc_today,
)
from tests.factories import Api, logged_in, make_challenges, make_user
from yukon.engine import Position

pytestmark = pytest.mark.django_db

HARD = [2, 11, 14]
EASY = [1, 6]
MEDIUM = [0, 9]
TOKEN = "pool-metrics-token-" + "x7Qp" * 6


@pytest.fixture(autouse=True)
def _pool_settings(settings: Any) -> None:
    settings.PRACTICE_POOL_FILL_ON_REQUEST = False  # the worker's way unless a test says
    settings.PRACTICE_POOL_SIZE = 3
    settings.PRACTICE_POOL_RETRY_AFTER = 30


def pool_known(numbers: list[int], size: int = 3, variant: str = "yukon") -> practice_pool.Refill:
    """Refill from a fixed list of numbers (the real proof and rating)."""
    return practice_pool.top_up(variant, size=size, numbers=iter(numbers))


def post(api: Api, data: Any) -> Any:
    """POST /api/games/ as ``api``'s client; the response itself (503s included)."""
    return api.client.post("/api/games/", json.dumps(data), content_type="application/json")


def start(api: Api, tier: str, variant: str = "yukon") -> Any:
    return post(api, {"practice": tier, "variant": variant})


def pooled_numbers(**filters: Any) -> set[int]:
    return set(PracticeDeal.objects.filter(**filters).values_list("deal__number", flat=True))


# ----- filling ----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_refill_keeps_proven_deals_in_the_tier_their_bot_rate_falls_in() -> None:
    run = pool_known([*HARD, *EASY, 3, *MEDIUM], size=2)
    assert run.added == {"hard": 2, "easy": 2, "medium": 2}
    assert run.attempts == 8  # every number drawn: 14 came when hard was full, 3 fits no band
    for entry in PracticeDeal.objects.select_related("deal"):
        assert entry.deal.verdict == Verdict.SOLVED
        assert daily.tier_of(entry.bot_win_rate) == entry.tier
        assert entry.bot_win_rate == entry.deal.bot_win_rate
        # the stored winning line really wins from the deal
        position = Position.deal(entry.deal.number, entry.variant)
        for text in entry.deal.solution or []:
            position.play_text(text)
        assert position.is_won()
    assert pooled_numbers(tier="hard") == {2, 11}
    assert not PracticeDeal.objects.filter(deal__number__in=[14, 3]).exists()
    statuses = {s.tier: s for s in PracticePoolStatus.objects.filter(variant="yukon")}
    assert {t: (s.refills, s.added, s.failures) for t, s in statuses.items()} == {
        "easy": (1, 2, 0),
        "medium": (1, 2, 0),
        "hard": (1, 2, 0),
    }


@pytest.mark.slow
def test_a_full_pool_tries_nothing_and_a_dealt_deal_no_longer_counts(api: Api) -> None:
    pool_known([2, 11], size=2)
    # hard is full: a hard deal is proven and rated but not kept
    again = practice_pool.top_up("yukon", size=2, numbers=iter([14]))
    assert again.attempts == 1 and again.added == {}
    assert practice_pool.needs("yukon", 2) == {"easy": 2, "medium": 2}
    pool_known([*EASY, *MEDIUM], size=2)
    full = practice_pool.top_up("yukon", size=2, numbers=iter([14]))
    assert full.attempts == 0  # every tier is full: not one number drawn
    assert start(api, "hard").status_code == 201
    assert practice_pool.fresh_counts("yukon")[("yukon", "hard")] == 1
    assert practice_pool.needs("yukon", 2)["hard"] == 1


def test_numbers_the_solver_does_not_prove_leave_no_rows_behind() -> None:
    # only this variant's rows: a refill of another variant, left running by an earlier test
    # of this worker's database, may add its own deals meanwhile
    tried = Deal.objects.filter(variant="moosehide-runs")
    before = tried.count()
    run = practice_pool.top_up("moosehide-runs", size=1, max_attempts=25)
    assert run.attempts == 25 and run.added == {}  # no Moosehide deal is winnable here
    assert tried.count() == before
    statuses = PracticePoolStatus.objects.filter(variant="moosehide-runs")
    failed = {s.tier for s in statuses if s.failures == 1 and "25 random" in s.last_failure}
    assert failed == set(Tier.values)


def test_random_numbers_come_from_the_whole_range() -> None:
    numbers = practice_pool.random_numbers()
    drawn = {next(numbers) for _ in range(200)}
    assert len(drawn) == 200
    assert max(drawn) > 2**60  # not a small-range or seeded generator


def test_every_current_variant_of_the_engine_has_a_pool_multi_deck_ones_too() -> None:
    from yukon.engine import VARIANT_NAMES

    assert practice_pool.pool_variants() == tuple(v for v in VARIANT_NAMES if v != "moosehide-runs")
    assert {"yukon", "moosehide", "double-yukon", "triple-yukon", "quadruple-yukon"} <= set(
        practice_pool.pool_variants()
    )


@pytest.mark.slow
def test_a_double_yukon_tier_deals_a_proven_rated_deal_whose_analysis_gives_par(
    api: Api, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.PRACTICE_POOL_MULTI_DECK_SIZE = 1  # the multi-deck pools' own, smaller size
    run = practice_pool.top_up("double-yukon", numbers=iter([6]))
    assert run.needed == {"easy": 1, "medium": 1, "hard": 1} and run.added == {"hard": 1}
    deal = Deal.objects.get(number=6, variant="double-yukon")
    assert deal.verdict == Verdict.SOLVED and 0.02 <= (deal.bot_win_rate or 0) < 0.12
    position = deal.start_position()
    for text in deal.solution or []:
        position.play_text(text)
    assert position.is_won()

    response = start(api, "hard", "double-yukon")
    assert response.status_code == 201, response.content
    game = response.json()
    assert (game["variant"], game["tier"], game["deal"]) == ("double-yukon", "hard", "6")
    assert game["bot_win_rate"] == deal.bot_win_rate
    # Par: the stored line's length, read by the analysis without a search.
    with django_capture_on_commit_callbacks(execute=True):  # verified, then analysed
        api.post(f"/api/games/{game['id']}/resign/")
    _, analysis = api.get(f"/api/games/{game['id']}/analysis/")
    assert analysis["outcome"] == "winnable_at_end", analysis
    assert analysis["par"] == len(deal.solution or []) > 0
    # Take-back is a one-deck option, pooled deal or not.
    refused = post(api, {"practice": "hard", "variant": "double-yukon", "takeback": True})
    assert refused.status_code == 400 and "one-deck" in str(refused.json())


def test_a_retired_rule_that_is_never_won_has_no_tiers(api: Api) -> None:
    """moosehide-runs (Moosehide's old rule, no deal of 5,000 winnable) would 503 for ever."""
    status, body = api.post("/api/games/", {"practice": "easy", "variant": "moosehide-runs"})
    assert status == 400 and "practice tiers are dealt in" in str(body), body
    assert "moosehide-runs" not in str(body).split("dealt in")[1]
    assert "skipped" in tasks.top_up_practice_pool("moosehide-runs")  # the beat's refill
    status, _ = api.post("/api/games/", {"deal": 5, "variant": "moosehide-runs"})
    assert status == 201


# ----- dealing ----------------------------------------------------------------------------


@pytest.mark.slow
def test_practice_tier_deals_a_pooled_deal_and_says_its_tier_and_bot_rate(api: Api) -> None:
    pool_known(HARD)
    response = start(api, "hard")
    assert response.status_code == 201, response.content
    game = response.json()
    assert game["mode"] == "practice" and game["tier"] == "hard" and game["variant"] == "yukon"
    assert int(game["deal"]) in HARD  # a practice deal is not secret
    deal = Deal.objects.get(number=int(game["deal"]), variant="yukon")
    assert game["bot_win_rate"] == deal.bot_win_rate and 0.02 <= deal.bot_win_rate < 0.12
    assert api.get(f"/api/games/{game['id']}/")[1]["tier"] == "hard"
    # a practice game by number says no tier
    by_number = post(api, {"deal": 5}).json()
    assert by_number["tier"] is None and by_number["bot_win_rate"] is None


@pytest.mark.slow
def test_no_repeats_for_one_player_then_503_with_retry_after(
    api: Api, other_api: Api, guest_api: Api, player: User
) -> None:
    pool_known(HARD)
    dealt = [int(start(api, "hard").json()["deal"]) for _ in HARD]
    assert sorted(dealt) == sorted(HARD)
    response = start(api, "hard")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    body = response.json()
    assert body["retry_after"] == 30 and "hard" in body["detail"]
    assert Game.objects.filter(player=player).count() == 3  # nothing half-made
    # other players, and guests, still get every one of them once
    assert sorted(int(start(other_api, "hard").json()["deal"]) for _ in HARD) == sorted(HARD)
    assert sorted(int(start(guest_api, "hard").json()["deal"]) for _ in HARD) == sorted(HARD)
    assert start(guest_api, "hard").status_code == 503
    # another tier, never pooled: 503 at once
    assert start(api, "easy").status_code == 503


@pytest.mark.slow
def test_a_deal_played_by_number_is_not_dealt_again_from_the_pool(api: Api) -> None:
    pool_known([2, 11], size=2)
    post(api, {"deal": 2})
    assert int(start(api, "hard").json()["deal"]) == 11
    assert start(api, "hard").status_code == 503


@pytest.mark.slow
def test_a_guest_who_logs_in_keeps_what_they_played(player: User) -> None:
    from games import services

    pool_known([2, 11], size=2)
    client = Client()
    first = int(start(Api(client), "hard").json()["deal"])
    services.claim_guest_games(player, client.session.session_key or "")  # as log-in does
    client.force_login(player)
    second = int(start(Api(client), "hard").json()["deal"])
    assert {first, second} == {2, 11}
    assert start(Api(client), "hard").status_code == 503


@pytest.mark.slow
def test_exhaustion_queues_a_refill_that_lets_the_next_request_in(
    api: Api, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.PRACTICE_POOL_SIZE = 1
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert start(api, "hard").status_code == 503
    assert len(callbacks) == 1
    # the queued task runs (eagerly here) the real refill: random numbers, proven, rated
    for callback in callbacks:
        callback()
    assert practice_pool.fresh_counts("yukon").get(("yukon", "hard"), 0) >= 1
    response = start(api, "hard")
    assert response.status_code == 201
    assert response.json()["tier"] == "hard"


def test_the_refill_task_skips_a_variant_already_refilling_and_the_sweeper_queues(
    settings: Any,
) -> None:
    from django.core.cache import cache

    settings.PRACTICE_POOL_SIZE = 0
    settings.PRACTICE_POOL_MULTI_DECK_SIZE = 0
    assert tasks.top_up_practice_pools.delay().get() == []  # nothing is short
    # The multi-deck pools have their own size and time budget (here: none, so no number
    # is tried and each run is recorded as failed).
    settings.PRACTICE_POOL_MULTI_DECK_SIZE = 1
    settings.PRACTICE_POOL_MULTI_DECK_REFILL_SECONDS = 0
    multi_deck = ["double-yukon", "triple-yukon", "quadruple-yukon"]
    assert tasks.top_up_practice_pools.delay().get() == multi_deck
    statuses = PracticePoolStatus.objects.filter(variant__in=multi_deck, failures=1)
    assert statuses.count() == 9 and not PracticeDeal.objects.exists()
    cache.add("games:practice-pool:running:yukon", 1, timeout=60)
    try:
        assert "skipped" in tasks.top_up_practice_pool.delay("yukon").get()
    finally:
        cache.delete("games:practice-pool:running:yukon")
    assert "skipped" in tasks.top_up_practice_pool.delay("freecell").get()
    assert "top-up-practice-pools" in django_settings.CELERY_BEAT_SCHEDULE


# ----- never a daily -------------------------------------------------------------------


@pytest.mark.slow
def test_tomorrows_dailies_leave_the_pool_and_are_never_dealt(api: Api, settings: Any) -> None:
    settings.DAILY_SOLVE_NODES = 500_000  # a candidate left unsettled costs less time
    settings.DAILY_BOT_PLAYOUTS = 20  # a rougher rate, in a band or not just the same
    # The next day that has no weekly: a Sunday's Double Yukon weekly is never pooled, and
    # its search would make this test a minute slower on Saturdays than on other days.
    day = utc_today() + dt.timedelta(days=1)
    if is_weekly_day(day):
        day += dt.timedelta(days=1)
    # Before the day is prepared, its candidates go through the pool's own refill (real
    # proof, real rating), up to the one each tier will publish: the first whose bot rate
    # falls in the tier's band. Each one the bot rates into some band is pooled.
    for tier in Tier.values:
        for attempt in range(django_settings.DAILY_MAX_ATTEMPTS):
            number = candidate_number(django_settings.DAILY_SECRET, day, tier, attempt)
            daily.proven_winnable(number)  # the verdict kept, as the daily pipeline keeps it
            pool_known([number], size=1000)
            deal = Deal.objects.filter(number=number, verdict=Verdict.SOLVED).first()
            if deal is not None and daily.tier_of(deal.bot_win_rate or 0.0) == tier:
                break
    pooled_before = pooled_numbers()
    published = daily.prepare_daily(day)
    daily_numbers = set(
        DailyChallenge.objects.filter(pk__in=published.values(), tier__in=Tier.values).values_list(
            "deal__number", flat=True
        )
    )
    assert len(daily_numbers) == 3
    assert daily_numbers <= pooled_before  # all three were practice deals until now
    assert not daily_numbers & pooled_numbers()  # they left the pool
    dealt = set()
    for tier in Tier.values:
        while (response := start(api, tier)).status_code == 201:
            dealt.add(int(response.json()["deal"]))
        assert response.status_code == 503
    assert dealt == pooled_before - daily_numbers
    assert not dealt & daily_numbers


def test_a_daily_number_is_refused_by_the_refill_and_by_the_dealer(api: Api) -> None:
    number = make_challenges()["hard"].deal.number
    run = practice_pool.top_up("yukon", size=1, numbers=iter([number]))
    assert run.attempts == 1 and run.added == {}
    assert not PracticeDeal.objects.exists()
    # A pool row written behind the pool's back (in any variant: the same cards) is
    # still never dealt.
    for variant in ("yukon", "alaska"):
        deal, _ = Deal.objects.get_or_create(number=number, variant=variant)
        PracticeDeal.objects.create(deal=deal, variant=variant, tier="hard", bot_win_rate=0.05)
        assert start(api, "hard", variant).status_code == 503


def test_a_pooled_deal_of_another_variant_leaves_when_its_number_becomes_a_daily() -> None:
    pool_known([2], size=1)
    pool_known([2], size=1, variant="alaska")  # the same number rated in Alaska's bands
    alaska = Deal.objects.get(number=2, variant="alaska")
    PracticeDeal.objects.get_or_create(
        deal=alaska, defaults={"variant": "alaska", "tier": "hard", "bot_win_rate": 0.05}
    )
    DailyChallenge.objects.create(
        date=utc_today(), tier="hard", deal=Deal.objects.get(number=2, variant="yukon")
    )
    assert not PracticeDeal.objects.filter(deal__number=2).exists()


# ----- the embedded default ---------------------------------------------------------------


@pytest.fixture
def _join_refills() -> Iterator[None]:
    yield
    assert practice_pool.wait_for_refills(timeout=300)  # none may outlive the test's data


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_join_refills")
def test_without_redis_the_first_request_starts_a_refill_thread_and_waits_briefly(
    settings: Any,
) -> None:
    settings.PRACTICE_POOL_FILL_ON_REQUEST = True
    settings.PRACTICE_POOL_WAIT_SECONDS = 1.0
    settings.PRACTICE_POOL_SIZE = 1
    client = Client()
    client.force_login(make_user("embedded"))
    api = Api(client)
    response = start(api, "hard")
    if response.status_code == 503:  # no hard deal within the wait: come back in 1 s
        assert response["Retry-After"] == "1"
    else:
        assert response.status_code == 201
    assert practice_pool.wait_for_refills(timeout=120)
    counts = practice_pool.fresh_counts("yukon")
    assert all(counts.get(("yukon", tier), 0) >= 1 for tier in ("easy", "medium")), counts
    if response.status_code == 503:
        assert start(api, "hard").status_code == 201


# ----- the list, the command, the admin, the metrics -----------------------------------------


@pytest.mark.slow
def test_recent_practice_games_are_listed_for_their_player_only(
    api: Api, other_api: Api, guest_api: Api
) -> None:
    pool_known(HARD)
    hard = start(api, "hard").json()
    by_number = post(api, {"deal": 7, "variant": "russian"}).json()
    post(other_api, {"deal": 8})
    listed = api.get("/api/games/")[1]
    assert [g["id"] for g in listed] == [by_number["id"], hard["id"]]
    assert listed[1]["tier"] == "hard" and listed[1]["deal"] == hard["deal"]
    assert listed[0]["tier"] is None and listed[0]["variant"] == "russian"
    assert "position" not in listed[0]
    assert guest_api.get("/api/games/") == (200, [])


def test_the_command_fills_and_refuses_bad_options(capsys: Any) -> None:
    call_command("fill_practice_pool", "--variant", "yukon", "--size", "0")
    assert "yukon: easy 0, medium 0, hard 0 undealt (target 0)" in capsys.readouterr().out
    with pytest.raises(CommandError, match="no practice pool for freecell"):
        call_command("fill_practice_pool", "--variant", "freecell")
    with pytest.raises(CommandError, match="--size must be 0 or more"):
        call_command("fill_practice_pool", "--size", "-1")
    with pytest.raises(CommandError, match="no practice pool for moosehide-runs"):
        call_command("fill_practice_pool", "--variant", "moosehide-runs")
    with pytest.raises(CommandError, match="still short"):  # one number fills one tier at most
        call_command(
            "fill_practice_pool", "--variant", "yukon", "--size", "1", "--max-attempts", "1"
        )


@pytest.mark.slow
def test_pool_size_and_refill_failures_in_the_metrics_and_the_admin(settings: Any) -> None:
    settings.METRICS_TOKEN = TOKEN
    pool_known(HARD)
    practice_pool.top_up("moosehide-runs", size=1, max_attempts=3)
    text = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").content.decode()
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
    assert samples[("yukon_practice_pool_deals", (("tier", "hard"), ("variant", "yukon")))] == 3
    assert samples[("yukon_practice_pool_deals", (("tier", "easy"), ("variant", "yukon")))] == 0
    for variant in practice_pool.pool_variants():
        assert ("yukon_practice_pool_deals", (("tier", "medium"), ("variant", variant))) in samples
    assert samples[("yukon_practice_pool_target", (("variant", "yukon"),))] == 3
    multi_deck_target = ("yukon_practice_pool_target", (("variant", "quadruple-yukon"),))
    assert samples[multi_deck_target] == settings.PRACTICE_POOL_MULTI_DECK_SIZE
    failures = "yukon_practice_pool_refill_failures_total"
    assert samples[(failures, (("tier", "hard"), ("variant", "moosehide-runs")))] == 1
    admin = logged_in(
        User.objects.create_superuser(username="root", display_name="Root", password=None)
    )
    page = admin.get("/admin/games/practicepoolstatus/").content.decode()
    assert "moosehide-runs" in page and "3 random numbers" in page
    assert admin.get("/admin/games/practicedeal/").status_code == 200


# ----- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"practice": "extreme"},
        {"practice": ""},
        {"practice": None},
        {"practice": 3},
        {"practice": ["hard"]},
        {"practice": "hard", "deal": 5},
        {"practice": "hard", "daily": "hard"},
        {"practice": "hard", "variant": "klondike"},
        {"practice": "hard", "variant": "moosehide-runs"},  # a retired rule: no pool
        {"practice": "HARD"},
    ],
)
def test_bad_practice_requests_get_a_clear_400(api: Api, body: dict[str, Any]) -> None:
    response = post(api, body)
    assert response.status_code == 400, response.content
    assert response.json()["detail"]
    assert not Game.objects.exists()


def test_a_refill_stops_when_its_numbers_run_out() -> None:
    run = practice_pool.top_up("yukon", size=1, numbers=iter([]))
    assert run.attempts == 0 and run.added == {}


# ----- two tabs at once --------------------------------------------------------------------


@pytest.mark.postgres  # two writers at once: SQLite locks the session table until timeout
@pytest.mark.django_db(transaction=True)
def test_two_tabs_of_one_player_asking_at_once_get_two_different_deals(settings: Any) -> None:
    import threading

    from django.db import connections

    pool_known([2, 11], size=2)
    settings.PRACTICE_POOL_SIZE = 0  # the refill each deal asks for (eager here) adds none
    for round_ in range(4):
        user = make_user(f"tabs{round_}")
        answers: list[Any] = []
        barrier = threading.Barrier(2)

        def tab(user: User = user, answers: list[Any] = answers, barrier: Any = barrier) -> None:
            client = Client()
            client.force_login(user)
            barrier.wait()
            try:
                answers.append(start(Api(client), "hard"))
            finally:
                connections.close_all()

        tabs = [threading.Thread(target=tab) for _ in range(2)]
        for thread in tabs:
            thread.start()
        for thread in tabs:
            thread.join()
        assert [a.status_code for a in answers] == [201, 201]
        assert {int(a.json()["deal"]) for a in answers} == {2, 11}, round_
        assert Game.objects.filter(player=user).values("deal").distinct().count() == 2
