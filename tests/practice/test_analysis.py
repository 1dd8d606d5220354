"""Post-game analysis on constructed games, with the real solver on a real database.

A game that follows a winning line, plays a move the solver proves losing, then wanders
at random must be told exactly that move; who may read an analysis, and when.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

from analysis.models import GameAnalysis
from analysis.review import review_line
from analysis.services import sweep_analyses
from games.models import DailyChallenge, Deal, utc_today
from tests.factories import Api
from yukon.engine import Position, move_text
from yukon.solver import SolveResult, solve

# Finished games are verified, and then analysed, on commit: real transactions.
pytestmark = pytest.mark.django_db(transaction=True)


def losing_deviation(deal: int) -> tuple[list[str], str]:
    """A prefix of a winning line and a next move the solver proves loses, found by search."""
    line = solve(deal, seconds=2).moves
    position = Position.deal(deal)
    for k, good in enumerate(line):
        for move in position.legal_moves():
            text = move_text(move)
            if text == good:
                continue
            after = position.copy()
            after.play_text(text)
            if solve(after, seconds=0.3).verdict == "unwinnable":
                return line[:k], text
        position.play_text(good)
    raise AssertionError(f"no losing deviation found on deal {deal}")


def play(api: Api, game: dict[str, Any], moves: list[str]) -> int:
    ply = game["ply"]
    for move in moves:
        status, body = api.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": move})
        assert status == 200, body
        ply = body["ply"]
    return ply


def wander(deal: int, moves: list[str], count: int, seed: int) -> list[str]:
    """Up to ``count`` random legal moves after ``moves``."""
    rng = random.Random(seed)
    position = Position.deal(deal)
    for text in moves:
        position.play_text(text)
    out = []
    for _ in range(count):
        legal = position.legal_moves()
        if not legal or position.is_won():
            break
        text = move_text(rng.choice(legal))
        position.play_text(text)
        out.append(text)
    return out


def analysis_of(client: Api, game_id: int) -> tuple[int, dict[str, Any]]:
    status, body = client.get(f"/api/games/{game_id}/analysis/")
    return status, body


@pytest.mark.parametrize(("deal", "seed"), [(0, 1), (2, 7)])
def test_analysis_names_the_move_that_threw_the_win_away(api: Api, deal: int, seed: int) -> None:
    prefix, losing = losing_deviation(deal)
    after = wander(deal, [*prefix, losing], 40, seed)
    _, game = api.post("/api/games/", {"deal": deal, "variant": "yukon"})
    ply = play(api, game, prefix[:3])
    # A move taken back on the way: move numbers count the moves that stand.
    detour = Position.deal(deal)
    for text in prefix[:3]:
        detour.play_text(text)
    ply = play(api, {**game, "ply": ply}, [move_text(detour.legal_moves()[-1])])
    assert api.post(f"/api/games/{game['id']}/undo/", {"ply": ply})[0] == 200
    ply = play(api, {**game, "ply": ply + 1}, [*prefix[3:], losing, *after])
    _, state = api.get(f"/api/games/{game['id']}/")
    if state["status"] == "playing":
        assert api.post(f"/api/games/{game['id']}/resign/")[0] == 200

    status, analysis = analysis_of(api, game["id"])
    assert status == 200, analysis
    assert analysis["status"] == "done"
    assert analysis["outcome"] == "lost_at", analysis
    number = len(prefix) + 1
    assert analysis["losing_move"]["number"] == number
    assert analysis["losing_move"]["move"] == losing
    card, dest = losing.split(">")
    card = card.replace("T", "10")[:-1] + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[card[-1]]
    where = "home" if dest == "F" else f"onto column {dest}"
    assert analysis["summary"] == (  # in words, as the hints say moves: never "8s>6"
        f"Your game was winnable until move {number}, the {card} {where}. From there, no line wins."
    )
    assert analysis["last_winnable"] == len(prefix)
    # The losing move's log ply: the prefix, plus the move and the undo taken back.
    assert analysis["losing_move"]["ply"] == len(prefix) + 2
    # The continuation wins from the last winnable position.
    position = Position.deal(deal)
    for text in prefix:
        position.play_text(text)
    for text in analysis["continuation"]:
        position.play_text(text)
    assert position.is_won()
    assert analysis["par"] == len(solve(deal, seconds=2).moves)
    assert analysis["player_moves"] == len(prefix) + 1 + len(after)


def test_won_and_resigned_winnable_games(api: Api) -> None:
    line = solve(1, seconds=2).moves
    _, won = api.post("/api/games/", {"deal": 1})
    play(api, won, line)
    _, analysis = analysis_of(api, won["id"])
    assert (analysis["outcome"], analysis["par"]) == ("won", len(line))
    assert analysis["losing_move"] is None
    assert analysis["summary"].startswith("You won")

    _, quit_game = api.post("/api/games/", {"deal": 1})
    play(api, quit_game, line[:5])
    api.post(f"/api/games/{quit_game['id']}/resign/")
    _, analysis = analysis_of(api, quit_game["id"])
    assert analysis["outcome"] == "winnable_at_end"
    assert analysis["last_winnable"] == 5 and analysis["continuation"]


def test_a_deal_lost_from_the_start(api: Api) -> None:
    _, game = api.post("/api/games/", {"deal": 24})
    api.post(f"/api/games/{game['id']}/resign/")
    _, analysis = analysis_of(api, game["id"])
    assert analysis["outcome"] == "never_winnable" and analysis["continuation"] == []


def test_practice_analysis_is_for_its_owner_and_only_once_over(api: Api, other_api: Api) -> None:
    _, game = api.post("/api/games/", {"deal": 3})
    assert analysis_of(api, game["id"])[0] == 409
    api.post(f"/api/games/{game['id']}/resign/")
    assert analysis_of(api, game["id"])[0] == 200
    assert analysis_of(other_api, game["id"])[0] == 404


def test_daily_analysis_waits_for_the_day_to_close(api: Api, other_api: Api) -> None:
    deal = Deal.objects.create(number=0, variant="yukon")
    challenge = DailyChallenge.objects.create(
        date=utc_today(), tier="easy", deal=deal, bot_win_rate=0.7
    )
    _, game = api.post("/api/games/", {"daily": "easy"})
    prefix, losing = losing_deviation(0)
    play(api, game, [*prefix, losing])
    api.post(f"/api/games/{game['id']}/resign/")
    status, body = analysis_of(api, game["id"])
    assert status == 403 and "day closes" in body["detail"] and body["opens_at"]
    assert analysis_of(other_api, game["id"])[0] == 404
    assert not GameAnalysis.objects.filter(game_id=game["id"]).exists()  # not computed yet

    queued: list[int] = []
    assert sweep_analyses(queue=queued.append) == {"queued": 0, "requeued": 0, "deferred": 0}
    # the day closes: the challenge becomes yesterday's (behind save(), which refuses to
    # move a published challenge's date)
    DailyChallenge.objects.filter(pk=challenge.pk).update(date=utc_today() - dt.timedelta(days=1))
    assert sweep_analyses(queue=queued.append)["queued"] == 1
    assert queued == [game["id"]]
    assert sweep_analyses(queue=queued.append)["queued"] == 0  # a row marks it queued
    status, pending = analysis_of(other_api, game["id"])
    assert (status, pending["status"]) == (200, "pending")
    from analysis.tasks import analyse_game

    assert analyse_game(game["id"]) == "lost_at"
    status, analysis = analysis_of(other_api, game["id"])
    assert status == 200 and analysis["outcome"] == "lost_at", analysis
    assert analysis["losing_move"]["move"] == losing


def test_the_task_is_idempotent(api: Api) -> None:
    from analysis.tasks import analyse_game

    _, game = api.post("/api/games/", {"deal": 1})
    api.post(f"/api/games/{game['id']}/resign/")
    row = GameAnalysis.objects.get(game_id=game["id"])
    assert analyse_game(game["id"]) == "already done"
    assert GameAnalysis.objects.get(game_id=game["id"]).updated_at == row.updated_at
    assert analyse_game(10**9) == "gone"


# ----- the search itself, with a scripted solver ---------------------------------


def scripted(lost_from: int, unknown: set[int], start: Position, moves: list[str]) -> Any:
    """A solver that knows position k is lost iff k >= lost_from, except for ``unknown``."""
    index = {}
    position = start.copy()
    index[position.to_text()] = 0
    for k, text in enumerate(moves, 1):
        position.play_text(text)
        index[position.to_text()] = k
    calls: list[int] = []

    def solver(p: Position) -> SolveResult:
        k = index[p.to_text()]
        calls.append(k)
        if k in unknown:
            return SolveResult("unknown", reason="seconds")
        if k >= lost_from:
            return SolveResult("unwinnable")
        return SolveResult("solved", moves=["Xx>F"])  # a line that leaves the game at once

    solver.calls = calls  # type: ignore[attr-defined]
    return solver


def test_bisection_takes_logarithmically_many_probes() -> None:
    moves = wander(5, [], 64, 3)
    start = Position.deal(5)
    solver = scripted(37, set(), start, moves)
    review = review_line(start, moves, solver, total_seconds=60)
    assert (review.outcome, review.first_lost, review.last_winnable) == ("lost_at", 37, 36)
    assert review.solves <= 9


def test_undecided_when_the_solver_cannot_tell() -> None:
    moves = wander(5, [], 40, 4)
    start = Position.deal(5)
    review = review_line(start, moves, scripted(20, {19, 20}, start, moves), total_seconds=60)
    assert (review.outcome, review.last_winnable, review.first_lost) == ("undecided", 18, 21)
    review = review_line(start, moves, scripted(20, {20}, start, moves), total_seconds=60)
    assert (review.outcome, review.last_winnable, review.first_lost) == ("undecided", 19, 21)
    everything = set(range(len(moves) + 1))
    review = review_line(start, moves, scripted(20, everything, start, moves), total_seconds=60)
    assert (review.outcome, review.last_winnable, review.first_lost) == ("undecided", None, None)
