"""Red team, scouts and mains: how often a main account that plays after scout accounts
turned the daily's cards is linked to them (the ``linked_accounts`` flag).

Run under throwaway services from the repository root:

    .venv/bin/python scripts/test-services -- .venv/bin/python bench/bench_linked.py

It creates a test database (``test_<name>``, dropped afterwards) and plays, through the
services as the API does (tasks in-process, so each finished game is verified and flagged
as in production), ``--games`` scenarios per profile on today's easy daily (deal 0): one or
two scout accounts play part of the deal and leave their games in play, then a fresh
account wins it. Each scenario has networks and devices of its own, so scenarios never link
to each other. Prints, per profile, the mains flagged ``linked_accounts``. Not a test: it
prints figures (docs/moderation.md, "The red team: measured rates").
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from accounts.models import User  # noqa: E402
from games import services  # noqa: E402
from games.models import DailyChallenge, Deal, Game, utc_today  # noqa: E402
from moderation.models import Flag, FlagKind  # noqa: E402
from moderation.origins import RequestOrigin, request_origin  # noqa: E402
from tests.factories import LINES  # noqa: E402

LINE = LINES[0]

# (profile, [(scout's network, scout's device)], (main's network, main's device)); "s" and
# "m" name a scenario's own values, "same" the scout's.
PROFILES = {
    "one scout, same device, other network": ([("a", "s")], ("b", "same")),
    "one scout, same network, other device": ([("a", "s")], ("a", "m")),
    "two scouts, same device, other networks": ([("a", "s"), ("c", "s")], ("b", "same")),
    "two scouts, one on the main's network": ([("a", "s"), ("b", "t")], ("b", "m")),
    "one scout, nothing shared (the clairvoyance check's case)": ([("a", "s")], ("b", "m")),
}


def origin(scenario: int, network: str, device: str) -> RequestOrigin:
    """An address in the scenario's own /56 per network letter, a device id per letter."""
    net = f"2001:db8:{scenario:x}:{ord(network):02x}00::7"
    return RequestOrigin(address=net, device=f"{scenario:08x}{ord(device):024x}"[:32])


def play(player: User, where: RequestOrigin, moves: list[str]) -> Game:
    token = request_origin.set(where)
    try:
        actor = services.Actor(user_id=player.pk)
        game, _ = services.start_daily_game(actor, "easy")
        for ply, text in enumerate(moves):
            services.play_move(actor, game.pk, ply, text)
    finally:
        request_origin.reset(token)
    return Game.objects.get(pk=game.pk)


def run(games: int, seed: int) -> None:
    rng = random.Random(seed)
    deal = Deal.objects.create(number=0, variant="yukon", solution=LINE, verdict="solved")
    DailyChallenge.objects.create(date=utc_today(), tier="easy", deal=deal)
    print("| profile | scenarios | mains linked | rate |\n|---|---|---|---|")
    scenario = 0
    for name, (scouts, main) in PROFILES.items():
        linked = 0
        for _ in range(games):
            scenario += 1
            for k, (network, device) in enumerate(scouts):
                scout = User.objects.create_user(
                    username=f"scout{scenario}-{k}", display_name=f"Scout {scenario}-{k}"
                )
                play(scout, origin(scenario, network, device), LINE[: rng.randint(10, 60)])
            network, device = main
            device = scouts[0][1] if device == "same" else device
            winner = User.objects.create_user(
                username=f"main{scenario}", display_name=f"Main {scenario}"
            )
            game = play(winner, origin(scenario, network, device), LINE)
            assert game.status == "won", game.status
            linked += Flag.objects.filter(game=game, kind=FlagKind.LINKED_ACCOUNTS).exists()
        print(f"| {name} | {games} | {linked} | **{linked / games:.0%}** |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="scenarios per profile")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        run(args.games, args.seed)
        print(
            "a guest as the scout: guests cannot start a daily yet (log in to play); their "
            "games are recorded and linked the same way once they can"
        )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
