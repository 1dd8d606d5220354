"""A real SMTP server for the tests (aiosmtpd on a free loopback port): the site's mail
goes out through Django's SMTP backend and is read back here, never from a mock."""

from __future__ import annotations

import email
import email.policy
import re
import time
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from tests.factories import closed_port as free_port


class Mailbox:
    """What the SMTP server received: one parsed message per delivery."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 OK"

    def wait_for(self, to: str, count: int = 1, seconds: float = 5.0) -> EmailMessage:
        """The ``count``-th message to ``to`` (waits for the server to have it)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            mine = [m for m in self.messages if to in str(m["To"])]
            if len(mine) >= count:
                return mine[count - 1]
            time.sleep(0.02)
        raise AssertionError(f"no message {count} to {to}: {[m['To'] for m in self.messages]}")

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


@pytest.fixture
def mailbox(settings: Any) -> Iterator[Mailbox]:
    """An SMTP server the site sends its mail to, for the length of one test."""
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    try:
        yield box
    finally:
        controller.stop()
