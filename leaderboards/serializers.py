"""Shapes of the leaderboard API: query parameters in, board pages out (also the schema)."""

from __future__ import annotations

from rest_framework import serializers

from games.models import ChallengeTier, Status, Tier

MAX_PAGE = 1_000_000  # beyond any board; a bigger number is a 400, a page past the end a 404


class PageQuery(serializers.Serializer):
    page = serializers.IntegerField(min_value=1, max_value=MAX_PAGE, default=1)


class CircleQuery(PageQuery):
    league = serializers.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        required=False,
        help_text="Only the members of this league (you must be one).",
    )
    following = serializers.BooleanField(
        required=False, default=False, help_text="Only you and the players you follow."
    )

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        if attrs.get("league") is not None and attrs.get("following"):
            raise serializers.ValidationError("choose league or following, not both")
        return attrs


class DailyQuery(CircleQuery):
    around = serializers.ChoiceField(
        choices=["me"], required=False, help_text="`me`: the rows around your own result."
    )


class AllTimeQuery(CircleQuery):
    period = serializers.ChoiceField(
        choices=["all", "30d"], default="all", help_text="`all` or the last 30 days (`30d`)."
    )


class Circle(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["league", "following"])
    league = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_null=True, help_text="The league's name.")


class PagingFields(serializers.Serializer):
    circle = Circle(
        allow_null=True,
        required=False,
        help_text="The board narrowed to a league or to the players you follow; ranks "
        "count within it. null: everyone.",
    )
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
    provisional = serializers.BooleanField(
        help_text="A new account's result, shown until the check after the close (or a "
        "moderator) confirms or removes it (docs/fair-play.md)."
    )
    game_id = serializers.IntegerField()
    replay_url = serializers.CharField()
    me = serializers.BooleanField(help_text="This row is the viewer's own result.")


class DailyBoard(PagingFields):
    board = serializers.CharField(default="daily")
    date = serializers.DateField()
    tier = serializers.ChoiceField(choices=ChallengeTier.choices)
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


class WeeklyStreak(serializers.Serializer):
    current = serializers.IntegerField(help_text="Consecutive Sundays with the weekly won.")
    best = serializers.IntegerField()
    last_win = serializers.DateField(allow_null=True)


class PlayerPage(serializers.Serializer):
    display_name = serializers.CharField()
    joined = serializers.DateField()
    current_streak = serializers.IntegerField()
    best_streak = serializers.IntegerField()
    last_win = serializers.DateField(allow_null=True)
    weekly_streak = WeeklyStreak(help_text="The weekly challenge's own streak (Sundays).")
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    average_score = serializers.FloatField()
    personal_bests = PersonalBests()
    count = serializers.IntegerField(help_text="Dailies in the history.")
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    games = HistoryRow(many=True)


class PointsRow(serializers.Serializer):
    rank = serializers.IntegerField()
    display_name = serializers.CharField()
    points = serializers.IntegerField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    me = serializers.BooleanField()


class PointsTable(serializers.Serializer):
    start = serializers.DateField()
    end = serializers.DateField()
    count = serializers.IntegerField(help_text="Members with a result in the period.")
    results = PointsRow(many=True, help_text="The page's rows, then your own if not on it.")


class TierStanding(serializers.Serializer):
    tier = serializers.ChoiceField(choices=ChallengeTier.choices)
    closed = serializers.BooleanField()
    count = serializers.IntegerField()
    results = DailyRow(many=True)


class LeagueBoard(serializers.Serializer):
    league = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    today = TierStanding(
        many=True, help_text="Today's standings among the members, per tier (first page)."
    )
    page = serializers.IntegerField(help_text="The page of the week, month and streak tables.")
    pages = serializers.IntegerField(help_text="Pages of the longest of those tables.")
    page_size = serializers.IntegerField()
    week = PointsTable(help_text="This ISO week (Monday to Sunday), points per day and tier.")
    month = PointsTable(help_text="This calendar month.")
    members = serializers.IntegerField(help_text="Members ranked (not banned): the streak rows.")
    streaks = StreakRow(
        many=True,
        help_text="The page's members by current then best streak, then your own if not on it.",
    )
    points = serializers.ListField(
        child=serializers.IntegerField(), help_text="Points for ranks 1, 2, ...; then `played`."
    )
    played_points = serializers.IntegerField()


class PlayingNow(serializers.Serializer):
    easy = serializers.IntegerField()
    medium = serializers.IntegerField()
    hard = serializers.IntegerField()
    weekly = serializers.IntegerField(required=False, help_text="Sundays (UTC) only.")


class YesterdayTier(serializers.Serializer):
    tier = serializers.ChoiceField(choices=ChallengeTier.choices)
    date = serializers.DateField()
    par = serializers.IntegerField(allow_null=True)
    count = serializers.IntegerField()
    winners = DailyRow(many=True, help_text="The top three.")
    board_url = serializers.CharField()


class LeagueLeaders(serializers.Serializer):
    league = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.CharField()
    leaders = serializers.DictField(
        child=DailyRow(allow_null=True), help_text="Tier -> the league's leader today."
    )


class HomeStreak(serializers.Serializer):
    current = serializers.IntegerField(help_text="Consecutive UTC days with a daily won.")
    best = serializers.IntegerField()
    last_win = serializers.DateField(allow_null=True)
    weekly = WeeklyStreak(help_text="The weekly challenge's own streak (Sundays).")


class Home(serializers.Serializer):
    date = serializers.DateField()
    next_deal_at = serializers.DateTimeField(help_text="00:00 UTC tomorrow: the next deal.")
    playing = PlayingNow(help_text="Daily games in play right now, per tier.")
    streak = HomeStreak(allow_null=True, help_text="Yours (null for guests).")
    yesterday = YesterdayTier(many=True)
    leagues = LeagueLeaders(many=True, help_text="Your leagues' leaders today.")


TIER_STATES = ["won", "lost", "playing", "not_played", "open"]


class DayStates(serializers.Serializer):
    # Plain strings (one of TIER_STATES): three enum fields would name one set three times.
    easy = serializers.CharField(allow_null=True)
    medium = serializers.CharField(allow_null=True)
    hard = serializers.CharField(allow_null=True)


class CalendarDay(serializers.Serializer):
    date = serializers.DateField()
    tiers = DayStates(
        help_text="won / lost / playing (an archive game in progress) / not_played / open "
        "(today: play the daily); null: no challenge, or a day to come."
    )


class Badge(serializers.Serializer):
    tier = serializers.ChoiceField(choices=Tier.choices)
    month = serializers.CharField(help_text="YYYY-MM")
    name = serializers.CharField(help_text="Klondike (easy), Dawson (medium), Chilkoot (hard).")
    title = serializers.CharField()


class Calendar(serializers.Serializer):
    month = serializers.CharField()
    days = CalendarDay(many=True)
    previous = serializers.CharField()
    next = serializers.CharField(allow_null=True)
    badges = Badge(many=True, help_text="Badges earned in this month.")


class TierRecord(serializers.Serializer):
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    best_time_ms = serializers.IntegerField(allow_null=True)


class TierRecords(serializers.Serializer):
    easy = TierRecord()
    medium = TierRecord()
    hard = TierRecord()


class ArchiveRecord(serializers.Serializer):
    played = serializers.IntegerField()
    wins = serializers.IntegerField()


class PlayerRecord(serializers.Serializer):
    tiers = TierRecords(help_text="Dailies per tier.")
    archive = ArchiveRecord(help_text="Archive games (unranked).")
    recent = CalendarDay(many=True, help_text="The last 30 days, oldest first.")
    badges = Badge(many=True)
