"""The leagues' boards read the leaderboards' Redis cache: each test gets its own key
prefix, as the leaderboard tests do."""

from tests.leaderboards.conftest import (  # noqa: F401 (fixtures)
    board_prefix,
    dead_redis,
    lb_redis,
)
