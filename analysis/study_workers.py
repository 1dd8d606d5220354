"""The published odds study fanned out across Celery workers (``manage.py odds --publish
--workers``): the deals go in chunks, as tasks, to the study queue, which only study
workers consume; each chunk's rows come back to the command, which appends them to the
same work file a local run writes, so the two kinds of run resume each other.

A row depends only on the deal, the variant, the position budget and the solver (the
budget counts positions, not time), so a chunk solved twice, by any worker, gives the same
rows but for their CPU milliseconds. That is what makes the queue's at-least-once delivery
harmless: a chunk whose worker died (acks_late, reject_on_worker_lost) is solved again by
another and nothing changes but the time spent.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from celery import states
from celery.result import AsyncResult

from analysis import odds
from analysis.tasks import study_chunk

# How often the command asks the result backend which chunks have finished (one MGET of
# every pending chunk's key), in seconds.
GATHER_INTERVAL = 0.5


class StudyWorkerError(ValueError):
    """A chunk came back from a worker with rows that cannot go into this study."""


@dataclass
class WorkersReport:
    """What a fanned-out run did: chunks sent, chunks a previous run had finished, deals
    studied, and the chunks that failed (their deals stay out of the work file, so a rerun
    sends them again)."""

    sent: int = 0
    reused: int = 0
    studied: int = 0
    failed: list[str] = field(default_factory=list)


def chunks(numbers: list[int], size: int) -> list[list[int]]:
    """``numbers`` cut in order into lists of ``size`` (the last may be shorter)."""
    return [numbers[i : i + size] for i in range(0, len(numbers), size)]


def chunk_task_id(variant: str, numbers: list[int], budget_nodes: int) -> str:
    """The task id of a chunk: the same chunk of the same study always has the same id, so a
    run resumed after an interruption finds the chunks the workers finished meanwhile in
    the result backend instead of sending them again."""
    key = json.dumps([variant, numbers, odds.study_stamp(budget_nodes)], sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    return f"odds-study-{variant}-{numbers[0]}-{digest}"


def outcomes_of(
    reply: Any, variant: str, numbers: list[int], work: odds.WorkFile
) -> list[odds.Outcome]:
    """The rows of a chunk's reply, checked against what was asked: a worker running
    another solver or deal algorithm (a deployment half done) must not mix its rows in."""
    if not isinstance(reply, dict) or not isinstance(reply.get("rows"), list):
        raise StudyWorkerError(f"a study worker sent {reply!r:.200} for {variant} {numbers[0]}..")
    theirs = {key: reply.get(key) for key in odds.study_stamp(work.budget_nodes)}
    if theirs != odds.study_stamp(work.budget_nodes):
        raise StudyWorkerError(
            f"a study worker solved {variant} {numbers[0]}.. with {theirs}, this study is "
            f"{odds.study_stamp(work.budget_nodes)}: run the same code on every study worker"
        )
    outcomes = [odds.Outcome(**row) for row in reply["rows"]]
    if reply.get("variant") != variant or [(o.variant, o.number) for o in outcomes] != [
        (variant, n) for n in numbers
    ]:
        raise StudyWorkerError(f"a study worker sent other deals than {variant} {numbers}")
    return outcomes


def run_study_on_workers(
    work: odds.WorkFile,
    variant: str,
    numbers: Iterable[int],
    *,
    chunk_size: int,
    queue: str,
    on_result: Callable[[odds.Outcome], None] | None = None,
    on_sent: Callable[[WorkersReport, int], None] | None = None,
) -> WorkersReport:
    """Study the deals of ``numbers`` not yet in ``work`` on the workers of ``queue``, in
    chunks of ``chunk_size``; append each chunk's rows to ``work`` as it finishes (in the
    order chunks finish, not deal order: the work file is a set of rows).

    Without a broker (tasks run eagerly, as the site does without REDIS_URL) each chunk is
    solved here as it is sent. ``on_sent`` hears once how many chunks went out (and how
    many of them a previous run had finished); ``on_result`` hears every row.
    """
    todo = [n for n in numbers if (variant, n) not in work.outcomes]
    report = WorkersReport()
    pending: dict[str, list[int]] = {}
    eager: dict[str, AsyncResult] = {}
    eager_mode = bool(study_chunk.app.conf.task_always_eager)
    for part in chunks(todo, chunk_size):
        task_id = chunk_task_id(variant, part, work.budget_nodes)
        pending[task_id] = part
        if not eager_mode:
            earlier = study_chunk.AsyncResult(task_id)
            if earlier.state == states.SUCCESS:
                report.reused += 1
                continue
            if earlier.state in states.READY_STATES:
                earlier.forget()  # an earlier run's failure, not this run's answer
        sent = study_chunk.apply_async(
            args=(variant, part, work.budget_nodes), task_id=task_id, queue=queue
        )
        report.sent += 1
        if eager_mode:
            eager[task_id] = sent
    if on_sent is not None:
        on_sent(report, len(pending))

    def take(task_id: str, status: str, reply: Any) -> None:
        part = pending[task_id]
        if status != states.SUCCESS:
            report.failed.append(f"{variant} {part[0]}..{part[-1]}: {status} {reply!r:.300}")
            return
        for outcome in outcomes_of(reply, variant, part, work):
            if (outcome.variant, outcome.number) in work.outcomes:
                continue
            work.add(outcome)
            report.studied += 1
            if on_result is not None:
                on_result(outcome)

    if eager_mode:
        for task_id, result in eager.items():
            take(task_id, result.state, result.result)
        return report
    backend = study_chunk.app.backend
    for task_id, meta in backend.get_many(set(pending), interval=GATHER_INTERVAL):
        reply = meta.get("result")
        if meta["status"] != states.SUCCESS:
            reply = backend.exception_to_python(reply)
        take(task_id, meta["status"], reply)
        backend.forget(task_id)  # its rows are in the work file now, or it is to run again
    return report
