"""Shapes of the leaderboard API: query parameters in, board pages out (also the schema)."""

from __future__ import annotations

from rest_framework import serializers

from games.models import Status, Tier

MAX_PAGE = 1_000_000  # beyond any board; a bigger number is a 400, a page past the end a 404


class PageQuery(serializers.Serializer):
    page = serializers.IntegerField(min_value=1, max_value=MAX_PAGE, default=1)


class DailyQuery(PageQuery):
    around = serializers.ChoiceField(
        choices=["me"], required=False, help_text="`me`: the rows around your own result."
    )


class AllTimeQuery(PageQuery):
    period = serializers.ChoiceField(
        choices=["all", "30d"], default="all", help_text="`all` or the last 30 days (`30d`)."
    )


class PagingFields(serializers.Serializer):
    count = serializers.IntegerField(help_text="Rows on the whole board.")
    page = serializers.IntegerField(allow_null=True, help_text="null for around=me.")
    pages = serializers.IntegerField()
    page_size = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)


class DailyRow(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Shared by results equal on all four keys.")
    display_name = serializers.CharField()
    won = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Status.choices)
    score = serializers.IntegerField()
    elapsed_ms = serializers.IntegerField(allow_null=True, help_text="Server-measured time.")
    moves = serializers.IntegerField()
    finished_at = serializers.DateTimeField(allow_null=True)
    game_id = serializers.IntegerField()
    replay_url = serializers.CharField()
    me = serializers.BooleanField(help_text="This row is the viewer's own result.")


class DailyBoard(PagingFields):
    board = serializers.CharField(default="daily")
    date = serializers.DateField()
    tier = serializers.ChoiceField(choices=Tier.choices)
    closed = serializers.BooleanField(help_text="The day is over: no more results come.")
    par = serializers.IntegerField(
        allow_null=True,
        help_text="Moves in the solver's winning line from the deal, once the day is closed "
        "(null before): a benchmark, not the fewest possible.",
    )
    offset = serializers.IntegerField(help_text="0-based place of the first row.")
    served_from = serializers.ChoiceField(
        choices=["redis", "postgres"], help_text="postgres: Redis was unavailable."
    )
    me = DailyRow(allow_null=True, help_text="The viewer's own row, wherever it is.")
    results = DailyRow(many=True)


class StreakRow(serializers.Serializer):
    rank = serializers.IntegerField()
    display_name = serializers.CharField()
    current_streak = serializers.IntegerField()
    best_streak = serializers.IntegerField()
    last_win = serializers.DateField(allow_null=True)
    me = serializers.BooleanField()


class StreakBoard(PagingFields):
    board = serializers.CharField(default="streaks")
    results = StreakRow(many=True)


class BestTimes(serializers.Serializer):
    easy = serializers.IntegerField(allow_null=True)
    medium = serializers.IntegerField(allow_null=True)
    hard = serializers.IntegerField(allow_null=True)


class AllTimeRow(serializers.Serializer):
    rank = serializers.IntegerField()
    display_name = serializers.CharField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(help_text="wins / played, 0..1")
    average_score = serializers.FloatField()
    best_time_ms = BestTimes(help_text="Fastest won daily per tier.")
    me = serializers.BooleanField()


class AllTimeBoard(PagingFields):
    board = serializers.CharField(default="alltime")
    period = serializers.ChoiceField(choices=["all", "30d"])
    results = AllTimeRow(many=True)


class PersonalBest(serializers.Serializer):
    best_score = serializers.IntegerField(allow_null=True)
    best_time_ms = serializers.IntegerField(allow_null=True, help_text="Won games only.")
    fewest_moves = serializers.IntegerField(allow_null=True, help_text="Won games only.")


class PersonalBests(serializers.Serializer):
    easy = PersonalBest()
    medium = PersonalBest()
    hard = PersonalBest()


class HistoryRow(serializers.Serializer):
    game_id = serializers.IntegerField()
    date = serializers.DateField()
    tier = serializers.ChoiceField(choices=Tier.choices)
    status = serializers.ChoiceField(choices=Status.choices)
    won = serializers.BooleanField()
    score = serializers.IntegerField()
    elapsed_ms = serializers.IntegerField(allow_null=True)
    moves = serializers.IntegerField()
    finished_at = serializers.DateTimeField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True, help_text="null while Redis is down.")
    replay_url = serializers.CharField(
        allow_null=True, help_text="null until the day closes (except on your own page)."
    )


class PlayerPage(serializers.Serializer):
    display_name = serializers.CharField()
    joined = serializers.DateField()
    current_streak = serializers.IntegerField()
    best_streak = serializers.IntegerField()
    last_win = serializers.DateField(allow_null=True)
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    average_score = serializers.FloatField()
    personal_bests = PersonalBests()
    count = serializers.IntegerField(help_text="Dailies in the history.")
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    games = HistoryRow(many=True)
