"""Fixtures for the games tests: players, clients, today's challenges (tests/factories.py
makes them), tasks run in-process."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import DailyChallenge
from tests.factories import Api, make_challenges, make_user


@pytest.fixture
def player(db: None) -> User:
    return make_user("alice")


@pytest.fixture
def api(client: Client, player: User) -> Api:
    client.force_login(player)
    return Api(client)


@pytest.fixture
def guest_api(db: None) -> Api:
    return Api(Client())


@pytest.fixture
def other_api(db: None) -> Api:
    client = Client()
    client.force_login(make_user("bob"))
    return Api(client)


@pytest.fixture
def challenges(db: None) -> dict[str, DailyChallenge]:
    return make_challenges()


@pytest.fixture(autouse=True)
def _celery_in_process(request: pytest.FixtureRequest) -> Any:
    """Tasks run eagerly in tests, even when REDIS_URL is set, except with a real worker.

    Without this a finished game's verify_game would wait in Redis for a worker that only
    the ``celery`` tests start.
    """
    from yukon_site.celery import app

    if request.node.get_closest_marker("celery") is not None:
        yield
        return
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved
