"""Every moderation action: clear a flag, disqualify a game, ban or unban a player, void a
day, file or dismiss a report. Each runs in one transaction, writes one AuditLog row per
target, and updates the boards (``leaderboards.services``) once the change has committed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import User
from apikit.errors import Conflict, Forbidden, ServiceError
from games import services as game_services
from games.models import DailyChallenge, Game, Mode, Status, Verification, utc_today
from leaderboards import services as boards
from moderation.models import (
    AuditAction,
    AuditLog,
    Ban,
    DayVoid,
    Flag,
    FlagStatus,
    Report,
    ReportStatus,
)
from social import services as social
from social.models import LeagueReport, LeagueReportStatus

MAX_REASON = 2000


class TooManyReports(ServiceError):
    http_status = 429


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValueError("a reason is required")
    return reason[:MAX_REASON]


def _audit_entry(actor: Any, action: str, target: models.Model, reason: str) -> AuditLog:
    """An audit row, not saved yet: ``_audit`` saves one, ``_audit_each`` many at once."""
    return AuditLog(
        actor=actor,
        actor_name=actor.get_username(),
        action=action,
        target_type=target._meta.label_lower,
        target_id=str(target.pk),
        target_repr=str(target)[:200],
        reason=reason,
    )


def _audit(actor: Any, action: str, target: models.Model, reason: str) -> AuditLog:
    entry = _audit_entry(actor, action, target, reason)
    entry.save()
    return entry


def _after_commit(func: Any, *args: Any) -> None:
    # robust: Redis trouble must not fail a committed moderation action (reads filter anyway).
    transaction.on_commit(lambda: func(*args), robust=True)


def _close_flags(game_ids: Iterable[int], actor: Any, status: str, why: str) -> None:
    Flag.objects.filter(game_id__in=list(game_ids), status=FlagStatus.OPEN).update(
        status=status, resolved_by=actor, resolved_at=timezone.now(), resolution=why
    )


def _close_reports(game_ids: Iterable[int], actor: Any, why: str) -> None:
    Report.objects.filter(game_id__in=list(game_ids), status=ReportStatus.OPEN).update(
        status=ReportStatus.ACTIONED,
        handled_by=actor,
        handled_at=timezone.now(),
        resolution=why,
    )


# ----- flags and reports -----------------------------------------------------------------


def clear_flag(actor: Any, flag_id: int, reason: str) -> Flag:
    """A moderator looked at a flag and found nothing wrong; the game keeps its place."""
    reason = _reason(reason)
    with transaction.atomic():
        flag = Flag.objects.select_for_update().get(pk=flag_id)
        if flag.status != FlagStatus.OPEN:
            return flag  # already decided: nothing to log twice
        flag.status = FlagStatus.CLEARED
        flag.resolved_by = actor
        flag.resolved_at = timezone.now()
        flag.resolution = reason
        flag.save(update_fields=["status", "resolved_by", "resolved_at", "resolution"])
        _audit(actor, AuditAction.CLEAR_FLAG, flag, reason)
    return flag


def dismiss_report(actor: Any, report_id: int, reason: str) -> Report:
    reason = _reason(reason)
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report_id)
        if report.status != ReportStatus.OPEN:
            return report
        report.status = ReportStatus.DISMISSED
        report.handled_by = actor
        report.handled_at = timezone.now()
        report.resolution = reason
        report.save(update_fields=["status", "handled_by", "handled_at", "resolution"])
        _audit(actor, AuditAction.DISMISS_REPORT, report, reason)
    return report


def file_report(reporter: Any, game: Game, reason: str) -> tuple[Report, bool]:
    """A player reports a game they can see: (report, created). One report per game each."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("say what looks wrong: a reason is required")
    if game.player_id == reporter.pk:
        raise Forbidden("you cannot report your own game")
    existing = Report.objects.filter(game=game, reporter=reporter).first()
    if existing is not None:
        return existing, False
    limit = settings.MODERATION_REPORTS_PER_HOUR
    since = timezone.now() - dt.timedelta(hours=1)
    if Report.objects.filter(reporter=reporter, created_at__gte=since).count() >= limit:
        raise TooManyReports(f"you have sent {limit} reports in the last hour; try again later")
    try:
        with transaction.atomic():
            report = Report.objects.create(game=game, reporter=reporter, reason=reason[:MAX_REASON])
    except IntegrityError:  # a double click: the first one stands
        return Report.objects.get(game=game, reporter=reporter), False
    return report, True


# ----- games ------------------------------------------------------------------------------


def disqualify_game(actor: Any, game_id: int, reason: str) -> Game:
    """Take a game off every board at once; its open flags and reports are closed."""
    reason = _reason(reason)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).get(pk=game_id)
        if game.disqualified:
            # Taken by a ban: now the moderator's own decision, which a restore keeps.
            if _forget_ban_took(game):
                _audit(actor, AuditAction.DISQUALIFY, game, reason)
            return game
        game.disqualified = True
        game.save(update_fields=["disqualified"])
        _forget_ban_took(game)  # a moderator's own decision: no restore undoes it
        _close_flags([game.pk], actor, FlagStatus.UPHELD, reason)
        _close_reports([game.pk], actor, reason)
        _audit(actor, AuditAction.DISQUALIFY, game, reason)
        _after_commit(boards.remove_game, game)
    return game


def requalify_game(actor: Any, game_id: int, reason: str) -> Game:
    """Undo a disqualification (not one that came with a voided day)."""
    reason = _reason(reason)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).get(pk=game_id)
        if not game.disqualified:
            return game
        if DayVoid.objects.filter(challenge_id=game.challenge_id).exists():
            raise Conflict("this game's day was voided: its games stay off the board")
        game.disqualified = False
        game.save(update_fields=["disqualified"])
        # The ban no longer holds this result: a later disqualification is the moderator's.
        _forget_ban_took(game)
        _audit(actor, AuditAction.REQUALIFY, game, reason)
        _after_commit(boards.restore_game, game)
    return game


def confirm_result(actor: Any, game_id: int, reason: str) -> Game:
    """A moderator confirms a provisional result: it stays on its board, unmarked."""
    reason = _reason(reason)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).get(pk=game_id)
        if not game.provisional:
            return game
        game_services.confirm_results([game.pk])
        _audit(actor, AuditAction.CONFIRM_RESULT, game, reason)
    return game


def confirm_provisional(today: dt.date | None = None) -> list[int]:
    """The close check: confirm the provisional results of closed days whose every game has
    ended and been judged (a scout's game left in play is ended at the close, and linked
    games are judged again then), where no flag is open; a flagged one waits for a
    moderator, who confirms or removes it."""
    today = today or utc_today()
    unsettled = Game.objects.filter(challenge_id=OuterRef("challenge_id")).filter(
        Q(status=Status.PLAYING) | Q(verification=Verification.PENDING)
    )
    due = (
        Game.objects.filter(
            provisional=True,
            disqualified=False,
            verification=Verification.VERIFIED,
            challenge__date__lt=today,
        )
        .exclude(Exists(Flag.objects.filter(game=OuterRef("pk"), status=FlagStatus.OPEN)))
        .exclude(Exists(unsettled))
    )
    return game_services.confirm_results(due.values_list("pk", flat=True))


def _forget_ban_took(game: Game) -> int:
    """Drop the records that a ban took this game (restore_ban_results reads them)."""
    return int(Ban.disqualified_games.through.objects.filter(game_id=game.pk).delete()[0])


def void_day(actor: Any, challenge_id: int, reason: str) -> DayVoid:
    """Void a whole daily board: every game of the challenge leaves it; the board says why.

    Games verified later (the day may still be open) are disqualified on verification.
    """
    reason = _reason(reason)
    with transaction.atomic():
        challenge = DailyChallenge.objects.select_for_update().get(pk=challenge_id)
        existing = DayVoid.objects.filter(challenge=challenge).first()
        if existing is not None:
            return existing
        void = DayVoid.objects.create(challenge=challenge, reason=reason, voided_by=actor)
        games = Game.objects.filter(challenge=challenge, mode=Mode.DAILY)
        game_ids = list(games.values_list("pk", flat=True))
        games.update(disqualified=True)
        _close_flags(game_ids, actor, FlagStatus.UPHELD, f"day voided: {reason}")
        _close_reports(game_ids, actor, f"day voided: {reason}")
        _audit(actor, AuditAction.VOID_DAY, challenge, reason)
        transaction.on_commit(lambda: boards.rebuild_boards([challenge.pk]), robust=True)
    return void


def disqualify_if_voided(game_id: int) -> None:
    """A game of a voided day verified after the void stays off the board too."""
    game = Game.objects.filter(
        pk=game_id, disqualified=False, challenge__void__isnull=False
    ).first()
    if game is None:
        return
    Game.objects.filter(pk=game_id).update(disqualified=True)
    boards.remove_game(game)


def void_of(challenge: DailyChallenge | None) -> DayVoid | None:
    if challenge is None:
        return None
    return DayVoid.objects.filter(challenge=challenge).first()


# ----- players ----------------------------------------------------------------------------


def ban_player(actor: Any, user_id: int, reason: str) -> Ban:
    """Ban a player: ranked games cannot be started, the ones in progress end unfinished
    (abandoned), and every ranked result is disqualified: off the boards until a
    moderator restores it after an unban (``restore_ban_results``). Each ended game and
    each disqualified result has its own audit row."""
    reason = _reason(reason)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        if user.pk == actor.pk:
            raise Forbidden("you cannot ban yourself")
        ban = Ban.objects.filter(player=user, lifted_at__isnull=True).first()
        if ban is not None and user.is_banned:
            return ban
        if ban is None:
            ban = Ban.objects.create(player=user, reason=reason, banned_by=actor)
        user.is_banned = True
        user.ban_reason = ban.reason
        user.save(update_fields=["is_banned", "ban_reason"])
        game_ids = Game.objects.filter(player=user).values_list("pk", flat=True)
        _close_flags(game_ids, actor, FlagStatus.UPHELD, f"player banned: {reason}")
        _audit(actor, AuditAction.BAN, user, reason)
        _end_games_in_progress(actor, user, reason)
        _take_results(actor, ban, reason)
        _after_commit(boards.remove_player, user)
    return ban


def _end_games_in_progress(actor: Any, user: User, reason: str) -> None:
    """A banned player cannot finish a ranked game started before the ban: it ends now."""
    playing = Game.objects.filter(player=user, mode=Mode.DAILY, status=Status.PLAYING)
    for game_id in playing.values_list("pk", flat=True):
        ended = game_services.abandon_game(game_id)
        if ended is not None:
            _audit(actor, AuditAction.END_GAME, ended, f"player banned: {reason}")


def _take_results(actor: Any, ban: Ban, reason: str) -> None:
    """Disqualify the player's ranked results, remembering which ones this ban took."""
    taken = Game.objects.filter(player_id=ban.player_id, mode=Mode.DAILY, disqualified=False)
    targets = list(taken.select_for_update(of=("self",)))
    if not targets:
        return
    Game.objects.filter(pk__in=[game.pk for game in targets]).update(disqualified=True)
    ban.disqualified_games.add(*targets)
    _audit_each(actor, AuditAction.DISQUALIFY, targets, f"player banned: {reason}")


def _audit_each(actor: Any, action: str, targets: list[Game], reason: str) -> None:
    AuditLog.objects.bulk_create(_audit_entry(actor, action, target, reason) for target in targets)


def restore_ban_results(actor: Any, user_id: int, reason: str) -> int:
    """Put back on the boards the results the player's past bans took (after an unban);
    return how many. Games of a voided day stay out, and so does a game a moderator
    disqualified on its own. Audited per game and once for the player."""
    reason = _reason(reason)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        if user.is_banned:
            raise Conflict("lift the ban first: a banned player's results stay off the boards")
        links = Ban.disqualified_games.through.objects.filter(ban__player=user)
        taken = Game.objects.filter(
            pk__in=links.values("game_id"), disqualified=True, challenge__void__isnull=True
        )
        targets = list(taken.select_for_update(of=("self",)))
        Game.objects.filter(pk__in=[game.pk for game in targets]).update(disqualified=False)
        links.delete()
        why = f"results restored after a ban: {reason}"
        _audit_each(actor, AuditAction.REQUALIFY, targets, why)
        _audit(actor, AuditAction.RESTORE_RESULTS, user, reason)
        _after_commit(boards.restore_player, user)
    return len(targets)


def unban_player(actor: Any, user_id: int, reason: str) -> User:
    """Lift a ban. The results the ban took stay off the boards until a moderator
    restores them (``restore_ban_results``): an unban alone brings nothing back."""
    reason = _reason(reason)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user_id)
        Ban.objects.filter(player=user, lifted_at__isnull=True).update(
            lifted_at=timezone.now(), lifted_by=actor, lift_reason=reason
        )
        if not user.is_banned:
            return user
        user.is_banned = False
        user.ban_reason = ""
        user.save(update_fields=["is_banned", "ban_reason"])
        _audit(actor, AuditAction.UNBAN, user, reason)
        _after_commit(boards.restore_player, user)
    return user


# ----- leagues (a reported name) -----------------------------------------------------------


def rename_league(actor: Any, league_id: int, reason: str, name: str | None = None) -> Any:
    """Rename a league: to ``name`` (checked like any league name), or by default to the
    neutral "League <id>". Its open name reports are settled."""
    reason = _reason(reason)
    with transaction.atomic():
        league, old = social.set_league_name(league_id, name or f"League {league_id}")
        social.settle_league_reports(
            league_id, actor, LeagueReportStatus.ACTIONED, f"renamed: {reason}"
        )
        _audit(actor, AuditAction.RENAME_LEAGUE, league, f"{old!r} -> {league.name!r}: {reason}")
    return league


def close_league(actor: Any, league_id: int, reason: str) -> Any:
    """Close a league: hidden from its members, its link joins nobody. Audited once."""
    reason = _reason(reason)
    with transaction.atomic():
        league = social.close_league(league_id, reason)
        social.settle_league_reports(
            league_id, actor, LeagueReportStatus.ACTIONED, f"closed: {reason}"
        )
        _audit(actor, AuditAction.CLOSE_LEAGUE, league, reason)
    return league


def dismiss_league_report(actor: Any, report_id: int, reason: str) -> LeagueReport:
    reason = _reason(reason)
    with transaction.atomic():
        report = LeagueReport.objects.select_for_update().get(pk=report_id)
        if report.status != LeagueReportStatus.OPEN:
            return report
        report.status = LeagueReportStatus.DISMISSED
        report.handled_by = actor
        report.handled_at = timezone.now()
        report.resolution = reason
        report.save(update_fields=["status", "handled_by", "handled_at", "resolution"])
        _audit(actor, AuditAction.DISMISS_REPORT, report, reason)
    return report
