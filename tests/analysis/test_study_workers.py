"""The odds study fanned out across Celery workers (``manage.py odds --publish --workers``):
real workers on the real Redis, the study on a queue of its own, the site's tasks never
behind it; chunks that give the same rows however often they run; runs that resume."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path
from typing import Any, cast

import pytest
import redis
import yaml
from celery.signals import task_prerun
from django.conf import settings
from django.core.management import CommandError, call_command

from analysis import odds
from analysis.study_workers import chunk_task_id
from analysis.tasks import study_chunk
from games import services
from games.models import Game, Verification
from tests.factories import make_challenges, make_user, winning_lines
from tests.workers import ROOT, celery_env, own_queue, start_worker, stop
from yukon_site.celery import app

# Yukon deals 57..76 at a million positions: six of them use most of the budget (59, 61,
# 65, 70, 71, 75: about 0.3 s each), so a solo study worker is busy for about two seconds,
# in ten chunks of two.
BUSY_STUDY = ["--variant", "yukon", "--nodes", "1000000", "--start", "57", "--chunk", "2"]


def start_site_worker(queue: str, log_path: Path) -> subprocess.Popen[bytes]:
    """A worker started as docker-compose starts the site's: without -Q, so it consumes
    the default queue (here the test's own) and nothing else."""
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "yukon_site", "worker", "--pool=solo",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO",
         "-n", f"{uuid.uuid4().hex[:8]}@%h"],
        cwd=ROOT,
        env=celery_env(CELERY_TASK_DEFAULT_QUEUE=queue),
        stdout=log_path.open("ab"),
        stderr=subprocess.STDOUT,
    )  # fmt: skip


def wait_for(condition: Callable[[], bool], seconds: float, logs: list[Path]) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail("timed out; logs:\n" + "\n".join(p.read_text() for p in logs if p.exists()))
        time.sleep(0.05)


def run_odds(*args: str) -> str:
    out = StringIO()
    call_command("odds", "--publish", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def rows(work: Path) -> dict[int, dict[str, Any]]:
    """A work file's rows by deal, without the CPU time (the only field that may differ)."""
    found = {}
    for line in work.read_text().splitlines()[1:]:
        row = json.loads(line)
        del row["cpu_ms"]
        found[row["number"]] = row
    return found


def without_cpu(study: dict[str, Any]) -> dict[str, Any]:
    for part in study["variants"].values():
        del part["cpu_ms"]
    return study


@contextmanager
def without_broker() -> Iterator[list[list[int]]]:
    """Tasks run in-process, as the site runs them without REDIS_URL; yields the chunks
    solved, as they are solved."""
    solved: list[list[int]] = []

    def record(sender: Any = None, args: Any = None, **kwargs: Any) -> None:
        if sender.name == study_chunk.name:
            solved.append(list(args[1]))

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    task_prerun.connect(record, weak=False)
    try:
        yield solved
    finally:
        task_prerun.disconnect(record)
        app.conf.task_always_eager = saved


@pytest.mark.celery
@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_study_on_the_study_queue_never_delays_verification(tmp_path: Path) -> None:
    make_challenges(numbers={"easy": 0, "medium": 1, "hard": 68})
    actor = services.Actor(user_id=make_user("kim").pk)
    game, _ = services.start_daily_game(actor, "easy")
    for ply, move in enumerate(winning_lines()[0][:12]):
        services.play_move(actor, game.pk, ply, move)
    output = tmp_path / "study.json"
    site_log, study_log = tmp_path / "site.log", tmp_path / "study.log"
    logs = [site_log, study_log]
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    study_queue = f"study-{uuid.uuid4().hex[:8]}"
    with own_queue() as queue:
        site = start_site_worker(queue, site_log)
        study = start_worker(study_queue, study_log)
        failures: list[BaseException] = []
        out = StringIO()

        def run_study() -> None:
            try:
                call_command(
                    "odds", "--publish", "--workers", "--queue", study_queue, *BUSY_STUDY,
                    "--deals", "20", "--output", str(output), stdout=out, stderr=StringIO(),
                )  # fmt: skip
            except BaseException as exc:  # the test fails on it below
                failures.append(exc)

        command = threading.Thread(target=run_study)
        try:
            command.start()
            wait_for(lambda: "Task analysis.study_chunk[" in study_log.read_text(), 60, logs)
            services.resign_game(actor, game.pk)  # queues verify_game on the default queue
            resigned = time.monotonic()
            wait_for(
                lambda: Game.objects.get(pk=game.pk).verification != Verification.PENDING, 30, logs
            )
            waited = time.monotonic() - resigned
            # Verified while study chunks still wait their turn on the study queue.
            still_queued = cast(int, broker.llen(study_queue))
            assert still_queued > 0 and command.is_alive(), (waited, still_queued, out.getvalue())
            assert Game.objects.get(pk=game.pk).verification == Verification.VERIFIED
            command.join(timeout=120)
            assert not command.is_alive() and not failures, failures
            # An interrupted run had queued its next chunk, and a worker solved it: resumed
            # with the longer range, the command collects that chunk instead of sending it.
            left = ("yukon", [77, 78], 1_000_000)
            study_chunk.apply_async(args=left, task_id=chunk_task_id(*left), queue=study_queue).get(
                timeout=60
            )
            more = run_odds(
                "--workers", "--queue", study_queue, *BUSY_STUDY, "--deals", "22",
                "--output", str(output),
            )  # fmt: skip
        finally:
            stop(study)
            stop(site)
        broker.delete(study_queue)
    assert "yukon: 0 of 20 deals already" in out.getvalue()
    assert "10 chunks of 2 deals, for the workers of queue" in out.getvalue()
    assert "yukon: 20 of 22 deals already" in more
    assert "1 chunk of 2 deals, 1 finished by an earlier run" in more
    data = json.loads(output.read_text())["variants"]["yukon"]
    assert data["first"] == 57 and len(data["verdicts"]) == 22
    assert data["verdicts"][59 - 57] == "?" and data["verdicts"][62 - 57] == "U"
    assert data["nodes"][59 - 57] >= 1_000_000
    study_text, site_text = study_log.read_text(), site_log.read_text()
    assert study_text.count("Task analysis.study_chunk[odds-study-yukon-") == 2 * 11, study_text
    assert "Task analysis.study_chunk[" not in site_text, site_text  # the site's worker took none
    assert "Task games.verify_game[" in site_text and "Task games.verify_game[" not in study_text


def test_a_chunk_solved_again_gives_the_same_rows() -> None:
    # As when a worker dies and the message is delivered to another: positions, not time,
    # bound each search, so only the CPU milliseconds may differ. Deal 59 uses the whole
    # budget, 24 is proven lost, 22 is won; a multi-deck chunk behaves the same.
    verdicts = {}
    for variant, numbers in (("yukon", [59, 24, 22]), ("double-yukon", [1, 2])):
        first = study_chunk.apply(args=(variant, numbers, 20_000)).get()
        again = study_chunk.apply(args=(variant, numbers, 20_000)).get()
        for reply in (first, again):
            for row in reply["rows"]:
                assert row.pop("cpu_ms") >= 0
        assert first == again
        assert first == {**odds.study_stamp(20_000), "variant": variant, "rows": first["rows"]}
        assert [row["number"] for row in first["rows"]] == numbers
        verdicts[variant] = [row["verdict"] for row in first["rows"]]
    assert verdicts["yukon"] == ["unknown", "unwinnable", "solved"]


def test_a_study_on_workers_resumes_and_writes_what_a_local_run_writes(tmp_path: Path) -> None:
    study = ["--variant", "yukon", "--nodes", "20000", "--start", "20"]
    local, fanned = tmp_path / "local.json", tmp_path / "fanned.json"
    run_odds(*study, "--deals", "7", "--output", str(local))
    with without_broker() as solved:
        first = run_odds(
            *study, "--deals", "3", "--workers", "--chunk", "2", "--output", str(fanned)
        )
        assert solved == [[20, 21], [22]]
        more = run_odds(
            *study, "--deals", "7", "--workers", "--chunk", "2", "--output", str(fanned)
        )
        assert solved[2:] == [[23, 24], [25, 26]]  # the deals already studied are not sent
    assert "2 chunks of 2 deals, solved here" in first
    assert "yukon: 3 of 7 deals already" in more
    work, local_work = tmp_path / "fanned.work.jsonl", tmp_path / "local.work.jsonl"
    assert work.read_text().splitlines()[0] == local_work.read_text().splitlines()[0]
    assert rows(work) == rows(local_work)
    assert without_cpu(json.loads(fanned.read_text())) == without_cpu(json.loads(local.read_text()))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers"], "--workers needs --publish"),
        (["--publish", "--workers", "--chunk", "0"], "--chunk must be 1 to 10,000"),
        (["--publish", "--workers", "--jobs", "2"], "--workers takes no --jobs"),
        (["--publish", "--workers", "--queue", " "], "--queue must name a queue"),
    ],
)
def test_a_study_on_workers_refuses_bad_input(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("odds", *args, stdout=StringIO(), stderr=StringIO())


def test_only_the_study_worker_consumes_the_study_queue() -> None:
    services_ = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    study_command = services_["study-worker"]["command"]
    assert study_command[:4] == ["celery", "-A", "yukon_site", "worker"]
    assert study_command[study_command.index("-Q") + 1] == settings.CELERY_STUDY_QUEUE
    assert "--concurrency" not in " ".join(study_command)  # Celery's default: one per core
    assert "-Q" not in services_["worker"]["command"]  # the default queue only
    assert app.amqp.router.route({}, study_chunk.name)["queue"].name == settings.CELERY_STUDY_QUEUE
