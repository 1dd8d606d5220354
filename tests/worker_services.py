"""Each pytest-xdist worker gets a Redis database of its own (pyproject.toml loads this
plugin with ``-p``, before pytest-django reads the settings).

pytest-django already gives each worker its own PostgreSQL database (``test_yukon_gw0``,
...). Redis is shared by default, and several tests clear the whole cache or count
requests from 127.0.0.1 against a rate limit: on one database they would wipe or spend
another worker's state. Worker ``gwN`` uses database N + 1 of the same server; database
0 stays the sequential run's, and ``tests/faults/test_backup_restore.py`` keeps the top
two (``REDIS_SPARE_DBS``) for the sites it restores.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16  # redis-server's default `databases`
REDIS_SPARE_DBS = (REDIS_DATABASES - 2, REDIS_DATABASES - 1)


def with_redis_db(url: str, db: int) -> str:
    """The same Redis server, database ``db``."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{db}"))


def worker_redis_url(url: str, worker: str) -> str:
    """``url`` pointed at worker ``gwN``'s own database; unchanged outside xdist."""
    if not worker.startswith("gw"):
        return url
    index = int(worker[2:]) + 1
    if index >= REDIS_SPARE_DBS[0]:
        raise RuntimeError(f"at most {REDIS_SPARE_DBS[0] - 1} xdist workers share one Redis")
    return with_redis_db(url, index)


if os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = worker_redis_url(
        os.environ["REDIS_URL"], os.environ.get("PYTEST_XDIST_WORKER", "")
    )
