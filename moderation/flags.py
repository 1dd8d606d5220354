"""Automatic flags, raised when a daily or archive game is verified: each test, its reason,
its numbers.

The log-only tests (pacing timed from the first move, the human signature of thinking,
the solver's line and the solver's moves) live in ``moderation.detector`` and are run
here through ``detector.judge``, the same function the red-team suite calls on simulated
logs (tests/moderation/test_redteam.py, bench/bench_redteam.py). The tests that need the
database (a new player's perfect game, accounts sharing an address, accounts linked by a
device or a network, ``moderation.origins``) are here. Archive games, which earn month
badges on a deal that is public by then, get the same checks as dailies.
Thresholds are settings (``MODERATION_*``, docs/moderation.md). A flag never changes a
board: a moderator decides.
"""

from __future__ import annotations

import logging
from dataclasses import asdict
from typing import Any, TypeGuard

from games import services as game_services
from games.models import Game, Mode, Tier, Verification
from moderation.clairvoyance import Evidence, clairvoyance, record_findings
from moderation.detector import (
    CHOICE_TIERS,
    Finding,
    PlayedGame,
    SolverAgreement,
    Thresholds,
    judge,
    solver_agreement,
)
from moderation.guest_links import hold_if_linked
from moderation.models import ChoiceEvidence, Flag, FlagKind, GameOrigin
from moderation.origins import linked_findings, linked_games

logger = logging.getLogger(__name__)

__all__ = ["Finding", "Thresholds", "inspect_game", "played_game", "raise_flags"]


def played_game(game: Game) -> PlayedGame:
    """The verified log as the detector reads it (packed: no query)."""
    log = game_services.log_entries(game)
    return PlayedGame(
        number=game.deal.number,
        variant=game.deal.variant,
        moves=[entry.text for entry in log],
        at_ms=[entry.at_ms for entry in log],
        solution=game.deal.solution or None,
        tier=game.challenge.tier if game.challenge is not None else None,
    )


def _perfect_first_try(game: Game, t: Thresholds) -> Finding | None:
    challenge = game.challenge
    if challenge is None or challenge.tier != Tier.HARD or game.score < 625:
        return None
    earlier = game_services.earlier_dailies(game)
    if earlier >= t.new_player_dailies:
        return None
    return Finding(
        FlagKind.PERFECT_FIRST_TRY,
        f"a perfect 625 on a hard deal by a player with {earlier} earlier daily game(s) "
        f"(flagged below {t.new_player_dailies})",
        {"score": game.score, "earlier_dailies": earlier, "tier": challenge.tier},
        {"new_player_dailies": t.new_player_dailies},
    )


def _clairvoyance(
    game: Game, played: PlayedGame, t: Thresholds, agreement: SolverAgreement
) -> list[Finding]:
    """The clairvoyance check on the player's record: this game's evidence is stored, then
    judged with the player's earlier judged games (``clairvoyance_record_games`` in all)."""
    if played.tier not in CHOICE_TIERS:
        return []
    result = clairvoyance(played, t, agreement)
    evidence = result.evidence()
    ChoiceEvidence.objects.update_or_create(game_id=game.pk, defaults=asdict(evidence))
    earlier: dict[int, Evidence] = {}
    if game.player_id is not None and game.finished_at is not None:
        rows = ChoiceEvidence.objects.filter(
            game__player_id=game.player_id, game__finished_at__lt=game.finished_at
        ).order_by("-game__finished_at")[: t.clairvoyance_record_games - 1]
        earlier = {
            row.game_id: Evidence(
                tuple(row.style),
                tuple(row.kept),
                row.decisions,
                row.lost,
                tuple(map(tuple, row.consulting)),
            )
            for row in rows
            if len(row.style) == len(evidence.style)  # judged with today's masked players
        }
    return record_findings(result, earlier, t)


def _shared_address(game: Game, t: Thresholds) -> tuple[Finding, list[int]] | None:
    address = GameOrigin.objects.filter(game_id=game.pk).values_list("address", flat=True)
    first = address.first()
    if first is None:
        return None
    siblings = list(
        GameOrigin.objects.filter(
            address=first,
            game__challenge_id=game.challenge_id,
            game__mode=game.mode,
            game__verification=Verification.VERIFIED,
        ).values_list("game_id", "game__player_id")
    )
    players = {player_id for _, player_id in siblings}
    if len(players) < t.shared_address_accounts:
        return None
    finding = Finding(
        FlagKind.SHARED_ADDRESS,
        f"{len(players)} accounts finished this daily from the address {first} "
        f"(flagged from {t.shared_address_accounts})",
        {"address": first, "accounts": len(players), "games": sorted(g for g, _ in siblings)},
        {"shared_address_accounts": t.shared_address_accounts},
    )
    return finding, [game_id for game_id, _ in siblings]


def inspect_game(game: Game, t: Thresholds | None = None) -> list[tuple[int, Finding]]:
    """Every (game id, finding) this verified game raises; a shared address flags them all."""
    t = t or Thresholds.from_settings()
    played = played_game(game)
    agreement = solver_agreement(played, t)
    found = [(game.pk, f) for f in judge(played, t, choices=False, agreement=agreement)]
    found += [(game.pk, f) for f in _clairvoyance(game, played, t, agreement)]
    finding = _perfect_first_try(game, t)
    if finding is not None:
        found.append((game.pk, finding))
    shared = _shared_address(game, t)
    if shared is not None:
        finding, game_ids = shared
        found += [(game_id, finding) for game_id in game_ids]
    found += [(game.pk, finding) for finding in linked_findings(game, t)]
    return found


# A guest's game is not judged (it never ranks, and guests come free: the detector's
# solver time would be theirs to spend); it is judged once it becomes a daily at sign-up
# (the ``moderation.raise_flags`` task).
JUDGED_MODES = (Mode.DAILY, Mode.ARCHIVE)


def _judged(game: Game | None) -> TypeGuard[Game]:
    return (
        game is not None
        and game.mode in JUDGED_MODES
        and game.verification == Verification.VERIFIED
    )


def raise_flags(game_id: int) -> list[Flag]:
    """Flag a verified daily or archive game (idempotent: one flag per game and kind).

    A shared address flags every game finished from it, so the flags already raised are
    read in one query and only the missing ones inserted: behind a big shared address
    (a campus, a carrier's NAT) each verification costs two queries, not one per game.
    """
    game = Game.objects.select_related("deal", "challenge").filter(pk=game_id).first()
    if not _judged(game):
        return []
    return _insert({(flagged_id, f.kind): f for flagged_id, f in inspect_game(game)})


def _insert(findings: dict[tuple[int, str], Finding]) -> list[Flag]:
    if not findings:
        return []
    raised = set(
        Flag.objects.filter(
            game_id__in={flagged_id for flagged_id, _ in findings},
            kind__in={kind for _, kind in findings},
        ).values_list("game_id", "kind")
    )
    new = [
        Flag(
            game_id=flagged_id,
            kind=kind,
            reason=f.reason,
            measured=f.measured,
            thresholds=f.thresholds,
        )
        for (flagged_id, kind), f in findings.items()
        if (flagged_id, kind) not in raised
    ]
    # a racing verification may insert the same flag first: the unique constraint keeps one
    Flag.objects.bulk_create(new, ignore_conflicts=True)
    for flag in new:
        logger.info("flagged game %s: %s", flag.game_id, flag.reason)
    return new


def recheck_links(game: Game) -> list[Flag]:
    """Judge again the verified games linked to ``game`` (a scout's game ended or verified
    after them: at the latest when the close ends it) for ``linked_accounts`` alone, and
    hold those a guest's game now keeps off the boards (``guest_links``)."""
    t = Thresholds.from_settings()
    findings: dict[tuple[int, str], Finding] = {}
    for link in linked_games(game):
        other = Game.objects.select_related("challenge").filter(pk=link.game_id).first()
        if _judged(other):
            for finding in linked_findings(other, t):
                findings[(link.game_id, finding.kind)] = finding
            hold_if_linked(other)
    return _insert(findings)


def on_game_verified(sender: Any, game: Game, **kwargs: Any) -> None:
    """Receiver of ``games.signals.game_verified`` (sent after commit)."""
    raised = raise_flags(game.pk) + recheck_links(game)
    # A game verified after its day was voided leaves the board like the others.
    from moderation import services, triage

    services.disqualify_if_voided(game.pk)
    # Flags may have been raised and its board changed (a new result): the queue follows.
    triage.on_result_verified(game, {flag.game_id for flag in raised})
