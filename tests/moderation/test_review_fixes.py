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


@pytest.mark.parametrize("value", ["²", "1²", "٣", "9" * 25, str(2**63), "0", "-1", " 1"])
def test_a_games_player_filter_no_id_could_be_is_an_empty_answer_not_a_500(
    mod_client: Any, value: str
) -> None:
    from urllib.parse import quote

    answer = mod_client.get(f"/admin/games/game/?player={quote(value)}")
    assert answer.status_code in (200, 302), answer.status_code


def test_a_games_player_filter_still_shows_the_players_games(
    today_challenges: dict[str, Any], mod_client: Any
) -> None:
    bob, ann = make_player("Bob"), make_player("Ann")
    bobs = result(bob, today_challenges[Tier.EASY])
    result(ann, today_challenges[Tier.EASY])
    answer = mod_client.get(f"/admin/games/game/?player={bob.pk}")
    assert answer.status_code == 200
    assert list(answer.context["cl"].result_list) == [bobs]


@pytest.mark.parametrize("value", ["²", "9" * 25])
def test_a_game_page_no_id_could_be_is_not_a_500(mod_client: Any, value: str) -> None:
    from urllib.parse import quote

    answer = mod_client.get(f"/admin/games/game/{quote(value)}/change/")
    assert answer.status_code in (302, 404), answer.status_code
