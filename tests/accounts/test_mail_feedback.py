"""Suppressed addresses (accounts/suppression.py, docs/operations.md "Mail"): fed back by
the webhook or the command, which refuse bad input clearly; skipped by the sending task
(run here in-process, as `make run` runs it, against a real SMTP server); lifted by an
address added or confirmed again; in the player's export, and gone with the account."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from allauth.account.models import EmailAddress
from allauth.account.signals import email_confirmed
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.models import SuppressedAddress, User
from accounts.services import delete_account, export_data
from accounts.tasks import deliver_mail, mail_payload
from tests.factories import closed_port, make_player
from yukon_site import settings as site_settings

pytestmark = pytest.mark.django_db

SECRET = "a feedback secret of thirty-two chars"
FEEDBACK = "/api/mail/feedback/"


def feed_back(body: Any, secret: str | None = SECRET, *, raw: bool = False) -> Any:
    headers = {} if secret is None else {"X-Mail-Feedback-Secret": secret}
    return Client().post(
        FEEDBACK,
        body if raw else json.dumps(body),
        content_type="application/json",
        headers=headers,
    )


def suppressed() -> dict[str, str]:
    return dict(SuppressedAddress.objects.values_list("address", "reason"))


def test_the_site_sends_its_mail_through_the_queue() -> None:
    """What settings.py chose (the test environment replaces it with locmem)."""
    assert site_settings.EMAIL_BACKEND == "accounts.mail.QueuedEmailBackend"
    assert site_settings.EMAIL_DELIVERY_BACKEND != site_settings.EMAIL_BACKEND


def test_the_webhook_suppresses_with_the_secret_and_refuses_everything_else(
    settings: Any,
) -> None:
    settings.MAIL_FEEDBACK_SECRET = SECRET
    good = {"kind": "bounce", "address": "Kate@Example.org"}
    for secret in (None, "", "not the secret"):
        answer = feed_back(good, secret)
        assert answer.status_code == 403, answer.content
        assert "X-Mail-Feedback-Secret" in answer.json()["detail"]
    for body, field in (
        ({"kind": "soft", "address": "kate@example.org"}, "kind"),
        ({"kind": "bounce", "address": "kate at example"}, "address"),
        ({"address": "kate@example.org"}, "kind"),
        ({"kind": "bounce", "address": "x" * 250 + "@example.org"}, "address"),
        (["bounce", "kate@example.org"], ""),
    ):
        answer = feed_back(body)
        assert answer.status_code == 400, (body, answer.content)
        assert answer.json()["detail"].startswith(field), answer.json()
    assert feed_back("{not json", raw=True).status_code == 400
    assert suppressed() == {}

    assert feed_back(good).status_code == 200
    assert feed_back({"kind": "complaint", "address": "kate@example.org"}).json()["reason"] == (
        "complaint"
    )
    assert feed_back(good).json()["reason"] == "complaint"  # a bounce never weakens it
    assert suppressed() == {"kate@example.org": "complaint"}

    settings.MAIL_FEEDBACK_SECRET = ""  # unset: the endpoint takes nothing
    assert feed_back(good, "").status_code == 403


def test_the_command_feeds_back_and_lifts(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("mail_feedback", "bounce", "Ann@Example.org", "bob@example.org")
    call_command("mail_feedback", "complaint", "bob@example.org")
    assert suppressed() == {"ann@example.org": "bounce", "bob@example.org": "complaint"}
    call_command("mail_feedback", "lift", "ann@example.org")
    assert suppressed() == {"bob@example.org": "complaint"}
    assert "ann@example.org: mailed again" in capsys.readouterr().out
    with pytest.raises(CommandError, match="not an email address"):
        call_command("mail_feedback", "bounce", "carol@example.org", "no address")
    with pytest.raises(CommandError):
        call_command("mail_feedback", "soft", "carol@example.org")
    assert suppressed() == {"bob@example.org": "complaint"}


def test_the_sending_task_drops_only_the_suppressed_recipients(settings: Any) -> None:
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    call_command("mail_feedback", "bounce", "gone@example.org")
    message = mail.EmailMultiAlternatives(
        "Hello",
        "Text.",
        to=["Gone <GONE@example.org>", "here@example.org"],
        cc=["gone@example.org"],
    )
    message.attach_alternative("<p>Text.</p>", "text/html")
    assert deliver_mail.apply(args=[mail_payload(message)]).get() == 1
    [sent] = mail.outbox
    assert isinstance(sent, mail.EmailMultiAlternatives)
    assert sent.to == ["here@example.org"] and sent.cc == []
    assert sent.alternatives[0][0] == "<p>Text.</p>"
    alone = mail.EmailMessage("Hello", "Text.", to=["gone@example.org"])
    assert deliver_mail.apply(args=[mail_payload(alone)]).get() == 0
    assert len(mail.outbox) == 1


class Answering:
    """An SMTP server whose answer to each recipient is the next of ``answers`` (then 250)."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.tries = 0
        self.received: list[bytes] = []

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        self.tries += 1
        if self.answers:
            return self.answers.pop(0)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append(envelope.content)
        return "250 OK"


@pytest.fixture
def smtp_server(settings: Any) -> Iterator[Answering]:
    handler = Answering()
    port = closed_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    try:
        yield handler
    finally:
        controller.stop()


def test_in_process_the_task_tries_again_after_not_now_but_never_after_no(
    smtp_server: Answering, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each retry runs as a nested apply(), which re-raises its Retry where in-process tasks
    # propagate their errors (the embedded default, without Redis): retrying is a worker's.
    monkeypatch.setattr(deliver_mail.app.conf, "task_eager_propagates", False)
    message = mail.EmailMessage("Hello", "Text.", "site@example.org", ["kate@example.org"])
    payload = mail_payload(message)
    smtp_server.answers = ["451 4.3.2 Not now", "421 4.4.5 Too busy"]
    assert deliver_mail.apply(args=[payload]).get() == 1
    assert smtp_server.tries == 3 and len(smtp_server.received) == 1
    assert payload["headers"]["Message-ID"].encode() in smtp_server.received[0]  # every try's

    smtp_server.tries = 0
    smtp_server.answers = ["550 5.1.1 No such user"]
    result = deliver_mail.apply(args=[payload], throw=False)
    assert result.failed() and smtp_server.tries == 1


def test_an_address_added_again_lifts_its_bounce_and_a_confirmed_one_any_block() -> None:
    player = make_player("Ann")
    call_command("mail_feedback", "bounce", "ann@example.org")
    call_command("mail_feedback", "complaint", "bob@example.org")
    EmailAddress.objects.create(user=player, email="Ann@example.org", verified=False)
    added = EmailAddress.objects.create(user=player, email="bob@example.org", verified=False)
    assert suppressed() == {"bob@example.org": "complaint"}  # only its owner lifts it
    email_confirmed.send(sender=EmailAddress, request=None, email_address=added)
    assert suppressed() == {}


def test_the_suppression_is_in_the_export_and_goes_with_the_account() -> None:
    player = make_player("Kate", email="kate@example.org")
    EmailAddress.objects.create(user=player, email="kate@example.org", verified=True, primary=True)
    call_command("mail_feedback", "complaint", "kate@example.org")
    call_command("mail_feedback", "bounce", "someone.else@example.org")
    [entry] = export_data(player)["mail_suppressions"]
    assert entry["address"] == "kate@example.org" and entry["reason"] == "complaint"
    delete_account(User.objects.get(pk=player.pk))
    assert suppressed() == {"someone.else@example.org": "bounce"}
