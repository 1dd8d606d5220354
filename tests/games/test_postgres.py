"""On real PostgreSQL: 64-bit deal numbers, the unique rules, concurrent moves and starts."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client

from accounts.models import User
from games.models import DailyChallenge, Deal, Game, Move
from tests.factories import make_challenges, make_user, winning_lines

pytestmark = pytest.mark.postgres


@pytest.mark.django_db
@pytest.mark.parametrize("number", [0, 1, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1])
def test_deal_numbers_round_trip_exactly(number: int) -> None:
    deal = Deal.objects.create(number=number)
    assert Deal.objects.get(pk=deal.pk).number == number
    assert Deal.objects.filter(number=number).count() == 1
    assert list(Deal.objects.filter(pk=deal.pk).values_list("number", flat=True)) == [number]


@pytest.mark.django_db
def test_deal_numbers_keep_their_order_in_the_database() -> None:
    numbers = [2**64 - 1, 0, 2**63, 5, 2**63 - 1]
    for n in numbers:
        Deal.objects.create(number=n)
    assert list(Deal.objects.order_by("number").values_list("number", flat=True)) == sorted(numbers)
    assert Deal.objects.filter(number__gt=2**63 - 1).count() == 2
    with connection.cursor() as cursor:
        cursor.execute("SELECT min(number), max(number) FROM games_deal")
        assert cursor.fetchone() == (-(2**63), 2**63 - 1)


@pytest.mark.django_db
def test_a_deal_is_unique_per_number_variant_and_algorithm() -> None:
    Deal.objects.create(number=2**64 - 1)
    Deal.objects.create(number=2**64 - 1, variant="russian")
    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(number=2**64 - 1)


@pytest.mark.django_db
def test_one_challenge_per_date_and_tier_and_one_ranked_game_per_player() -> None:
    challenges = make_challenges()
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyChallenge.objects.create(
            date=challenges["easy"].date, tier="easy", deal=challenges["hard"].deal
        )
    player = make_user("erin")
    fields: dict[str, Any] = {
        "player": player,
        "deal": challenges["easy"].deal,
        "challenge": challenges["easy"],
        "mode": "daily",
        "position": "x",
    }
    Game.objects.create(**fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(**fields)


def run_together(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released at the same instant; each gets its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def worker(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # the assertion below shows it
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.django_db(transaction=True)
def test_the_same_ply_sent_twice_at_once_is_stored_once() -> None:
    player = User.objects.create_user(username="racer", display_name="Racer")
    clients = [Client(), Client()]
    for client in clients:
        client.force_login(player)
    started = clients[0].post("/api/games/", {"deal": 0}, content_type="application/json")
    game_id = started.json()["id"]
    line = winning_lines()[0]
    for ply, text in enumerate(line[:25]):

        def send(client: Client, ply: int = ply, text: str = text) -> tuple[int, Any]:
            response = client.post(
                f"/api/games/{game_id}/moves/",
                {"ply": ply, "move": text},
                content_type="application/json",
            )
            return response.status_code, response.json()

        results = run_together(*(lambda c=c: send(c) for c in clients))
        assert sorted(status for status, _ in results) == [200, 409], results
        conflict = next(body for status, body in results if status == 409)
        assert conflict["ply"] == ply + 1
    plies = list(Move.objects.filter(game_id=game_id).values_list("ply", flat=True))
    assert plies == list(range(25))
    game = Game.objects.get(pk=game_id)
    assert game.ply == 25 and game.moves == 25


@pytest.mark.django_db(transaction=True)
def test_two_racing_starts_make_one_ranked_game() -> None:
    make_challenges()
    player = User.objects.create_user(username="twin", display_name="Twin")
    clients = [Client() for _ in range(4)]
    for client in clients:
        client.force_login(player)

    def start(client: Client) -> tuple[int, int]:
        response = client.post("/api/games/", {"daily": "medium"}, content_type="application/json")
        return response.status_code, response.json()["id"]

    results = run_together(*(lambda c=c: start(c) for c in clients))
    assert len({game_id for _, game_id in results}) == 1, results
    assert sorted(status for status, _ in results) == [200, 200, 200, 201]
    assert Game.objects.filter(player=player).count() == 1
