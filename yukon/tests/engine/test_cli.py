"""The command line, run as people and scripts run it: ``python -m yukon.engine ...``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
VECTORS = Path(__file__).resolve().parent / "vectors"
KNOWN = json.loads((VECTORS / "known-deals.json").read_text())["winning_lines"]
DEALS = {d["number"]: d for d in json.loads((VECTORS / "deals.json").read_text())["deals"]}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "yukon.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def test_deal() -> None:
    done = run("deal", "0")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == {
        "columns": DEALS["0"]["columns"],
        "face_down": [0, 1, 2, 3, 4, 5, 6],
        "foundations": {"c": 0, "d": 0, "h": 0, "s": 0},
    }


def test_deal_largest_number_and_variant() -> None:
    done = run("deal", str(2**64 - 1), "--variant", "russian")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["columns"] == DEALS[str(2**64 - 1)]["columns"]


def test_moves_at_the_start_and_after_stdin() -> None:
    done = run("moves", "0")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["8d>6", "9c>7", "9s>7"]  # counted by hand
    done = run("moves", "0", stdin="8d>6\n\n  9c>7  \n")  # blank lines and spaces ignored
    assert done.returncode == 0, done.stderr
    moves = json.loads(done.stdout)
    assert moves == sorted(moves)
    assert "9c>7" not in moves


def test_replay_a_winning_line() -> None:
    done = run("replay", "0", "--variant", "yukon", stdin="\n".join(KNOWN["68"]))
    assert done.returncode == 1  # deal 68's line is not deal 0's
    done = run("replay", "68", "--variant", "yukon", stdin="\n".join(KNOWN["68"]) + "\n")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["score"] == 625
    assert out["won"] is True
    assert out["moves"] == 153
    assert len(out["turned"]) == 153
    assert sum(card is not None for card in out["turned"]) == 21


def test_replay_stops_at_the_first_illegal_move() -> None:
    done = run("replay", "0", stdin="8d>6\n9c>7\nQc>1\n9s>7\n")
    assert done.returncode == 1
    assert done.stderr == ""
    error = json.loads(done.stdout)["error"]
    assert error["index"] == 2
    assert error["move"] == "Qc>1"
    assert error["reason"] == "Qc cannot go on 8s: Yukon builds down in alternating colour"


def test_moves_with_bad_notation_reports_like_replay() -> None:
    done = run("moves", "0", stdin="Zz\n")
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["index"] == 0


@pytest.mark.parametrize(
    "args",
    [
        ("deal", "18446744073709551616"),
        ("deal", "-1"),
        ("deal", "x"),
        ("deal", "1_000"),
        ("deal", "9" * 5000),
        ("deal", "0", "--variant", "klondike"),
        ("replay", "0", "--variant", "Yukon"),
        ("moves",),
        ("shuffle", "0"),
        (),
    ],
    ids=["2**64", "-1", "x", "underscore", "huge", "klondike", "Yukon", "no-number", "cmd", "none"],
)
def test_bad_arguments_give_one_line_and_no_traceback(args: tuple[str, ...]) -> None:
    done = run(*args)
    assert done.returncode != 0
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert len(lines[0]) < 300


def test_moves_in_moosehide_build_on_any_other_suit() -> None:
    # Deal 1 as dealt, counted by hand: on Kc (column 4) any Q but a club, each with the
    # cards on it (Qs carries Qh Qd 9d: black on black, and no run); on 7d any 6 but a
    # diamond (6s carries Kc); on 9d an 8h (carrying 8d 5s Jd) or 8s (carrying Qc 4s 6c).
    done = run("moves", "1", "--variant", "moosehide")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        "5d>5", "5s>5", "6c>1", "6c>7", "6h>1", "6h>7", "6s>1",
        "8h>6", "8s>6", "Qd>4", "Qh>4", "Qs>4", "Tc>2",
    ]  # fmt: skip
    runs = run("moves", "1", "--variant", "moosehide-runs")
    assert json.loads(runs.stdout) == ["6c>1"]  # the old rule: only ordered runs move


def test_takeback_option() -> None:
    # After 12 moves of deal 1's known win, Ad, 2d, Ah and 2h are home: with --takeback
    # the 2s on top of their foundations may also come back onto a black 3.
    moves = "\n".join(KNOWN["1"][:12])
    plain = set(json.loads(run("moves", "1", stdin=moves).stdout))
    takeback = set(json.loads(run("moves", "1", "--takeback", stdin=moves).stdout))
    assert plain < takeback
    assert {m[:2] for m in takeback - plain} <= {"2d", "2h"}
