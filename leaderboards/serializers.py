"""Shapes of the leaderboard API: query parameters in, board pages out (also the schema).

The views answer through these: they hand over what the reads found (a day's board rows
as ``day_board.Row``, the tables' rows as the dicts the reads keep) and the context
(``viewer_id``, ``viewer_name``: whose rows are ``me``), and the serializers make the JSON.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from django.core.exceptions import ImproperlyConfigured
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.fields import SkipField

from accounts.models import DELETED_NAME
from games.models import ChallengeTier, Status, Tier

MAX_PAGE = 1_000_000  # beyond any board; a bigger number is a 400, a page past the end a 404


class Query(serializers.Serializer):
    """Query parameters in: what every query of the boards checks."""

    def to_internal_value(self, data: Any) -> Any:
        # DRF reads an optional field sent empty in a query string (``?period=``) as left
        # out; the schema declares none of these parameters empty, and no client of ours
        # sends one, so an empty one is a mistake worth a 400.
        empty = [name for name, value in data.items() if name in self.fields and value == ""]
        if empty:
            raise serializers.ValidationError(
                {name: [_("may not be empty: leave it out for its default")] for name in empty}
            )
        return super().to_internal_value(data)


class PageQuery(Query):
    page = serializers.IntegerField(min_value=1, max_value=MAX_PAGE, default=1)


# A year of a player's calendar with its first and last weeks whole (53 weeks).
RECORD_MAX_DAYS = 371


class RecordQuery(Query):
    days = serializers.IntegerField(
        min_value=1,
        max_value=RECORD_MAX_DAYS,
        default=30,
        help_text="How many days `recent` covers, ending today (the player page's calendar "
        "asks for 26 weeks).",
    )


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
            raise serializers.ValidationError(_("choose league or following, not both"))
        return attrs


class DailyQuery(CircleQuery):
    around = serializers.ChoiceField(
        choices=["me"], required=False, help_text="`me`: the rows around your own result."
    )


class AllTimeQuery(CircleQuery):
    period = serializers.ChoiceField(
        choices=["all", "30d"], default="all", help_text="`all` or the last 30 days (`30d`)."
    )


# What these fields make of a value of exactly this type is the value itself (DRF:
# ``int(value)``, ``float(value)``, ``str(value)``, True for True): an answer sends it as is.
UNCHANGED: dict[type[serializers.Field], type] = {
    serializers.IntegerField: int,
    serializers.FloatField: float,
    serializers.CharField: str,
    serializers.BooleanField: bool,
}


def _kept_type(field: serializers.Field) -> type | None:
    """The type whose values ``field`` renders unchanged: its own class's or a base's in
    ``UNCHANGED``, when the field renders as that base does."""
    for base, kept in UNCHANGED.items():
        if isinstance(field, base) and type(field).to_representation is base.to_representation:
            return kept
    return None


# An answer of the boards: its keys in ``key_order`` when it names one (a base's fields
# among the subclass's own, in the order clients have always been sent; the schema lists
# them so too), its values as DRF's fields render them. Rendering skips what cannot change
# a value: DRF's generic walk (a generator over the fields, a lookup helper per attribute)
# and the conversions ``UNCHANGED`` lists. A league page (some 300 rows) renders in half
# DRF's time (bench/bench_answers.py, docs/leaderboards.md);
# tests/leaderboards/test_answers.py holds both to one JSON. (A comment, not a docstring:
# the schema would give a docstring to every answer as its description.)
class Answer(serializers.Serializer):
    key_order: ClassVar[tuple[str, ...]] = ()

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        if not self.key_order:
            return fields
        if sorted(self.key_order) != sorted(fields):
            raise ImproperlyConfigured(f"{type(self).__name__}.key_order must name each field once")
        return {name: fields[name] for name in self.key_order}

    @cached_property
    def _plan(self) -> list[tuple[str, serializers.Field, str | None, type | None]]:
        """Per readable field: its key in the answer, the field, the key or attribute to read
        (None: the field reads it itself) and the type whose values it keeps unchanged."""
        plan = []
        for name, field in self.fields.items():
            if field.write_only:
                continue
            plain = type(field).get_attribute is serializers.Field.get_attribute
            key = field.source_attrs[0] if plain and len(field.source_attrs) == 1 else None
            plan.append((name, field, key, _kept_type(field)))
        return plan

    def to_representation(self, instance: Any) -> dict[str, Any]:
        answer: dict[str, Any] = {}
        by_key = isinstance(instance, Mapping)
        for name, field, key, kept in self._plan:
            value: Any = None
            found = False
            if key is not None:
                try:
                    value = instance[key] if by_key else getattr(instance, key)
                    found = True
                except (KeyError, AttributeError):
                    pass  # missing: the field's default, null or nothing (DRF's rules below)
            if not found or callable(value):
                try:
                    value = field.get_attribute(instance)
                except SkipField:
                    continue
            if value is None or type(value) is kept:
                answer[name] = value
            else:
                answer[name] = field.to_representation(value)
        return answer


VIEWER_OF = {"player_id": "viewer_id", "display_name": "viewer_name"}


class ViewersOwn(serializers.BooleanField):
    """``me``: the row is the viewer's own. A day's board rows hold their player's id, the
    streak, all-time and league tables (kept as JSON) only the name, unique too."""

    def __init__(self, *, by: str, **kwargs: Any) -> None:
        self.by = by  # a key of VIEWER_OF: the row's own, compared with the viewer's
        super().__init__(**kwargs)

    @cached_property
    def viewer(self) -> Any:
        return self.context.get(VIEWER_OF[self.by])

    def get_attribute(self, instance: Any) -> bool:
        own = instance[self.by] if isinstance(instance, Mapping) else getattr(instance, self.by)
        return self.viewer is not None and own == self.viewer


class DeletedAccount(serializers.BooleanField):
    """``deleted``: the row is a deleted account's (accounts.services.delete_account). Such
    an account shows ``DELETED_NAME`` on every board and no player can take that name or
    a look-alike of it, so the row's name tells, in the tables kept as JSON too."""

    def get_attribute(self, instance: Any) -> bool:
        name = instance["display_name"] if isinstance(instance, Mapping) else instance.display_name
        return bool(name == DELETED_NAME)


DELETED_HELP = (
    f"A deleted account's row, named {DELETED_NAME!r}: it has no player page (link the "
    "name nowhere); a page shows the name in its own language."
)


class ReplayUrl(serializers.CharField):
    """The replay page of the row's game (``OpenDayRows`` leaves an open day's out)."""

    def get_attribute(self, instance: Any) -> str:
        return f"/replay/{instance.game_id}/"


def unlink_open_day_replays(rows: Iterable[dict[str, Any] | None]) -> None:
    """An open day's rows: none but the viewer's own links a replay, which opens only when
    the day closes (its player's at once): the boards' replay links led others to a 404."""
    for row in rows:
        if row is not None and not row["me"]:
            row["replay_url"] = None


class OpenDayRows(Answer):
    """An answer with a day's rows, ``results`` (and ``me``), and whether it is ``closed``."""

    def to_representation(self, instance: Any) -> dict[str, Any]:
        answer = super().to_representation(instance)
        if not answer["closed"]:
            unlink_open_day_replays([answer.get("me"), *answer["results"]])
        return answer


class Circle(Answer):
    kind = serializers.ChoiceField(choices=["league", "following"])
    league = serializers.IntegerField(source="league_id", allow_null=True)
    name = serializers.CharField(allow_null=True, help_text="The league's name.")


PAGING_KEYS = ("circle", "count", "page", "pages", "page_size", "next", "previous")


class PagingFields(Answer):
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


class DailyRow(Answer):
    rank = serializers.IntegerField(help_text="Shared by results equal on all four keys.")
    display_name = serializers.CharField()
    deleted = DeletedAccount(help_text=DELETED_HELP)
    won = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Status.choices)
    score = serializers.IntegerField()
    elapsed_ms = serializers.IntegerField(allow_null=True, help_text="Server-measured time.")
    moves = serializers.IntegerField()
    # UTC, as every time the API sends: named, it needs no lookup of the active zone
    finished_at = serializers.DateTimeField(allow_null=True, default_timezone=dt.UTC)
    provisional = serializers.BooleanField(
        help_text="A new account's result, shown until the check after the close (or a "
        "moderator) confirms or removes it (docs/fair-play.md)."
    )
    game_id = serializers.IntegerField()
    replay_url = ReplayUrl(
        allow_null=True,
        help_text="The game's replay page; null on an open day's board but for your own row "
        "(replays open when the day closes).",
    )
    me = ViewersOwn(by="player_id", help_text="This row is the viewer's own result.")


class DailyBoard(OpenDayRows, PagingFields):
    key_order = (
        "board", "circle", "date", "tier", "closed", "par",
        "count", "page", "pages", "page_size", "next", "previous",
        "offset", "served_from", "me", "results",
    )  # fmt: skip

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


class StreakRow(Answer):
    display_name = serializers.CharField()
    deleted = DeletedAccount(help_text=DELETED_HELP)
    current_streak = serializers.IntegerField()
    best_streak = serializers.IntegerField()
    last_win = serializers.DateField(allow_null=True)
    rank = serializers.IntegerField()
    me = ViewersOwn(by="display_name")


class StreakBoard(PagingFields):
    key_order = ("board", *PAGING_KEYS, "results")

    board = serializers.CharField(default="streaks")
    results = StreakRow(many=True)


class BestTimes(Answer):
    easy = serializers.IntegerField(allow_null=True)
    medium = serializers.IntegerField(allow_null=True)
    hard = serializers.IntegerField(allow_null=True)


class AllTimeRow(Answer):
    display_name = serializers.CharField()
    deleted = DeletedAccount(help_text=DELETED_HELP)
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(help_text="wins / played, 0..1")
    average_score = serializers.FloatField()
    best_time_ms = BestTimes(help_text="Fastest won daily per tier.")
    rank = serializers.IntegerField()
    me = ViewersOwn(by="display_name")


class AllTimeBoard(PagingFields):
    key_order = ("board", "period", *PAGING_KEYS, "results")

    board = serializers.CharField(default="alltime")
    period = serializers.ChoiceField(choices=["all", "30d"])
    results = AllTimeRow(many=True)


class PersonalBest(Answer):
    best_score = serializers.IntegerField(allow_null=True)
    best_time_ms = serializers.IntegerField(allow_null=True, help_text="Won games only.")
    fewest_moves = serializers.IntegerField(allow_null=True, help_text="Won games only.")


class PersonalBests(Answer):
    easy = PersonalBest()
    medium = PersonalBest()
    hard = PersonalBest()


class HistoryRow(Answer):
    game_id = serializers.IntegerField()
    date = serializers.DateField()
    tier = serializers.ChoiceField(choices=Tier.choices)
    status = serializers.ChoiceField(choices=Status.choices)
    won = serializers.BooleanField()
    score = serializers.IntegerField()
    elapsed_ms = serializers.IntegerField(allow_null=True)
    moves = serializers.IntegerField()
    finished_at = serializers.DateTimeField(allow_null=True, default_timezone=dt.UTC)
    guest = serializers.BooleanField(
        help_text="Played as a guest and kept unranked (the player logged in to an account "
        "they had, or signed up after the day closed): in the history, never in a total."
    )
    held = serializers.BooleanField(
        help_text="Your result, held off the boards until a moderator has looked at it "
        "(docs/fair-play.md, 'Guests'): listed on your own page only, never in a total."
    )
    rank = serializers.IntegerField(
        allow_null=True, help_text="null while Redis is down, and for a guest's or held game."
    )
    replay_url = serializers.CharField(
        allow_null=True, help_text="null until the day closes (except on your own page)."
    )


class WeeklyStreak(Answer):
    current = serializers.IntegerField(help_text="Consecutive Sundays with the weekly won.")
    best = serializers.IntegerField()
    last_win = serializers.DateField(allow_null=True)


class PlayerPage(Answer):
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
    count = serializers.IntegerField(
        help_text="Dailies in the history (guests' games the player kept included)."
    )
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    games = HistoryRow(many=True)


class PointsRow(Answer):
    display_name = serializers.CharField()
    deleted = DeletedAccount(help_text=DELETED_HELP)
    points = serializers.IntegerField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    rank = serializers.IntegerField()
    me = ViewersOwn(by="display_name")


class PointsTable(Answer):
    start = serializers.DateField()
    end = serializers.DateField()
    count = serializers.IntegerField(help_text="Members with a result in the period.")
    results = PointsRow(many=True, help_text="The page's rows, then your own if not on it.")


class TierStanding(OpenDayRows):
    tier = serializers.ChoiceField(choices=ChallengeTier.choices)
    closed = serializers.BooleanField()
    count = serializers.IntegerField()
    results = DailyRow(many=True)


class LeagueBoard(Answer):
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


class PlayingNow(Answer):
    easy = serializers.IntegerField()
    medium = serializers.IntegerField()
    hard = serializers.IntegerField()
    weekly = serializers.IntegerField(required=False, help_text="Sundays (UTC) only.")


class YesterdayTier(Answer):
    tier = serializers.ChoiceField(choices=ChallengeTier.choices)
    date = serializers.DateField()
    par = serializers.IntegerField(allow_null=True)
    count = serializers.IntegerField()
    winners = DailyRow(many=True, help_text="The top three.")
    board_url = serializers.CharField()


class LeagueLeaders(Answer):
    league = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.CharField()
    leaders = serializers.DictField(
        child=DailyRow(allow_null=True), help_text="Tier -> the league's leader today."
    )

    def to_representation(self, instance: Any) -> dict[str, Any]:
        answer = super().to_representation(instance)
        unlink_open_day_replays(answer["leaders"].values())  # today's leaders: an open day
        return answer


class HomeStreak(Answer):
    current = serializers.IntegerField(help_text="Consecutive UTC days with a daily won.")
    best = serializers.IntegerField()
    last_win = serializers.DateField(allow_null=True)
    weekly = WeeklyStreak(help_text="The weekly challenge's own streak (Sundays).")


class Home(Answer):
    date = serializers.DateField()
    next_deal_at = serializers.DateTimeField(
        help_text="00:00 UTC tomorrow: the next deal.", default_timezone=dt.UTC
    )
    playing = PlayingNow(help_text="Daily games in play right now, per tier.")
    streak = HomeStreak(allow_null=True, help_text="Yours (null for guests).")
    yesterday = YesterdayTier(many=True)
    leagues = LeagueLeaders(many=True, help_text="Your leagues' leaders today.")


TIER_STATES = ["won", "lost", "playing", "held", "not_played", "open"]


class DayStates(Answer):
    # Plain strings (one of TIER_STATES): three enum fields would name one set three times.
    easy = serializers.CharField(allow_null=True)
    medium = serializers.CharField(allow_null=True)
    hard = serializers.CharField(allow_null=True)
    weekly = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="Sundays' weekly challenge in the calendar; null on other days, and "
        "in a player's recent days (which show the three dailies).",
    )


class CalendarDay(Answer):
    date = serializers.DateField()
    tiers = DayStates(
        help_text="won / lost / playing (an archive game in progress) / held (your daily, "
        "held off the boards until a moderator has looked at it: your calendar only) / "
        "not_played / open (today: play the daily); null: no challenge, or a day to come."
    )


class Badge(Answer):
    tier = serializers.ChoiceField(choices=Tier.choices)
    month = serializers.CharField(help_text="YYYY-MM")
    name = serializers.CharField(help_text="Klondike (easy), Dawson (medium), Chilkoot (hard).")
    title = serializers.CharField()


class Calendar(Answer):
    month = serializers.CharField()
    days = CalendarDay(many=True)
    previous = serializers.CharField(
        allow_null=True, help_text="The month before; null when no challenge was dealt before."
    )
    next = serializers.CharField(allow_null=True)
    badges = Badge(many=True, help_text="Badges earned in this month.")


class TierRecord(Answer):
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    best_time_ms = serializers.IntegerField(allow_null=True)


class TierRecords(Answer):
    easy = TierRecord()
    medium = TierRecord()
    hard = TierRecord()


class ArchiveRecord(Answer):
    played = serializers.IntegerField()
    wins = serializers.IntegerField()


class PlayerRecord(Answer):
    tiers = TierRecords(help_text="Dailies per tier.")
    archive = ArchiveRecord(help_text="Archive games (unranked).")
    recent = CalendarDay(
        many=True, help_text="The last `days` days (30 unless asked), oldest first, today last."
    )
    badges = Badge(many=True)
