"""The read replica (apikit/replica.py, docs/operations.md "Read replica"): the router's
decisions, the lag-tolerant endpoints reading through a real second connection, the
viewer's own game and everything else on the primary, and the replication-lag metrics.

The replica here is a second alias on the test database (a test mirror of ``default``,
as the settings make it from DATABASE_REPLICA_URL): its own connection, so the queries
each alias served can be told apart. The endpoint test commits its rows
(``transaction=True``): the mirror's connection sees only committed rows, as a real
replica does.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import StreamingHttpResponse
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from apikit import replica as replica_module
from apikit.metrics import REPLICA_FALLBACKS
from apikit.replica import PRIMARY, REPLICA, primary_reads, replica_iter, replica_reads
from games.models import DailyChallenge, Game, utc_today
from tests.factories import closed_port, logged_in, make_challenge, make_player, result

TOKEN = "replica-metrics-token-0123456789"


BOTH = [PRIMARY, REPLICA]


@pytest.fixture(scope="module", autouse=True)
def replica() -> Iterator[BaseDatabaseWrapper]:
    """What DATABASE_REPLICA_URL adds: the ``replica`` alias and the router. For the
    module, set up before any test's database (which checks the aliases it is given
    exist, and refuses connections to the others)."""
    connections.settings[REPLICA] = {
        **connections[PRIMARY].settings_dict,
        "TEST": {**connections[PRIMARY].settings_dict["TEST"], "MIRROR": PRIMARY},
    }
    try:
        with override_settings(DATABASE_ROUTERS=["apikit.replica.ReplicaRouter"]):
            yield connections[REPLICA]
    finally:
        connections[REPLICA].close()
        del connections[REPLICA]
        del connections.settings[REPLICA]


@pytest.fixture
def no_replica() -> Iterator[None]:
    """The settings without DATABASE_REPLICA_URL (the router left in)."""
    kept = connections.settings.pop(REPLICA)
    try:
        yield
    finally:
        connections.settings[REPLICA] = kept


# ----- the router ------------------------------------------------------------------------


# the replica must answer to be read from (apikit.replica.replica_answers)
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, databases=BOTH)  # outside any transaction
def test_reads_go_to_the_replica_only_inside_the_context(replica: BaseDatabaseWrapper) -> None:
    assert router.db_for_read(Game) == PRIMARY
    with replica_reads():
        assert router.db_for_read(Game) == REPLICA
        assert router.db_for_write(Game) == PRIMARY
        with primary_reads():
            assert router.db_for_read(Game) == PRIMARY
        assert router.db_for_read(Game) == REPLICA
    assert router.db_for_read(Game) == PRIMARY
    assert router.allow_migrate(PRIMARY, "games")
    assert not router.allow_migrate(REPLICA, "games")


# the replica must answer to be read from (apikit.replica.replica_answers)
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, databases=BOTH)  # outside any transaction
def test_a_stream_reads_from_the_replica_step_by_step(replica: BaseDatabaseWrapper) -> None:
    seen = []

    def steps() -> Iterator[int]:
        for step in range(2):
            seen.append(router.db_for_read(Game))
            yield step

    for _step in replica_iter(steps()):
        assert router.db_for_read(Game) == PRIMARY  # between steps: the server's code
    assert seen == [REPLICA, REPLICA]


@pytest.mark.postgres
@pytest.mark.django_db(databases=BOTH)
def test_a_read_inside_a_transaction_stays_on_the_primary(replica: BaseDatabaseWrapper) -> None:
    with transaction.atomic(), replica_reads():
        assert router.db_for_read(Game) == PRIMARY


def test_without_a_replica_the_context_changes_nothing(no_replica: None) -> None:
    with replica_reads():
        assert router.db_for_read(Game) == PRIMARY


@pytest.mark.slow
def test_the_settings_add_the_replica_and_the_router_only_when_it_is_set() -> None:
    probe = (
        "import json, os, runpy, sys\n"
        "out = []\n"
        "for replica in json.loads(sys.argv[1]):\n"
        "    os.environ['DATABASE_REPLICA_URL'] = replica\n"
        "    found = runpy.run_path('yukon_site/settings.py')\n"
        "    db = found['DATABASES'].get('replica', {})\n"
        "    out.append([sorted(found['DATABASES']), found['DATABASE_ROUTERS'],\n"
        "                db.get('ENGINE'), db.get('HOST'), db.get('PORT'), db.get('TEST')])\n"
        "print(json.dumps(out))\n"
    )
    url = "postgres://yukon:secret@postgres-replica:5432/yukon"
    answer = subprocess.run(
        [sys.executable, "-c", probe, json.dumps(["", url])],
        cwd=Path(__file__).resolve().parents[2],
        env={"PATH": os.environ["PATH"], "DATABASE_URL": url.replace("-replica", "")},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(answer.stdout) == [
        [["default"], [], None, None, None, None],
        [
            ["default", "replica"],
            ["apikit.replica.ReplicaRouter"],
            "yukon_site.postgresql",
            "postgres-replica",
            5432,
            {"MIRROR": "default"},
        ],
    ]


# ----- the endpoints -----------------------------------------------------------------------


def served(capture: CaptureQueriesContext, table: str) -> bool:
    return any(f'"{table}"' in query["sql"] for query in capture.captured_queries)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True, databases=BOTH)
def test_boards_archive_player_pages_and_games_file_read_from_the_replica(
    replica: BaseDatabaseWrapper,
) -> None:
    yesterday = utc_today() - dt.timedelta(days=1)
    challenge: DailyChallenge = make_challenge(yesterday)
    ann, bob = make_player("Ann"), make_player("Bob")
    result(ann, challenge, score=625)
    result(bob, challenge, score=600, won=False)
    day = f"{yesterday.isoformat()}/{challenge.tier}"
    lag_tolerant = [
        f"/api/leaderboards/daily/{day}/",
        f"/api/leaderboards/archive/{day}/",
        "/api/leaderboards/streaks/",
        "/api/leaderboards/alltime/",
        "/api/players/Ann/",
        "/api/players/Ann/record/",
        f"/api/daily/{day}/games.jsonl",
    ]
    client = Client()
    for path in lag_tolerant:
        with (
            CaptureQueriesContext(replica) as on_replica,
            CaptureQueriesContext(connections[PRIMARY]) as on_primary,
        ):
            response = client.get(path, HTTP_ACCEPT="application/json")
            assert response.status_code == 200, (path, response.content[:300])
            if isinstance(response, StreamingHttpResponse):  # read while captured
                assert b'"player":"Ann"' in response.getvalue()
        assert served(on_replica, "games_game"), path
        # The exceptions read, then write: the board's first read rebuilds it in Redis, and
        # the games file ends the day's games left in play.
        primary_too = path.startswith("/api/leaderboards/daily/") or path.endswith(".jsonl")
        assert primary_too or not served(on_primary, "games_game"), path

    # Logged in: the viewer's own game (and session, user) from the primary, the board
    # from the replica.
    own = f'"games_game"."player_id" = {bob.pk}'
    viewer = logged_in(User.objects.get(pk=bob.pk))
    with (
        CaptureQueriesContext(replica) as on_replica,
        CaptureQueriesContext(connections[PRIMARY]) as on_primary,
    ):
        board = viewer.get(f"/api/leaderboards/daily/{day}/", HTTP_ACCEPT="application/json")
        assert board.json()["me"]["display_name"] == "Bob"
    assert not any(own in query["sql"] for query in on_replica.captured_queries)
    assert any(own in query["sql"] for query in on_primary.captured_queries)
    assert not served(on_replica, "django_session")

    # A move's game, not lag-tolerant: the primary's alone.
    with CaptureQueriesContext(replica) as on_replica:
        assert viewer.get("/api/games/").status_code in {200, 404}
    assert on_replica.captured_queries == []


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True, databases=BOTH)
def test_a_replica_that_does_not_answer_leaves_its_reads_to_the_primary(
    replica: BaseDatabaseWrapper, caplog: pytest.LogCaptureFixture
) -> None:
    """A dead replica costs the site its offload, not its pages: the board answers from
    the primary, and for the next REPLICA_RETRY_SECONDS nobody waits on the replica."""
    challenge = make_challenge(utc_today() - dt.timedelta(days=1))
    result(make_player("Ann"), challenge)
    path = "/api/players/Ann/"
    before = REPLICA_FALLBACKS._value.get()
    replica.close()
    saved = replica.settings_dict["PORT"]
    replica.settings_dict["PORT"] = closed_port()
    try:
        for _ in range(2):
            with CaptureQueriesContext(connections[PRIMARY]) as on_primary:
                response = Client().get(path, HTTP_ACCEPT="application/json")
            assert response.status_code == 200, response.content[:300]
            assert response.json()["display_name"] == "Ann"
            assert served(on_primary, "games_game")
        assert REPLICA_FALLBACKS._value.get() - before == 1  # tried once, then left alone
        assert "read replica unavailable" in caplog.text
    finally:
        replica.close()
        replica.settings_dict["PORT"] = saved
        replica_module._replica_down_until[0] = 0.0
    with replica_reads():  # back, once the pause is over
        assert router.db_for_read(Game) == REPLICA


# ----- the lag metrics ---------------------------------------------------------------------


def scrape(client: Client) -> str:
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(databases=BOTH)
def test_replication_lag_is_a_metric_with_a_replica_only(
    settings: Any, client: Client, replica: BaseDatabaseWrapper
) -> None:
    settings.METRICS_TOKEN = TOKEN
    with CaptureQueriesContext(replica) as on_replica:
        text = scrape(client)
    assert "pg_last_wal_replay_lsn" in on_replica.captured_queries[0]["sql"]
    lines = dict(line.rsplit(" ", 1) for line in text.splitlines() if line[:1] != "#")
    assert float(lines["yukon_database_replica_lag_seconds"]) == 0.0  # the mirror: no standby
    assert float(lines["yukon_database_replica_lag_bytes"]) >= 0.0
    assert lines['yukon_scrape_source_up{source="replica"}'] == "1.0"

    kept = connections.settings.pop(REPLICA)  # no DATABASE_REPLICA_URL
    try:
        text = scrape(client)
    finally:
        connections.settings[REPLICA] = kept
    assert "yukon_database_replica_lag" not in text
    assert 'source="replica"' not in text
