"""Every moderation action: clear a flag, disqualify a game, ban or unban a player, void a
day, rename or close a league, file or dismiss a report, file or decide an appeal. Each
runs in one transaction and writes one AuditLog row per target. A player is told of a
decision about them (a disqualification, a ban, a result put back, an appeal decided) by
a notice and a mail (``moderation.notices``). Moderation decides and writes its own rows (flags,
reports, bans, voids, the audit log); a game's standing changes through
``games.services``, a player's ban mark through ``accounts.services`` and a league
through ``social.services``. Those services tell the boards after commit
(``accounts.signals.results_changed``): moderation knows nothing of the leaderboards.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any, TypeVar

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import services as account_services
from accounts.language import in_language_of
from accounts.models import User
from apikit.errors import Conflict, Forbidden, NotFound, ServiceError
from games import services as game_services
from games.models import DailyChallenge, Game, Mode, Status, Verification, utc_today
from moderation import notices
from moderation.models import (
    AbstractReport,
    Appeal,
    AppealStatus,
    AuditAction,
    AuditLog,
    Ban,
    DayVoid,
    Flag,
    FlagKind,
    FlagStatus,
    LeagueReport,
    NoticeKind,
    Report,
    ReportStatus,
)
from social import services as social
from social.models import League

MAX_REASON = 2000

AnyReport = TypeVar("AnyReport", bound=AbstractReport)


class TooManyReports(ServiceError):
    """More reports in the last hour than ``MODERATION_REPORTS_PER_HOUR``: 429."""

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


def _close_flags(game_ids: Iterable[int], actor: Any, status: str, why: str) -> None:
    _close_flags_of(Flag.objects.filter(game_id__in=list(game_ids)), actor, status, why)


def _close_flags_of(flags: QuerySet[Flag], actor: Any, status: str, why: str) -> None:
    flags.filter(status=FlagStatus.OPEN).update(
        status=status, resolved_by=actor, resolved_at=timezone.now(), resolution=why
    )


def _settle_reports(reports: QuerySet[AnyReport], actor: Any, why: str) -> int:
    """The open ones of ``reports`` are settled: what they named was acted on."""
    return reports.filter(status=ReportStatus.OPEN).update(
        status=ReportStatus.ACTIONED,
        handled_by=actor,
        handled_at=timezone.now(),
        resolution=why,
    )


def _close_reports(game_ids: Iterable[int], actor: Any, why: str) -> None:
    _settle_reports(Report.objects.filter(game_id__in=list(game_ids)), actor, why)


# ----- flags and reports -----------------------------------------------------------------


def clear_flag(actor: Any, flag_id: int, reason: str) -> Flag:
    """A moderator looked at a flag and found nothing wrong; the game keeps its place (a
    result held for a ``guest_linked`` flag goes back on its board, still provisional)."""
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
        if flag.kind == FlagKind.GUEST_LINKED:
            game_services.release_results([flag.game_id])
        _audit(actor, AuditAction.CLEAR_FLAG, flag, reason)
    return flag


def dismiss_report(actor: Any, report_id: int, reason: str) -> Report:
    """A moderator found nothing wrong with the reported game."""
    return _dismiss(Report, actor, report_id, reason)


def dismiss_league_report(actor: Any, report_id: int, reason: str) -> LeagueReport:
    """A moderator found nothing wrong with the reported league name."""
    return _dismiss(LeagueReport, actor, report_id, reason)


def _dismiss(model: type[AnyReport], actor: Any, report_id: int, reason: str) -> AnyReport:
    reason = _reason(reason)
    with transaction.atomic():
        report = model._default_manager.select_for_update().get(pk=report_id)
        if report.status != ReportStatus.OPEN:
            return report
        report.status = ReportStatus.DISMISSED
        report.handled_by = actor
        report.handled_at = timezone.now()
        report.resolution = reason
        report.save(update_fields=["status", "handled_by", "handled_at", "resolution"])
        _audit(actor, AuditAction.DISMISS_REPORT, report, reason)
    return report


def file_report(reporter: Any, game: Game, reason: Any) -> tuple[Report, bool]:
    """A player reports a game they can see: (report, created). One report per game each."""
    reason = _report_reason(reason, _("say what looks wrong: a reason is required"))
    if game.player_id == reporter.pk:
        raise Forbidden(_("you cannot report your own game"))
    return _file(Report, reporter, reason, {"game": game})


def report_league(reporter: Any, league: League, reason: Any) -> tuple[LeagueReport, bool]:
    """A member (or invitee) reports the league's name: (report, created). The name is
    kept as reported: a rename later does not rewrite it."""
    reason = _report_reason(reason, _("say what is wrong with the name: a reason is required"))
    return _file(LeagueReport, reporter, reason, {"league": league}, reported_name=league.name)


def _report_reason(reason: Any, missing: str) -> str:
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise ServiceError(missing)
    return reason[:MAX_REASON]


def _file(
    model: type[AnyReport],
    reporter: Any,
    reason: str,
    subject: dict[str, Any],
    **details: Any,
) -> tuple[AnyReport, bool]:
    """File a report of ``subject`` (once per reporter: their earlier report of it stands);
    past ``MODERATION_REPORTS_PER_HOUR`` reports of this kind in the last hour,
    TooManyReports."""
    with transaction.atomic():
        _one_filing_at_a_time(reporter)
        existing = model._default_manager.filter(reporter=reporter, **subject).first()
        if existing is not None:
            return existing, False
        limit = settings.MODERATION_REPORTS_PER_HOUR
        since = timezone.now() - dt.timedelta(hours=1)
        if model._default_manager.filter(reporter=reporter, created_at__gte=since).count() >= limit:
            raise TooManyReports(
                ngettext(
                    "you have sent %(limit)s report in the last hour; try again later",
                    "you have sent %(limit)s reports in the last hour; try again later",
                    limit,
                )
                % {"limit": limit}
            )
        try:
            with transaction.atomic():
                report = model._default_manager.create(
                    reporter=reporter, reason=reason, **subject, **details
                )
        except IntegrityError:  # a double click where rows are not locked (SQLite)
            return model._default_manager.get(reporter=reporter, **subject), False
    return report, True


def _one_filing_at_a_time(user: Any) -> None:
    """Lock the filer's row until the transaction ends, so that their count of the last
    hour and their new row are one filing's at a time: counted first and written after,
    twenty reports sent at once got past a limit of ten (PostgreSQL; SQLite writes one
    transaction at a time anyway)."""
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))


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
        (game,) = game_services.disqualify_games([game.pk])
        _forget_ban_took(game)  # a moderator's own decision: no restore undoes it
        seen = [
            FlagKind(kind).label
            for kind in Flag.objects.filter(game_id=game.pk, status=FlagStatus.OPEN)
            .order_by("kind")
            .values_list("kind", flat=True)
        ]
        _close_flags([game.pk], actor, FlagStatus.UPHELD, reason)
        _close_reports([game.pk], actor, reason)
        _audit(actor, AuditAction.DISQUALIFY, game, reason)
        if game.player is not None:
            with in_language_of(game.player):
                text = notices.disqualified_text(game, reason, seen)
            notices.notify(game.player, NoticeKind.DISQUALIFIED, text, game)
    return game


def requalify_game(actor: Any, game_id: int, reason: str) -> Game:
    """Undo a disqualification (not one that came with a voided day)."""
    reason = _reason(reason)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).get(pk=game_id)
        if not game.disqualified:
            return game
        _put_back(actor, game, reason, AuditAction.REQUALIFY)
    return game


def _put_back(actor: Any, game: Game, reason: str, action: str) -> Game:
    """Requalify a locked, disqualified game (not of a voided day), audit it and tell its
    player."""
    if DayVoid.objects.filter(challenge_id=game.challenge_id).exists():
        raise Conflict("this game's day was voided: its games stay off the board")
    (game,) = game_services.requalify_games([game.pk])
    # The ban no longer holds this result: a later disqualification is the moderator's.
    _forget_ban_took(game)
    _audit(actor, action, game, reason)
    if game.player is not None:
        with in_language_of(game.player):
            text = notices.reinstated_text(game, reason, on_appeal=action == AuditAction.REINSTATE)
        notices.notify(game.player, NoticeKind.REINSTATED, text, game)
    return game


def confirm_result(actor: Any, game_id: int, reason: str) -> Game:
    """A moderator confirms a provisional result: it stays on its board (a held one goes
    back on it, its ``guest_linked`` flag cleared), unmarked."""
    reason = _reason(reason)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).get(pk=game_id)
        if not game.provisional:
            return game
        game_services.confirm_results([game.pk])
        guest_links = Flag.objects.filter(game_id=game.pk, kind=FlagKind.GUEST_LINKED)
        _close_flags_of(guest_links, actor, FlagStatus.CLEARED, f"result confirmed: {reason}")
        _audit(actor, AuditAction.CONFIRM_RESULT, game, reason)
    game.refresh_from_db()
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
        game_ids = game_services.void_challenge(challenge.pk)
        _close_flags(game_ids, actor, FlagStatus.UPHELD, f"day voided: {reason}")
        _close_reports(game_ids, actor, f"day voided: {reason}")
        _audit(actor, AuditAction.VOID_DAY, challenge, reason)
    return void


def disqualify_if_voided(game_id: int) -> None:
    """A game of a voided day verified after the void stays off the board too."""
    voided = Game.objects.filter(pk=game_id, disqualified=False, challenge__void__isnull=False)
    if voided.exists():
        game_services.disqualify_games([game_id])


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
        user = account_services.ban_account(user.pk, ban.reason)
        game_ids = Game.objects.filter(player=user).values_list("pk", flat=True)
        _close_flags(game_ids, actor, FlagStatus.UPHELD, f"player banned: {reason}")
        _audit(actor, AuditAction.BAN, user, reason)
        _end_games_in_progress(actor, user, reason)
        taken = _take_results(actor, ban, reason)
        with in_language_of(user):
            text = notices.banned_text(reason, taken)
        notices.notify(user, NoticeKind.BANNED, text)
    return ban


def _end_games_in_progress(actor: Any, user: User, reason: str) -> None:
    """A banned player cannot finish a ranked game started before the ban: it ends now."""
    playing = Game.objects.filter(player=user, mode=Mode.DAILY, status=Status.PLAYING)
    for game_id in playing.values_list("pk", flat=True):
        ended = game_services.abandon_game(game_id)
        if ended is not None:
            _audit(actor, AuditAction.END_GAME, ended, f"player banned: {reason}")


def _take_results(actor: Any, ban: Ban, reason: str) -> int:
    """Disqualify the player's ranked results, remembering which ones this ban took; how
    many."""
    taken = Game.objects.filter(player_id=ban.player_id, mode=Mode.DAILY, disqualified=False)
    targets = game_services.disqualify_games(taken.values_list("pk", flat=True))
    if not targets:
        return 0
    ban.disqualified_games.add(*targets)
    _audit_each(actor, AuditAction.DISQUALIFY, targets, f"player banned: {reason}")
    return len(targets)


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
        locked = taken.select_for_update(of=("self",)).values_list("pk", flat=True)
        targets = game_services.requalify_games(list(locked))
        links.delete()
        why = f"results restored after a ban: {reason}"
        _audit_each(actor, AuditAction.REQUALIFY, targets, why)
        _audit(actor, AuditAction.RESTORE_RESULTS, user, reason)
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
        user = account_services.unban_account(user.pk)
        _audit(actor, AuditAction.UNBAN, user, reason)
    return user


# ----- leagues (a reported name) -----------------------------------------------------------


def rename_league(actor: Any, league_id: int, reason: str, name: str | None = None) -> Any:
    """Rename a league: to ``name`` (checked like any league name), or by default to the
    neutral "League <id>". Its open name reports are settled."""
    reason = _reason(reason)
    with transaction.atomic():
        league, old = social.set_league_name(league_id, name or f"League {league_id}")
        _settle_league_reports(league_id, actor, f"renamed: {reason}")
        _audit(actor, AuditAction.RENAME_LEAGUE, league, f"{old!r} -> {league.name!r}: {reason}")
    return league


def close_league(actor: Any, league_id: int, reason: str) -> Any:
    """Close a league: hidden from its members, its link joins nobody. Audited once."""
    reason = _reason(reason)
    with transaction.atomic():
        league = social.close_league(league_id, reason)
        _settle_league_reports(league_id, actor, f"closed: {reason}")
        _audit(actor, AuditAction.CLOSE_LEAGUE, league, reason)
    return league


def _settle_league_reports(league_id: int, actor: Any, why: str) -> int:
    return _settle_reports(LeagueReport.objects.filter(league_id=league_id), actor, why)


# ----- appeals (a player's, of a disqualification) -----------------------------------------


class TooManyAppeals(ServiceError):
    """More appeals in the last hour than ``MODERATION_REPORTS_PER_HOUR``: 429."""

    http_status = 429


def file_appeal(player: Any, game_id: int, reason: Any) -> Appeal:
    """The player appeals the disqualification of their game, once. 404 for a game that
    is not theirs (whether or not it exists), 400 when it was appealed already or is not
    disqualified on its own (a voided day, a ban's results), 429 past the hourly limit of
    reports. The appeal waits at the head of the queue; the audit log keeps its words."""
    reason = _report_reason(reason, _("say why the decision is wrong: a reason is required"))
    with transaction.atomic():
        _one_filing_at_a_time(player)  # (the player first, as a ban locks them)
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("challenge")
            .filter(pk=game_id, player_id=player.pk)
            .first()
        )
        if game is None:
            raise NotFound(_("you have no game with this id"))
        if Appeal.objects.filter(game_id=game.pk).exists():
            raise ServiceError(
                _("you have appealed this decision already: an appeal is heard once")
            )
        if not game.disqualified:
            raise ServiceError(_("this game is not disqualified: there is nothing to appeal"))
        if DayVoid.objects.filter(challenge_id=game.challenge_id).exists():
            raise ServiceError(
                _(
                    "the moderators voided this whole day's board, for everyone: it is not a "
                    "decision about you to appeal"
                )
            )
        if Ban.disqualified_games.through.objects.filter(game_id=game.pk).exists():
            raise ServiceError(
                _(
                    "this result was taken by the ban of your account, not on its own: it is "
                    "not appealed game by game"
                )
            )
        limit = settings.MODERATION_REPORTS_PER_HOUR
        since = timezone.now() - dt.timedelta(hours=1)
        if Appeal.objects.filter(player_id=player.pk, created_at__gte=since).count() >= limit:
            raise TooManyAppeals(
                ngettext(
                    "you have sent %(limit)s appeal in the last hour; try again later",
                    "you have sent %(limit)s appeals in the last hour; try again later",
                    limit,
                )
                % {"limit": limit}
            )
        appeal = Appeal.objects.create(game=game, player=player, reason=reason)
        _audit(player, AuditAction.APPEAL, game, reason)
    return appeal


def uphold_on_appeal(actor: Any, appeal_id: int, reason: str) -> Appeal:
    """A moderator read the appeal and the disqualification stands; the player is told."""
    return _decide_appeal(actor, appeal_id, reason, reinstate=False)


def reinstate_on_appeal(actor: Any, appeal_id: int, reason: str) -> Appeal:
    """A moderator read the appeal and puts the result back on its board (through
    ``games.services``); the player is told."""
    return _decide_appeal(actor, appeal_id, reason, reinstate=True)


def _decide_appeal(actor: Any, appeal_id: int, reason: str, *, reinstate: bool) -> Appeal:
    reason = _reason(reason)
    with transaction.atomic():
        appeal = Appeal.objects.select_for_update().get(pk=appeal_id)
        if appeal.status != AppealStatus.OPEN:
            return appeal  # decided already: nothing to log twice
        if appeal.player_id == actor.pk:
            raise Forbidden("you cannot decide your own appeal")
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("challenge", "player")
            .get(pk=appeal.game_id)
        )
        if reinstate and game.disqualified:
            _put_back(actor, game, reason, AuditAction.REINSTATE)
        elif not reinstate:
            _audit(actor, AuditAction.UPHOLD_APPEAL, game, reason)
            with in_language_of(appeal.player):
                text = notices.appeal_refused_text(game, reason)
            notices.notify(appeal.player, NoticeKind.APPEAL_REFUSED, text, game)
        appeal.status = AppealStatus.REINSTATED if reinstate else AppealStatus.UPHELD
        appeal.decided_by = actor
        appeal.decided_at = timezone.now()
        appeal.decision = reason
        appeal.save(update_fields=["status", "decided_by", "decided_at", "decision"])
    return appeal
