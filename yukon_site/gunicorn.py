"""gunicorn settings (``gunicorn --config python:yukon_site.gunicorn``), from the environment.

PORT (8000), WEB_CONCURRENCY (worker processes; default: one per CPU core),
GUNICORN_TIMEOUT (30 s), ACCESS_LOG ("-" for stdout; empty, the default: none, the app
logs what matters), PROMETHEUS_MULTIPROC_DIR (where the worker processes keep their
metrics; default: a fresh directory in /dev/shm, removed at exit).

Metrics (yukon_site/metrics.py) use prometheus_client's multiprocess mode: each worker
process writes its counters to files in PROMETHEUS_MULTIPROC_DIR and a scrape, answered
by any worker, adds them all up. The directory is emptied when gunicorn starts (files
of a previous run would be added in) and a worker that exits is marked dead (its
counts stay in the totals; its live gauges go).
"""

import multiprocessing
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count())
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# Heartbeat files in memory, not on the container's overlay filesystem.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
accesslog = os.environ.get("ACCESS_LOG") or None
errorlog = "-"
# The proxy in front terminates TLS and sets X-Forwarded-Proto (settings.py trusts it).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "*")


def post_worker_init(worker: object) -> None:
    """Tune the cyclic garbage collector once the app is loaded in a worker: what is loaded
    now lives as long as the worker, so ``gc.freeze`` keeps it out of every later scan,
    and the youngest generation is collected every 10,000 allocations instead of 700 (a
    move allocates a few thousand objects; almost none outlive it). About 5% of a move's
    CPU, measured in-process."""
    import gc

    gc.freeze()
    gc.set_threshold(10_000, 50, 100)


_METRICS_DIR_ENV = "PROMETHEUS_MULTIPROC_DIR"
_made_metrics_dir: list[str] = []
_multiprocess: list[Any] = []  # prometheus_client.multiprocess, once on_starting imported it


def on_starting(server: Any) -> None:
    """Before any worker starts: an empty metrics directory, named in the environment the
    workers inherit (prometheus_client reads it when the app first imports it)."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if "prometheus_client" in sys.modules and not directory:  # --preload: too late to choose
        raise RuntimeError(
            "the app was loaded before its metrics directory was set: with "
            "--preload, set PROMETHEUS_MULTIPROC_DIR in the environment"
        )
    if directory:
        Path(directory).mkdir(parents=True, exist_ok=True)
        for stale in Path(directory).glob("*.db"):
            stale.unlink()
    else:
        directory = tempfile.mkdtemp(prefix="yukon-metrics-", dir=worker_tmp_dir)
        _made_metrics_dir.append(directory)
        os.environ[_METRICS_DIR_ENV] = directory
    # Imported here, once the directory is named, and not in child_exit: that runs in
    # gunicorn's SIGCHLD handler, which can interrupt the master mid-import (a partly
    # initialised prometheus_client, a traceback at shutdown).
    from prometheus_client import multiprocess

    _multiprocess.append(multiprocess)


def child_exit(server: Any, worker: Any) -> None:
    for multiprocess in _multiprocess:
        multiprocess.mark_process_dead(worker.pid)


def on_exit(server: Any) -> None:
    for directory in _made_metrics_dir:
        shutil.rmtree(directory, ignore_errors=True)
