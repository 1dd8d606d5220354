"""The multi-deck search: each pruning rule keeps the plain exhaustive verdict with
duplicate cards, lines replay through the engine, and budgets give ``unknown``.

The endgames (8 to 14 cards left, two to four decks) are built so that identical cards
are often in play together: the case the face-keyed table and the auto-foundation rule
must get right (docs/solver.md).
"""

from __future__ import annotations

import json
import random

import pytest

from yukon.engine import Position
from yukon.solver import ALL_RULES, solve, verify_line
from yukon.solver.__main__ import main as cli_main
from yukon.solver.multideck import R_ALL, R_AUTO, R_FACES, R_ONE_EMPTY, search

from .reference import reference_verdict

RULES = {"none": 0, "auto": R_AUTO, "one-empty": R_ONE_EMPTY, "faces": R_FACES, "all": R_ALL}
VERDICTS = {0: "solved", 1: "unwinnable", 2: "unknown"}


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
    for rules in RULES.values():
        assert search(pos, rules=rules, max_nodes=100_000).verdict == 0


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "seed"),
    [("double-yukon", 1), ("double-yukon", 4), ("triple-yukon", 2), ("quadruple-yukon", 3)],
)
def test_every_rule_keeps_the_plain_verdict(variant: str, seed: int) -> None:
    compared = lost = duplicates = 0
    for pos in endgames(variant, 90, seed):
        plain = reference_verdict(pos, 60_000)
        if plain == "unknown":
            continue
        compared += 1
        lost += plain == "unwinnable"
        faces = [c % 52 for col in pos.cols for c in col]
        duplicates += len(faces) != len(set(faces))
        for name, rules in RULES.items():
            result = search(pos, rules=rules, max_nodes=100_000)
            got = VERDICTS[result.verdict]
            # (without the face-keyed table a search may need more than the budget)
            assert got in (plain, "unknown"), f"{name}: {got} != {plain} on {pos.to_text()}"
            assert got == plain or not rules & R_FACES, f"{name} undecided on {pos.to_text()}"
            if got == "solved":
                assert verify_line(pos, result.line) is None, (name, pos.to_text())
    assert compared >= 60
    assert duplicates >= 50  # identical cards in play together


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
    assert solve(1, variant="quadruple-yukon", seconds=0.05).reason == "seconds"
    assert solve(1, variant="double-yukon", memory_mb=1, seconds=5).reason in {"memory", "seconds"}
    assert solve(0, variant="double-yukon", seconds=5, rules=ALL_RULES).verdict == "solved"
