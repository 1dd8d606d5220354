"""The API contract under an outside fuzzer: the schemathesis CLI, with every check, against
the site as `make run` serves it, over real HTTP, as a guest and as a logged-in player.

`make run`'s server: runserver with DEBUG on, the embedded SQLite database and no Redis
(tasks in-process), migrated and with today's dailies prepared. With DEBUG on, Django's
own 404 is its technical HTML page, which is how the fuzzer first found the JSON API
answering HTML (docs/api.md, "Conventions").

Every check runs (schemathesis 4's default, as ``--checks all``) in every phase, on a fixed
budget of examples and in deterministic mode, so a run finds the same things each time
for the same schema; only the guest's run leaves out "a created resource is there", which
a client that never keeps its session cookie cannot see (below).
``schemathesis.toml`` beside this file lists, per operation, the few answers OpenAPI
cannot describe, each with its reason. Both fuzzers run at once (the server takes
requests on threads); together they take about 75 to 95 seconds on two cores.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.faults.server import free_port, local_http

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parents[2]
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
CONFIG = Path(__file__).with_name("schemathesis.toml")
MAX_EXAMPLES = 3  # per operation and phase; the coverage phase's cases come on top
CSRF = "f" * 32  # an unmasked token: the cookie and the header carry the same secret
PASSWORD = "a long enough passphrase 42"


def make_run_env(workdir: Path) -> dict[str, str]:
    """`make run`'s settings: DEBUG on, SQLite in ``workdir``, no Redis, its own dev secrets."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DAILY_SECRET"}
        and not key.startswith("THROTTLE_")
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
            "DEBUG": "true",
            "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
            "DEV_SECRETS_FILE": str(workdir / "dev_secrets.py"),
            # Answers that name an email address wait for a floor (accounts/even_timing.py);
            # the fuzzer sends hundreds of them, and the floor changes no answer.
            "ACCOUNT_SIGNUP_ANSWER_SECONDS": "0",
            "ACCOUNT_EMAIL_ANSWER_SECONDS": "0",
            # The practice pool refills in the server's own thread (no worker), proving deals
            # with the solver: at make run's 5 a tier, POST /api/games/ alone took 27 s.
            # One a tier deals every tier and lets the pool run dry (503), as 5 does.
            "PRACTICE_POOL_SIZE": "1",
            # The same for Double to Quadruple Yukon, whose deals cost the bot 8 to 60 times
            # as much to rate: short runs, or their refills would crowd the server.
            "PRACTICE_POOL_MULTI_DECK_SIZE": "1",
            "PRACTICE_POOL_MULTI_DECK_REFILL_SECONDS": "5",
            # The refills still took most of the server's CPU (88 of 120 CPU-s): the bot's
            # ratings, and the solver's budget (4 million positions, on two processes) spent
            # on the few deals it cannot settle. 10 playouts are the fewest that still fit
            # the hard band (2 to 12 %); a million positions on one process still prove
            # most deals. The fuzzers get the same answers (the same cases, a few 503s) for
            # less than half the server's CPU (54 CPU-s).
            "DAILY_BOT_PLAYOUTS": "10",
            "DAILY_SOLVE_NODES": "1000000",
            "DAILY_SOLVE_JOBS": "1",
        }
    )
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )


@contextlib.contextmanager
def served_site(workdir: Path) -> Iterator[str]:
    """What `make run` does: migrate, prepare today's dailies, runserver; yields its URL."""
    env = make_run_env(workdir)
    manage(env, "migrate", "--noinput")
    manage(env, "prepare_daily")
    port = free_port()
    log_path = workdir / "runserver.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            with local_http(timeout=2) as probe:
                while True:
                    assert process.poll() is None, log_path.read_text()[-3000:]
                    with contextlib.suppress(httpx.HTTPError):
                        if probe.get(f"{base}/healthz").status_code == 200:
                            break
                    assert time.monotonic() < deadline, log_path.read_text()[-3000:]
                    time.sleep(0.2)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


def player_session(base: str) -> tuple[str, str]:
    """A new player's session cookie and CSRF token, signed up as the site's pages do."""
    with httpx.Client(base_url=base, timeout=30) as http:
        http.get("/api/auth/me/")  # sets csrftoken
        token = http.cookies["csrftoken"]
        answer = http.post(
            "/api/auth/signup/",
            json={"username": "fuzzer", "display_name": "Fuzzer", "password": PASSWORD},
            headers={"X-CSRFToken": token},
        )
        assert answer.status_code == 201, answer.text
        return http.cookies["sessionid"], http.cookies["csrftoken"]


def start_fuzzer(base: str, workdir: Path, *args: str) -> subprocess.Popen[bytes]:
    """The CLI in a folder of its own (it keeps a cache in its working directory)."""
    workdir.mkdir()
    command = [
        str(SCHEMATHESIS),
        "--config-file",
        str(CONFIG),
        "--no-color",
        "run",
        f"{base}/api/schema/",
        "--max-examples",
        str(MAX_EXAMPLES),
        "--generation-deterministic",
        "--request-timeout",
        "60",
        *args,
    ]
    with (workdir / "output.txt").open("wb") as output:  # the child keeps its own copy
        return subprocess.Popen(command, cwd=workdir, stdout=output, stderr=subprocess.STDOUT)


def outcome(process: subprocess.Popen[bytes], workdir: Path) -> tuple[int, str]:
    returncode = process.wait(600)
    return returncode, (workdir / "output.txt").read_text(errors="replace")


def test_schemathesis_finds_nothing_as_a_guest_or_as_a_player(tmp_path: Path) -> None:
    with served_site(tmp_path) as base:
        session, token = player_session(base)
        # A guest has the CSRF cookie and sends it back, as the site's pages do. Its fixed
        # Cookie header also means it never keeps the session cookie a guest's first game
        # sets, and a guest's games are its session's (docs/api.md): to this fuzzer a
        # game it just made is someone else's, a 404. So "a created resource is there"
        # is the player's run's check (a real session), not the guest's.
        guest = start_fuzzer(
            base,
            tmp_path / "guest",
            "-H",
            f"Cookie: csrftoken={CSRF}",
            "-H",
            f"X-CSRFToken: {CSRF}",
            "--exclude-checks",
            "ensure_resource_availability",
        )
        # The player's session goes in as the cookie the schema declares (cookieAuth), so
        # no made-up one is generated beside it. Signing up, logging in (as an account the
        # guest's fuzzer made with the same deterministic data) and logging out would make
        # the session someone else's or no one's for the rest: the guest's run covers them.
        player = start_fuzzer(
            base,
            tmp_path / "player",
            "-H",
            f"Cookie: sessionid={session}; csrftoken={token}",
            "-H",
            f"X-CSRFToken: {token}",
            "--generation-with-security-parameters",
            "false",
            "--exclude-path-regex",
            "^/api/auth/(signup|login|logout)/$",
        )
        results = {
            "guest": outcome(guest, tmp_path / "guest"),
            "player": outcome(player, tmp_path / "player"),
        }
        me = httpx.get(f"{base}/api/auth/me/", headers={"Cookie": f"sessionid={session}"})
    failed = {who: output for who, (returncode, output) in results.items() if returncode != 0}
    assert not failed, "\n\n".join(
        f"===== schemathesis as the {who} =====\n{output}" for who, output in failed.items()
    )
    # the player's fuzzer was the player to the end, not a guest for most of its run
    assert me.json()["authenticated"], me.text
