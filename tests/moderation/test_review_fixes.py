"""Fixes from the review (issue 17) on the moderation side, tested attacker-first."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games.models import Game, Tier
from moderation import services
from moderation.models import Ban
from tests.factories import make_player, result
from tests.moderation.test_ban_games import _boards_read_fresh, board_names  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_result_requalified_then_disqualified_on_its_own_stays_out_after_a_restore(
    today_challenges: dict[str, Any], moderator: User, django_capture_on_commit_callbacks: Any
) -> None:
    easy = today_challenges[Tier.EASY]
    bob = make_player("Bob")
    game = result(bob, easy)
    with django_capture_on_commit_callbacks(execute=True):
        services.ban_player(moderator, bob.pk, "bot")
        services.requalify_game(moderator, game.pk, "this one was played by hand")
        assert not Ban.disqualified_games.through.objects.filter(game_id=game.pk).exists()
        services.disqualify_game(moderator, game.pk, "no: the replay is a solver line")
        services.unban_player(moderator, bob.pk, "appeal")
        assert services.restore_ban_results(moderator, bob.pk, "appeal upheld") == 0
    assert Game.objects.get(pk=game.pk).disqualified and board_names(easy) == []


def test_a_stale_ban_record_never_brings_back_a_moderators_own_disqualification(
    today_challenges: dict[str, Any], moderator: User, django_capture_on_commit_callbacks: Any
) -> None:
    # The ban's record left behind (as by requalify before this fix, or any older path):
    # the normal branch of disqualify_game is a moderator's own decision and drops it.
    easy = today_challenges[Tier.EASY]
    bob = make_player("Bob")
    game = result(bob, easy)
    with django_capture_on_commit_callbacks(execute=True):
        ban = services.ban_player(moderator, bob.pk, "bot")
        services.unban_player(moderator, bob.pk, "appeal")
        Game.objects.filter(pk=game.pk).update(disqualified=False)
        assert ban.disqualified_games.filter(pk=game.pk).exists()
        services.disqualify_game(moderator, game.pk, "the replay is a solver line")
        assert not ban.disqualified_games.filter(pk=game.pk).exists()
        assert services.restore_ban_results(moderator, bob.pk, "appeal upheld") == 0
    assert Game.objects.get(pk=game.pk).disqualified
