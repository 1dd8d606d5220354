"""Mail that arrives (docs/operations.md, "Mail"), end to end: the site's mail backend
queues every message, a real Celery worker sends it to a real SMTP server (aiosmtpd) that
says "try again later" before it takes it, and a bounce fed back stops mail to the
address. The web process's own mail server never answers: no request waits for SMTP."""

from __future__ import annotations

import json
import socket
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.core.mail import send_mail
from django.test import Client

from accounts.models import SuppressedAddress, User
from tests.accounts.mailbox import Mailbox, delivering_to
from tests.factories import closed_port, logged_in, make_player
from yukon_site import settings as site_settings

# The worker reads what the requests wrote: the test's writes must really commit.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery, pytest.mark.slow]

AUTH = "/_allauth/browser/v1"
SMTP = "django.core.mail.backends.smtp.EmailBackend"
FEEDBACK_SECRET = "a feedback secret of thirty-two chars"
# Far below EMAIL_TIMEOUT, which a request that spoke to the silent server would wait;
# far above a request's time on a busy machine.
PROMPT_SECONDS = 5.0
SILENT_SERVER_WAIT = 30


class GreylistingMailbox(Mailbox):
    """A mail server that answers the next ``refusals`` recipients with 451 ("try again
    later", as greylisting does), then takes them."""

    def __init__(self) -> None:
        super().__init__()
        self.refusals = 0
        self.tries: list[str] = []

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        self.tries.append(address)
        if self.refusals > 0:
            self.refusals -= 1
            return "451 4.7.1 Greylisted: try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"


@pytest.fixture(scope="module")
def greylisting(
    tmp_path_factory: pytest.TempPathFactory, django_db_setup: None
) -> Iterator[GreylistingMailbox]:
    """The SMTP server, and a Celery worker on a queue of its own that sends to it (on
    the test database: set up first, or the worker would get the one it replaces)."""
    box = GreylistingMailbox()
    with delivering_to(box, closed_port(), tmp_path_factory.mktemp("mail-delivery") / "log"):
        yield box


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port that takes connections and never says a word: an SMTP client there waits
    for the greeting until EMAIL_TIMEOUT."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield int(listener.getsockname()[1])


@pytest.fixture
def site_mail(settings: Any, silent_server: int) -> None:
    """The site's mail settings (the test environment swaps in Django's locmem backend),
    with the web process's own delivery pointed at the silent server."""
    settings.EMAIL_BACKEND = site_settings.EMAIL_BACKEND
    settings.EMAIL_DELIVERY_BACKEND = SMTP
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", silent_server
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = SILENT_SERVER_WAIT
    settings.ACCOUNT_EMAIL_ANSWER_SECONDS = 0
    settings.MAIL_FEEDBACK_SECRET = FEEDBACK_SECRET


def tag() -> str:
    return uuid.uuid4().hex[:8]


def visitor() -> Client:
    """A client from an address of its own (allauth limits resets per address)."""
    return Client(REMOTE_ADDR="10." + ".".join(str(b) for b in uuid.uuid4().bytes[:3]))


def request_reset(address: str) -> tuple[int, float]:
    """A password reset by the headless API: its status and how long its answer took."""
    started = time.monotonic()
    response = visitor().post(
        f"{AUTH}/auth/password/request",
        json.dumps({"email": address}),
        content_type="application/json",
    )
    return response.status_code, time.monotonic() - started


def test_a_mail_the_server_refuses_for_now_is_tried_again_until_it_arrives(
    greylisting: GreylistingMailbox, site_mail: None
) -> None:
    address = f"grey-{tag()}@example.org"
    greylisting.refusals = 2
    started = time.monotonic()
    assert send_mail("Today's deal", "It is ready.", None, [address]) == 1
    assert time.monotonic() - started < PROMPT_SECONDS  # queued, not sent from here
    message = greylisting.wait_for(address)
    assert message["Subject"] == "Today's deal"
    assert greylisting.tries.count(address) == 3  # two refusals, then taken


def test_a_bounce_fed_back_stops_mail_to_the_address_until_the_player_changes_it(
    greylisting: GreylistingMailbox, site_mail: None
) -> None:
    greylisting.refusals = 0
    bounced = f"bounced-{tag()}@example.org"
    player = make_player(f"Bouncer {tag()}", email=bounced)
    EmailAddress.objects.create(user=player, email=bounced, verified=True, primary=True)

    # a reset is answered at once, though the web process's mail server never answers
    status, seconds = request_reset(bounced)
    assert status == 200 and seconds < PROMPT_SECONDS
    greylisting.wait_for(bounced)

    feedback = Client().post(
        "/api/mail/feedback/",
        {"kind": "bounce", "address": bounced.upper()},
        content_type="application/json",
        HTTP_X_MAIL_FEEDBACK_SECRET=FEEDBACK_SECRET,
    )
    assert feedback.status_code == 200, feedback.content
    assert feedback.json()["address"] == bounced and feedback.json()["reason"] == "bounce"

    # nothing more goes to it: not a reset, not its share of a mail to two
    assert request_reset(bounced)[0] == 200
    other = f"other-{tag()}@example.org"
    send_mail("To you both", "Hello.", None, [bounced, other])
    both = greylisting.wait_for(other)
    assert bounced not in str(both["To"])
    # the worker sends in order: had the bounced address been mailed again, it would be here
    assert len(greylisting.to(bounced)) == 1

    page = logged_in(player)
    assert "no longer goes out: its mail bounced" in page.get("/account/").content.decode()

    # a new address, once confirmed, replaces it: mail goes out again, and the line is gone
    new = f"new-{tag()}@example.org"
    added = page.post(
        f"{AUTH}/account/email", json.dumps({"email": new}), content_type="application/json"
    )
    assert added.status_code == 200, added.content
    link = greylisting.link(greylisting.wait_for(new), "/accounts/confirm-email/")
    assert visitor().post(link).status_code == 302
    assert User.objects.get(pk=player.pk).email == new
    assert "no longer goes out" not in page.get("/account/").content.decode()
    assert SuppressedAddress.objects.filter(address=bounced).exists()  # no longer theirs
