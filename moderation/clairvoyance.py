"""The clairvoyance check: did a player keep the win where someone who sees only the face-up
cards would often have let it slip?

A player who knows the face-down cards (a scout account turned them over, or a solver was
asked) can play human-looking moves at a human pace and still never give up a won game.
The move log cannot show the knowledge directly, but its consequence: at each real
choice, the full-information solver tells which moves keep the win, and the masked
strategy bot (``games.strategy_bot``: what the face-up cards suggest, with noise) tells how
often a player who sees only what a person sees would pick one of them. A player who kept
the win at many choices where a masked player mostly would not is very unlikely to have
played masked.

For each decision (cards still face down, and at least one legal move that loses the win)
the check takes ``p``, the chance that a masked player keeps the win there, under several
masked players from sharp to loose (the bot's noise and mistake rate), and adds up
``log10 p`` over the decisions where the player kept it. The most charitable of those
players (the largest sum) is the player's *masked likelihood*: how likely a masked player of
any of those kinds would have been to keep the win at every such choice. Very small is
flagged (``clairvoyance_log10``, calibrated by the red team: docs/moderation.md).

Pure Python over the engine and the solver (never Django), like ``moderation.detector``.
The cost is bounded by ``clairvoyance_nodes`` solver positions a game (the verification
worker's budget) and measured by bench/bench_redteam.py.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from games.engine import EngineError, Move, Position
from games.solver import SolverError, solve
from games.strategy_bot import _move_value

from .detector import Finding, PlayedGame, Thresholds

# Masked players from sharp to loose: (noise added to the bot's move values, chance of a
# plain random move); the red team's honest skills span the same range.
MASKED_PLAYERS = ((8.0, 0.005), (12.0, 0.01), (25.0, 0.02), (40.0, 0.05), (60.0, 0.10))
SAMPLES = 200  # draws of the noise per decision: the chance of each move
NEGLIGIBLE = 0.02  # moves no masked player picks this often are not solved (counted as kept)
CHILD_NODES = 20_000  # solver positions to judge one move


@dataclass(frozen=True)
class Decision:
    ply: int
    kept: bool
    chances: tuple[float, ...]  # per masked player: the chance of keeping the win here


@dataclass(frozen=True)
class Clairvoyance:
    decisions: list[Decision]
    nodes: int

    @property
    def kept(self) -> list[Decision]:
        return [d for d in self.decisions if d.kept]

    def log10_likelihood(self) -> float:
        """log10 of the chance, for the most charitable masked player, of keeping the win at
        every decision where this player kept it (0 when there is none)."""
        sums = [
            sum(math.log10(max(d.chances[i], 1e-9)) for d in self.kept)
            for i in range(len(MASKED_PLAYERS))
        ]
        return max(sums) if sums else 0.0


def masked_chances(position: Position, moves: list[Move], rng: random.Random) -> list[list[float]]:
    """For each masked player, the chance of each of ``moves`` (the bot's argmax under noise,
    or now and then any move)."""
    hidden = sum(position.down)
    king_waiting = any(
        position.movable[king] and position.pos_of[king] > 0 for king in position.variant.kings
    )
    values = [_move_value(position, move, hidden, king_waiting) for move in moves]
    out = []
    for noise, blunder in MASKED_PLAYERS:
        picks: Counter[int] = Counter()
        for _ in range(SAMPLES):
            picks[max(range(len(moves)), key=lambda i: values[i] + rng.random() * noise)] += 1
        out.append(
            [(1 - blunder) * picks[i] / SAMPLES + blunder / len(moves) for i in range(len(moves))]
        )
    return out


def keeps_win(position: Position, move: Move, nodes: int) -> tuple[bool | None, int]:
    """(does the position after ``move`` still have a win: None when the budget did not
    tell, solver positions spent)."""
    position.push(move)
    try:
        if position.is_won():
            return True, 0
        answer = solve(position, nodes=nodes, seconds=5.0, memory_mb=64, restarts=False)
    except (SolverError, EngineError):
        return None, 0
    finally:
        position.undo()
    verdict = {"solved": True, "unwinnable": False}.get(answer.verdict)
    return verdict, answer.nodes


def clairvoyance(game: PlayedGame, t: Thresholds) -> Clairvoyance:
    """Every decision of the game with what it kept; stops at the first move that lets the
    win go (the rest of a lost game tells nothing) or at the game's solver budget."""
    position = Position.deal(game.number, game.variant)
    rng = random.Random(f"clairvoyance:{game.number}")  # the same judgement every time
    decisions: list[Decision] = []
    spent = 0
    for ply, text in enumerate(game.moves):
        try:
            move = position.parse_move(text)
        except EngineError:
            break
        if not position.is_legal(move):
            break
        legal = position.legal_moves()
        if sum(position.down) and len(legal) >= 2:
            if spent >= t.clairvoyance_nodes:
                break
            chances = masked_chances(position, legal, rng)
            keeps: dict[Move, bool | None] = {}
            for i, candidate in enumerate(legal):
                if candidate == move or max(c[i] for c in chances) >= NEGLIGIBLE:
                    keeps[candidate], nodes = keeps_win(position, candidate, CHILD_NODES)
                    spent += nodes
            if keeps[move] is not None and False in keeps.values():
                kept = bool(keeps[move])
                # an unjudged or unlikely move counts as keeping the win: the charitable side
                chance = tuple(
                    sum(c[i] for i, m in enumerate(legal) if keeps.get(m) is not False)
                    for c in chances
                )
                decisions.append(Decision(ply, kept, chance))
                if not kept:
                    break
        position.push(move)
    return Clairvoyance(decisions, spent)


def clairvoyance_findings(game: PlayedGame, t: Thresholds) -> list[Finding]:
    result = clairvoyance(game, t)
    likelihood = result.log10_likelihood()
    kept = len(result.kept)
    if kept < t.clairvoyance_min_decisions or likelihood > t.clairvoyance_log10:
        return []
    return [
        Finding(
            "clairvoyance",
            f"kept the win at {kept} choices where a player who sees only the face-up cards "
            f"often lets it go: even the most fitting such player keeps it at all of them "
            f"with a chance of 1 in {10**-likelihood:,.0f} (flagged under 1 in "
            f"{10**-t.clairvoyance_log10:,.0f}, from {t.clairvoyance_min_decisions} choices)",
            {
                "decisions": len(result.decisions),
                "kept": kept,
                "log10_likelihood": round(likelihood, 3),
                "solver_nodes": result.nodes,
            },
            t.pick("clairvoyance_log10", "clairvoyance_min_decisions", "clairvoyance_nodes"),
        )
    ]
