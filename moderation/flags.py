"""Automatic flags, raised when a daily game is verified: each test, its reason, its numbers.

The tests read the verified move log (server times, ``Move.at_ms``) and a few facts about
the deal and the player. Thresholds are settings (``MODERATION_*``, docs/moderation.md);
the flag rate on honest simulated play is measured by tests/moderation/test_flag_rate.py.
A flag never changes a board: a moderator decides.
"""

from __future__ import annotations

import logging
import statistics
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from games.models import Game, Mode, Status, Tier, Verification
from moderation.models import Flag, FlagKind, GameAddress

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Thresholds:
    fast_move_ms: int = 150
    fast_move_run: int = 8
    even_pacing_min_moves: int = 30
    even_pacing_max_cv: float = 0.25
    min_human_ms_per_move: int = 400
    new_player_dailies: int = 3
    shared_address_accounts: int = 3

    @classmethod
    def from_settings(cls) -> Thresholds:
        defaults = cls()
        return cls(
            **{
                name: getattr(settings, f"MODERATION_{name.upper()}", getattr(defaults, name))
                for name in cls.__dataclass_fields__
            }
        )


@dataclass(frozen=True)
class Finding:
    kind: str
    reason: str
    measured: dict[str, Any] = field(default_factory=dict)
    thresholds: dict[str, Any] = field(default_factory=dict)


def intervals(at_ms: list[int]) -> list[int]:
    """Milliseconds before each move: the first from the game's start."""
    return [b - a for a, b in zip([0, *at_ms], at_ms, strict=False)]


def longest_fast_run(gaps: list[int], limit_ms: int) -> int:
    longest = run = 0
    for gap in gaps:
        run = run + 1 if gap < limit_ms else 0
        longest = max(longest, run)
    return longest


def pacing_findings(at_ms: list[int], t: Thresholds) -> list[Finding]:
    """The tests on the log's timing alone: too fast for a hand, too even for a person."""
    found: list[Finding] = []
    gaps = intervals(at_ms)
    run = longest_fast_run(gaps, t.fast_move_ms)
    if run >= t.fast_move_run:
        found.append(
            Finding(
                FlagKind.FAST_MOVES,
                f"{run} consecutive moves each under {t.fast_move_ms} ms apart "
                f"(the limit is {t.fast_move_run - 1})",
                {"longest_fast_run": run},
                {"fast_move_ms": t.fast_move_ms, "fast_move_run": t.fast_move_run},
            )
        )
    if len(gaps) >= t.even_pacing_min_moves:
        mean = statistics.fmean(gaps)
        cv = statistics.pstdev(gaps) / mean if mean > 0 else 0.0
        if cv < t.even_pacing_max_cv:
            found.append(
                Finding(
                    FlagKind.EVEN_PACING,
                    f"{len(gaps)} moves at an average of {mean:.0f} ms with a coefficient of "
                    f"variation of {cv:.2f} (people vary far more; the limit is "
                    f"{t.even_pacing_max_cv})",
                    {"moves": len(gaps), "mean_ms": round(mean), "cv": round(cv, 4)},
                    {
                        "even_pacing_min_moves": t.even_pacing_min_moves,
                        "even_pacing_max_cv": t.even_pacing_max_cv,
                    },
                )
            )
    return found


def _fast_finish(game: Game, t: Thresholds) -> Finding | None:
    line = game.deal.solution
    if game.status != Status.WON or not line or game.elapsed_ms is None:
        return None
    floor_ms = len(line) * t.min_human_ms_per_move
    if game.elapsed_ms >= floor_ms:
        return None
    return Finding(
        FlagKind.FAST_FINISH,
        f"won in {game.elapsed_ms / 1000:.1f} s; the solver's line has {len(line)} moves, "
        f"and a person needs at least {t.min_human_ms_per_move} ms a move "
        f"({floor_ms / 1000:.1f} s)",
        {"elapsed_ms": game.elapsed_ms, "solution_moves": len(line), "floor_ms": floor_ms},
        {"min_human_ms_per_move": t.min_human_ms_per_move},
    )


def _perfect_first_try(game: Game, t: Thresholds) -> Finding | None:
    challenge = game.challenge
    if challenge is None or challenge.tier != Tier.HARD or game.score < 625:
        return None
    earlier = (
        Game.objects.filter(
            player_id=game.player_id, mode=Mode.DAILY, verification=Verification.VERIFIED,
            finished_at__lt=game.finished_at,
        )
        .exclude(pk=game.pk)
        .count()
    )
    if earlier >= t.new_player_dailies:
        return None
    return Finding(
        FlagKind.PERFECT_FIRST_TRY,
        f"a perfect 625 on a hard deal by a player with {earlier} earlier daily game(s) "
        f"(flagged below {t.new_player_dailies})",
        {"score": game.score, "earlier_dailies": earlier, "tier": challenge.tier},
        {"new_player_dailies": t.new_player_dailies},
    )


def _shared_address(game: Game, t: Thresholds) -> tuple[Finding, list[int]] | None:
    address = GameAddress.objects.filter(game_id=game.pk).values_list("address", flat=True)
    first = address.first()
    if first is None:
        return None
    siblings = list(
        GameAddress.objects.filter(
            address=first,
            game__challenge_id=game.challenge_id,
            game__mode=Mode.DAILY,
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
    at_ms = list(game.log.order_by("ply").values_list("at_ms", flat=True))
    found = [(game.pk, finding) for finding in pacing_findings(at_ms, t)]
    for check in (_fast_finish, _perfect_first_try):
        finding = check(game, t)
        if finding is not None:
            found.append((game.pk, finding))
    shared = _shared_address(game, t)
    if shared is not None:
        finding, game_ids = shared
        found += [(game_id, finding) for game_id in game_ids]
    return found


def raise_flags(game_id: int) -> list[Flag]:
    """Flag a verified daily game (idempotent: one flag per game and kind).

    A shared address flags every game finished from it, so the flags already raised are
    read in one query and only the missing ones inserted: behind a big shared address
    (a campus, a carrier's NAT) each verification costs two queries, not one per game.
    """
    game = Game.objects.select_related("deal", "challenge").filter(pk=game_id).first()
    if game is None or game.mode != Mode.DAILY or game.verification != Verification.VERIFIED:
        return []
    findings = {(flagged_id, f.kind): f for flagged_id, f in inspect_game(game)}
    if not findings:
        return []
    raised = set(
        Flag.objects.filter(
            game_id__in={flagged_id for flagged_id, _ in findings},
            kind__in={kind for _, kind in findings},
        ).values_list("game_id", "kind")
    )
    new = [
        Flag(game_id=flagged_id, kind=kind, reason=f.reason, measured=f.measured,
             thresholds=f.thresholds)
        for (flagged_id, kind), f in findings.items()
        if (flagged_id, kind) not in raised
    ]
    # a racing verification may insert the same flag first: the unique constraint keeps one
    Flag.objects.bulk_create(new, ignore_conflicts=True)
    for flag in new:
        logger.info("flagged game %s: %s", flag.game_id, flag.reason)
    return new


def on_game_verified(sender: Any, game: Game, **kwargs: Any) -> None:
    """Receiver of ``games.signals.game_verified`` (sent after commit)."""
    raise_flags(game.pk)
    # A game verified after its day was voided leaves the board like the others.
    from moderation import services

    services.disqualify_if_voided(game.pk)
