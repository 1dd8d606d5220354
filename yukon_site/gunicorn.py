"""gunicorn settings (``gunicorn --config python:yukon_site.gunicorn``), from the environment.

PORT (8000), WEB_CONCURRENCY (worker processes; default: one per CPU core),
GUNICORN_TIMEOUT (30 s), ACCESS_LOG ("-" for stdout; empty, the default: none, the app
logs what matters).
"""

import multiprocessing
import os

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
