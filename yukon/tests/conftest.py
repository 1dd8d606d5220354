"""The core's tests need no service, no Django and no fixture of the site's tests.

One rule carries over from the site's tests (tests/conftest.py, whose hooks reach only the
tests below it): under CI (CI=true) a skipped test fails the run, so nothing of the core
can pass as green unchecked.
"""

from __future__ import annotations

import os

import pytest

_skipped: list[str] = []


def _running_in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and not hasattr(report, "wasxfail"):
        _skipped.append(report.nodeid)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _running_in_ci() and _skipped and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _running_in_ci() and _skipped:
        terminalreporter.write_sep("=", "CI=true: skipped tests of the core fail the run", red=True)
        for nodeid in _skipped:
            terminalreporter.write_line(f"SKIPPED IN CI: {nodeid}", red=True)
