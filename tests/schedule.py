"""The longest tests first, so that no worker starts a two-minute test near the end.

``make test`` hands tests to its workers one at a time (``--dist load --maxschedchunk 1``)
in the order the workers collected them. This plugin (pyproject.toml loads it with ``-p``)
sorts that order by how long each test took in a recent full run, longest first: the
schedule then packs the workers evenly, and the run ends soon after its total work divided
by the workers, instead of when the worker that drew the slowest tests last is done.

The times come from ``tests/durations.json`` (``make durations`` writes it from a run's
``--durations`` report, read by ``python -m tests.schedule``); a test missing from it
counts as quick. Tests that share a fixture wider than
one test (module, class or package scope) stay together in their first order. Handed out
one at a time, they may still run on two or three workers, each making the fixture
(tests/run_cache.py shares a costly one's result between them). Outside xdist the order
is left alone.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import defaultdict
from pathlib import Path

import pytest

DURATIONS = Path(__file__).with_name("durations.json")
# A test too quick to be in the file.
QUICK_SECONDS = 0.1
SHARED_SCOPES = {"module", "class", "package"}
# One line of pytest's --durations report: "12.34s call     tests/x.py::test_y[a]".
REPORT_LINE = re.compile(r"^(\d+(?:\.\d+)?)s (?:setup|call|teardown)\s+(\S+::\S.*?)\s*$")


def recorded_durations() -> dict[str, float]:
    try:
        data = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}
    return {str(nodeid): float(seconds) for nodeid, seconds in data.items()}


def group_key(item: pytest.Item) -> str:
    """Tests with a fixture shared beyond one test are one unit: their module."""
    info = getattr(item, "_fixtureinfo", None)
    if info is not None:
        for definitions in info.name2fixturedefs.values():
            if any(definition.scope in SHARED_SCOPES for definition in definitions):
                return item.nodeid.split("::", 1)[0]
    return item.nodeid


def longest_first(items: list[pytest.Item], seconds: dict[str, float]) -> list[pytest.Item]:
    groups: dict[str, list[pytest.Item]] = {}
    for item in items:
        groups.setdefault(group_key(item), []).append(item)
    weight = {
        key: sum(seconds.get(item.nodeid, QUICK_SECONDS) for item in members)
        for key, members in groups.items()
    }
    # sorted() is stable: equal weights keep their collected order.
    ordered = sorted(groups, key=lambda key: -weight[key])
    return [item for key in ordered for item in groups[key]]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Every worker sorts its identical collection the same way, so xdist sees one order.
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    items[:] = longest_first(items, recorded_durations())


def durations_from_report(lines: list[str]) -> dict[str, float]:
    """Seconds per test (its setup, call and teardown) from a --durations report."""
    seconds: defaultdict[str, float] = defaultdict(float)
    for line in lines:
        match = REPORT_LINE.match(line)
        if match:
            seconds[match[2]] += float(match[1])
    return {nodeid: round(total, 1) for nodeid, total in sorted(seconds.items())}


def main() -> int:
    """Read a pytest log on stdin; write tests/durations.json."""
    seconds = durations_from_report(sys.stdin.read().splitlines())
    if not seconds:
        print("no --durations report in the input", file=sys.stderr)
        return 1
    DURATIONS.write_text(json.dumps(seconds, indent=0, sort_keys=True) + "\n")
    print(f"{DURATIONS}: {len(seconds)} tests, {sum(seconds.values()):.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
