"""Every unwinnable verdict among Yukon deals 1..200 is confirmed by a second search.

yukon/tests/solver/fixtures/unwinnable.json records, per deal, the positions searched by the
solver's own proof (every pruning rule) and by a plain exhaustive search that shares no
pruning rule with it (only the transposition table), both deterministic and both run to
the end by make_unwinnable.py. Here the records are checked by rerunning the searches
where that takes seconds: the same verdict with exactly the same number of positions.
The plain search runs level of progress by level (exhaust_by_levels, so that spaces
larger than memory fit); the depth-first search with no rule visits the same positions,
and both reproduce the records they can finish.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from yukon.engine import Position
from yukon.solver import _csolver

HERE = Path(__file__).resolve().parent
RECORDS = {
    int(deal): record
    for deal, record in json.loads((HERE / "fixtures" / "unwinnable.json").read_text())[
        "deals"
    ].items()
}
KNOWN = json.loads((HERE / "fixtures" / "known-deals.json").read_text())
RERUN_PLAIN = 12_000_000  # positions: a rerun of at most about 10 s
RERUN_PROOF = 4_000_000
HEAVY = 2_000_000  # reruns above this many positions are marked heavy


def cases(field: str, limit: int) -> list[object]:
    return [
        pytest.param(deal, marks=pytest.mark.heavy) if record[field] > HEAVY else deal
        for deal, record in sorted(RECORDS.items())
        if record[field] <= limit
    ]


def exhaust(deal: int, flags: int) -> tuple[int, int]:
    start = Position.deal(deal, "yukon")
    search = _csolver.Search(0, start.cols, start.down, start.found, flags=flags, memory_mb=2048)
    verdict, moves, nodes, _ = search.run()
    assert moves == []
    return verdict, nodes


def test_every_known_unwinnable_deal_is_confirmed() -> None:
    assert set(KNOWN["unwinnable"]["deals"]) <= set(RECORDS)
    assert not {int(n) for n in KNOWN["winning_lines"]} & set(RECORDS)
    for record in RECORDS.values():
        assert record["all_rules_positions"] > 0 and record["plain_positions"] > 0


def by_levels(deal: int, **limits: Any) -> tuple[int, int, int, str]:
    start = Position.deal(deal, "yukon")
    return _csolver.exhaust_by_levels(0, start.cols, start.down, start.found, **limits)


@pytest.mark.slow
@pytest.mark.parametrize("deal", cases("plain_positions", RERUN_PLAIN))
def test_the_plain_search_reproduces_its_record(deal: int) -> None:
    # two threads (each part of a level by one of them): the same positions as one
    assert by_levels(deal, memory_mb=1024, threads=2)[:2] == (1, RECORDS[deal]["plain_positions"])
    assert exhaust(deal, 0) == (1, RECORDS[deal]["plain_positions"])


@pytest.mark.slow
def test_the_search_by_levels_holds_a_small_part_of_the_space() -> None:
    verdict, positions, held, _ = by_levels(156, memory_mb=256)
    assert (verdict, positions) == (1, RECORDS[156]["plain_positions"])
    assert held * 10 < positions


@pytest.mark.slow
def test_the_search_by_levels_says_when_it_stops() -> None:
    assert by_levels(27, memory_mb=1)[0::3] == (2, "memory")
    assert by_levels(27, max_nodes=1_000) == (2, 1_000, 1_000, "nodes")
    with pytest.raises(ValueError, match="memory_mb"):
        by_levels(27, memory_mb=0)
    with pytest.raises(ValueError, match="threads"):
        by_levels(27, threads=9)


@pytest.mark.slow
def test_a_stopped_search_by_levels_resumes_where_it_stopped(tmp_path: Path) -> None:
    # Stopped mid-level again and again, with one thread or two: each run goes on at the
    # level the last one was in, and the last run ends with the record's count and table.
    whole = by_levels(156, memory_mb=256, threads=2)
    assert whole[:2] == (1, RECORDS[156]["plain_positions"])
    directory = str(tmp_path)
    stops = []
    for threads, budget in [(1, 150_000), (2, 300_000), (1, 310_000), (2, 700_000)]:
        verdict, positions, _, reason = by_levels(
            156, memory_mb=256, threads=threads, max_nodes=budget, directory=directory
        )
        assert (verdict, positions, reason) == (2, budget, "nodes")
        state = json.loads((tmp_path / "state.json").read_text())
        assert state["positions"] < budget and state["cpu_seconds"] >= 0
        stops.append(state["level"])
    assert stops == sorted(stops) and stops[0] < stops[-1]
    assert by_levels(156, memory_mb=256, threads=2, directory=directory) == whole
    assert os.listdir(tmp_path) == []  # done: the entries and the state are gone


@pytest.mark.slow
def test_a_killed_search_by_levels_resumes(tmp_path: Path) -> None:
    # SIGKILL leaves a level half searched and its entries half written: the next run
    # drops what that level wrote and searches it again.
    program = (
        "import sys; from yukon.engine import Position; from yukon.solver import _csolver;"
        "p = Position.deal(27, 'yukon');"
        "_csolver.exhaust_by_levels(0, p.cols, p.down, p.found, memory_mb=512, threads=2,"
        " directory=sys.argv[1])"
    )
    root = Path(__file__).resolve().parents[3]
    run = subprocess.Popen([sys.executable, "-c", program, str(tmp_path)], cwd=root)
    state = tmp_path / "state.json"

    def level() -> int:
        try:
            return int(json.loads(state.read_text())["level"])
        except FileNotFoundError:
            return -1

    while run.poll() is None and level() < 5:
        time.sleep(0.01)
    run.send_signal(signal.SIGKILL)
    assert run.wait() == -signal.SIGKILL, "the search ended before it could be killed"
    killed_at = json.loads(state.read_text())
    assert 0 < killed_at["positions"] < RECORDS[27]["plain_positions"]
    verdict, positions, _, _ = by_levels(27, memory_mb=512, threads=2, directory=str(tmp_path))
    assert (verdict, positions) == (1, RECORDS[27]["plain_positions"])


@pytest.mark.slow
def test_a_directory_holds_one_search(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="No such file"):
        by_levels(156, directory=str(tmp_path / "missing"))
    assert by_levels(156, max_nodes=100_000, directory=str(tmp_path))[0] == 2
    with pytest.raises(ValueError, match="another position"):
        by_levels(27, directory=str(tmp_path))
    with open(tmp_path / "lock") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with pytest.raises(ValueError, match="another search is using it"):
            by_levels(156, directory=str(tmp_path))
    state = tmp_path / "state.json"
    state.write_text(state.read_text().replace('"level": ', '"level": x'))
    with pytest.raises(ValueError, match="not the state of a search by levels"):
        by_levels(156, directory=str(tmp_path))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["x"], "not a list of deal numbers: 'x'"),
        (["0"], "deal numbers start at 1"),
        (["--directory", "/nonexistent/levels", "37"], "/nonexistent/levels: not a directory"),
    ],
)
def test_make_unwinnable_refuses_bad_arguments_in_one_line(
    arguments: list[str], message: str
) -> None:
    # before any search, and without touching the fixture
    before = (HERE / "fixtures" / "unwinnable.json").read_bytes()
    run = subprocess.run(
        [sys.executable, str(HERE / "make_unwinnable.py"), *arguments],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert run.stderr.strip().splitlines()[-1].endswith(message)
    assert "Traceback" not in run.stderr
    assert (HERE / "fixtures" / "unwinnable.json").read_bytes() == before


@pytest.mark.parametrize("deal", cases("all_rules_positions", RERUN_PROOF))
def test_the_solvers_proof_reproduces_its_record(deal: int) -> None:
    assert exhaust(deal, _csolver.F_ALL) == (1, RECORDS[deal]["all_rules_positions"])


def test_the_plain_search_is_the_search_with_no_rule() -> None:
    # "Shares no pruning rule": flags 0 switches every rule off, and the search then
    # tries every empty column and tells columns apart (more positions than with rules).
    rules: tuple[int, ...] = (_csolver.F_AUTO, _csolver.F_ONE_EMPTY, _csolver.F_CANON)
    rules += (_csolver.F_STUCK, _csolver.F_TWIN)
    assert sum(rules) == _csolver.F_ALL
    start = Position.deal(64, "yukon")
    plain = _csolver.Search(0, start.cols, start.down, start.found, flags=0)
    assert plain.run()[2] == RECORDS[64]["plain_positions"] > RECORDS[64]["all_rules_positions"]
