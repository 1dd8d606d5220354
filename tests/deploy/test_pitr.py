"""Point-in-time recovery, drilled (scripts/pitr-drill; docs/operations.md, "Backups and
point-in-time recovery").

The drill runs its own PostgreSQL with docker-compose.yml's archive settings and
deploy/postgres/pgbackrest.conf, plays a game through the games services around a full
backup, notes the server's clock between two moves, loses the server, restores with
`pgbackrest restore --type=time` and finds exactly the moves before that moment.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.test_rehearsal import processes_using

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "pitr-drill"


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_restore_to_a_moment_between_two_moves_holds_exactly_the_moves_before_it() -> None:
    if shutil.which("pgbackrest") is None:
        pytest.skip("needs pgBackRest (Debian package pgbackrest; .ci/run installs it)")
    process = subprocess.Popen(
        [sys.executable, str(SCRIPT)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGTERM)  # the drill stops its servers, then exits
        try:
            output, _ = process.communicate(timeout=60)
        finally:
            os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"the drill took over 240 s:\n{output[-6000:]}")
    assert process.returncode == 0, output[-6000:]
    workdir = re.search(r"work directory (\S+)", output)
    assert workdir, output
    for step in (
        "archive_mode=on, archive_command=pgbackrest --stanza=yukon archive-push %p",
        "3 moves, then a full backup",
        "8 moves before",
        "pgbackrest check: the last WAL segment is in the archive",
        "the server is stopped and its data directory deleted",
        "restored and promoted: recovery stopping before commit of transaction",
        "OK: the game holds exactly the 8 moves before the moment",
        "not the 6 after it; its row as it was",
    ):
        assert step in output, f"missing {step!r}:\n{output}"
    left = Path(workdir.group(1))
    assert not processes_using(left), processes_using(left)
    assert not left.exists()
