"""The multi-deck search (``yukon.solver._cmulti``): it generates the engine's moves, each
pruning rule keeps the plain exhaustive verdict with duplicate cards, lines replay
through the engine, and budgets give ``unknown``.

The endgames (8 to 14 cards left, two to four decks) are built so that identical cards
are often in play together: the case the face-keyed table, the auto-foundation rule and
the test of cards that can never go home must get right (docs/solver.md, "Multi-deck
variants").
"""

from __future__ import annotations

import json
import random
from typing import NamedTuple

import pytest

from yukon.engine import Position
from yukon.solver import ALL_RULES, _cmulti, solve, verify_line
from yukon.solver.__main__ import main as cli_main

from .reference import reference_verdict

RULES = {
    "none": 0,
    "auto": _cmulti.F_AUTO,
    "one-empty": _cmulti.F_ONE_EMPTY,
    "faces": _cmulti.F_CANON,
    "never-home": _cmulti.F_STUCK,
    "all": _cmulti.F_ALL,
}
VERDICTS = {0: "solved", 1: "unwinnable", 2: "unknown"}
MULTI_DECK = ("double-yukon", "triple-yukon", "quadruple-yukon")


class Searched(NamedTuple):
    verdict: str
    line: list[str]
    nodes: int


def c_search(pos: Position, flags: int, max_nodes: int) -> Searched:
    """The deterministic C search alone (no portfolio), its line as texts."""
    code, line, nodes, _ = _cmulti.solve(
        pos.variant.decks, pos.cols, pos.down, pos.found, flags=flags, max_nodes=max_nodes
    )
    replay = pos.copy()
    texts = []
    for move in line:
        texts.append(replay.move_text(move))
        replay.push(move)
    return Searched(VERDICTS[code], texts, nodes)


@pytest.mark.parametrize("variant", MULTI_DECK)
def test_move_generation_matches_the_engine(variant: str) -> None:
    rng = random.Random(variant)
    checked = 0
    for deal in range(12):
        pos = Position.deal(deal, variant)
        for _ in range(150):
            decks = pos.variant.decks
            mine = _cmulti.legal_moves(decks, pos.cols, pos.down, pos.found)
            assert sorted(mine) == sorted(pos.legal_moves()), pos.to_text()
            checked += 1
            if not mine:
                break
            pos.push(rng.choice(mine))
    assert checked > 1000


def random_endgame(rng: random.Random, variant: str) -> Position:
    """A few top cards of each foundation still out, shuffled into a few columns."""
    probe = Position.deal(0, variant).variant
    left = rng.randint(8, 14)
    while True:
        found = [rng.choice((9, 10, 11, 12, 13, 13)) for _ in range(probe.foundations)]
        if sum(13 - f for f in found) == left:
            break
    # Pile p builds suit p % 4; its missing cards are taken from deck p // 4.
    cards = [(p // 4) * 52 + (p % 4) * 13 + r for p, f in enumerate(found) for r in range(f, 13)]
    rng.shuffle(cards)
    cols: list[list[int]] = [[] for _ in range(probe.columns)]
    used = rng.randint(2, 5)
    for card in cards:
        cols[rng.randrange(used)].append(card)
    rng.shuffle(cols)
    down = [rng.randint(0, len(c) - 1) if c else 0 for c in cols]
    return Position(variant, cols, down, found)


def endgames(variant: str, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    return [random_endgame(rng, variant) for _ in range(count)]


# A copy sent home first must not take the foundation its twin needs: here the Qs on top
# of column 1 and the Qs on the Ts of column 9 both fit the spades foundation at J, the
# other spades foundation is at 9, and only the Qs of column 9 may go (to free the Ts).
TWIN_TRAP = "double-yukon .KsJsQs/././././Js.Ks/././KhKd.TsQsKc/. KQKTQKQ9 0 0 1122221212"


def test_auto_foundation_leaves_the_twin_its_place() -> None:
    pos = Position.from_text(TWIN_TRAP)
    assert reference_verdict(pos, 60_000) == "solved"
    for flags in RULES.values():
        assert c_search(pos, flags, 100_000).verdict == "solved"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "seed"),
    [("double-yukon", 1), ("double-yukon", 4), ("triple-yukon", 2), ("quadruple-yukon", 3)],
)
def test_every_rule_keeps_the_plain_verdict(variant: str, seed: int) -> None:
    compared = lost = duplicates = at_once = 0
    for pos in endgames(variant, 90, seed):
        plain = reference_verdict(pos, 60_000)
        if plain == "unknown":
            continue
        compared += 1
        lost += plain == "unwinnable"
        faces = [c % 52 for col in pos.cols for c in col]
        duplicates += len(faces) != len(set(faces))
        for name, flags in RULES.items():
            got, line, nodes = c_search(pos, flags, 100_000)
            # (without the face-keyed table a search may need more than the budget)
            assert got in (plain, "unknown"), f"{name}: {got} != {plain} on {pos.to_text()}"
            undecided = f"{name} undecided on {pos.to_text()}"
            assert got == plain or not flags & _cmulti.F_CANON, undecided
            if got == "solved":
                assert verify_line(pos, line) is None, (name, pos.to_text())
            at_once += name == "never-home" and got == "unwinnable" and nodes == 1
    assert compared >= 60
    assert duplicates >= 50  # identical cards in play together
    assert lost >= 1
    assert at_once >= 1  # the never-home rule is at work: a loss seen at the first position


@pytest.mark.parametrize("variant", MULTI_DECK)
def test_never_home_never_fires_on_a_winning_line(variant: str) -> None:
    # Every position of a winning line is won: the rule must not call any of them lost
    # (max_nodes=1: the first position's test alone). The lines of the plain search
    # (flags 0) pass through positions no auto-foundation move has tidied.
    tested = 0
    for deal in (0, 1, 3):
        start = Position.deal(deal, variant)
        for flags in (_cmulti.F_ALL, 0):
            result = c_search(start, flags, 200_000)
            assert result.verdict == "solved"
            pos = start.copy()
            for text in result.line:
                decks = pos.variant.decks
                code, *_ = _cmulti.solve(
                    decks, pos.cols, pos.down, pos.found, flags=_cmulti.F_STUCK, max_nodes=1
                )
                assert code != 1, pos.to_text()
                tested += 1
                pos.play_text(text)
    assert tested > 1000


def test_solve_proves_and_solves_multi_deck_positions() -> None:
    result = solve(0, variant="double-yukon", seconds=10)
    assert result.verdict == "solved"
    assert verify_line(Position.deal(0, "double-yukon"), result.moves) is None
    assert all(":" in text for text in result.moves)  # the source-column form
    games = endgames("double-yukon", 100, 5)
    lost = next(pos for pos in games if reference_verdict(pos, 20_000) == "unwinnable")
    assert solve(lost, seconds=5).verdict == "unwinnable"


def test_the_cli_solves_a_multi_deck_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["0", "--variant", "double-yukon", "--seconds", "10"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["verdict"] == "solved" and answer["moves"][0] == "2:Ah#1>F"


def test_budgets_give_unknown_with_the_reason() -> None:
    assert solve(1, variant="triple-yukon", nodes=50, seconds=None).reason == "nodes"
    # (quadruple deal 2 and double deal 36 take the deterministic search millions of positions)
    assert solve(2, variant="quadruple-yukon", seconds=0.05, restarts=False).reason == "seconds"
    full = solve(36, variant="double-yukon", memory_mb=1, seconds=5, restarts=False)
    assert full.reason == "memory"
    assert solve(0, variant="double-yukon", seconds=5, rules=ALL_RULES).verdict == "solved"
