"""The results screen at the end of a daily game (``GET /api/games/<id>/results/``).

What a player looks for once a daily is over: their record (played, won, win rate, the
current and best streak, as the player page and the streak board count them), how the
day's other results spread (winners by time, the rest by cards home) with their own
place and percentile, the solver's par once the day has closed, the strategy bot's own
game of the deal and its win rate, and when the next deal comes.

Nothing here tells more about an open day than its board already does: counts of
results, times and cards home, never a deal number or a card. Par waits for the close
(``day_board.par``); the bot's game is a count of moves and cards, shown only to someone
whose game of the deal is over.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.actors import actor_of
from apikit.schema import CONFLICT, NOT_FOUND
from apikit.views import BaseAPIView
from games import daily
from games import services as game_services
from games.models import WEEKLY, DailyChallenge, Game, Status, utc_today
from leaderboards import day_board, ranking, records
from yukon.engine import Position

# The day's results change as games are verified; every player finishing within this
# many seconds shares one read of them (their own result is always added exactly).
SPREAD_CACHE_SECONDS = 15
MAX_BARS = 8
# Bar widths, smallest first: the narrowest that fits the day's results in MAX_BARS.
TIME_WIDTHS_MS = [
    seconds * 1000
    for seconds in (10, 15, 30, 60, 120, 180, 300, 600, 900, 1200, 1800, 3600, 7200, 14400)
]
CARD_WIDTHS = [1, 2, 3, 4, 5, 10, 13, 20, 26, 52]
# Winners slower than this share of the day go into one open last bar, so a single
# game left open for hours does not squeeze everyone else into the first bar.
TAIL_QUANTILE = 0.9


# ----- the day's spread ------------------------------------------------------------------


@dataclass(frozen=True)
class Bar:
    low: int
    high: int | None  # exclusive; None: the open last bar (this and above)
    count: int
    yours: bool


def bars_of(
    values: Sequence[int], mine: int, widths: Sequence[int], *, open_tail: bool
) -> list[Bar]:
    """``values`` (everyone else's) and ``mine`` in bars of one width from ``widths``,
    starting at a multiple of it; with ``open_tail`` the values above the day's
    TAIL_QUANTILE share one open last bar. The bar holding ``mine`` is marked."""
    everything = sorted([*values, mine])
    low, top = everything[0], everything[-1]
    if open_tail:
        top = everything[int(TAIL_QUANTILE * (len(everything) - 1))]
    budget = MAX_BARS - 1 if open_tail and everything[-1] > top else MAX_BARS
    width = 1
    start = low
    for width in widths:
        start = low - low % width
        if top - start < budget * width:
            break
    count = min(budget, (top - start) // width + 1)
    edges = [start + index * width for index in range(count + 1)]
    bars = [
        Bar(edges[i], edges[i + 1], _count_between(everything, edges[i], edges[i + 1]), False)
        for i in range(count)
    ]
    beyond = len(everything) - bisect.bisect_left(everything, edges[-1])
    if beyond:
        bars.append(Bar(edges[-1], None, beyond, False))
    return [
        Bar(bar.low, bar.high, bar.count, bar.low <= mine and (bar.high is None or mine < bar.high))
        for bar in bars
    ]


def _count_between(ordered: list[int], low: int, high: int) -> int:
    return bisect.bisect_left(ordered, high) - bisect.bisect_left(ordered, low)


def percentile(
    values: Sequence[int], mine: int, *, lower_is_better: bool
) -> tuple[int, int | None]:
    """(how many of ``values`` ``mine`` beats outright, that as a whole percentage of
    them or None when there are none): a tie beats nobody."""
    if not values:
        return 0, None
    if lower_is_better:
        beaten = sum(1 for value in values if value > mine)
    else:
        beaten = sum(1 for value in values if value < mine)
    return beaten, round(100 * beaten / len(values))


def cards_home(position_text: str) -> int:
    """Cards on the foundations in a stored position (the engine's text form)."""
    return sum(Position.from_text(position_text).found)


def _day_results(challenge: DailyChallenge) -> dict[str, list[list[int]]]:
    """The challenge's counted results as [game id, value] pairs: ``won`` by time (ms),
    ``lost`` (stuck, resigned, not finished) by cards home."""
    games = day_board.counted_games(challenge.pk, challenge.closes_at)
    won: list[list[int]] = []
    lost: list[list[int]] = []
    for game_id, status, elapsed_ms, position in games.values_list(
        "id", "status", "elapsed_ms", "position"
    ):
        if status == Status.WON:
            won.append([game_id, ranking.capped(elapsed_ms, ranking.TIME_CAP_MS)])
        else:
            lost.append([game_id, cards_home(position)])
    return {"won": won, "lost": lost}


def day_results(challenge: DailyChallenge) -> dict[str, list[list[int]]]:
    """``_day_results``, kept in Redis for SPREAD_CACHE_SECONDS."""
    return records.cached(
        f"results:{challenge.pk}",
        lambda: _day_results(challenge),
        seconds=SPREAD_CACHE_SECONDS,
        what="results",
    )


def spread(game: Game, challenge: DailyChallenge) -> dict[str, Any]:
    """The day's results around ``game``: a winner among the winners by time, anyone
    else among the others by cards home; the game itself always in its bar, whether or
    not it counts on the board yet (verification pending, a guest's)."""
    results = day_results(challenge)
    others = {
        kind: [v for game_id, v in pairs if game_id != game.pk] for kind, pairs in results.items()
    }
    won = game.status == Status.WON
    if won:
        mine = ranking.capped(game.elapsed_ms, ranking.TIME_CAP_MS)
        values, widths, kind = others["won"], TIME_WIDTHS_MS, "time"
    else:
        mine = cards_home(game.position)
        values, widths, kind = others["lost"], CARD_WIDTHS, "cards_home"
    beaten, share = percentile(values, mine, lower_is_better=won)
    counted = day_board.counted_games(challenge.pk, challenge.closes_at).filter(pk=game.pk).exists()
    return {
        "kind": kind,
        "yours": mine,
        "bars": bars_of(values, mine, widths, open_tail=won),
        "compared": len(values),
        "beaten": beaten,
        "percentile": share,
        "counted": counted,
        "results": len(others["won"]) + len(others["lost"]) + int(counted),
        "wins": len(others["won"]) + int(counted and won),
    }


# ----- the player's record -------------------------------------------------------------


def record_of(player_id: int | None, weekly: bool, today: dt.date) -> dict[str, Any]:
    """Played, won, win rate and streaks, counted as the player page and the streak board
    count them: the three daily tiers with the daily streak, or the weekly challenge with
    its own. A guest (no player) has none yet."""
    if player_id is None:
        return {"played": 0, "won": 0, "win_rate": 0.0, "current_streak": 0, "best_streak": 0}
    if weekly:
        games = Game.objects.filter(ranking.counts_q(), player_id=player_id, challenge__tier=WEEKLY)
    else:
        games = records.counted().filter(player_id=player_id)
    totals = games.aggregate(played=Count("id"), won=Count("id", filter=Q(status=Status.WON)))
    streaks = records.streak_summary(player_id, today)
    streak = streaks["weekly"] if weekly else streaks
    played, won = totals["played"] or 0, totals["won"] or 0
    return {
        "played": played,
        "won": won,
        "win_rate": round(won / played, 4) if played else 0.0,
        "current_streak": streak["current"],
        "best_streak": streak["best"],
    }


# ----- the whole screen --------------------------------------------------------------------


def results_for(game: Game, today: dt.date | None = None, *, mine: bool = False) -> dict[str, Any]:
    """The results screen of a finished daily game (games.services.get_finished_daily_for);
    ``mine``: read by its player, who alone is told that moderation holds it."""
    today = today or utc_today()
    challenge = game.challenge
    assert challenge is not None  # a daily game
    bot = daily.bot_game(challenge)
    return {
        "game": game.pk,
        "date": challenge.date,
        "tier": challenge.tier,
        "status": game.status,
        "guest": game.player_id is None,
        "held": mine and game.awaits_review,
        "record": record_of(game.player_id, challenge.tier == WEEKLY, today),
        "spread": spread(game, challenge),
        "par": day_board.par(challenge, today),
        "bot": {
            "won": bot.won,
            "moves": bot.moves,
            "cards_home": bot.cards_home,
            "cards": bot.cards,
            "win_rate": challenge.bot_win_rate,
        },
        "closes_at": challenge.closes_at,
        "next_deal_at": game_services.next_deal_at(challenge),
    }


# ----- the API -------------------------------------------------------------------------


class ResultsRecordSerializer(serializers.Serializer):
    played = serializers.IntegerField(help_text="Counted games (daily tiers, or the weekly's).")
    won = serializers.IntegerField()
    win_rate = serializers.FloatField(help_text="won / played, 0..1 (0 with none played).")
    current_streak = serializers.IntegerField(
        help_text="Consecutive UTC days with a won daily (weekly: Sundays with the weekly won)."
    )
    best_streak = serializers.IntegerField()


class ResultsBarSerializer(serializers.Serializer):
    low = serializers.IntegerField(help_text="From this value (ms or cards), included.")
    high = serializers.IntegerField(
        allow_null=True, help_text="Up to this value, excluded; null: the open last bar."
    )
    count = serializers.IntegerField(help_text="Results in the bar, yours included.")
    yours = serializers.BooleanField(help_text="Your result is in this bar.")


class ResultsSpreadSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["time", "cards_home"],
        help_text="time: you won, among the winners by time (ms); cards_home: among those "
        "who did not win, by cards on the foundations.",
    )
    yours = serializers.IntegerField(help_text="Your time (ms) or your cards home.")
    bars = ResultsBarSerializer(many=True)
    compared = serializers.IntegerField(help_text="Other counted results of your kind.")
    beaten = serializers.IntegerField(help_text="Of those, how many you beat outright.")
    percentile = serializers.IntegerField(
        allow_null=True, help_text="beaten / compared as a whole percentage; null with none."
    )
    counted = serializers.BooleanField(
        help_text="Your game counts on the day's board (verified; never a guest's)."
    )
    results = serializers.IntegerField(help_text="The day's counted results in this tier.")
    wins = serializers.IntegerField(help_text="Of those, wins.")


class ResultsBotGameSerializer(serializers.Serializer):
    won = serializers.BooleanField()
    moves = serializers.IntegerField(help_text="Moves the bot played in its own game.")
    cards_home = serializers.IntegerField(help_text="Cards on its foundations at the end.")
    cards = serializers.IntegerField(help_text="Cards in the deal (52 a deck).")
    win_rate = serializers.FloatField(
        allow_null=True, help_text="Share of its rating playouts the bot won (0..1)."
    )


class GameResultsSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    date = serializers.DateField()
    tier = serializers.CharField()
    status = serializers.CharField(help_text="won, stuck, resigned or abandoned.")
    guest = serializers.BooleanField(help_text="A guest's game: no record to keep it in yet.")
    held = serializers.BooleanField(
        help_text="Your result is held off the boards until a moderator has looked at it "
        "(docs/fair-play.md, 'Guests'); told to the game's player only, false for anyone else."
    )
    record = ResultsRecordSerializer(help_text="The player's record (a guest's: all zero).")
    spread = ResultsSpreadSerializer(
        help_text="The day's counted results in the tier around yours."
    )
    par = serializers.IntegerField(
        allow_null=True,
        help_text="Moves in the solver's winning line; null until the day has closed.",
    )
    bot = ResultsBotGameSerializer(help_text="The strategy bot on the same deal.")
    closes_at = serializers.DateTimeField(help_text="When the game's day closes (UTC).")
    next_deal_at = serializers.DateTimeField(help_text="When the tier's next deal comes (UTC).")


class GameResultsView(BaseAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            200: GameResultsSerializer,
            404: NOT_FOUND,
            409: OpenApiResponse(CONFLICT, description="Your game is still in progress."),
        },
        summary="A finished daily game's results screen: record, the day's spread, the bot",
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = game_services.get_finished_daily_for(actor_of(request), game_id)
        mine = game.player_id is not None and game.player_id == request.user.pk
        response = Response(GameResultsSerializer(results_for(game, mine=mine)).data)
        response["Cache-Control"] = "private, no-cache"
        return response
