"""Red-team report: how often the automatic flags catch bots and how often they flag people.

    python bench/bench_redteam.py                        # 21 games per honest profile, 100 per bot
    python bench/bench_redteam.py --honest 50 --bots 200 --deals 60 --seed 3
    python bench/bench_redteam.py --honest 0 --bots 0 --choices   # the clairvoyance check

Simulated players (``tests.redteam``) play winnable deals (the first ``--deals`` the
solver wins within 200,000 positions; each deal's stored line is the solver's, as
``python -m yukon.solver N`` prints it). Honest players: four skill levels, each under six
variations of the timing model (docs/moderation.md lists its assumptions). Bots: the
solver's line at machine pace, with human-like random delays, after an idle start, with
harmless detours, a player who opens the solver at the hard points only, a player who
re-runs the solver at every move, and a greedy bot without a solver. Every game is judged
by ``moderation.detector.judge`` with the settings' thresholds, the function production
runs in the verification worker. Prints the flag rate per profile and the flags raised,
then the worker's cost of one judgement.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

import django  # noqa: E402

django.setup()

from games.daily import BANDS  # noqa: E402
from moderation.clairvoyance import Clairvoyance, clairvoyance, record_findings  # noqa: E402
from moderation.detector import CHOICE_TIERS, Thresholds, judge, solver_agreement  # noqa: E402
from tests.redteam import (  # noqa: E402
    Daily,
    Profile,
    Tally,
    cheater_profiles,
    games_of,
    honest_profiles,
    knowledge_profiles,
    rated_deals,
    tally,
    winnable_deals,
)


def row(t: Tally) -> str:
    kinds = ", ".join(f"{kind} {n}" for kind, n in t.kinds.most_common()) or "-"
    return f"| {t.profile} | {t.games} | {t.won} | {t.flagged} | **{t.rate:.1%}** | {kinds} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--honest", type=int, default=21, help="games per honest profile (24)")
    parser.add_argument("--bots", type=int, default=100, help="games per bot profile (7)")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--choices", action="store_true", help="the clairvoyance check too")
    parser.add_argument("--choice-deals", type=int, default=40, help="medium and hard deals")
    parser.add_argument("--choice-honest", type=int, default=42, help="games per honest profile")
    parser.add_argument("--choice-bots", type=int, default=100, help="games per knowing profile")
    parser.add_argument(
        "--dump", type=Path, help="write each judged game's evidence to this JSON file"
    )
    args = parser.parse_args()
    thresholds = Thresholds.from_settings()
    deals = winnable_deals(args.deals)
    print(f"deals: {len(deals)} winnable, numbers {deals[0].number}..{deals[-1].number}")
    header = "| profile | games | won | flagged | rate | flags raised |\n|---|---|---|---|---|---|"

    if args.honest:
        log_only(args, deals, header, thresholds)
    if args.choices:
        choices(args, thresholds)

    costs = []
    for profile in honest_profiles()[:4] + cheater_profiles()[:1]:
        for game in games_of(profile, deals, 10, args.seed + 1):
            start = time.process_time()
            judge(game, thresholds)
            costs.append(time.process_time() - start)
    costs.sort()
    print(
        f"\none judgement (the worker's cost, CPU): median {statistics.median(costs) * 1000:.0f} "
        f"ms, p95 {costs[int(len(costs) * 0.95)] * 1000:.0f} ms, max {costs[-1] * 1000:.0f} ms "
        f"over {len(costs)} games"
    )


def log_only(
    args: argparse.Namespace, deals: list[Daily], header: str, thresholds: Thresholds
) -> None:
    """The log-only flags on the first winnable deals: honest players and bots."""
    print("\nhonest players (false-flag rate)\n" + header)
    honest = []
    for profile in honest_profiles():
        result = tally(profile, deals, args.honest, args.seed, thresholds)
        honest.append(result)
        print(row(result), flush=True)
    games = sum(t.games for t in honest)
    flagged = sum(t.flagged for t in honest)
    print(
        f"| **all honest** | {games} | {sum(t.won for t in honest)} | {flagged} | "
        f"**{flagged / games:.2%}** | |"
    )
    variations: dict[str, list[Tally]] = {}
    for t in honest:
        variations.setdefault(t.profile.split("(")[1].rstrip(")"), []).append(t)
    for name, group in variations.items():
        n, f = sum(t.games for t in group), sum(t.flagged for t in group)
        print(f"  variation {name}: {f}/{n} flagged ({f / n:.1%})")

    print("\nbots (detection rate)\n" + header)
    for profile in cheater_profiles():
        print(row(tally(profile, deals, args.bots, args.seed, thresholds)), flush=True)


RECORD = 5  # games in a simulated account's record


def judged(
    profile: Profile, deals: list[Daily], count: int, seed: int, t: Thresholds
) -> tuple[list[Clairvoyance], list[float]]:
    """The clairvoyance check on ``count`` games of ``profile`` (each on the next deal), with
    the CPU seconds of each."""
    results, seconds = [], []
    for game in games_of(profile, deals, count, seed):
        start = time.process_time()
        results.append(clairvoyance(game, t, solver_agreement(game, t)))
        seconds.append(time.process_time() - start)
    return results, seconds


def flagged_by(results: list[Clairvoyance], t: Thresholds) -> tuple[Counter[str], list[int]]:
    """(games flagged judged alone, by kind and "any"; accounts of ``RECORD`` consecutive
    games, on as many deals, flagged by their 1st, 2nd, ... game, as production judges a
    player's record)."""
    alone: Counter[str] = Counter()
    for r in results:
        kinds = {f.kind for f in record_findings(r, {}, t)}
        alone.update(kinds | ({"any"} if kinds else set()))
    by_game = [0] * RECORD
    for first in range(0, len(results) - RECORD + 1, RECORD):
        account = results[first : first + RECORD]
        for k in range(RECORD):
            earlier = {i: r.evidence() for i, r in enumerate(account[:k])}
            if record_findings(account[k], earlier, t):
                for later in range(k, RECORD):
                    by_game[later] += 1
                break
    return alone, by_game


def share(alone: Counter[str], games: int) -> str:
    kinds = ", ".join(f"{kind} {n}" for kind, n in alone.items() if kind != "any") or "-"
    return f"{alone['any']} (**{alone['any'] / games:.1%}**; {kinds})"


CURVE = (-0.5, -0.75, -1.0, -1.25, -1.5)  # thresholds (log10) the calibration table shows


def threshold_curve(judged_by_profile: dict[str, list[list[Clairvoyance]]], t: Thresholds) -> None:
    """Each profile's share flagged alone and as accounts (by their last game) at the
    thresholds of ``CURVE``: what moving the setting would trade. A profile's games come in
    groups (one per honest skill and timing), and an account's games from one group."""
    print("\nflagged at other thresholds (alone / accounts by game " + f"{RECORD})")
    print("| profile | " + " | ".join(f"10^{x}" for x in CURVE) + " |\n|---|" + "---|" * len(CURVE))
    for name, results in judged_by_profile.items():
        cells = []
        games = sum(len(group) for group in results)
        accounts = sum(len(group) // RECORD for group in results)
        for x in CURVE:
            flagged = by_last = 0
            for group in results:
                alone, by_game = flagged_by(group, dataclasses.replace(t, clairvoyance_log10=x))
                flagged += alone["any"]
                by_last += by_game[-1]
            cells.append(f"{flagged / games:.1%} / {by_last / max(accounts, 1):.1%}")
        print(f"| {name} | " + " | ".join(cells) + " |")


def choices(args: argparse.Namespace, thresholds: Thresholds) -> None:
    """The clairvoyance check alone on medium and hard deals: honest players of every skill
    and timing, and players who know what they should not, game by game and as accounts of
    a few games; with the check's cost."""
    deals = rated_deals(args.choice_deals, {t: BANDS[t] for t in CHOICE_TIERS})
    tiers = Counter(d.tier for d in deals)
    print(f"\nthe clairvoyance check on {len(deals)} medium and hard deals ({dict(tiers)})")
    print(
        f"| profile | games | flagged alone | accounts of {RECORD} | "
        + " | ".join(f"flagged by game {k + 1}" for k in range(RECORD))
        + " |\n|---|---|---|---|"
        + "---|" * RECORD
    )
    costs: list[float] = []

    def report(name: str, results: list[Clairvoyance]) -> None:
        alone, by_game = flagged_by(results, thresholds)
        accounts = len(results) // RECORD
        print(
            f"| {name} | {len(results)} | {share(alone, len(results))} | {accounts} | "
            + " | ".join(f"{n / max(accounts, 1):.0%}" for n in by_game)
            + " |",
            flush=True,
        )

    honest: list[Clairvoyance] = []
    honest_groups: list[list[Clairvoyance]] = []
    honest_by_game = [0] * RECORD
    for profile in honest_profiles():
        results, seconds = judged(profile, deals, args.choice_honest, args.seed, thresholds)
        honest += results
        honest_groups.append(results)
        costs += seconds
        _, by_game = flagged_by(results, thresholds)
        honest_by_game = [a + b for a, b in zip(honest_by_game, by_game, strict=True)]
    alone, _ = flagged_by(honest, thresholds)
    accounts = sum(args.choice_honest // RECORD for _ in honest_profiles())
    print(
        f"| **all honest** ({len(honest_profiles())} profiles) | {len(honest)} | "
        f"{share(alone, len(honest))} | {accounts} | "
        + " | ".join(f"{n} ({n / accounts:.1%})" for n in honest_by_game)
        + " |"
    )
    judged_by_profile = {"all honest": honest_groups}
    for profile in knowledge_profiles():
        results, seconds = judged(profile, deals, args.choice_bots, args.seed, thresholds)
        costs += seconds
        report(profile.name, results)
        judged_by_profile[profile.name] = [results]
    threshold_curve(judged_by_profile, thresholds)
    if args.dump:
        evidence = {
            name: [[dataclasses.asdict(r.evidence()) for r in group] for group in groups]
            for name, groups in judged_by_profile.items()
        }
        args.dump.write_text(json.dumps(evidence))
    costs.sort()
    print(
        f"the check's cost (CPU): median {statistics.median(costs) * 1000:.0f} ms, p95 "
        f"{costs[int(len(costs) * 0.95)] * 1000:.0f} ms, max {costs[-1] * 1000:.0f} ms over "
        f"{len(costs)} games, the solver's moves included (at most "
        f"{thresholds.clairvoyance_nodes + thresholds.solver_game_nodes:,} solver positions each)"
    )


if __name__ == "__main__":
    main()
