"""Answers that could tell whether an email address has an account go out no sooner than
a fixed time after their request came in, whatever was done for the address.

The mail itself never runs in a request (accounts/tasks.py), but some work still depends
on the address: a password reset for an address we know makes a token (allauth reads the
account's addresses for it), writes the mail and queues it, a few milliseconds that one
for an unknown address does not spend; a sign-up with a free address stores it, one with
a taken address does not. Those milliseconds happen inside allauth's forms, where no
hook can move them out, so the answer waits instead: the adapter marks a request that
names an address (``answer_no_sooner_than``, accounts/adapter.py) and the middleware
holds the answer until the floor (``ACCOUNT_EMAIL_ANSWER_SECONDS``,
``ACCOUNT_SIGNUP_ANSWER_SECONDS``; docs/accounts.md, bench/bench_account_timing.py).
A floor below the slowest answers hides nothing in those, so it is set well above them.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

_FLOOR = "_answer_no_sooner_than"


def answer_no_sooner_than(request: HttpRequest | None, seconds: float) -> None:
    """Hold this request's answer until ``seconds`` after it came in (the largest floor
    asked for wins)."""
    if request is None:
        return
    floor = max(getattr(request, _FLOOR, 0.0), seconds)
    setattr(request, _FLOOR, floor)


class EvenTimingMiddleware:
    """Early in MIDDLEWARE, so the clock starts when the request comes in."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.monotonic()
        response = self.get_response(request)
        wait = started + getattr(request, _FLOOR, 0.0) - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        return response
