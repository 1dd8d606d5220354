"""A verification worker asks the solver about each position once and keeps the answer
(``detector._first_move``, ``clairvoyance._judged``): the games of one day meet the same
positions. Whatever games the worker judged before, a game's judgement is the same."""

from __future__ import annotations

import random

from moderation import clairvoyance, detector
from moderation.detector import Thresholds, solver_agreement
from tests.redteam import SKILLS, clairvoyant_game, honest_game, winnable_deals


def judge(game: detector.PlayedGame, t: Thresholds) -> tuple[object, object]:
    agreement = solver_agreement(game, t)
    return agreement, clairvoyance.clairvoyance(game, t, agreement)


def forget() -> None:
    detector._first_move.cache_clear()
    clairvoyance._judged.cache_clear()


def test_a_games_judgement_does_not_depend_on_the_games_judged_before() -> None:
    daily = winnable_deals(1, first=2)[0]  # a medium deal: choices that matter
    t = Thresholds()
    game = clairvoyant_game(daily, SKILLS[2], random.Random(2))
    forget()
    alone = judge(game, t)
    forget()
    judge(honest_game(daily, SKILLS[1], random.Random(1)), t)  # another player's, first
    before = detector._first_move.cache_info().hits, clairvoyance._judged.cache_info().hits
    after = judge(game, t)
    shared = (
        detector._first_move.cache_info().hits - before[0],
        clairvoyance._judged.cache_info().hits - before[1],
    )
    assert all(shared), f"the games share no answer ({shared}): the test would show nothing"
    # the same agreements, decisions, chances and positions spent
    assert after == alone
