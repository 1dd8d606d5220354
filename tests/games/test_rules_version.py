"""Variants' rules carry a version: games stored under Moosehide's old rules keep them.

Moosehide's rules changed (version 2: build in any suit but the card's own); its version 1
(only ordered runs move) is now ``moosehide-runs``. The migration moves the stored games,
their deals and the odds study's rows there, and they replay and verify as played.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from analysis.models import DealStudy
from games.models import Deal, Game
from games.services import verify_game
from tests.factories import Api
from yukon.engine import Position

BEFORE = [("games", "0003_abandoned_at_last_move"), ("analysis", "0001_initial")]
# Deal 1 under the old rules: 6c>1 is the only legal move, and then none is left.
OLD_LOG = ["6c>1"]


def _stuck_old_moosehide_game(apps: object) -> int:
    old_deal = apps.get_model("games", "Deal")  # type: ignore[attr-defined]
    old_game = apps.get_model("games", "Game")  # type: ignore[attr-defined]
    old_move = apps.get_model("games", "Move")  # type: ignore[attr-defined]
    apps.get_model("analysis", "DealStudy").objects.create(  # type: ignore[attr-defined]
        variant="moosehide", number=1, verdict="unwinnable", seconds=0.01, nodes=12,
        budget_seconds=1.0,
    )  # fmt: skip
    deal = old_deal.objects.create(number=1, variant="moosehide")
    position = Position.deal(1, "moosehide-runs")
    for text in OLD_LOG:
        position.play_text(text)
    assert position.is_stuck()
    started = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)
    game = old_game.objects.create(
        session_key="guest-before-the-change",
        deal=deal,
        mode="practice",
        status="stuck",
        position="moosehide" + position.to_text().removeprefix("moosehide-runs"),
        score=position.score,
        ply=len(OLD_LOG),
        moves=len(OLD_LOG),
        started_at=started,
        finished_at=started + dt.timedelta(milliseconds=1500),
        elapsed_ms=1500,
    )
    old_move.objects.create(game=game, ply=0, text=OLD_LOG[0], at_ms=1500)
    return int(game.pk)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_old_moosehide_game_replays_and_verifies_under_its_own_rules() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        game_id = _stuck_old_moosehide_game(executor.loader.project_state(BEFORE).apps)
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    game = Game.objects.select_related("deal").get(pk=game_id)
    assert (game.deal.variant, game.deal.rules_version) == ("moosehide-runs", 1)
    assert game.position.startswith("moosehide-runs .7d6c/")
    # Under the new rules this position has 12 moves, so "stuck" would be rejected.
    assert len(Position.from_text(game.position.replace("-runs", "", 1)).legal_moves()) == 12
    assert game.current_position().is_stuck()
    assert verify_game(game_id) == "verified"
    assert DealStudy.objects.get(number=1).variant == "moosehide-runs"
    assert not DealStudy.objects.filter(variant="moosehide").exists()


def test_a_new_moosehide_game_gets_a_deal_of_the_new_rules(guest_api: Api) -> None:
    old = Deal.objects.create(number=1, variant="moosehide-runs")
    status, body = guest_api.post("/api/games/", {"deal": 1, "variant": "moosehide"})
    assert status == 201, body
    game = Game.objects.select_related("deal").get(pk=body["id"])
    assert game.deal != old
    assert (game.deal.variant, game.deal.rules_version) == ("moosehide", 2)
    # Qs carries Qh Qd 9d onto Kc: black on black, and no ordered run.
    status, body = guest_api.post(f"/api/games/{game.pk}/moves/", {"ply": 0, "move": "Qs>4"})
    assert status == 200, body
    status, body = guest_api.post("/api/games/", {"deal": 1, "variant": "moosehide-runs"})
    assert status == 201, body
    assert Game.objects.get(pk=body["id"]).deal == old


def test_a_deal_keeps_the_rules_version_it_was_made_under(db: None) -> None:
    deal = Deal.objects.create(number=5, variant="moosehide")
    assert deal.rules_version == 2
    deal.rules_version = 1
    with pytest.raises(ValueError, match="rules_version cannot change"):
        deal.save()
