"""A costly result computed once per test run and shared by all its xdist workers.

``make test`` hands tests out one at a time, so the tests of one module, which share a
module-scoped fixture, often run on two or three workers (tests/schedule.py keeps them
next to each other in the order, not on one worker), and each of those workers made the
fixture again; and every worker migrated a test database of its own. ``once_per_run``
keeps the first worker's result as JSON in the directory the run's workers share (their
base temporary directories' parent, which pytest removes at the end of a run that passed);
a worker that asks while another computes it waits for it (a lock), then reads it. Only
for what is the same in every worker: the clairvoyance tests' rated deals, the name of the
migrated template database (tests/migrated_template.py).
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def once_per_run(
    tmp_path_factory: pytest.TempPathFactory, name: str, compute: Callable[[], Any]
) -> Any:
    """``compute()`` (JSON data) made once for the whole run, as JSON gives it back (lists
    for tuples) in every worker; outside xdist, made for this process."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return json.loads(json.dumps(compute()))
    shared = tmp_path_factory.getbasetemp().parent  # this run's, shared by its workers
    path = shared / f"{name}.json"
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not path.exists():
            partial = path.with_suffix(".partial")
            partial.write_text(json.dumps(compute()))
            partial.replace(path)
        return json.loads(path.read_text())


def kept(directory: Path, name: str) -> Any:
    """What ``once_per_run`` keeps under ``name`` in ``directory``, the run's shared one
    (the controller's base temporary directory), or None."""
    path = directory / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None
