"""Shared pytest set-up: service markers and the CI rule that nothing may be skipped.

Tests that need a real service carry a marker (declared in pyproject.toml):
``postgres`` needs DATABASE_URL=postgres://..., ``redis`` needs REDIS_URL, ``celery``
needs REDIS_URL (a real worker), ``e2e`` needs a Chromium binary. Locally, a test whose
service is missing is skipped with the reason. Under CI (CI=true) any skipped test makes
the run fail, so a missing service can never pass as green.
"""

from __future__ import annotations

import gc
import os
import shutil
import sys
from collections.abc import Iterator

import pytest
from hypothesis import settings as hypothesis_settings

# No deadline on a Hypothesis example: speed is the benchmarks' to measure, and the
# default 200 ms failed a pure-function test once while the machine ran other tests.
hypothesis_settings.register_profile("site", deadline=None)
hypothesis_settings.load_profile("site")

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def running_in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def missing_service(marker: str) -> str | None:
    """Why the service a marker names is unavailable, or None when it is there."""
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if marker == "postgres" and not database_url.startswith(("postgres://", "postgresql://")):
        return "needs PostgreSQL: DATABASE_URL is not a postgres:// URL"
    if marker in {"redis", "celery"} and not redis_url:
        return f"needs Redis ({marker}): REDIS_URL is not set"
    if marker == "e2e" and not any(shutil.which(name) for name in CHROMIUM_NAMES):
        return "needs a Chromium browser on PATH"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for marker in ("postgres", "redis", "celery", "e2e"):
            if item.get_closest_marker(marker) is None:
                continue
            reason = missing_service(marker)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))
                break


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Tune the cyclic garbage collector for the rest of the session, as gunicorn's workers
    do (yukon_site/gunicorn.py): what collection built (the test modules, Django, the
    apps) lives as long as the process, so ``gc.freeze`` keeps it out of every later scan,
    and the youngest generation is collected every 10,000 allocations instead of 700.
    The workers spent about 5 % of their CPU in the collector; 6 % less CPU on the
    moderation, secrecy and daily tests (docs/development.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)


class _SkipCounter:
    def __init__(self) -> None:
        self.skipped: list[str] = []


_SKIPS = _SkipCounter()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and not hasattr(report, "wasxfail"):
        _SKIPS.skipped.append(report.nodeid)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    drop_the_template(session.config)
    if not running_in_ci():
        return
    if _SKIPS.skipped and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if running_in_ci() and _SKIPS.skipped:
        terminalreporter.write_sep("=", "CI=true: skipped tests fail the run", red=True)
        for nodeid in _SKIPS.skipped:
            terminalreporter.write_line(f"SKIPPED IN CI: {nodeid}", red=True)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """pytest-django's last word on the database settings before it makes the test
    database: under xdist on PostgreSQL, each worker's is copied from one migrated once for
    the whole run (tests/migrated_template.py)."""
    from django.conf import settings

    from tests import migrated_template
    from tests.run_cache import once_per_run

    db = settings.DATABASES["default"]
    if migrated_template.wanted(db, request.config):
        db["TEST"]["TEMPLATE"] = once_per_run(
            tmp_path_factory,
            migrated_template.NAME,
            lambda: migrated_template.make(db, migrated_template.template_name(db)),
        )


def drop_the_template(config: pytest.Config) -> None:
    """The controller of an xdist run drops the template its workers' databases were
    copied from (tests/migrated_template.py), once they are done (and before pytest removes
    the run's temporary directory, where its name is kept)."""
    if os.environ.get("PYTEST_XDIST_WORKER") or not config.pluginmanager.hasplugin("dsession"):
        return
    from django.conf import settings

    from tests import migrated_template
    from tests.run_cache import kept

    name = kept(config._tmp_path_factory.getbasetemp(), migrated_template.NAME)  # type: ignore[attr-defined]
    if name:
        try:
            migrated_template.drop(settings.DATABASES["default"], name)
        except Exception as error:  # the server is gone: nothing left to drop
            print(f"the template database {name} was not dropped: {error}", file=sys.stderr)


@pytest.fixture(autouse=True, scope="session")
def _tests_play_faster_than_people() -> None:
    """Tests play whole lines in a blink and sign up many players from 127.0.0.1: lift
    the rate limits for the in-process client. tests/security/test_rate_limits.py sets
    its own rates; the tests that start gunicorn pass THROTTLE_MOVES themselves."""
    from django.conf import settings

    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    rates.update({"moves": "100000/s", "signup": "100000/s", "login": "100000/s"})
    # The budgets of costly calls (hints, new games, ...): a new dict, not changed in place,
    # so that yukon_site.settings keeps the real ones for tests/security/test_costly_budgets.py.
    settings.COSTLY_CALL_LIMITS = dict.fromkeys(settings.COSTLY_CALL_LIMITS, "100000/s")


@pytest.fixture(autouse=True, scope="session")
def _flush_without_making_content_types_again() -> Iterator[None]:
    """A transactional test's teardown puts back what post_migrate made after the first
    flush instead of sending it again (tests/flush.py: a third of a second per test)."""
    from django.test import TransactionTestCase

    from tests import flush

    django_teardown = vars(TransactionTestCase)["_fixture_teardown"]  # not in the stubs
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            TransactionTestCase,
            "_fixture_teardown",
            lambda self: flush.flush(self, django_teardown),
        )
        yield


@pytest.fixture(autouse=True, scope="session")
def _passwords_hash_in_a_blink() -> Iterator[None]:
    """Django's advice for a test suite: a fast hasher. The site's PBKDF2 costs about 0.2
    CPU-s a hash, and the suite signs up and logs in players by the hundred (the back-off
    tests alone try hundreds of passwords). The real hashers stay in the list after it, so
    a hash made the real way (tests/accounts/test_allauth_migration.py) still checks; the
    servers tests start as processes (gunicorn, the rehearsal) hash as production does."""
    from django.conf import settings
    from django.test import override_settings

    fast = ["django.contrib.auth.hashers.MD5PasswordHasher", *settings.PASSWORD_HASHERS]
    with override_settings(PASSWORD_HASHERS=fast):
        yield


@pytest.fixture(autouse=True, scope="session")
def _one_solver_thread_per_proof() -> Iterator[None]:
    """The dailies' and the practice pool's proofs (``games.daily.proven_winnable``) in one
    thread, not production's two (DAILY_SOLVE_JOBS): the second thread races the first on
    another core so that a proof comes sooner on an idle machine, and the loser's work is
    thrown away. The suite keeps both cores busy, so that work only slowed the other tests
    (the weekly tests' CPU 24 s, then 19; the daily workers' 47, then 40). Each thread's
    verdict is one the other could give (yukon.solver.solve); the tests check what is done
    with a verdict, never which thread found it. Production's two still run: in
    tests/games/test_daily.py's test of a whole preparation, and in the servers and workers
    the tests start as processes, which read the environment (the rehearsal's worker
    prepares its day so), unless a test says otherwise (tests/games/test_daily_workers.py)."""
    from django.test import override_settings

    with override_settings(DAILY_SOLVE_JOBS=1):
        yield


@pytest.fixture(autouse=True, scope="session")
def _stored_files_out_of_the_checkout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Sealed days' games files (MEDIA_ROOT) go to a directory of this session, never to
    the checkout's var/media: for this process, and for the servers and workers the tests
    start (they read the environment)."""
    from django.test import override_settings

    media = str(tmp_path_factory.mktemp("media"))
    saved = os.environ.get("MEDIA_ROOT")
    os.environ["MEDIA_ROOT"] = media
    try:
        with override_settings(MEDIA_ROOT=media):
            yield
    finally:
        if saved is None:
            os.environ.pop("MEDIA_ROOT", None)
        else:
            os.environ["MEDIA_ROOT"] = saved


@pytest.fixture(autouse=True)
def _english_unless_told() -> Iterator[None]:
    """A request through the test client leaves its language active in the test's thread
    (LocaleMiddleware activates it, nothing deactivates it): each test starts in English
    and leaves none behind."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_boards_kept_from_another_test() -> None:
    """Board pages a process keeps for LEADERBOARD_ROWS_SECONDS (an ExpiringProcessCache in
    leaderboards.day_board, and circles' copies), and the day's counts it keeps for
    DAY_COUNTS_SECONDS (games.daily), are keyed by ids and dates another test's database
    may have reused."""
    from games import daily
    from leaderboards import circles, day_board

    day_board.process_cache.clear()
    circles.process_copies.clear()
    daily.counts_kept.clear()


@pytest.fixture(autouse=True)
def _no_counts_from_another_test() -> None:
    """allauth counts sign-ups and password resets per address in the cache, DRF's throttles
    count requests per address (the games file: 30 an hour), and every test comes from
    127.0.0.1: one worker's earlier tests must not spend a later one's tries. Only those
    keys go (the Redis database also holds the Celery queues a test's worker reads)."""
    from django.conf import settings
    from django.core.cache import cache

    if not settings.REDIS_URL:
        cache.clear()  # the local-memory cache of the embedded default holds nothing else
        return
    import redis

    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=0.5)
        keys = [
            *client.scan_iter(match="*allauth:rl:*"),
            *client.scan_iter(match="*throttle_*"),
        ]
        if keys:
            client.delete(*keys)
    except redis.RedisError:
        pass  # a test that stopped Redis, or pointed at a dead one, counts nothing there
