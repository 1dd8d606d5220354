"""Serializers: input validation (readable 400s) and the shapes of every response.

Nothing here ever reads a face-down card: positions go out only through
``Position.masked()``, and a daily deal's number only once its day has closed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any, ClassVar, cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.plumbing import get_class
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import practice_pool
from games.models import (
    OPEN_DAY_MODES,
    ChallengeTier,
    DailyChallenge,
    Game,
    Mode,
    Move,
    Status,
    Tier,
)
from games.receipts import RECEIPT_STATUSES
from games.services import LogEntry, MoveResult, log_entries
from yukon.engine import MAX_DEAL_NUMBER, VARIANT_NAMES, get_variant

MOVE_STATUSES = ("playing", "won", "stuck")  # what a move can lead to
MAX_PLY = 100_000  # far beyond any real game; bigger numbers are refused before the engine
# A move request's ``move``: the longest move text is 10 characters ("16:9h#2>16"), so a
# longer field is junk, refused before the engine reads it.
MAX_MOVE_REQUEST_TEXT = 16


def digits_at_most(limit: int) -> str:
    """A pattern for the strings of decimal digits, no longer than ``limit``'s and leading
    zeros allowed, whose value is at most ``limit``."""
    text = str(limit)
    branches = [f"[0-9]{{1,{len(text) - 1}}}"] if len(text) > 1 else []
    for index, digit in enumerate(text):
        if digit != "0":
            rest = len(text) - index - 1
            below = "0" if digit == "1" else f"[0-{int(digit) - 1}]"
            tail = "" if rest == 0 else "[0-9]" if rest == 1 else f"[0-9]{{{rest}}}"
            branches.append(text[:index] + below + tail)
    return f"^(?:{'|'.join([*branches, text])})$"


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "minimum": 0, "maximum": MAX_DEAL_NUMBER},
            {"type": "string", "pattern": digits_at_most(MAX_DEAL_NUMBER)},
        ],
        "description": "Deal number 0 .. 2**64-1, as a JSON integer or a decimal string.",
    }
)
class DealNumberField(serializers.Field):
    """A deal number 0 .. 2**64-1, read from a JSON integer or a decimal string.

    Responses write it as a string: numbers past 2**53 do not survive JavaScript.
    """

    default_error_messages = {
        "invalid": gettext_lazy("A deal number is a whole number from 0 to 18446744073709551615."),
    }

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, str) and data.isascii() and data.isdigit() and len(data) <= 20:
            data = int(data)
        if not isinstance(data, int) or not 0 <= data <= MAX_DEAL_NUMBER:
            self.fail("invalid")
        return int(data)

    def to_representation(self, value: int) -> str:
        return str(value)


class StartGameSerializer(serializers.Serializer):
    daily = serializers.ChoiceField(
        choices=ChallengeTier.choices,
        required=False,
        help_text="Start (or resume) today's ranked game in this tier; weekly on Sundays "
        "(UTC) only (404 on any other day).",
    )
    deal = DealNumberField(required=False, help_text="Start a practice game of this deal.")
    practice = serializers.ChoiceField(
        choices=Tier.choices,
        required=False,
        help_text="Start a practice game on a proven-winnable deal of this tier that you "
        f"have not played (the practice pool: {', '.join(practice_pool.pool_variants())}).",
    )
    variant = serializers.ChoiceField(
        choices=list(VARIANT_NAMES), default="yukon", help_text="Practice only."
    )
    takeback = serializers.BooleanField(
        default=False,
        help_text="Practice only: the top card of a foundation may come back to the tableau "
        "(it costs the 10 points it earned). Ranked dailies keep the standard rules.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if sum(key in attrs for key in ("daily", "deal", "practice")) != 1:
            raise serializers.ValidationError(
                _(
                    'send either {"daily": "easy|medium|hard|weekly"}, '
                    '{"deal": N, "variant": "yukon"} '
                    'or {"practice": "easy|medium|hard", "variant": "yukon"}'
                )
            )
        pooled = practice_pool.pool_variants()
        if "practice" in attrs and attrs["variant"] not in pooled:
            raise serializers.ValidationError(
                {
                    "variant": _("practice tiers are dealt in %(variants)s only")
                    % {"variants": ", ".join(pooled)}
                }
            )
        if "daily" in attrs and attrs["takeback"]:
            raise serializers.ValidationError(
                {
                    "takeback": _(
                        "take-back is a practice option: ranked dailies keep the usual rules"
                    )
                }
            )
        if attrs["takeback"] and get_variant(attrs["variant"]).multi_deck:
            raise serializers.ValidationError(
                {"takeback": _("take-back is offered for one-deck variants only")}
            )
        return attrs


# The schema of POST /api/games/'s body: one of the three shapes below. StartGameSerializer
# above reads them all as one object (its validate() tells them apart), so its answers stay
# as they are; the shapes say the same in the schema, down to what validate() refuses
# (tests/api/test_declared_inputs.py holds them to it, body by body).
START_KEYS = ("daily", "deal", "practice")


def _in_any_case(words: Iterable[str]) -> str:
    spelled = ("".join(f"[{c}{c.upper()}]" if c.isalpha() else c for c in w) for w in words)
    return f"^(?:{'|'.join(sorted(spelled))})$"


def _read_as(value: bool) -> dict[str, Any]:
    """What DRF's BooleanField reads as ``value``: the JSON boolean, 1 or 0, and its words
    (``TRUE_VALUES``, ``FALSE_VALUES``) in any case."""
    values = (
        serializers.BooleanField.TRUE_VALUES if value else serializers.BooleanField.FALSE_VALUES
    )
    words = [word for word in values if isinstance(word, str)]
    return {
        "anyOf": [{"enum": [value, int(value)]}, {"type": "string", "pattern": _in_any_case(words)}]
    }


READ_AS_TRUE = _read_as(True)


@extend_schema_field({"anyOf": [*READ_AS_TRUE["anyOf"], *_read_as(False)["anyOf"]]})
class BooleanAsRead(serializers.BooleanField):
    """DRF's BooleanField, declared as all it reads (StartGameSerializer's ``takeback``)."""


TAKEBACK_ON = {"required": ["takeback"], "properties": {"takeback": READ_AS_TRUE}}
MULTI_DECK_VARIANTS = [name for name in VARIANT_NAMES if get_variant(name).multi_deck]
UNPOOLED_VARIANTS = [name for name in VARIANT_NAMES if name not in practice_pool.pool_variants()]


class StartShape(serializers.Serializer):
    key: ClassVar[str]  # the one of START_KEYS that a body of this shape has
    # Bodies with that key that validate() still refuses: what no field can say alone.
    refused: ClassVar[list[dict[str, Any]]] = []


class DailyStartSerializer(StartShape):
    key = "daily"
    refused = [TAKEBACK_ON]

    daily = serializers.ChoiceField(
        choices=ChallengeTier.choices,
        help_text="Start (or resume) today's ranked game in this tier; weekly on Sundays "
        "(UTC) only (404 on any other day).",
    )
    variant = serializers.ChoiceField(
        choices=list(VARIANT_NAMES),
        required=False,
        help_text="Not used: a daily is dealt in its challenge's variant.",
    )
    takeback = BooleanAsRead(
        default=False, help_text="False only: ranked dailies keep the standard rules."
    )


class DealStartSerializer(StartShape):
    key = "deal"
    refused = [
        {
            "required": ["variant", "takeback"],
            "properties": {"variant": {"enum": MULTI_DECK_VARIANTS}, "takeback": READ_AS_TRUE},
        }
    ]

    deal = DealNumberField(help_text="Start a practice game of this deal.")
    variant = serializers.ChoiceField(choices=list(VARIANT_NAMES), default="yukon")
    takeback = BooleanAsRead(
        default=False,
        help_text="The top card of a foundation may come back to the tableau (it costs the "
        "10 points it earned). One-deck variants only.",
    )


class PracticeStartSerializer(StartShape):
    key = "practice"
    refused = [
        {"required": ["variant"], "properties": {"variant": {"enum": UNPOOLED_VARIANTS}}},
        *DealStartSerializer.refused,  # take-back is for one deck, pooled or not
    ]

    practice = serializers.ChoiceField(
        choices=Tier.choices,
        help_text="Start a practice game on a proven-winnable deal of this tier that you "
        "have not played (the practice pool).",
    )
    variant = serializers.ChoiceField(
        choices=list(VARIANT_NAMES),
        default="yukon",
        help_text=f"The practice pool deals {', '.join(practice_pool.pool_variants())}.",
    )
    takeback = BooleanAsRead(
        default=False,
        help_text="The top card of a foundation may come back to the tableau (it costs the "
        "10 points it earned). One-deck variants only.",
    )


class StartShapeSchema(OpenApiSerializerExtension):
    """A shape's schema refuses a body with another shape's key, and what ``refused`` lists."""

    target_class = StartShape
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer(
            self.target, direction, bypass_extensions=True
        )
        shape = cast(type[StartShape], get_class(self.target))
        others = [{"required": [key]} for key in START_KEYS if key != shape.key]
        schema["not"] = {"anyOf": [*others, *shape.refused]}
        return schema


class PlySerializer(serializers.Serializer):
    ply = serializers.IntegerField(
        min_value=0,
        max_value=MAX_PLY,
        help_text="The game's current ply (log length): the index this entry will take.",
    )


class MoveInputSerializer(PlySerializer):
    move = serializers.CharField(
        max_length=MAX_MOVE_REQUEST_TEXT,
        trim_whitespace=True,
        help_text="Move text: '9h>4', 'Ac>F', optionally with the source column '3:9h>4'.",
    )


class ReceiptSerializer(serializers.Serializer):
    """A finished daily game's receipt, signed by the site (games/receipts.py); its shape,
    for the schema (the service builds it)."""

    format = serializers.CharField(help_text="yukon-daily-receipt-v1")
    date = serializers.DateField()
    tier = serializers.ChoiceField(choices=ChallengeTier.choices)
    game_id = serializers.IntegerField()
    player = serializers.CharField(help_text="Your display name when it was issued.")
    status = serializers.ChoiceField(choices=RECEIPT_STATUSES)
    score = serializers.IntegerField()
    moves = serializers.IntegerField()
    elapsed_ms = serializers.IntegerField(help_text="The time on the board.")
    log_sha256 = serializers.CharField(
        help_text="SHA-256 of the move log (docs/fair-play.md, section 5)."
    )
    key_id = serializers.CharField(help_text="The key that signed it (/.well-known/...).")
    signature = serializers.CharField(
        help_text="Ed25519 signature of the receipt's canonical JSON, base64."
    )


class MoveResultSerializer(serializers.Serializer):
    """The move answer's shape, for the schema; ``move_answer`` builds it."""

    ply = serializers.IntegerField(help_text="Log length after the move: the next move's ply.")
    turned = serializers.CharField(allow_null=True, help_text="The card turned face up, if any.")
    score = serializers.IntegerField()
    status = serializers.ChoiceField(choices=MOVE_STATUSES)
    moves = serializers.IntegerField(help_text="Moves that stand (after undos).")
    receipt = ReceiptSerializer(
        allow_null=True,
        help_text="The move that ends a daily game: its signed receipt. Null otherwise.",
    )


def move_answer(result: MoveResult) -> dict[str, Any]:
    """The answer to an accepted move, by both paths (games/api/direct.py and MoveView).

    Written out instead of ``MoveResultSerializer(result).data``: the serializer cost
    hundreds of microseconds a move (field binding on every instance), the move itself
    about 1.5 ms. tests/games/test_move_answer.py holds the two to one shape.
    """
    return {
        "ply": result.ply,
        "turned": result.turned,
        "score": result.score,
        "status": result.status,
        "moves": result.moves,
        "receipt": result.receipt,
    }


class MaskedColumnSerializer(serializers.Serializer):
    down = serializers.IntegerField(help_text="Face-down cards at the bottom: a count only.")
    up = serializers.ListField(
        child=serializers.CharField(), help_text="Face-up cards, bottom first."
    )
    copies = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=4),
        required=False,
        help_text="Multi-deck games only: the deck (1-4) of each face-up card, in the order "
        "of `up`; a move names it (`3:9h#2>4`) when a column shows two copies.",
    )


class MaskedPositionSerializer(serializers.Serializer):
    variant = serializers.CharField()
    columns = MaskedColumnSerializer(many=True)
    foundations = serializers.DictField(
        child=serializers.JSONField(),
        help_text="Cards home per suit: c, d, h, s. One deck: a count; multi-deck games: a "
        "list of counts, one per foundation of that suit.",
    )
    score = serializers.IntegerField()
    moves = serializers.IntegerField()


def public_deal_number(game: Game, today: dt.date | None = None) -> int | None:
    """The deal number if everyone may see it: a practice game's always; a daily's once
    its day closed and never while the game is still in play, whatever the clock says."""
    if game.mode in OPEN_DAY_MODES and game.status == Status.PLAYING:
        return None
    return game.deal.number if game.is_public(today) else None


class GameSerializer(serializers.ModelSerializer):
    """A game as its player sees it: the masked position, never the snapshot."""

    variant = serializers.CharField(source="deal.variant", read_only=True)
    tier = serializers.SerializerMethodField()
    bot_win_rate = serializers.SerializerMethodField()
    date = serializers.SerializerMethodField()
    deal = serializers.SerializerMethodField()
    closes_at = serializers.SerializerMethodField()
    commitment = serializers.SerializerMethodField()
    salt = serializers.SerializerMethodField()
    position = serializers.SerializerMethodField()
    can_undo = serializers.BooleanField(read_only=True)
    assisted = serializers.BooleanField(read_only=True)
    takeback = serializers.BooleanField(
        read_only=True, help_text="Played with the foundation take-back option (practice)."
    )
    guest = serializers.SerializerMethodField()
    ranks_if_signed_up_before = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields: tuple[str, ...] = (
            "id",
            "mode",
            "guest",
            "ranks_if_signed_up_before",
            "variant",
            "tier",
            "bot_win_rate",
            "date",
            "deal",
            "status",
            "verification",
            "score",
            "ply",
            "moves",
            "elapsed_ms",
            "used_undo",
            "hints_used",
            "assisted",
            "can_undo",
            "takeback",
            "started_at",
            "finished_at",
            "closes_at",
            "commitment",
            "salt",
            "position",
        )
        read_only_fields: tuple[str, ...] = fields

    @extend_schema_field(
        serializers.ChoiceField(
            choices=ChallengeTier.choices,
            allow_null=True,
            help_text="A daily's tier (weekly: the Sunday challenge), or the tier of a "
            "practice game dealt from the pool.",
        )
    )
    def get_tier(self, game: Game) -> str | None:
        return game.challenge.tier if game.challenge else game.practice_tier or None

    @extend_schema_field(
        serializers.FloatField(
            allow_null=True,
            help_text="How often the strategy bot wins the deal (0..1): a daily, or a "
            "practice game dealt from the pool. Null otherwise.",
        )
    )
    def get_bot_win_rate(self, game: Game) -> float | None:
        if game.challenge is not None:
            return game.challenge.bot_win_rate
        return game.deal.bot_win_rate if game.practice_tier else None

    @extend_schema_field(serializers.DateField(allow_null=True))
    def get_date(self, game: Game) -> dt.date | None:
        return game.challenge.date if game.challenge else None

    @extend_schema_field(
        serializers.CharField(
            allow_null=True,
            help_text="Deal number (a decimal string): practice games, or a daily game that "
            "is over once its day closed (never while it is in play).",
        )
    )
    def get_deal(self, game: Game) -> str | None:
        number = public_deal_number(game)
        return None if number is None else str(number)

    @extend_schema_field(
        serializers.DateTimeField(
            allow_null=True,
            help_text="A daily game (a guest's too): when its day closes (00:00 UTC); after "
            "it the game can no longer change. Null for practice and archive games.",
        )
    )
    def get_closes_at(self, game: Game) -> str | None:
        if game.challenge is None or game.mode not in OPEN_DAY_MODES:
            return None
        return serializers.DateTimeField().to_representation(game.challenge.closes_at)

    @extend_schema_field(
        serializers.BooleanField(
            help_text="A guest's game of a daily (mode `guest`): played like a daily, but not "
            "ranked. It ranks only if its guest signs up (a new account, in the same browser "
            "session) before `ranks_if_signed_up_before`; a log-in to an existing account "
            "keeps it unranked in that player's history."
        )
    )
    def get_guest(self, game: Game) -> bool:
        return game.mode == Mode.GUEST

    @extend_schema_field(
        serializers.DateTimeField(
            allow_null=True,
            help_text="A guest's game that can still rank: its day's close (00:00 UTC). A "
            "sign-up from this session before then makes it the new account's daily, ranked "
            "as a provisional result (docs/fair-play.md). Null for every other game.",
        )
    )
    def get_ranks_if_signed_up_before(self, game: Game) -> str | None:
        closes_at = game.ranks_if_signed_up_before()
        return (
            None if closes_at is None else serializers.DateTimeField().to_representation(closes_at)
        )

    @extend_schema_field(
        serializers.CharField(
            allow_null=True,
            help_text="A daily game: its challenge's commitment (docs/fair-play.md), public "
            "from the first minute. Null for practice.",
        )
    )
    def get_commitment(self, game: Game) -> str | None:
        return game.challenge.commitment if game.challenge else None

    @extend_schema_field(
        serializers.CharField(
            allow_null=True,
            help_text="A daily game's salt, shown with its deal number (never before).",
        )
    )
    def get_salt(self, game: Game) -> str | None:
        if game.challenge is None or public_deal_number(game) is None:
            return None
        return game.challenge.salt

    @extend_schema_field(MaskedPositionSerializer)
    def get_position(self, game: Game) -> dict[str, Any]:
        return game.current_position().masked()


class ResignAnswerSerializer(GameSerializer):
    """The resigned game and, for a daily game, its signed receipt."""

    # the view issues the receipt (a service call) and hands it in as context["receipt"]

    receipt = serializers.SerializerMethodField()

    class Meta(GameSerializer.Meta):
        fields = (*GameSerializer.Meta.fields, "receipt")
        read_only_fields = fields

    @extend_schema_field(
        ReceiptSerializer(allow_null=True, help_text="A daily game: its signed receipt.")
    )
    def get_receipt(self, game: Game) -> dict[str, Any] | None:
        receipt: dict[str, Any] | None = self.context.get("receipt")
        return receipt


# A Move row's fields, read from a LogEntry of either form (games.services.move_log).
class LogEntrySerializer(serializers.ModelSerializer):
    move = serializers.CharField(source="text", help_text="Move text, or 'undo'.")
    turned = serializers.SerializerMethodField()

    class Meta:
        model = Move
        fields = ("ply", "move", "turned", "at_ms")
        read_only_fields = fields

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_turned(self, entry: LogEntry) -> str | None:
        return entry.turned or None


class ReplaySerializer(GameSerializer):
    """A finished (or public) game with its whole log and the masked starting position."""

    start = serializers.SerializerMethodField()
    log = serializers.SerializerMethodField()

    class Meta(GameSerializer.Meta):
        fields = (*GameSerializer.Meta.fields, "start", "log")
        read_only_fields = fields

    @extend_schema_field(MaskedPositionSerializer)
    def get_start(self, game: Game) -> dict[str, Any]:
        return game.start_position().masked()

    @extend_schema_field(LogEntrySerializer(many=True))
    def get_log(self, game: Game) -> list[dict[str, Any]]:
        """The log from its rows or its packed form (games.services.move_log)."""
        return list(LogEntrySerializer(log_entries(game), many=True).data)


class OwnGameSummarySerializer(serializers.ModelSerializer):
    held = serializers.BooleanField(
        source="awaits_review",
        read_only=True,
        help_text="Your result is held off the boards until a moderator has looked at it "
        "(docs/fair-play.md, 'Guests').",
    )

    class Meta:
        model = Game
        fields = ("id", "status", "verification", "score", "moves", "elapsed_ms", "held")
        read_only_fields = fields


class PracticeGameSummarySerializer(serializers.ModelSerializer):
    """One of your practice games in the list (GET /api/games/): enough to resume it."""

    variant = serializers.CharField(source="deal.variant", read_only=True)
    deal = serializers.CharField(source="deal.number", read_only=True, help_text="Deal number.")
    tier = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = (
            "id",
            "variant",
            "deal",
            "tier",
            "status",
            "score",
            "moves",
            "hints_used",
            "started_at",
            "finished_at",
        )
        read_only_fields = fields

    @extend_schema_field(
        serializers.ChoiceField(
            choices=Tier.choices, allow_null=True, help_text="Dealt from the pool: its tier."
        )
    )
    def get_tier(self, game: Game) -> str | None:
        return game.practice_tier or None


class DailyChallengeSerializer(serializers.ModelSerializer):
    """Today's challenge in one tier: never its deal number before the day closes."""

    variant = serializers.CharField(
        source="deal.variant",
        read_only=True,
        help_text="The variant it is dealt in: yukon, double-yukon for the weekly.",
    )
    played = serializers.IntegerField(
        read_only=True, help_text="Games started on it today, guests' included."
    )
    won = serializers.IntegerField(read_only=True, help_text="Of those, won (guests' included).")
    guests = serializers.IntegerField(
        read_only=True,
        help_text="Of those, played as a guest (some since given to the account their guest "
        "signed up for): how many guests played.",
    )
    closes_at = serializers.DateTimeField(read_only=True)
    game = serializers.SerializerMethodField(
        help_text="Your game: a player's ranked daily, a guest's game of this session."
    )

    class Meta:
        model = DailyChallenge
        fields = (
            "date",
            "tier",
            "variant",
            "bot_win_rate",
            "played",
            "won",
            "guests",
            "closes_at",
            "commitment",
            "game",
        )
        extra_kwargs = {"commitment": {"help_text": "SHA-256 commitment to the deal (fair play)."}}
        read_only_fields = fields

    @extend_schema_field(OwnGameSummarySerializer(allow_null=True))
    def get_game(self, challenge: DailyChallenge) -> dict[str, Any] | None:
        games: dict[int, Game] = self.context.get("own_games", {})
        game = games.get(challenge.pk)
        return OwnGameSummarySerializer(game).data if game else None


class ChallengeProofSerializer(serializers.Serializer):
    """A day's commitment, and once the day has closed what it committed to (fair play)."""

    date = serializers.DateField()
    tier = serializers.ChoiceField(choices=ChallengeTier.choices)
    variant = serializers.CharField(source="deal.variant")
    algorithm_version = serializers.IntegerField(source="deal.algorithm_version")
    commitment = serializers.CharField(help_text="Lowercase hex SHA-256 (docs/fair-play.md).")
    closes_at = serializers.DateTimeField()
    closed = serializers.SerializerMethodField()
    deal = serializers.SerializerMethodField()
    salt = serializers.SerializerMethodField()
    games_url = serializers.SerializerMethodField()

    def _closed(self, challenge: DailyChallenge) -> bool:
        return challenge.is_closed(self.context.get("today"))

    def get_closed(self, challenge: DailyChallenge) -> bool:
        return self._closed(challenge)

    @extend_schema_field(
        serializers.CharField(allow_null=True, help_text="Deal number (decimal) once closed.")
    )
    def get_deal(self, challenge: DailyChallenge) -> str | None:
        return str(challenge.deal.number) if self._closed(challenge) else None

    @extend_schema_field(
        serializers.CharField(allow_null=True, help_text="The salt (lowercase hex) once closed.")
    )
    def get_salt(self, challenge: DailyChallenge) -> str | None:
        return challenge.salt if self._closed(challenge) else None

    @extend_schema_field(
        serializers.CharField(allow_null=True, help_text="The ranked games' logs, once closed.")
    )
    def get_games_url(self, challenge: DailyChallenge) -> str | None:
        if not self._closed(challenge):
            return None
        return f"/api/daily/{challenge.date.isoformat()}/{challenge.tier}/games.jsonl"


class DailySerializer(serializers.Serializer):
    date = serializers.DateField()
    challenges = DailyChallengeSerializer(many=True)
    opened = ChallengeProofSerializer(
        many=True, help_text="Yesterday's challenges, opened: deal, salt and commitment."
    )
