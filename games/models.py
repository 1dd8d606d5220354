"""Deals, daily challenges, games and their append-only move logs.

PostgreSQL is the truth. A game keeps a snapshot of its position (the engine's exact text
form) so that a move costs one parse, not a replay; the log stays the authority, and
``verify_game`` replays it from the deal once the game is over.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext as _

from games.commitment import Opening, new_salt
from games.fields import UInt64Field
from yukon.engine import DEAL_ALGORITHM_VERSION, VARIANT_NAMES, Position, get_variant
from yukon.engine.moves import MAX_MULTI_DECK_MOVE_TEXT


def utc_today() -> dt.date:
    return timezone.now().astimezone(dt.UTC).date()


def closes_at(date: dt.date) -> dt.datetime:
    """When ``date``'s challenges close: the next 00:00 UTC."""
    return dt.datetime.combine(date + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)


def refuse_sealed_change(row: models.Model, fields: tuple[str, ...], update_fields: Any) -> None:
    """Raise ValueError if saving ``row`` would change a stored value of ``fields``.

    A published commitment and the games dealt from a deal rest on them: changed in place,
    the commitment would no longer open, and live games would change their start.
    """
    if row._state.adding or row.pk is None:
        return
    if update_fields is not None:
        fields = tuple(n for n in fields if n in update_fields or f"{n}_id" in update_fields)
        if not fields:
            return
    sealed = [_concrete_field(row, name) for name in fields]
    stored = type(row)._base_manager.filter(pk=row.pk).values(*(f.attname for f in sealed)).first()
    if stored is None:
        return
    changed = [f.name for f in sealed if stored[f.attname] != f.to_python(getattr(row, f.attname))]
    if changed:
        raise ValueError(
            f"{row._meta.verbose_name} {row.pk}: {', '.join(changed)} cannot change once "
            "saved (a published commitment and the games dealt from it rest on them)"
        )


def _concrete_field(row: models.Model, name: str) -> models.Field[Any, Any]:
    field = row._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


class Verdict(models.TextChoices):
    SOLVED = "solved"
    UNWINNABLE = "unwinnable"
    UNKNOWN = "unknown"


class Tier(models.TextChoices):
    """The three daily tiers: every day has one challenge in each."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class ChallengeTier(models.TextChoices):
    """A challenge's tier: a daily tier, or the weekly challenge, which exists on Sundays
    (UTC) only and is dealt in Double Yukon (docs/daily.md, "The weekly challenge")."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    WEEKLY = "weekly"


WEEKLY = ChallengeTier.WEEKLY.value
WEEKLY_VARIANT = "double-yukon"
DAILY_VARIANT = "yukon"
SUNDAY = 6  # date.weekday()


def is_weekly_day(date: dt.date) -> bool:
    """The weekly challenge's day: Sunday (UTC)."""
    return date.weekday() == SUNDAY


def tiers_of(date: dt.date) -> list[str]:
    """The tiers ``date`` has, in order: the three dailies, and on Sundays the weekly."""
    return [*Tier.values, WEEKLY] if is_weekly_day(date) else list(Tier.values)


def variant_of_tier(tier: str) -> str:
    """The variant a tier's challenges are dealt in."""
    return WEEKLY_VARIANT if tier == WEEKLY else DAILY_VARIANT


def tier_order(tier: str) -> int:
    """Sort key: easy, medium, hard, weekly."""
    return ChallengeTier.values.index(tier)


def weekly_refusal(date: dt.date) -> str:
    """Why ``date`` (not a Sunday) has no weekly challenge: the text of the 404s."""
    return _(
        "there is no weekly challenge on %(date)s (%(weekday)s): "
        "the weekly challenge is played on Sundays (UTC) only"
    ) % {"date": date.isoformat(), "weekday": WEEKDAYS[date.weekday()]}


class Mode(models.TextChoices):
    DAILY = "daily"  # ranked: one attempt per player per challenge
    PRACTICE = "practice"
    ARCHIVE = "archive"  # a closed day's challenge replayed: unranked, on the archive board
    # Today's challenge played as a guest: never ranked as such. The account its guest
    # signs up for before the close takes it as its daily; an account the guest logs in
    # to keeps it, still "guest", beside its own daily (docs/fair-play.md, "Guests").
    GUEST = "guest"


# The modes that play a challenge on its own day: they close with it (docs/daily.md).
OPEN_DAY_MODES = (Mode.DAILY, Mode.GUEST)


class Status(models.TextChoices):
    PLAYING = "playing"
    WON = "won"
    STUCK = "stuck"  # no legal move left
    RESIGNED = "resigned"
    ABANDONED = "abandoned"  # a daily game left unfinished when its day closed


class Verification(models.TextChoices):
    PENDING = "pending"
    VERIFIED = "verified"
    REJECTED = "rejected"


VARIANT_CHOICES = [(name, name.title()) for name in VARIANT_NAMES]


class Deal(models.Model):
    """A deal number in one variant under one deal algorithm and one version of the
    variant's rules, with what the solver found."""

    number = UInt64Field()
    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES, default="yukon")
    algorithm_version = models.PositiveSmallIntegerField(default=DEAL_ALGORITHM_VERSION)
    # The variant's rules version when the deal was made (yukon.engine.variants): filled
    # from the variant on creation, so a later change of the rules never alters its games.
    rules_version = models.PositiveSmallIntegerField()
    # Filled by the solver: null until it has looked at the deal.
    # NULL means "not looked at yet", which no verdict string should stand for.
    verdict = models.CharField(  # noqa: DJ001
        max_length=12, choices=Verdict.choices, null=True, blank=True
    )
    solution = models.JSONField(null=True, blank=True, help_text="Winning line: move texts.")
    solve_nodes = models.BigIntegerField(null=True, blank=True)
    solve_seconds = models.FloatField(null=True, blank=True)
    # Difficulty: how often the strategy bot wins it (0..1), measured by the daily issue.
    bot_win_rate = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    SEALED_FIELDS = ("number", "variant", "algorithm_version", "rules_version")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["number", "variant", "algorithm_version", "rules_version"],
                name="games_deal_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.variant} #{self.number} (v{self.algorithm_version})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """The solver may fill in what it found; what the deal is never changes."""
        refuse_sealed_change(self, self.SEALED_FIELDS, kwargs.get("update_fields"))
        if self.rules_version is None:
            self.rules_version = get_variant(self.variant).rules_version
        super().save(*args, **kwargs)

    def start_position(self, *, takeback: bool = False) -> Position:
        """The deal as dealt, under the rules its games were played by (``takeback``: with
        the foundation take-back option)."""
        variant = get_variant(
            self.variant, rules_version=self.rules_version, foundation_takeback=takeback
        )
        return Position.deal(self.number, variant)


class DailyChallenge(models.Model):
    """The deal everyone plays on ``date`` in one tier; its number stays secret until then."""

    date = models.DateField()
    tier = models.CharField(max_length=8, choices=ChallengeTier.choices)
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="challenges")
    bot_win_rate = models.FloatField(null=True, blank=True)
    # The strategy bot's own game of the deal (games.daily.bot_game: each move its first
    # choice, no randomness), for the results screen's "how the computer did": null until
    # played (challenges published before it existed get it on first asking).
    bot_moves = models.PositiveIntegerField(null=True, blank=True)
    bot_cards_home = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The public commitment to the deal (games/commitment.py, docs/fair-play.md): shown from
    # the first minute; the salt, like the deal number, only once the day has closed.
    salt = models.CharField(max_length=128, editable=False)
    commitment = models.CharField(max_length=64, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["date", "tier"], name="games_challenge_one_per_tier"),
            models.CheckConstraint(
                condition=Q(commitment__regex=r"^[0-9a-f]{64}$")
                & Q(salt__regex=r"^[0-9a-f]{32,128}$"),
                name="games_challenge_committed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.tier}"

    SEALED_FIELDS = ("date", "tier", "deal", "salt", "commitment")

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Every challenge is committed to as it is published, however it is created; what
        the commitment covers never changes afterwards."""
        if self._state.adding and self.tier == WEEKLY:
            day = self.date if isinstance(self.date, dt.date) else dt.date.fromisoformat(self.date)
            if not is_weekly_day(day):
                raise ValueError(weekly_refusal(day))
            if self.deal.variant != WEEKLY_VARIANT:
                raise ValueError(f"the weekly challenge is dealt in {WEEKLY_VARIANT}")
        if self._state.adding and not self.commitment:
            self.seal()
        refuse_sealed_change(self, self.SEALED_FIELDS, kwargs.get("update_fields"))
        with transaction.atomic():
            super().save(*args, **kwargs)
            # A daily is never a practice deal: its deal (in any variant: they all deal
            # the same cards from one number) leaves the pool as the challenge is saved.
            PracticeDeal.objects.filter(deal__number=self.deal.number).delete()

    def seal(self) -> None:
        """Draw the salt and compute the commitment (before the first save only)."""
        self.salt = new_salt()
        self.commitment = self.expected_commitment()

    def expected_commitment(self) -> str:
        return self.opening().commitment()

    def opening(self) -> Opening:
        """What the commitment covers (the salt included: for the server, or after the close)."""
        deal = self.deal
        day = self.date if isinstance(self.date, str) else self.date.isoformat()
        return Opening(day, self.tier, deal.variant, deal.algorithm_version, deal.number, self.salt)

    @classmethod
    def of_day(cls, date: dt.date) -> list[DailyChallenge]:
        """The day's challenges with their deals, in tier order (easy, medium, hard, and on
        Sundays weekly)."""
        found = cls.objects.filter(date=date).select_related("deal")
        return sorted(found, key=lambda challenge: tier_order(challenge.tier))

    def is_closed(self, today: dt.date | None = None) -> bool:
        """The day is over (UTC): the deal number and every replay become public."""
        return self.date < (today or utc_today())

    @property
    def closes_at(self) -> dt.datetime:
        return closes_at(self.date)


class Game(models.Model):
    """One player's game of one deal. Only games.services changes it."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="games",
    )
    session_key = models.CharField(
        max_length=40,
        blank=True,
        default="",
        help_text="The guest's session (a practice or guest game with no player yet).",
    )
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="games")
    challenge = models.ForeignKey(
        DailyChallenge,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games",
        db_index=False,  # games_game_challenge_status leads with it
    )
    mode = models.CharField(max_length=8, choices=Mode.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    verification = models.CharField(
        max_length=8, choices=Verification.choices, default=Verification.PENDING
    )
    rejection_reason = models.TextField(blank=True, default="")
    score = models.PositiveIntegerField(default=0)
    ply = models.PositiveIntegerField(default=0, help_text="Entries in the move log.")
    moves = models.PositiveIntegerField(default=0, help_text="Effective moves (after undos).")
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    elapsed_ms = models.BigIntegerField(null=True, blank=True, help_text="Server time to finish.")
    verified_at = models.DateTimeField(null=True, blank=True)
    used_undo = models.BooleanField(default=False)
    # The foundation take-back option (practice only): cards may come back from a foundation.
    takeback = models.BooleanField(default=False)
    hints_used = models.PositiveIntegerField(default=0)
    # The engine's text form of the current position, face-down cards included: server only.
    position = models.TextField()
    # Set by moderation: the game vanishes from every board.
    disqualified = models.BooleanField(default=False)
    # A new account's ranked result: on the board marked provisional until the close check
    # (moderation) or a moderator confirms it (docs/fair-play.md, "Provisional results").
    provisional = models.BooleanField(default=False)
    # Started by a guest (mode "guest"), whoever holds it now: a daily since its guest
    # signed up, or an unranked game in the history of the account the guest logged in to.
    played_as_guest = models.BooleanField(default=False)
    # A provisional result kept off every board until a moderator confirms it: a guest's
    # game linked to another game of its challenge, or a result linked to a guest's game
    # (moderation/guest_links.py; docs/fair-play.md, "Guests").
    held = models.BooleanField(default=False)
    # A practice game dealt from the practice pool (games/practice_pool.py): its tier.
    practice_tier = models.CharField(max_length=8, choices=Tier.choices, blank=True, default="")
    # The whole log of a verified game, packed (games/packed_log.py: a few bytes a move);
    # its Move rows are gone then. Null while the log is in rows: in play, pending,
    # rejected. Read either form through games.services.move_log.
    packed_log = models.BinaryField(null=True, blank=True, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "challenge"],
                condition=Q(mode="daily"),
                name="games_game_one_ranked_attempt",
            ),
            models.UniqueConstraint(
                fields=["player", "challenge"],
                condition=Q(mode="archive"),
                name="games_game_one_archive_attempt",
            ),
            # One guest game per session and challenge while no account holds it (an
            # account may hold several: one per private window it logged in from).
            models.UniqueConstraint(
                fields=["session_key", "challenge"],
                condition=Q(mode="guest", player__isnull=True),
                name="games_game_one_guest_attempt",
            ),
            models.CheckConstraint(
                condition=(
                    Q(mode__in=["daily", "archive"])
                    & Q(challenge__isnull=False)
                    & Q(player__isnull=False)
                )
                | (
                    Q(mode="guest")
                    & Q(challenge__isnull=False)
                    & (Q(player__isnull=False) | ~Q(session_key=""))
                )
                | (Q(mode="practice") & Q(challenge__isnull=True)),
                name="games_game_mode_matches_challenge",
            ),
            # Ranked dailies keep the standard rules.
            models.CheckConstraint(
                condition=Q(mode="practice") | Q(takeback=False),
                name="games_game_takeback_practice_only",
            ),
        ]
        indexes = [
            # GET /api/daily/ (played and won per challenge), and every lookup by challenge.
            models.Index(fields=["challenge", "status"], name="games_game_challenge_status"),
            # The sweeper: daily and guest games still in play (a small set) whose day has
            # closed.
            models.Index(
                fields=["challenge"],
                condition=Q(mode__in=["daily", "guest"], status="playing"),
                name="games_game_open_day_playing",
            ),
            # The sweeper: finished games still waiting for verification.
            models.Index(
                fields=["finished_at"],
                condition=Q(verification="pending") & ~Q(status="playing"),
                name="games_game_unverified",
            ),
            # Claiming a guest's games at log-in.
            models.Index(
                fields=["session_key"],
                condition=Q(player__isnull=True),
                name="games_game_guest_session",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.pk} ({self.mode}, {self.status})"

    @property
    def is_over(self) -> bool:
        return self.status != Status.PLAYING

    @property
    def assisted(self) -> bool:
        """Played with the coach's help (a hint or a "still winnable?" answer)."""
        return self.hints_used > 0

    @property
    def tier(self) -> str | None:
        return self.challenge.tier if self.challenge_id and self.challenge else None

    def is_public(self, today: dt.date | None = None) -> bool:
        """May everyone see this game's deal and log? Practice: always; daily: once closed
        (an archive game's day is closed before it starts)."""
        if self.mode == Mode.PRACTICE:
            return True
        assert self.challenge is not None
        return self.challenge.is_closed(today)

    @property
    def awaits_review(self) -> bool:
        """Held off the boards, and no moderator has decided yet (a disqualified game is
        decided). Told to the game's own player only (docs/fair-play.md, "Guests")."""
        return self.held and not self.disqualified

    def ranks_if_signed_up_before(self) -> dt.datetime | None:
        """A guest's game no account holds yet, whose day is still open: its close, before
        which a sign-up from its session makes it the new account's ranked daily. None
        for every other game."""
        challenge = self.challenge
        if self.mode != Mode.GUEST or self.player_id is not None or challenge is None:
            return None
        return challenge.closes_at if timezone.now() < challenge.closes_at else None

    def current_position(self) -> Position:
        return Position.from_text(self.position)

    def start_position(self) -> Position:
        """The position the game started from: its deal, under its rules and options."""
        return self.deal.start_position(takeback=self.takeback)

    @property
    def can_undo(self) -> bool:
        return self.mode == Mode.PRACTICE and self.status == Status.PLAYING and self.moves > 0


class Move(models.Model):
    """One entry of a game's log. Append-only: rows are inserted, never updated; once the
    game is verified they are packed into ``Game.packed_log`` and deleted."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="log", db_index=False)
    ply = models.PositiveIntegerField()
    # A multi-deck move's text, which names its column and copy, is the longest of any variant.
    text = models.CharField(max_length=MAX_MULTI_DECK_MOVE_TEXT)
    turned = models.CharField(max_length=2, blank=True, default="")
    at_ms = models.BigIntegerField(help_text="Server milliseconds since the game started.")

    class Meta:
        constraints = [
            # Also the index of every log read: (game, ply) in order.
            models.UniqueConstraint(fields=["game", "ply"], name="games_move_one_per_ply"),
        ]
        ordering = ["game", "ply"]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.ply} {self.text}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("the move log is append-only: a stored move is never changed")
        super().save(*args, **kwargs)


class Receipt(models.Model):
    """A finished daily game's receipt, signed by the site (games/receipts.py), kept as it
    was first issued: the player may fetch it again, and neither a rename nor a new
    signing key changes a receipt already given out."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="receipt"
    )
    date = models.DateField(help_text="The challenge's date: the keys file's dates.")
    key_id = models.CharField(max_length=24)
    document = models.TextField(help_text="The signed receipt, as JSON.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["key_id", "date"], name="games_receipt_key_date")]

    def __str__(self) -> str:
        return f"receipt of game {self.game_id}"


class PracticeDeal(models.Model):
    """A deal in the practice pool: proven winnable by the solver, rated into a tier by the
    strategy bot (the daily bands), and never a daily challenge's deal (games/practice_pool.py).

    Any number of players may be dealt it, each at most once; ``dealt`` counts them, and
    the pool's size is its entries nobody has been dealt yet.
    """

    deal = models.OneToOneField(Deal, on_delete=models.CASCADE, related_name="practice")
    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES)  # the deal's, indexed
    tier = models.CharField(max_length=8, choices=Tier.choices)
    bot_win_rate = models.FloatField()
    dealt = models.PositiveIntegerField(default=0, help_text="Games started from it.")
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["variant", "tier", "dealt"], name="games_practice_pick")]

    def __str__(self) -> str:
        return f"{self.variant} {self.tier} #{self.deal_id}"


class PracticePoolStatus(models.Model):
    """How the refills of one variant's tier went: shown in the admin and in /metrics."""

    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES)
    tier = models.CharField(max_length=8, choices=Tier.choices)
    refills = models.PositiveIntegerField(default=0, help_text="Refill runs that needed deals.")
    failures = models.PositiveIntegerField(
        default=0, help_text="Runs that found none of the deals needed, or broke off."
    )
    added = models.PositiveIntegerField(default=0, help_text="Deals added, all runs.")
    last_refill_at = models.DateTimeField(null=True, blank=True)
    last_failure_at = models.DateTimeField(null=True, blank=True)
    last_failure = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["variant", "tier"], name="games_practice_status_one"),
        ]
        verbose_name_plural = "practice pool status"

    def __str__(self) -> str:
        return f"{self.variant} {self.tier}"
