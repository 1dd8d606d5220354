"""A real SMTP server for the tests (aiosmtpd on a free loopback port), and a real Celery
worker that delivers the site's mail to it: account mail is rendered in the request and
sent by the worker (accounts/tasks.py), through Django's SMTP backend, and read back
here, never from a mock. Where no broker is configured (no REDIS_URL) Celery runs the
task in-process instead, as in development. Tests that read mail use
``django_db(transaction=True)``: the mail is queued when the request's writes commit."""

from __future__ import annotations

import contextlib
import email
import email.policy
import re
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from tests.factories import closed_port as free_port
from tests.workers import own_queue, start_worker, stop
from yukon_site.celery import app

# The worker's first message waits for it to start (a few seconds on a busy machine).
DELIVERY_SECONDS = 60.0


class Mailbox:
    """What the SMTP server received: one parsed message per delivery."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 OK"

    def wait_for(self, to: str, count: int = 1, seconds: float = DELIVERY_SECONDS) -> EmailMessage:
        """The ``count``-th message to ``to`` (waits for the server to have it)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            mine = self.to(to)
            if len(mine) >= count:
                return mine[count - 1]
            time.sleep(0.02)
        raise AssertionError(f"no message {count} to {to}: {[m['To'] for m in self.messages]}")

    def to(self, address: str) -> list[EmailMessage]:
        """The messages received so far for ``address``."""
        return [m for m in self.messages if address in str(m["To"])]

    @staticmethod
    def body(message: EmailMessage) -> str:
        part = message.get_body(preferencelist=("plain",))
        assert part is not None
        return str(part.get_content())

    def link(self, message: EmailMessage, path_prefix: str) -> str:
        """The path of the first link in the message that starts with ``path_prefix``."""
        found = re.search(
            r"https?://[^/\s]+(" + re.escape(path_prefix) + r"\S*)", self.body(message)
        )
        assert found, self.body(message)
        return found.group(1)


@contextlib.contextmanager
def delivering_to(box: Mailbox, port: int, log: Path) -> Iterator[None]:
    """An SMTP server with ``box`` on ``port``, and a Celery worker (on a queue of its own)
    that sends the site's mail to it; in-process without a broker."""
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        if app.conf.task_always_eager:  # no broker: the web process sends it itself
            yield
            return
        with own_queue() as queue:
            worker = start_worker(
                queue,
                log,
                EMAIL_URL="",
                EMAIL_HOST="127.0.0.1",
                EMAIL_PORT=str(port),
                EMAIL_HOST_USER="",
                EMAIL_HOST_PASSWORD="",
                EMAIL_USE_TLS="false",
                EMAIL_USE_SSL="false",
            )
            try:
                yield
            finally:
                stop(worker)
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def mail_service(
    tmp_path_factory: pytest.TempPathFactory, django_db_setup: None
) -> Iterator[tuple[Mailbox, int]]:
    """An SMTP server, and a Celery worker (on a queue of its own) that sends the site's
    mail to it, for one test module: (what the server received, its port). After the test
    database is made: the worker is pointed at it (a module's fixtures are set up before
    the django_db mark asks for it, so a module run first in its process gave the worker
    the database the tests never migrate, and every mail failed)."""
    box, port = Mailbox(), free_port()
    with delivering_to(box, port, tmp_path_factory.mktemp("mail-worker") / "worker.log"):
        yield box, port


@pytest.fixture
def mailbox(mail_service: tuple[Mailbox, int], settings: Any) -> Mailbox:
    """The module's SMTP server, emptied for this test. The web process's own mail
    settings point at it too, for Celery's in-process runs (no REDIS_URL)."""
    box, port = mail_service
    box.messages.clear()
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    return box
