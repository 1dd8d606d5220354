"""A synthetic day of the moderation queue: 10,000 players' results with the red team's
false-positive rate, triaged (moderation/triage.py). How long is the queue, how is it spread
over the priority bands, and what does a moderator see first?

Run under throwaway services from the repository root:

    .venv/bin/python scripts/test-services -- .venv/bin/python bench/bench_moderation_queue.py

It creates a test database (``test_<name>``, dropped afterwards). Play is not simulated:
the results are written directly (each player plays each of today's tiers with a
probability, wins with another, at a log-normal time), and each honest result is flagged
directly, kind by kind, at the rates the red team measured (``HONEST_RATES``; docs/
moderation.md, "The red team: measured rates"); ``--cheaters N`` adds N players whose
results are flagged as the red team's bots are. A tenth of the players also plays an
archive day. Then the queue is triaged as production does it, and the bench prints the
queue's length, the flags per band and per kind, the admin's first ten rows, and what each
step costs: the whole day's triage, one refresh after a verification (the hook that runs on
every verified result of a board with open flags), and the admin's queue page. Not a test:
it prints figures (docs/moderation.md, "The queue").
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from accounts.models import User  # noqa: E402
from games.models import DailyChallenge, Deal, Game, Mode, Status, Tier, utc_today  # noqa: E402
from moderation import triage  # noqa: E402
from moderation.admin import FLAG_QUEUE_ORDER  # noqa: E402
from moderation.models import Flag, FlagKind, FlagStatus  # noqa: E402
from tests.factories import client_for, make_player  # noqa: E402

# Honest games' flag rates per kind, from the red team (docs/moderation.md):
# - pace and solver kinds: 0 of 1,008 honest games (and 0 of 144 played through the
#   services): at most 0.3% at 95% confidence (3 / 1,008), taken here as that bound and
#   split with most of it on flat_timing, the least certain kind;
# - the choice checks (medium and hard only): 0.2% of single games, 0.5% of five-game
#   records: 0.5% taken;
# - linked accounts: a household or a dormitory whose second player plays the same deal
#   on the same network (tests/moderation/test_flag_rate.py flags exactly those): 0.3%
#   assumed; several accounts finishing from one address: 0.05%; a new player's perfect
#   hard game: 0.05% of hard results.
# In all just under 1% of a day's games, the figure.
HONEST_RATES: dict[str, tuple[float, tuple[str, ...]]] = {
    FlagKind.FLAT_TIMING: (0.0015, ()),
    FlagKind.EVEN_PACING: (0.0005, ()),
    FlagKind.SOLVER_MOVES: (0.0005, ()),
    FlagKind.FAST_FINISH: (0.0005, ()),
    FlagKind.SOLVER_CONSULTED: (0.004, (Tier.MEDIUM, Tier.HARD)),
    FlagKind.CLAIRVOYANCE: (0.001, (Tier.MEDIUM, Tier.HARD)),
    FlagKind.LINKED_ACCOUNTS: (0.003, ()),
    FlagKind.SHARED_ADDRESS: (0.0005, ()),
    FlagKind.PERFECT_FIRST_TRY: (0.0005, (Tier.HARD,)),
}
# A cheater's result: the red team's bots, a quick winner flagged by the machine's kinds.
CHEATER_KINDS = (
    (FlagKind.SOLVER_LINE, 0.9),
    (FlagKind.SOLVER_MOVES, 0.7),
    (FlagKind.FAST_REACTION, 0.5),
    (FlagKind.FAST_FINISH, 0.5),
    (FlagKind.FLAT_TIMING, 0.4),
)
PLAYS = {Tier.EASY: 0.9, Tier.MEDIUM: 0.7, Tier.HARD: 0.5}  # share of players per tier
WINS = {Tier.EASY: 0.7, Tier.MEDIUM: 0.5, Tier.HARD: 0.35}
ARCHIVE_SHARE = 0.1


def make_players(count: int, cheaters: int) -> list[int]:
    users = [
        User(username=f"p{i:05d}", display_name=f"P{i:05d}", display_name_key=f"p{i:05d}")
        for i in range(count + cheaters)
    ]
    User.objects.bulk_create(users, batch_size=2000)
    return list(User.objects.order_by("pk").values_list("pk", flat=True))


def make_results(
    rng: random.Random, players: list[int], cheaters: set[int], today: dt.date
) -> list[Game]:
    challenges = {}
    for i, tier in enumerate(Tier.values):
        deal = Deal.objects.create(number=900_000 + i)
        challenges[tier] = DailyChallenge.objects.create(date=today, tier=tier, deal=deal)
    old = today - dt.timedelta(days=9)
    archive = DailyChallenge.objects.create(
        date=old, tier=Tier.EASY, deal=Deal.objects.create(number=900_100)
    )
    start = dt.datetime.combine(today, dt.time(), tzinfo=dt.UTC)
    games = []

    def game(player: int, challenge: DailyChallenge, mode: str, won: bool) -> Game:
        elapsed = int(rng.lognormvariate(12.9, 0.5))  # a median of about 7 minutes
        cheat = player in cheaters
        won = won or cheat
        if cheat:
            elapsed = rng.randint(60_000, 120_000)
        finished = start + dt.timedelta(seconds=rng.randint(60, 20 * 3600))
        return Game(
            player_id=player,
            deal_id=challenge.deal_id,
            challenge=challenge,
            mode=mode,
            status=Status.WON if won else Status.STUCK,
            verification="verified",
            score=625 if won else 5 * rng.randint(20, 120),
            moves=rng.randint(90, 220),
            ply=0,
            elapsed_ms=elapsed,
            started_at=finished - dt.timedelta(milliseconds=elapsed),
            finished_at=finished,
            verified_at=finished,
            position="-",
        )

    for player in players:
        for tier, share in PLAYS.items():
            if player in cheaters or rng.random() < share:
                won = rng.random() < WINS[tier]
                games.append(game(player, challenges[tier], Mode.DAILY, won))
        if rng.random() < ARCHIVE_SHARE:
            games.append(game(player, archive, Mode.ARCHIVE, rng.random() < 0.6))
    return Game.objects.bulk_create(games, batch_size=2000)


def make_flags(
    rng: random.Random,
    games: list[Game],
    cheaters: set[int],
    tiers: dict[int, str],
    scale: float,
) -> list[Flag]:
    flags = []
    for g in games:
        assert g.challenge_id is not None
        tier = tiers[g.challenge_id]
        kinds: list[str]
        if g.player_id in cheaters:
            kinds = [kind for kind, rate in CHEATER_KINDS if rng.random() < rate]
        else:
            kinds = [
                kind
                for kind, (rate, only) in HONEST_RATES.items()
                if (not only or tier in only) and rng.random() < rate * scale
            ]
        flags += [Flag(game=g, kind=kind, reason=f"synthetic {kind}") for kind in kinds]
    return Flag.objects.bulk_create(flags, batch_size=2000)


def timed(work: object, runs: int = 1) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        began = time.perf_counter()
        result = work()  # type: ignore[operator]
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), result


def bands(flags: list[Flag]) -> Counter[str]:
    return Counter(triage.band_of(flag.priority) for flag in flags)


def print_bands(title: str, counts: Counter[str], total: int) -> None:
    print(f"\n{title}\n\n| band | flags | share |\n|---|---|---|")
    order = [name for _, name in sorted(triage.BANDS.items(), reverse=True)]
    for name in order:
        if counts.get(name):
            print(f"| {name} | {counts[name]:,} | {counts[name] / total:.0%} |")


def run(players_count: int, cheaters_count: int, seed: int, scale: float) -> None:
    rng = random.Random(seed)
    today = utc_today()
    players = make_players(players_count, cheaters_count)
    cheaters = set(rng.sample(players, cheaters_count)) if cheaters_count else set()
    began = time.perf_counter()
    games = make_results(rng, players, cheaters, today)
    tiers = dict(DailyChallenge.objects.values_list("pk", "tier"))
    flags = make_flags(rng, games, cheaters, tiers, scale)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # what autovacuum does after a day of inserts
    made = time.perf_counter() - began
    dailies = sum(1 for g in games if g.mode == Mode.DAILY)
    flagged_games = len({flag.game_id for flag in flags})
    print(
        f"{players_count:,} players (+{cheaters_count} cheaters): {dailies:,} daily results "
        f"and {len(games) - dailies:,} archive results; {len(flags):,} flags on "
        f"{flagged_games:,} games ({flagged_games / len(games):.2%} of games); made in "
        f"{made:.1f} s"
    )

    ms, changed = timed(lambda: triage.triage_challenges(tiers.keys(), today))
    print(f"Triage of the whole day's {changed:,} open flags: {ms:.0f} ms")
    hard = DailyChallenge.objects.get(date=today, tier=Tier.HARD)
    one = Game.objects.filter(challenge=hard).order_by("?").values_list("pk", flat=True)[0]
    ms, _ = timed(lambda: triage.on_board_changed(games=[one]), runs=20)
    hard_results = Game.objects.filter(challenge=hard).count()
    hard_flags = Flag.objects.filter(game__challenge=hard).count()
    print(
        f"One refresh of the hard board's flags ({hard_results:,} results, {hard_flags} open "
        f"flags), as a moderator's decision runs it, or a verification at most every "
        f"{settings.MODERATION_TRIAGE_REFRESH_SECONDS} s: median {ms:.0f} ms of 20"
    )

    queue = list(Flag.objects.filter(status=FlagStatus.OPEN).select_related("game__player"))
    print(f"\nThe queue: {len(queue):,} open flags on {flagged_games:,} games.")
    print_bands("Flags per band, the day open:", bands(queue), len(queue))
    kinds = Counter(flag.kind for flag in queue)
    print("\n| kind | flags |\n|---|---|")
    for kind, count in kinds.most_common():
        print(f"| `{kind}` | {count} |")

    moderator = make_player("Mod", staff=True, moderator=True)
    client = client_for(moderator)
    client.get("/admin/moderation/flag/")  # the templates, compiled once
    ms, response = timed(lambda: client.get("/admin/moderation/flag/"), runs=5)
    assert response.status_code == 200  # type: ignore[attr-defined]
    with CaptureQueriesContext(connection) as queries:
        client.get("/admin/moderation/flag/")
    sql_ms = sum(float(query["time"]) for query in queries.captured_queries) * 1000
    print(
        f"\nThe admin's queue page (100 rows of {len(queue):,}): median {ms:.0f} ms of 5, of "
        f"which SQL {sql_ms:.0f} ms in {len(queries.captured_queries)} queries"
    )
    first = Flag.objects.order_by(*FLAG_QUEUE_ORDER).select_related("game__player")[:10]
    print("\nWhat a moderator sees first:\n")
    print("| # | priority | why | kind | player |\n|---|---|---|---|---|")
    for place, flag in enumerate(first, 1):
        player = flag.game.player.display_name if flag.game.player else "guest"
        print(f"| {place} | {flag.priority} | {flag.priority_reason} | `{flag.kind}` | {player} |")

    ms, changed = timed(lambda: triage.triage_stale(today + dt.timedelta(days=1)))
    closed = list(Flag.objects.filter(status=FlagStatus.OPEN))
    print(f"\nAfter the close, the periodic triage moved {changed:,} flags in {ms:.0f} ms.")
    print_bands("Flags per band, the day closed:", bands(closed), len(closed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--cheaters", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply the honest flag rates (a worse day)"
    )
    args = parser.parse_args()
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        run(args.players, args.cheaters, args.seed, args.scale)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
