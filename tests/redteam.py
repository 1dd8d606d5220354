"""Simulated players for the red-team suite: honest people of several skill levels and bots.

Each simulation yields a ``detector.PlayedGame`` (moves and server times) that the flags
judge with the production function, ``detector.judge``. Used by
tests/moderation/test_redteam.py (asserts the targets) and bench/bench_redteam.py
(prints the rates). Pure Python over the engine and the solver.

The honest model is built from what is known about people playing card games on a
screen, not from the detector (docs/moderation.md lists the assumptions):

* **Choosing** takes longer with more options (Hick-Hyman: a + b·log2(n + 1)), longer
  at points that matter (a move that turns a card, a long pile, the first cards home,
  an early position with much hidden) and is log-normally noisy; a run of obvious
  moves home goes fast; now and then a move is made on autopilot.
* **Seeing**: a card that turns up is only known once the server answers; a person
  then needs a perception time (floor ~250 ms, median ~450 ms) before anything else.
* **Acting**: dragging or double-clicking takes 180 ms at the very least.
* **The network**: the client sends a move once the previous one is answered, so two
  moves are at least a round trip apart at the server.
* **Breaks**: a few per game, 5 s to 90 s.
* **Play**: the strategy bot's heuristics (what the face-up cards suggest) with noise
  that grows as skill drops, plus plain mistakes and harmless detours (a pile moved to
  the other card it may sit on); people resign when nothing new is left to try.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from games.daily import Band
from moderation.detector import PlayedGame, Thresholds, judge
from yukon.engine import FOUNDATION, IllegalMoveError, Position, move_text, replay
from yukon.solver import solve
from yukon.strategy_bot import _key, _move_value, rate_deal

MAX_MOVES = 250
SOLVE_NODES = 200_000


# ----- deals -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Daily:
    number: int
    solution: list[str]  # the stored line: what `python -m yukon.solver N` prints
    tier: str | None = None  # the daily tier the strategy bot's win rate puts it in


def winnable_deals(count: int, first: int = 0) -> list[Daily]:
    """The first ``count`` deals from ``first`` that the solver wins within a small budget."""
    out: list[Daily] = []
    number = first
    while len(out) < count:
        result = solve(number, nodes=SOLVE_NODES)
        if result.verdict == "solved":
            out.append(Daily(number, result.moves))
        number += 1
    return out


def rated_deals(count: int, bands: Mapping[str, Band], first: int = 0) -> list[Daily]:
    """The first ``count`` winnable deals from ``first`` whose bot win rate (100 playouts)
    falls in one of ``bands`` (tier -> band: games.daily.BANDS), each with its tier."""
    out: list[Daily] = []
    number = first
    while len(out) < count:
        for daily in winnable_deals(1, number):
            number = daily.number + 1
            rate = rate_deal(daily.number, playouts=100).win_rate
            tier = next((name for name, band in bands.items() if rate in band), None)
            if tier is not None:
                out.append(replace(daily, tier=tier))
    return out


# ----- timing ------------------------------------------------------------------------


@dataclass(frozen=True)
class HumanTiming:
    """One person's timing; every figure in milliseconds unless named otherwise."""

    base_ms: float = 300  # choosing with a single option
    bit_ms: float = 300  # Hick-Hyman slope, per bit of choice
    stake: float = 0.35  # extra share of thinking per thing at stake
    noise: float = 0.55  # log-normal sigma of the thinking time
    look_ms: float = 450  # median time to take in a card that just turned up
    look_floor_ms: float = 250
    motor_ms: float = 420  # median drag or double-click
    motor_floor_ms: float = 180
    obvious_ms: float = 220  # choosing the next card of a run home
    autopilot: float = 0.08  # share of moves made without much thought
    rtt_ms: float = 80  # network round trip
    break_chance: float = 0.012
    speed: float = 1.0  # the person's overall pace (smaller is faster)


@dataclass(frozen=True)
class Situation:
    """What a person sees before a move (face-up cards and counts only)."""

    choices: int
    after_turn: bool
    home: bool
    home_run: bool  # the previous move also went home
    turns: bool
    pile: int
    opening_home: bool
    hidden: int


def human_gap(s: Situation, h: HumanTiming, rng: random.Random) -> float:
    """Server milliseconds from the previous move to this one."""
    if s.home and s.home_run:
        think = h.obvious_ms * rng.lognormvariate(0, 0.4)
    else:
        stakes = s.turns + min(s.pile - 1, 6) / 3 + 1.5 * s.opening_home + s.hidden / 21
        think = (h.base_ms + h.bit_ms * math.log2(s.choices + 1)) * (1 + h.stake * stakes)
        think *= rng.lognormvariate(0, h.noise)
        if rng.random() < h.autopilot:
            think *= 0.35
    look = max(h.look_floor_ms, h.look_ms * rng.lognormvariate(0, 0.35)) if s.after_turn else 0
    motor = max(h.motor_floor_ms, h.motor_ms * rng.lognormvariate(0, 0.3))
    person = h.speed * (look + think + motor)
    if rng.random() < h.break_chance:
        person += rng.uniform(5_000, 90_000)
    rtt = h.rtt_ms * rng.uniform(0.7, 1.6)
    # a turned card is seen only after the answer; otherwise the click may be queued
    return rtt + person if s.after_turn else max(person, rtt)


# ----- honest play ---------------------------------------------------------------------


@dataclass(frozen=True)
class Skill:
    name: str
    noise: float  # randomness added to the strategy bot's move values
    blunder: float  # chance of a plain random move
    detour: float  # chance of moving a pile to its other parent for no gain
    timing: HumanTiming


SKILLS: tuple[Skill, ...] = (
    Skill("novice", 60, 0.10, 0.05, HumanTiming(bit_ms=420, speed=1.35, noise=0.65)),
    Skill("casual", 40, 0.05, 0.03, HumanTiming(bit_ms=340, speed=1.1)),
    Skill("regular", 25, 0.02, 0.02, HumanTiming()),
    Skill("expert", 12, 0.01, 0.01, HumanTiming(bit_ms=220, speed=0.75, autopilot=0.12)),
)


def situation(position: Position, move: int, previous: tuple[int, bool] | None) -> Situation:
    """``previous``: (card turned by the last move or -1, the last move went home)."""
    card, dest = move >> 3, move & 7
    k = position.col_of[card]
    height = position.pos_of[card]
    homes = 52 - sum(len(c) for c in position.cols)
    return Situation(
        choices=len(position.legal_moves()),
        after_turn=previous is not None and previous[0] >= 0,
        home=dest == FOUNDATION,
        home_run=previous is not None and previous[1],
        turns=height > 0 and height == position.down[k],
        pile=len(position.cols[k]) - height,
        opening_home=dest == FOUNDATION and homes < 4,
        hidden=sum(position.down),
    )


def twin_detour(position: Position, rng: random.Random) -> int | None:
    """A pile moved from its parent onto the parent's twin: changes nothing that matters."""
    options = []
    for move in position.legal_moves():
        card, dest = move >> 3, move & 7
        k = position.col_of[card]
        height = position.pos_of[card]
        if dest == FOUNDATION or not position.cols[dest] or height <= position.down[k]:
            continue
        options.append(move)
    return rng.choice(options) if options else None


def choose_move(
    position: Position, skill: Skill, seen: set[object], rng: random.Random
) -> int | None:
    moves = position.legal_moves()
    fresh = []
    for move in moves:
        position.push(move)
        if _key(position) not in seen:
            fresh.append(move)
        position.undo()
    if not fresh:
        return None
    roll = rng.random()
    if roll < skill.blunder:
        return rng.choice(fresh)
    if roll < skill.blunder + skill.detour:
        detour = twin_detour(position, rng)
        if detour is not None and detour in fresh:
            return detour
    hidden = sum(position.down)
    king_waiting = any(position.movable[k] and position.pos_of[k] > 0 for k in (12, 25, 38, 51))
    return max(
        fresh,
        key=lambda m: _move_value(position, m, hidden, king_waiting) + rng.random() * skill.noise,
    )


def timed(
    number: int,
    moves: list[int],
    gap: Callable[[Situation], float],
    solution: list[str],
    idle_ms: float,
) -> PlayedGame:
    """Replay ``moves`` and time each with ``gap`` (the first after ``idle_ms``)."""
    position = Position.deal(number)
    at = idle_ms
    texts: list[str] = []
    stamps: list[int] = []
    previous: tuple[int, bool] | None = None
    for i, move in enumerate(moves):
        s = situation(position, move, previous)
        if i:
            at += gap(s)
        texts.append(move_text(move))
        stamps.append(round(at))
        turned = position.push(move)
        previous = (turned, s.home)
    return PlayedGame(number=number, moves=texts, at_ms=stamps, solution=solution)


def honest_game(daily: Daily, skill: Skill, rng: random.Random) -> PlayedGame:
    position = Position.deal(daily.number)
    seen: set[object] = {_key(position)}
    moves: list[int] = []
    while len(moves) < MAX_MOVES and not position.is_won():
        move = choose_move(position, skill, seen, rng)
        if move is None:
            break  # nothing new to try: the player resigns (or is stuck)
        position.push(move)
        seen.add(_key(position))
        moves.append(move)
    idle = rng.uniform(2_000, 20_000)
    return timed(
        daily.number, moves, lambda s: human_gap(s, skill.timing, rng), daily.solution, idle
    )


# ----- cheaters ----------------------------------------------------------------------


def parse_line(number: int, line: list[str]) -> list[int]:
    position = Position.deal(number)
    out = []
    for text in line:
        move, _ = position.play_text(text)
        out.append(move)
    return out


def machine_gap(low: float, high: float, rng: random.Random) -> Callable[[Situation], float]:
    return lambda s: rng.uniform(low, high) + rng.uniform(10, 40)


def random_human_gap(rng: random.Random) -> Callable[[Situation], float]:
    """Delays drawn like a person's overall, but blind to the position."""

    def gap(s: Situation) -> float:
        person = rng.lognormvariate(math.log(1_700), 0.6)
        if rng.random() < 0.012:
            person += rng.uniform(5_000, 90_000)
        return person + rng.uniform(40, 120)

    return gap


def with_detours(number: int, line: list[str], count: int, rng: random.Random) -> list[int]:
    """The line with ``count`` harmless detours: a pile to its twin parent and back."""
    moves = parse_line(number, line)
    position = Position.deal(number)
    spots = set(rng.sample(range(5, max(6, len(moves) - 5)), min(count, max(1, len(moves) - 10))))
    out: list[int] = []
    for i, move in enumerate(moves):
        if i in spots:
            detour = twin_detour(position, rng)
            if detour is not None:
                card = detour >> 3
                back = position.col_of[card]
                position.push(detour)
                reverse = card << 3 | back
                if position.is_legal(reverse):
                    position.push(reverse)
                    out += [detour, reverse]
                else:
                    position.undo()
        position.push(move)
        out.append(move)
    return out


def solver_move(position: Position) -> int | None:
    """The first move of the solver's line from here (a bounded budget, as a script would)."""
    answer = solve(position, nodes=SOLVE_NODES, seconds=10.0)
    if answer.verdict != "solved" or not answer.moves:
        return None
    return position.parse_move(answer.moves[0])


def hard_point(position: Position) -> bool:
    """Where a person stuck would open the solver: many options, cards still hidden."""
    return sum(position.down) > 0 and len(position.legal_moves()) >= 6


def consulting_game(
    daily: Daily, skill: Skill, rng: random.Random, consult: Callable[[Position], bool]
) -> tuple[PlayedGame, int]:
    """A person who plays the solver's move wherever ``consult`` says; (game, consultations)."""
    position = Position.deal(daily.number)
    seen: set[object] = {_key(position)}
    moves: list[int] = []
    asked = 0
    while len(moves) < MAX_MOVES and not position.is_won():
        move = None
        if consult(position):
            move = solver_move(position)
            asked += move is not None
        if move is None:
            move = choose_move(position, skill, seen, rng)
        if move is None:
            break
        position.push(move)
        seen.add(_key(position))
        moves.append(move)
    idle = rng.uniform(2_000, 20_000)
    game = timed(
        daily.number, moves, lambda s: human_gap(s, skill.timing, rng), daily.solution, idle
    )
    return game, asked


def keeps_the_win(position: Position, move: int, known: dict[object, bool | None]) -> bool | None:
    """Does ``move`` keep a win (the full-information solver, a small budget; None: it could
    not tell)? ``known`` keeps the verdicts of positions already judged."""
    position.push(move)
    try:
        key = _key(position)
        if key not in known:
            if position.is_won():
                known[key] = True
            else:
                answer = solve(position, nodes=20_000, seconds=5.0, restarts=False)
                known[key] = {"solved": True, "unwinnable": False}.get(answer.verdict)
        return known[key]
    finally:
        position.undo()


def clairvoyant_game(daily: Daily, skill: Skill, rng: random.Random) -> PlayedGame:
    """A person who knows the face-down cards (a scout turned them over): moves chosen as
    this skill's player would, at a person's pace, but never one that gives up the win."""
    position = Position.deal(daily.number)
    seen: set[object] = {_key(position)}
    known: dict[object, bool | None] = {}
    moves: list[int] = []
    while len(moves) < MAX_MOVES and not position.is_won():
        fresh = []
        for move in position.legal_moves():
            position.push(move)
            if _key(position) not in seen:
                fresh.append(move)
            position.undo()
        if not fresh:
            break
        hidden = sum(position.down)
        king_waiting = any(position.movable[k] and position.pos_of[k] > 0 for k in (12, 25, 38, 51))
        ranked = sorted(
            fresh,
            key=lambda m: (
                _move_value(position, m, hidden, king_waiting) + rng.random() * skill.noise
            ),
            reverse=True,
        )
        move = next((m for m in ranked if keeps_the_win(position, m, known)), ranked[0])
        position.push(move)
        seen.add(_key(position))
        moves.append(move)
    idle = rng.uniform(2_000, 20_000)
    return timed(
        daily.number, moves, lambda s: human_gap(s, skill.timing, rng), daily.solution, idle
    )


def sometimes(share: float, rng: random.Random) -> Callable[[Position], bool]:
    """Consult the solver at a random ``share`` of the positions with cards face down."""
    return lambda position: sum(position.down) > 0 and rng.random() < share


@dataclass(frozen=True)
class Profile:
    name: str
    honest: bool
    play: Callable[[Daily, random.Random], PlayedGame]


def _line(daily: Daily) -> list[int]:
    return parse_line(daily.number, daily.solution)


def cheater_profiles() -> list[Profile]:
    regular = SKILLS[2]
    return [
        Profile(
            "solver line, machine pace",
            False,
            lambda d, r: timed(
                d.number, _line(d), machine_gap(230, 270, r), d.solution, r.uniform(500, 3_000)
            ),
        ),
        Profile(
            "solver line, human-like random delays",
            False,
            lambda d, r: timed(
                d.number, _line(d), random_human_gap(r), d.solution, r.uniform(2_000, 20_000)
            ),
        ),
        Profile(
            "solver line, idle start then 0.25 s",
            False,
            lambda d, r: timed(
                d.number, _line(d), machine_gap(240, 260, r), d.solution, r.uniform(60_000, 120_000)
            ),
        ),
        Profile(
            "solver line with harmless detours",
            False,
            lambda d, r: timed(
                d.number,
                with_detours(d.number, d.solution, r.randint(3, 6), r),
                random_human_gap(r),
                d.solution,
                r.uniform(2_000, 20_000),
            ),
        ),
        Profile(
            "solver at the hard points only",
            False,
            lambda d, r: consulting_game(d, regular, r, hard_point)[0],
        ),
        Profile(
            "solver re-run at every move (another line)",
            False,
            lambda d, r: consulting_game(d, regular, r, lambda p: sum(p.down) > 0)[0],
        ),
        Profile("greedy bot, no solver, 0.4-0.8 s", False, _greedy_bot),
    ]


def knowledge_profiles() -> list[Profile]:
    """Players who know what they should not, at a person's pace and in a person's style: only
    the clairvoyance check (medium and hard deals) can see them in the log."""
    regular = SKILLS[2]
    return [
        Profile(
            "clairvoyant, human pace and style",
            False,
            lambda d, r: clairvoyant_game(d, regular, r),
        ),
        Profile(
            "solver at a random 60 % of positions",
            False,
            lambda d, r: consulting_game(d, regular, r, sometimes(0.6, r))[0],
        ),
        Profile(
            "solver at a random 30 % of positions",
            False,
            lambda d, r: consulting_game(d, regular, r, sometimes(0.3, r))[0],
        ),
    ]


def _greedy_bot(daily: Daily, rng: random.Random) -> PlayedGame:
    position = Position.deal(daily.number)
    seen: set[object] = {_key(position)}
    moves: list[int] = []
    bot = Skill("bot", 5, 0.0, 0.0, HumanTiming())
    while len(moves) < MAX_MOVES and not position.is_won():
        move = choose_move(position, bot, seen, rng)
        if move is None:
            break
        position.push(move)
        seen.add(_key(position))
        moves.append(move)
    return timed(
        daily.number, moves, machine_gap(400, 800, rng), daily.solution, rng.uniform(1_000, 5_000)
    )


# ----- honest variations (the detector must not be fitted to one setting) ---------------


def honest_variations() -> dict[str, Callable[[HumanTiming], HumanTiming]]:
    return {
        "as modelled": lambda h: h,
        "weak thinking effect": lambda h: replace(h, bit_ms=h.bit_ms / 3, stake=0.1),
        "very noisy": lambda h: replace(h, noise=0.95),
        "fast hands": lambda h: replace(h, speed=h.speed * 0.6, motor_ms=260, look_ms=330),
        "slow network": lambda h: replace(h, rtt_ms=350),
        "no breaks": lambda h: replace(h, break_chance=0.0, autopilot=0.2),
    }


def _honest_player(skill: Skill) -> Callable[[Daily, random.Random], PlayedGame]:
    return lambda daily, rng: honest_game(daily, skill, rng)


def honest_profiles() -> list[Profile]:
    out = []
    for variation, change in honest_variations().items():
        for skill in SKILLS:
            varied = replace(skill, timing=change(skill.timing))
            out.append(Profile(f"{skill.name} ({variation})", True, _honest_player(varied)))
    return out


def games_of(profile: Profile, deals: list[Daily], count: int, seed: int) -> Iterator[PlayedGame]:
    rng = random.Random(f"{seed}:{profile.name}")
    for i in range(count):
        daily = deals[i % len(deals)]
        yield replace(profile.play(daily, rng), tier=daily.tier)


# ----- tallies ---------------------------------------------------------------------------


@dataclass
class Tally:
    """How many of a profile's games the detector flagged, and with what."""

    profile: str
    honest: bool
    games: int = 0
    flagged: int = 0
    won: int = 0
    kinds: Counter[str] = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.flagged / self.games if self.games else 0.0


def tally(profile: Profile, deals: list[Daily], count: int, seed: int, t: Thresholds) -> Tally:
    """Play ``count`` games of ``profile`` and judge each with the production function."""
    out = Tally(profile.name, profile.honest)
    for game in games_of(profile, deals, count, seed):
        kinds = {finding.kind for finding in judge(game, t)}
        out.games += 1
        out.flagged += bool(kinds)
        out.kinds.update(kinds)
        out.won += _won(game)
    return out


def _won(game: PlayedGame) -> bool:
    replayed = replay(game.number, game.variant, game.moves)
    if replayed.error is not None:  # a bot that played an illegal move is a broken bot
        raise IllegalMoveError(f"move {replayed.error.index + 1}: {replayed.error.reason}")
    return replayed.won
