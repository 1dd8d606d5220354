"""The leagues' boards read the leaderboards' Redis cache: each test gets its own key
prefix, as the leaderboard tests do."""

from tests.leaderboards.conftest import board_prefix  # noqa: F401 (autouse fixture)
