"""Sign-up and password reset: does an email address that has an account take longer to
answer than one that has none? (issue 38, no email enumeration; docs/accounts.md)

    nice -n 19 .venv/bin/python bench/bench_account_timing.py [--signups 30]
        [--resets 200] [--mail-in-request]

Without DATABASE_URL/REDIS_URL it runs itself under scripts/test-services (throwaway
PostgreSQL and Redis). A real SMTP server (aiosmtpd) listens on a loopback port and a
real Celery worker sends the site's mail to it, as in production (accounts/tasks.py).
Through the Django test client, in-process, it times:

- sign-up through allauth's headless API with an address another account holds, and
  with a free one (each answered "confirm your address"; one mails the owner "someone
  tried to sign up", the other a verification link);
- password reset through the headless API and through allauth's page, for an address
  we know (mailed a reset link) and one we do not (mailed nothing).

Known and unknown requests alternate, each from a client and an address of its own, each
with an address of its own (allauth's per-address limits stay as configured and are
never reached). It prints median and p95 of each, the difference of the medians, the
same difference between two halves of the unknown requests (the noise: what "no
difference" looks like), and the mail the SMTP server received.

By default the answers wait for their floors, as deployed (``ACCOUNT_EMAIL_ANSWER_SECONDS``,
``ACCOUNT_SIGNUP_ANSWER_SECONDS``: accounts/even_timing.py). ``--no-floor`` sets them to 0:
the figures are then the work itself, which shows what the floors hide and that they
stand above its slowest answers. ``--mail-in-request`` also runs the mail task inside the
request (Celery eager), which is how allauth sends out of the box: the SMTP conversation
then lands in the known address's answer. Not a test: figures vary with what else runs
on the machine.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PASSWORD = "a long enough pass 42"
AUTH = "/_allauth/browser/v1"


def reexec_under_services() -> None:
    if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"):
        return
    os.execv(
        sys.executable,
        [sys.executable, str(ROOT / "scripts" / "test-services"), "--", sys.executable, *sys.argv],
    )


class Received:
    """The SMTP server's handler: counts messages by subject."""

    def __init__(self) -> None:
        self.subjects: Counter[str] = Counter()
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        import email
        import email.policy

        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.subjects[str(message["Subject"])] += 1
        return "250 OK"

    def total(self) -> int:
        with self.lock:
            return sum(self.subjects.values())

    def wait_for_total(self, count: int, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.total() >= count:
                return True
            time.sleep(0.05)
        return False


def visitor() -> Any:
    from django.test import Client

    octets = uuid.uuid4().bytes[:3]
    return Client(REMOTE_ADDR="10." + ".".join(str(b) for b in octets))


def make_owners(count: int) -> list[str]:
    """``count`` players, each with a verified address of their own; their addresses."""
    from allauth.account.models import EmailAddress

    from accounts.models import User

    addresses = []
    for n in range(count):
        address = f"owner{n}@example.org"
        user = User.objects.create(
            username=f"owner{n}", display_name=f"Owner {n}", email=address, password="!"
        )
        EmailAddress.objects.create(user=user, email=address, verified=True, primary=True)
        addresses.append(address)
    return addresses


def timed(request: Callable[[], Any]) -> float:
    start = time.perf_counter()
    request()
    return (time.perf_counter() - start) * 1000


def sign_up(address: str, expect: int = 401) -> Callable[[], Any]:
    import json

    def request() -> Any:
        name = f"p{uuid.uuid4().hex[:12]}"
        data = {"username": name, "display_name": name, "password": PASSWORD, "email": address}
        response = visitor().post(
            f"{AUTH}/auth/signup", json.dumps(data), content_type="application/json"
        )
        assert response.status_code == expect, response.content
        return response

    return request


def reset_headless(address: str) -> Callable[[], Any]:
    import json

    def request() -> Any:
        response = visitor().post(
            f"{AUTH}/auth/password/request",
            json.dumps({"email": address}),
            content_type="application/json",
        )
        assert response.status_code == 200, response.content
        return response

    return request


def reset_page(address: str) -> Callable[[], Any]:
    def request() -> Any:
        response = visitor().post("/accounts/password/reset/", {"email": address})
        assert response.status_code == 302, response.content
        return response

    return request


def alternate(
    known: list[Callable[[], Any]], unknown: list[Callable[[], Any]]
) -> tuple[list[float], list[float]]:
    """Known and unknown requests in turn (the first of each untimed: a warm-up)."""
    known_times, unknown_times = [], []
    for index, (k, u) in enumerate(zip(known, unknown, strict=True)):
        first, second = (k, u) if index % 2 == 0 else (u, k)
        t_first, t_second = timed(first), timed(second)
        if index == 0:
            continue
        t_k, t_u = (t_first, t_second) if first is k else (t_second, t_first)
        known_times.append(t_k)
        unknown_times.append(t_u)
    return known_times, unknown_times


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)]


def report(title: str, known: list[float], unknown: list[float]) -> None:
    med_k, med_u = statistics.median(known), statistics.median(unknown)
    noise = statistics.median(unknown[0::2]) - statistics.median(unknown[1::2])
    print(f"\n{title} ({len(known)} of each)")
    print(f"  known address     median {med_k:8.2f} ms   p95 {p95(known):8.2f} ms")
    print(f"  unknown address   median {med_u:8.2f} ms   p95 {p95(unknown):8.2f} ms")
    print(
        f"  known - unknown   {med_k - med_u:+8.2f} ms of the medians "
        f"(two halves of the unknown: {noise:+.2f} ms)"
    )


PROBE = {
    "subject": "probe",
    "body": "the worker is up",
    "content_subtype": "plain",
    "from_email": "bench@localhost",
    "to": ["probe@example.org"],
    "cc": [],
    "bcc": [],
    "reply_to": [],
    "headers": {},
    "alternatives": [],
}


def start_sending(mail_in_request: bool, queue: str, port: int) -> tuple[Any, str]:
    """The mail worker (or Celery eager), checked by a probe message: (worker, where)."""
    from accounts.tasks import deliver_mail
    from tests.workers import start_worker
    from yukon_site.celery import app

    worker = None
    if mail_in_request:
        app.conf.task_always_eager = True
        where = "inside the request (Celery eager)"
    else:
        log = Path(f"/tmp/bench-account-timing-worker-{os.getpid()}.log")
        worker = start_worker(
            queue,
            log,
            EMAIL_URL="",
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=str(port),
            EMAIL_USE_TLS="false",
            EMAIL_USE_SSL="false",
        )
        where = f"by a Celery worker (its log: {log})"
    deliver_mail.delay(PROBE)
    return worker, where


def measure(signups: int, resets: int, received: Received) -> None:
    owners = make_owners(signups + 1 + 2 * (resets + 1))
    taken = owners[: signups + 1]
    free = [f"fresh-{uuid.uuid4().hex[:10]}@example.org" for _ in taken]
    known, unknown = alternate([sign_up(a) for a in taken], [sign_up(a) for a in free])
    report("sign-up, headless API (taken address vs free one)", known, unknown)

    rest = owners[signups + 1 :]
    for title, route, known_addresses in (
        ("password reset, headless API", reset_headless, rest[: resets + 1]),
        ("password reset, allauth's page", reset_page, rest[resets + 1 :]),
    ):
        nobody = [f"nobody-{uuid.uuid4().hex[:10]}@example.org" for _ in known_addresses]
        known, unknown = alternate([route(a) for a in known_addresses], [route(a) for a in nobody])
        report(f"{title} (known address vs unknown)", known, unknown)

    expected = 1 + 2 * (signups + 1) + 2 * (resets + 1)
    received.wait_for_total(expected, 120)
    print(f"\nmail received by the SMTP server ({received.total()}, {expected} expected):")
    for subject, number in sorted(received.subjects.items()):
        print(f"  {number:5d}  {subject}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--signups", type=int, default=30, help="sign-ups of each kind")
    parser.add_argument("--resets", type=int, default=200, help="resets of each kind and route")
    parser.add_argument(
        "--mail-in-request",
        action="store_true",
        help="send the mail inside the request (Celery eager), as allauth does by itself",
    )
    parser.add_argument(
        "--no-floor", action="store_true", help="answer as soon as done (floors set to 0)"
    )
    args = parser.parse_args()
    reexec_under_services()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
    import django

    django.setup()
    for chatty in ("mail.log", "celery.app.trace", "django.request"):  # a line per request
        logging.getLogger(chatty).setLevel(logging.ERROR + 10)
    from aiosmtpd.controller import Controller
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    from tests.factories import closed_port as free_port
    from tests.workers import own_queue, stop

    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        sys.exit("needs PostgreSQL and Redis: run it under scripts/test-services")
    received = Received()
    port = free_port()
    controller = Controller(received, hostname="127.0.0.1", port=port)
    controller.start()
    setup_test_environment()  # (it sets the in-memory mail backend: replaced below)
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    if args.no_floor:
        settings.ACCOUNT_EMAIL_ANSWER_SECONDS = settings.ACCOUNT_SIGNUP_ANSWER_SECONDS = 0.0
    print(
        f"answer floors: {settings.ACCOUNT_EMAIL_ANSWER_SECONDS} s (an address given), "
        f"{settings.ACCOUNT_SIGNUP_ANSWER_SECONDS} s (a sign-up with one)"
    )
    old_name = connection.creation.create_test_db(verbosity=0)
    worker = None
    try:
        with own_queue() as queue:
            worker, where = start_sending(args.mail_in_request, queue, port)
            if not received.wait_for_total(1, 120):
                sys.exit("no mail sent in 2 minutes")
            print(f"mail sent {where}; the SMTP server: aiosmtpd on 127.0.0.1:{port}")
            measure(args.signups, args.resets, received)
    finally:
        if worker is not None:
            stop(worker)
        controller.stop()
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
