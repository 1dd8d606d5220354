"""The clairvoyance check: did a player keep the win where someone who sees only the face-up
cards would often have let it slip?

A player who knows the face-down cards (a scout account turned them over, or a solver was
asked) can play human-looking moves at a human pace and still never give up a won game.
The move log cannot show the knowledge directly, but its consequence: at each real
choice, the full-information solver tells which moves keep the win, and the masked
strategy bot (``yukon.strategy_bot``: what the face-up cards suggest, with noise) tells how
often a player who sees only what a person sees would pick one of them. A player who kept
the win at many choices where a masked player mostly would not is very unlikely to have
played masked.

For each decision (cards still face down, and at least one legal move that loses the win)
the check takes ``p``, the chance that a masked player keeps the win there, under several
masked players from sharp to loose (the bot's noise and mistake rate); it also scores how
well each masked player explains every move of the game (its *style*), and how much
better a player who sometimes plays the solver's first move explains them. A game's
``Evidence`` is stored, and a player's *record* (their last judged games) is judged
against the one masked player whose style fits it best: a ratio of likelihoods, knowing
against masked flagged from ``10^-clairvoyance_log10``, consulting against masked from
``10^-consulted_log10`` (each calibrated by the red team: docs/moderation.md, "The
clairvoyance check").

Pure Python over the engine and the solver (never Django), like ``moderation.detector``.
The cost is bounded by ``clairvoyance_nodes`` solver positions a game (the verification
worker's budget) and measured by bench/bench_redteam.py.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from yukon.engine import EngineError, Move, Position, walk_log
from yukon.solver import SolverError, solve
from yukon.strategy_bot import _move_value

from .detector import Finding, PlayedGame, SolverAgreement, Thresholds, layout

# Masked players from sharp to loose: (noise added to the bot's move values, chance of a
# plain random move); the red team's honest skills span the same range.
MASKED_PLAYERS = ((8.0, 0.005), (12.0, 0.01), (25.0, 0.02), (40.0, 0.05), (60.0, 0.10))
SAMPLES = 200  # draws of the noise per decision: the chance of each move
NEGLIGIBLE = 0.02  # moves no masked player picks this often are not solved (counted as kept)
CHILD_NODES = 20_000  # solver positions to judge one move


# A knowing player is assumed to use the knowledge in this share of their games: a game
# that gives the win up still counts for them (a lost game is not proof of honesty), and
# a record's ratio stays a fair bet against an honest player (docs/moderation.md).
KNOWING_SHARE = 0.5
# How often a player who consults the solver plays its move: unknown, so the record's ratio
# is the mean of the ratios for these shares (a mixture is as fair a bet as each share).
CONSULTED_SHARES = (0.25, 0.5, 0.75)


@dataclass(frozen=True)
class Decision:
    ply: int
    kept: bool
    chances: tuple[float, ...]  # per masked player: the chance of keeping the win here


@dataclass(frozen=True)
class Evidence:
    """What one game says about its player, per masked player (``MASKED_PLAYERS``): stored
    with the game, and summed over a player's games into a record."""

    style: tuple[float, ...]  # log10 chance of every move played while cards were face down
    kept: tuple[float, ...]  # log10 chance of keeping the win at every decision kept
    decisions: int  # decisions where the win was kept
    lost: bool  # gave the win up at a decision
    # per consulted share (CONSULTED_SHARES), per masked player: log10 of how much likelier
    # the moves are for a player who plays the solver's first move that often
    consulting: tuple[tuple[float, ...], ...]

    def log10_ratio(self, player: int) -> float:
        """log10 of how much likelier this game is for a knowing player than for masked
        ``player``: a knowing game keeps every win, a masked one with chance 10^kept."""
        if self.lost:
            return math.log10(1 - KNOWING_SHARE)
        return math.log10(KNOWING_SHARE * 10 ** -self.kept[player] + 1 - KNOWING_SHARE)


def fitted_player(record: Sequence[Evidence]) -> int:
    """The masked player whose choices fit the record's moves best: a loose player is judged
    against loose play, a sharp one against sharp."""
    return max(range(len(MASKED_PLAYERS)), key=lambda i: sum(e.style[i] for e in record))


def record_log10(record: Sequence[Evidence]) -> tuple[float, int]:
    """(log10 likelihood ratio of a masked player against a knowing one over ``record``,
    the masked player it is measured against: ``fitted_player``). Under 0 the record leans
    to knowing; 10^-2 means 100 times likelier knowing."""
    if not record:
        return 0.0, 0
    player = fitted_player(record)
    return -sum(e.log10_ratio(player) for e in record), player


def consulting_log10(record: Sequence[Evidence]) -> float:
    """log10 likelihood ratio of the fitted masked player against one who plays the
    solver's first move at a share of positions (the mean over ``CONSULTED_SHARES``)."""
    if not record:
        return 0.0
    player = fitted_player(record)
    sums = [sum(e.consulting[s][player] for e in record) for s in range(len(CONSULTED_SHARES))]
    top = max(sums)  # the mean of 10^sum, without overflow
    return -(top + math.log10(sum(10 ** (x - top) for x in sums) / len(sums)))


@dataclass(frozen=True)
class Clairvoyance:
    decisions: list[Decision]
    style: tuple[float, ...]
    consulting: tuple[tuple[float, ...], ...]
    nodes: int

    @property
    def kept(self) -> list[Decision]:
        return [d for d in self.decisions if d.kept]

    def evidence(self) -> Evidence:
        return Evidence(
            style=self.style,
            kept=tuple(
                sum(math.log10(max(d.chances[i], 1e-9)) for d in self.kept)
                for i in range(len(MASKED_PLAYERS))
            ),
            decisions=len(self.kept),
            lost=any(not d.kept for d in self.decisions),
            consulting=self.consulting,
        )

    def log10_likelihood(self) -> float:
        """The game alone as a record: ``record_log10``."""
        return record_log10([self.evidence()])[0]


def masked_chances(position: Position, moves: list[Move], rng: random.Random) -> list[list[float]]:
    """For each masked player, the chance of each of ``moves`` (the bot's argmax under noise,
    or now and then any move)."""
    hidden = sum(position.down)
    king_waiting = any(
        position.movable[king] and position.pos_of[king] > 0 for king in position.variant.kings
    )
    values = [_move_value(position, move, hidden, king_waiting) for move in moves]
    draw = rng.random
    out = []
    for noise, blunder in MASKED_PLAYERS:
        picks = [0] * len(moves)
        # Per draw, the first move of the highest noisy value: max() with a key, written
        # out (this runs for every decision of every game verified), drawing the same
        # numbers in the same order.
        for _ in range(SAMPLES):
            best_move, best = 0, values[0] + draw() * noise
            for index in range(1, len(values)):
                value = values[index] + draw() * noise
                if value > best:
                    best_move, best = index, value
            picks[best_move] += 1
        out.append([(1 - blunder) * picked / SAMPLES + blunder / len(moves) for picked in picks])
    return out


def keeps_win(position: Position, move: Move, nodes: int) -> tuple[bool | None, int]:
    """(does the position after ``move`` still have a win: None when the budget did not
    tell, solver positions spent)."""
    position.push(move)
    try:
        if position.is_won():
            return True, 0
        return _judged(layout(position), nodes)
    except EngineError:
        return None, 0
    finally:
        position.undo()


# Kept per worker process, each answer with the positions it cost, as the first moves of
# ``detector._first_move`` are (the games of a day meet the same positions).
@functools.lru_cache(maxsize=20_000)
def _judged(layout: str, nodes: int) -> tuple[bool | None, int]:
    try:
        answer = solve(
            Position.from_text(layout), nodes=nodes, seconds=5.0, memory_mb=64, restarts=False
        )
    except (SolverError, EngineError):
        return None, 0
    return {"solved": True, "unwinnable": False}.get(answer.verdict), answer.nodes


def clairvoyance(game: PlayedGame, t: Thresholds, agreement: SolverAgreement) -> Clairvoyance:
    """Every decision of the game with what it kept, up to the first move that lets the win
    go (the rest of a lost game tells nothing) or the game's solver budget; the style of
    every move played while cards were face down; and how well a player who plays the
    solver's first move (``agreement``: ``detector.solver_agreement``) explains them."""
    position = Position.deal(game.number, game.variant)
    rng = random.Random(f"clairvoyance:{game.number}")  # the same judgement every time
    decisions: list[Decision] = []
    style = [0.0] * len(MASKED_PLAYERS)
    consulting = [[0.0] * len(MASKED_PLAYERS) for _ in CONSULTED_SHARES]
    spent = 0
    judging = True
    for ply, move in walk_log(position, game.moves):
        legal = position.legal_moves()
        if sum(position.down) and len(legal) >= 2:
            chances = masked_chances(position, legal, rng)
            played = legal.index(move)
            for i, c in enumerate(chances):
                style[i] += math.log10(c[played])
            solvers = agreement.plies.get(ply)
            if solvers is not None:
                for row, share in zip(consulting, CONSULTED_SHARES, strict=True):
                    for i, c in enumerate(chances):
                        row[i] += math.log10(share * solvers / c[played] + 1 - share)
            judging = judging and spent < t.clairvoyance_nodes
            if judging:
                decision, nodes = _decision(position, ply, legal, played, chances)
                spent += nodes
                if decision is not None:
                    decisions.append(decision)
                    judging = decision.kept
    return Clairvoyance(decisions, tuple(style), tuple(map(tuple, consulting)), spent)


def _decision(
    position: Position, ply: int, legal: list[Move], played: int, chances: list[list[float]]
) -> tuple[Decision | None, int]:
    """(the decision at this position: None when no move that matters loses the win or the
    played move could not be judged, solver positions spent)."""
    keeps: dict[int, bool | None] = {}
    spent = 0
    for i, candidate in enumerate(legal):
        if i == played or max(c[i] for c in chances) >= NEGLIGIBLE:
            keeps[i], nodes = keeps_win(position, candidate, CHILD_NODES)
            spent += nodes
    if keeps[played] is None or False not in keeps.values():
        return None, spent
    # an unjudged or unlikely move counts as keeping the win: the charitable side
    chance = tuple(sum(p for i, p in enumerate(c) if keeps.get(i) is not False) for c in chances)
    return Decision(ply, bool(keeps[played]), chance), spent


def clairvoyance_findings(
    game: PlayedGame, t: Thresholds, agreement: SolverAgreement
) -> list[Finding]:
    """The game judged alone (the red team's per-game rates)."""
    return record_findings(clairvoyance(game, t, agreement), {}, t)


def record_findings(
    result: Clairvoyance, earlier: Mapping[int, Evidence], t: Thresholds
) -> list[Finding]:
    """The findings on a player's record: this game and ``earlier`` (game id -> evidence,
    the player's last judged games), flagged on this game when the record is at least
    10^-``clairvoyance_log10`` times likelier for a player who knows the hidden cards
    (``clairvoyance``), or 10^-``consulted_log10`` times for one who consults the solver
    (``solver_consulted``), than for the masked player that fits it, and this game leans the
    same way."""
    evidence = result.evidence()
    record = [evidence, *earlier.values()]
    noise, blunder = MASKED_PLAYERS[fitted_player(record)]
    over = f" over {len(record)} games" if earlier else ""
    common = {
        "record_games": sorted(earlier),
        "masked_player": {"noise": noise, "blunder": blunder},
        "solver_nodes": result.nodes,
    }
    budget = t.pick("clairvoyance_record_games", "clairvoyance_nodes")
    out = []
    knowing, _ = record_log10(record)
    alone, _ = record_log10([evidence])
    if knowing <= t.clairvoyance_log10 and alone < 0:
        reason = (
            f"kept the win at {evidence.decisions} choices where a player who sees only the "
            f"face-up cards often lets it go; a player who knows the hidden cards is "
            f"{10**-knowing:,.0f} times likelier to play as this player did{over} "
            f"(flagged from {10**-t.clairvoyance_log10:,.0f})"
        )
        measured = {
            "decisions": len(result.decisions),
            "kept": evidence.decisions,
            "log10_likelihood": round(alone, 3),
            "record_log10_likelihood": round(knowing, 3),
        }
        thresholds = t.pick("clairvoyance_log10") | budget
        out.append(Finding("clairvoyance", reason, measured | common, thresholds))
    consulting = consulting_log10(record)
    alone = consulting_log10([evidence])
    if consulting <= t.consulted_log10 and alone < 0:
        reason = (
            f"played the solver's first move where a player of this style seldom would: a "
            f"player who consults the solver is {10**-consulting:,.0f} times likelier to play "
            f"as this player did{over} (flagged from {10**-t.consulted_log10:,.0f})"
        )
        measured = {
            "log10_likelihood": round(alone, 3),
            "record_log10_likelihood": round(consulting, 3),
        }
        thresholds = t.pick("consulted_log10") | budget
        out.append(Finding("solver_consulted", reason, measured | common, thresholds))
    return out
