"""How a game was played, read from its move log: the evidence behind the automatic flags.

Pure Python over ``yukon.engine`` and ``yukon.solver`` (never Django), so production
(``moderation.flags``, in the verification worker) and the red-team simulations
(``tests.redteam``: tests and bench) judge a log with the same function, ``judge``.

Three kinds of evidence, each turned into readable findings:

* **Pacing**, timed from the first move (an idle start hides nothing): runs of moves a
  hand cannot make, gaps as even as a metronome, a whole game faster than a person can
  play its solver line, and a card used sooner after it turned up than anyone can see it.
* **The human signature of thinking**: people pause to look at a card that just turned up
  and think longer when there is more to choose from or more at stake (Hick-Hyman law);
  a script's delays do not follow the position.
* **The solver**: the moves follow the deal's stored solver line for a long stretch
  (matched as a subsequence, so detours and swapped moves do not hide it), or match the
  solver's own first move from position after position.
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from yukon.engine import EngineError, Position, walk_log
from yukon.solver import SolverError, solve

# A move as the player sees it, whatever the column numbers: the card moved and what it
# lands on (a card, "F" for its foundation, "-" for an empty column).
Signature = tuple[int, int]
HOME_SIG = -1
EMPTY_SIG = -2


@dataclass(frozen=True)
class Thresholds:
    """Every limit the flags use; the defaults are the settings' (``MODERATION_*``)."""

    fast_move_ms: int = 150
    fast_move_run: int = 8
    even_pacing_min_moves: int = 40
    even_pacing_max_spread: float = 0.15
    min_human_ms_per_move: int = 400
    reaction_ms: int = 300
    reaction_fast_moves: int = 3
    flat_timing_min_moves: int = 60
    flat_timing_max_rho: float = 0.05
    flat_timing_max_pause: float = 1.05
    solver_line_moves: int = 25
    solver_line_share: float = 0.9
    solver_agree_min: int = 25
    solver_agree_share: float = 0.9
    solver_nodes: int = 20_000
    solver_game_nodes: int = 1_000_000
    new_player_dailies: int = 3
    shared_address_accounts: int = 3
    linked_seen_cards: int = 1
    clairvoyance_log10: float = -1.0
    consulted_log10: float = -1.5
    clairvoyance_record_games: int = 10
    clairvoyance_nodes: int = 2_000_000

    @classmethod
    def from_settings(cls) -> Thresholds:
        from django.conf import settings  # only here: the rest of the module is Django-free

        defaults = cls()
        return cls(
            **{
                name: getattr(settings, f"MODERATION_{name.upper()}", getattr(defaults, name))
                for name in cls.__dataclass_fields__
            }
        )

    def pick(self, *names: str) -> dict[str, Any]:
        return {name: getattr(self, name) for name in names}


@dataclass(frozen=True)
class Finding:
    kind: str
    reason: str
    measured: dict[str, Any] = field(default_factory=dict)
    thresholds: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayedGame:
    """What the verified log holds: the deal, the moves in order and their server times."""

    number: int
    moves: Sequence[str]
    at_ms: Sequence[int]
    solution: Sequence[str] | None = None  # the deal's stored solver line
    variant: str = "yukon"
    tier: str | None = None  # the challenge's tier: the clairvoyance check is for CHOICE_TIERS


@dataclass(frozen=True)
class Step:
    """One move in the position it was played from."""

    signature: Signature
    gap_ms: int | None  # since the previous move; None for the first
    choices: int  # legal moves in the position
    home: bool  # a foundation move
    turns: bool  # it turned a face-down card up
    pile: int  # cards moved together
    after_turn: bool  # the previous move turned a card up: a new card to look at
    uses_turned: bool  # it moves, or lands on, the card the previous move turned up
    options_after: int  # legal moves left after it
    opening_home: bool  # one of the game's first four foundation moves
    hidden: int  # face-down cards before it


# ----- the log replayed ------------------------------------------------------------------


HOME_DEST = -1


def decode(position: Position, move: int) -> tuple[int, int]:
    """(card, dest) of a move, in the position's variant: one deck ``card << 3 | dest``
    (dest 7 home), several decks ``card << 5 | dest`` (dest 31 home; the weekly's Double
    Yukon). dest comes back as HOME_DEST for a move home (a column of Double Yukon may
    be number 7, the one-deck FOUNDATION)."""
    variant = position.variant
    card, dest = move >> variant.shift, move & ((1 << variant.shift) - 1)
    return card, HOME_DEST if dest == variant.home else dest


def signature(position: Position, move: int) -> Signature:
    card, dest = decode(position, move)
    if dest == HOME_DEST:
        return card, HOME_SIG
    target = position.cols[dest]
    return card, target[-1] if target else EMPTY_SIG


def steps_of(game: PlayedGame) -> list[Step]:
    """Replay the log from the deal, describing each move; an illegal move ends the list."""
    position = Position.deal(game.number, game.variant)
    choices = len(position.legal_moves())
    # (card, signature, cards moved, face-down cards) of each move before it is played,
    # and (card turned, legal moves) once the walk has played it: at the next move, or
    # after the last
    before: list[tuple[int, Signature, int, int]] = []
    after: list[tuple[int, int]] = []
    for _, move in walk_log(position, game.moves):
        if before:
            after.append((position.last_turned, len(position.legal_moves())))
        card, _dest = decode(position, move)
        source = position.cols[position.col_of[card]]
        pile = len(source) - position.pos_of[card]
        before.append((card, signature(position, move), pile, sum(position.down)))
    if before:
        after.append((position.last_turned, len(position.legal_moves())))
    steps: list[Step] = []
    turned = -1
    homes = 0
    for i, ((card, sig, pile, hidden), (now_turned, options_after)) in enumerate(
        zip(before, after, strict=True)
    ):
        home = sig[1] == HOME_SIG
        steps.append(
            Step(
                signature=sig,
                gap_ms=game.at_ms[i] - game.at_ms[i - 1] if i else None,
                choices=choices,
                home=home,
                turns=now_turned >= 0,
                pile=pile,
                after_turn=turned >= 0,
                uses_turned=turned >= 0 and (card == turned or sig[1] == turned),
                options_after=options_after,
                opening_home=home and homes < 4,
                hidden=hidden,
            )
        )
        homes += home
        turned = now_turned
        choices = options_after
    return steps


# ----- pacing --------------------------------------------------------------------------


def timed_gaps(steps: Sequence[Step]) -> list[int]:
    """The gaps between moves: the time before the first move is not part of the play."""
    return [s.gap_ms for s in steps if s.gap_ms is not None]


def longest_fast_run(gaps: Sequence[int], limit_ms: int) -> int:
    longest = run = 0
    for gap in gaps:
        run = run + 1 if gap < limit_ms else 0
        longest = max(longest, run)
    return longest


def spread(gaps: Sequence[int]) -> float:
    """Median absolute deviation over the median: a few long breaks do not hide a metronome."""
    middle = statistics.median(gaps)
    if middle <= 0:
        return 0.0
    return statistics.median(abs(g - middle) for g in gaps) / middle


def pacing_findings(steps: Sequence[Step], solution_moves: int, t: Thresholds) -> list[Finding]:
    found: list[Finding] = []
    gaps = timed_gaps(steps)
    run = longest_fast_run(gaps, t.fast_move_ms)
    if run >= t.fast_move_run:
        found.append(
            Finding(
                "fast_moves",
                f"{run} consecutive moves each under {t.fast_move_ms} ms after the previous one "
                f"(flagged from {t.fast_move_run})",
                {"longest_fast_run": run},
                t.pick("fast_move_ms", "fast_move_run"),
            )
        )
    if len(gaps) >= t.even_pacing_min_moves:
        measured = spread(gaps)
        if measured < t.even_pacing_max_spread:
            middle = statistics.median(gaps)
            found.append(
                Finding(
                    "even_pacing",
                    f"{len(gaps)} gaps between moves with a median of {middle:.0f} ms vary by "
                    f"{measured:.0%} around it (people vary far more; flagged under "
                    f"{t.even_pacing_max_spread:.0%})",
                    {"gaps": len(gaps), "median_ms": round(middle), "spread": round(measured, 4)},
                    t.pick("even_pacing_min_moves", "even_pacing_max_spread"),
                )
            )
    play_ms = sum(gaps)
    floor_ms = solution_moves * t.min_human_ms_per_move
    if solution_moves and play_ms < floor_ms and len(steps) >= solution_moves:
        found.append(
            Finding(
                "fast_finish",
                f"{len(steps)} moves in {play_ms / 1000:.1f} s from the first move to the last; "
                f"the solver's line has {solution_moves} moves and a person needs at least "
                f"{t.min_human_ms_per_move} ms a move ({floor_ms / 1000:.1f} s)",
                {
                    "play_ms": play_ms,
                    "moves": len(steps),
                    "solution_moves": solution_moves,
                    "floor_ms": floor_ms,
                },
                t.pick("min_human_ms_per_move"),
            )
        )
    reactions = [s.gap_ms for s in steps if s.uses_turned and s.gap_ms is not None]
    instant = [g for g in reactions if g < t.reaction_ms]
    if len(instant) >= t.reaction_fast_moves:
        found.append(
            Finding(
                "fast_reaction",
                f"{len(instant)} of {len(reactions)} moves that used a card just turned up came "
                f"less than {t.reaction_ms} ms after it turned (the card is only known once the "
                f"server answers; flagged from {t.reaction_fast_moves})",
                {"instant": len(instant), "reactions": len(reactions), "fastest_ms": min(instant)},
                t.pick("reaction_ms", "reaction_fast_moves"),
            )
        )
    return found


# ----- the human signature of thinking ---------------------------------------------------


def effort(step: Step, previous: Step | None) -> float:
    """How much a person has to think before this move (more choices, more at stake)."""
    value = math.log2(step.choices + 1)
    value += step.turns + (step.pile >= 3) + step.opening_home + (step.options_after <= 2)
    value += step.after_turn
    if step.home and previous is not None and previous.home:
        value -= 2  # one of a run of obvious moves home
    return value


def ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    if len(xs) < 3:
        return 0.0
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / math.sqrt(vx * vy) if vx and vy else 0.0


@dataclass(frozen=True)
class ThinkingSignature:
    moves: int
    rho: float  # rank correlation of the gap with the effort the position asks for
    pause: float  # median gap after a card turned up / median gap otherwise


def thinking_signature(steps: Sequence[Step]) -> ThinkingSignature:
    pairs = [
        (effort(step, steps[i - 1] if i else None), step)
        for i, step in enumerate(steps)
        if step.gap_ms is not None
    ]
    gaps = [float(s.gap_ms or 0) for _, s in pairs]
    rho = spearman([e for e, _ in pairs], gaps)
    after = [float(s.gap_ms or 0) for _, s in pairs if s.after_turn]
    other = [float(s.gap_ms or 0) for _, s in pairs if not s.after_turn]
    pause = 1.0
    if after and other:
        pause = statistics.median(after) / max(statistics.median(other), 1.0)
    return ThinkingSignature(len(pairs), rho, pause)


def thinking_findings(steps: Sequence[Step], t: Thresholds) -> list[Finding]:
    sig = thinking_signature(steps)
    if sig.moves < t.flat_timing_min_moves:
        return []
    if sig.rho >= t.flat_timing_max_rho or sig.pause >= t.flat_timing_max_pause:
        return []
    return [
        Finding(
            "flat_timing",
            f"over {sig.moves} moves the time before a move does not follow the position: "
            f"rank correlation with the choices and stakes {sig.rho:+.2f} (people think longer "
            f"at hard points; flagged under {t.flat_timing_max_rho:+.2f}) and the gap after a "
            f"card turns up is {sig.pause:.2f} times the others (people stop to look at it; "
            f"flagged under {t.flat_timing_max_pause:.2f})",
            {"moves": sig.moves, "rho": round(sig.rho, 4), "pause": round(sig.pause, 4)},
            t.pick("flat_timing_min_moves", "flat_timing_max_rho", "flat_timing_max_pause"),
        )
    ]


# ----- the solver ------------------------------------------------------------------------


def line_signatures(number: int, variant: str, line: Sequence[str]) -> list[Signature]:
    """The stored line's moves while face-down cards remain (after that anyone can win)."""
    position = Position.deal(number, variant)
    out: list[Signature] = []
    for _, move in walk_log(position, line):
        if not sum(position.down):
            break
        out.append(signature(position, move))
    return out


def common_subsequence(a: Sequence[Signature], b: Sequence[Signature]) -> int:
    """Length of the longest common subsequence (moves in the same order, gaps allowed)."""
    previous = [0] * (len(b) + 1)
    for x in a:
        row = [0]
        for j, y in enumerate(b):
            row.append(previous[j] + 1 if x == y else max(previous[j + 1], row[j]))
        previous = row
    return previous[-1]


def solver_line_findings(game: PlayedGame, steps: Sequence[Step], t: Thresholds) -> list[Finding]:
    if not game.solution:
        return []
    line = line_signatures(game.number, game.variant, game.solution)
    played = [s.signature for s in steps if s.hidden]
    followed = common_subsequence(played, line)
    share = followed / len(line) if line else 0.0
    if followed < t.solver_line_moves or share < t.solver_line_share:
        return []
    return [
        Finding(
            "solver_line",
            f"played {followed} of the {len(line)} moves of the solver's stored line for this "
            f"deal (those made while cards are face down), in the line's order ({share:.0%}; "
            f"flagged from {t.solver_line_moves} moves and {t.solver_line_share:.0%})",
            {
                "followed": followed,
                "line_moves": len(line),
                "share": round(share, 4),
                "game_moves": len(played),
            },
            t.pick("solver_line_moves", "solver_line_share"),
        )
    ]


@dataclass(frozen=True)
class SolverAgreement:
    agreed: int
    decisions: int  # positions with a real choice and a win the solver found
    nodes: int
    # ply -> was the move the solver's first move, at each of those positions
    plies: dict[int, bool] = field(default_factory=dict)


def layout(position: Position) -> str:
    """The position's text with its score and move count set to 0: all the solver reads."""
    fields = position.to_text().split(" ")
    fields[3:5] = ["0", "0"]
    return " ".join(fields)


# The players of a day's challenge start from the same cards and often open alike, so a
# verification worker meets the same positions game after game: it asks the solver about
# each once. The answer kept carries the positions the solver spent on it, so a game's
# judgement and its budget are the same whether or not another game met the position first.
@functools.lru_cache(maxsize=20_000)
def _first_move(layout: str, nodes: int) -> tuple[str, str | None, int]:
    """(the solver's verdict on ``layout``, its first move when solved, positions spent)."""
    # nodes below the first slice: only the deterministic proof search runs, with its
    # table sized for it (restarts=False would size it for a long proof)
    answer = solve(Position.from_text(layout), nodes=nodes, seconds=5.0, memory_mb=64)
    return answer.verdict, answer.moves[0] if answer.moves else None, answer.nodes


def solver_agreement(game: PlayedGame, t: Thresholds) -> SolverAgreement:
    """At each real choice with cards face down: did the move equal the solver's first move?

    A loss stays lost, so the analysis stops at the first position the solver proves
    unwinnable, and at ``solver_game_nodes`` positions in all (the worker's budget).
    """
    position = Position.deal(game.number, game.variant)
    agreed = decisions = nodes = 0
    plies: dict[int, bool] = {}
    for ply, move in walk_log(position, game.moves):
        if sum(position.down) and len(position.legal_moves()) >= 2:
            if nodes >= t.solver_game_nodes:
                break
            try:
                verdict, first, spent = _first_move(layout(position), t.solver_nodes)
            except (SolverError, EngineError):
                break
            nodes += spent
            if verdict == "unwinnable":
                break
            if verdict == "solved" and first is not None:
                decisions += 1
                best = position.parse_move(first)
                plies[ply] = signature(position, best) == signature(position, move)
                agreed += plies[ply]
    return SolverAgreement(agreed, decisions, nodes, plies)


def solver_move_findings(game: PlayedGame, t: Thresholds, result: SolverAgreement) -> list[Finding]:
    if result.decisions < t.solver_agree_min:
        return []
    share = result.agreed / result.decisions
    if share < t.solver_agree_share:
        return []
    return [
        Finding(
            "solver_moves",
            f"played the solver's own first move at {result.agreed} of {result.decisions} "
            f"positions with a choice and cards face down ({share:.0%}; flagged from "
            f"{t.solver_agree_share:.0%} of at least {t.solver_agree_min})",
            {
                "agreed": result.agreed,
                "decisions": result.decisions,
                "share": round(share, 4),
                "solver_nodes": result.nodes,
            },
            t.pick("solver_agree_min", "solver_agree_share", "solver_nodes"),
        )
    ]


# ----- all together --------------------------------------------------------------------


# Tiers where choices matter: the clairvoyance check runs on their games only.
CHOICE_TIERS = ("medium", "hard")


def judge(
    game: PlayedGame,
    t: Thresholds,
    *,
    choices: bool = True,
    agreement: SolverAgreement | None = None,
) -> list[Finding]:
    """Every finding the log alone supports (production and the red-team suite call this);
    ``choices=False`` leaves the clairvoyance check out (production runs it on the player's
    record: ``moderation.flags``), ``agreement`` is ``solver_agreement(game, t)`` when the
    caller has it."""
    from moderation.clairvoyance import clairvoyance_findings  # it builds on this module

    steps = steps_of(game)
    solution_moves = len(game.solution or ())
    if agreement is None:
        agreement = solver_agreement(game, t)
    return [
        *pacing_findings(steps, solution_moves, t),
        *thinking_findings(steps, t),
        *solver_line_findings(game, steps, t),
        *solver_move_findings(game, t, agreement),
        *(
            clairvoyance_findings(game, t, agreement)
            if choices and game.tier in CHOICE_TIERS
            else []
        ),
    ]
