"""Budgets of the calls that cost solver time on demand: new practice games, hints, "still
winnable?" and analyses, per player (a guest: per session) and per client address.

Each kind of call has a limit in calls, and all of them share a budget of solver seconds:
the CPU time the solver actually spent on the caller's behalf (``note_solver_seconds``,
called where the solver runs), charged when the call ends. A caller whose budget is spent
is refused before the call starts (429 with ``Retry-After``), so a refused call costs no
solver time. Both apply per player and per address: fresh guest sessions from one address
share its budget, and one account shares its own whatever address it comes from.

A call holds the most it may cost (a hint: ``HINT_SECONDS``) on the solver budget while
it runs, and the hold is replaced by what it spent when it ends: calls started together
see each other's holds, so even a burst of parallel calls overspends a budget by at most
one call.

Limits are settings (``COSTLY_CALL_LIMITS``, read at request time; docs/api.md): per scope,
windows like ``"6/min,60/hour"``; a scope that is missing or empty has no limit. Counted
in fixed windows that start at a counter's first call, in the default cache: one round
trip to Redis before the call and one after (yukon_site/cache.py); the local-memory cache
of the embedded default counts in its process. With Redis down the limits open, as the
other rate limits do.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import math
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from apikit.errors import ServiceError

SOLVER_SECONDS = "solver_seconds"
KINDS = {  # the kinds of costly calls, and how a refusal names them ("too many hints")
    "games": gettext_lazy("new practice games"),
    "hints": gettext_lazy("hints"),
    "winnable": gettext_lazy('"still winnable?" checks'),
    "analysis": gettext_lazy("analysis requests"),
    "guest_dailies": gettext_lazy("daily games started as a guest"),  # no solver time
}
PLAYER, ADDRESS = "player", "address"
_SUFFIX = {PLAYER: "", ADDRESS: "_address"}
KEY_PREFIX = "costly"

LIMITS_FORMAT = re.compile(
    r"^\s*(\d+)\s*/\s*(\d*)\s*(s|sec|second|m|min|minute|h|hour|d|day)s?\s*$"
)
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_PERIOD_WORDS = {
    1: gettext_lazy("per second"),
    60: gettext_lazy("per minute"),
    3600: gettext_lazy("per hour"),
    86400: gettext_lazy("per day"),
}


@dataclass(frozen=True)
class Window:
    limit: int  # calls, or solver seconds
    seconds: int

    @property
    def per(self) -> str:
        """``per minute``, ``per 10 s``: for the refusal's message."""
        word = _PERIOD_WORDS.get(self.seconds)
        return str(word) if word else _("per %(seconds)s s") % {"seconds": self.seconds}


def parse_limits(text: str | None) -> list[Window]:
    """``"60/min,1000/hour"`` -> two windows; ``"3/10s"`` is 3 per 10 seconds; empty: none."""
    windows = []
    for part in (text or "").split(","):
        if not part.strip():
            continue
        match = LIMITS_FORMAT.match(part)
        if match is None:
            raise ImproperlyConfigured(
                f"a costly-call limit reads like 60/min, 1000/hour or 3/10s, not {part!r}"
            )
        count, multiple, unit = match.groups()
        windows.append(Window(int(count), int(multiple or 1) * _UNIT_SECONDS[unit[0]]))
    return windows


# ----- the solver's time, metered per call ------------------------------------------------

_solver_meter: ContextVar[list[float] | None] = ContextVar("solver_meter", default=None)


@contextmanager
def _metered() -> Iterator[list[float]]:
    """The solver time spent in the block, in seconds (``[0]`` of what it yields), metered
    apart from any meter outside it."""
    spent = [0.0]
    token = _solver_meter.set(spent)
    try:
        yield spent
    finally:
        _solver_meter.reset(token)


def note_solver_seconds(seconds: float) -> None:
    """Charge ``seconds`` of solver time to the costly call this thread is serving (if any:
    a Celery worker's analysis, a pool refill serve nobody in particular)."""
    spent = _solver_meter.get()
    if spent is not None:
        spent[0] += seconds


# ----- who is asking --------------------------------------------------------------------


def player_ident(user_id: int | None, session_key: str | None) -> str | None:
    """A player's counters (``u<id>``), or a guest session's (``s<key>``); None: neither."""
    if user_id is not None:
        return f"u{user_id}"
    return f"s{session_key}" if session_key else None


def address_ident(address: str) -> str:
    """An address's counters. An IPv6 address counts as its /64, the block one household or
    one server is given: otherwise every address of the block would have a budget of its own."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:  # whatever a proxy header said: still one counter per value
        return "x" + hashlib.sha256(address.encode()).hexdigest()[:32]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


def _idents(request: Request | HttpRequest) -> list[tuple[str, str]]:
    user = request.user
    session_key = None if user.is_authenticated else request.session.session_key
    player = player_ident(user.pk if user.is_authenticated else None, session_key)
    # DRF's client address: REMOTE_ADDR, or X-Forwarded-For past NUM_PROXIES (as the throttles)
    # (a request with neither, such as a WSGI call from a test harness, is one "address")
    address = address_ident(BaseThrottle().get_ident(request) or "")  # type: ignore[arg-type]
    return ([(PLAYER, player)] if player else []) + [(ADDRESS, address)]


# ----- counters in the cache -----------------------------------------------------------------


def _counter_key(scope: str, ident: str, window: Window) -> str:
    # The window's length is part of the key: a changed limit starts afresh instead of
    # counting on in a window (and expiry) made for the old one.
    return f"{KEY_PREFIX}:{scope}:{ident}:{window.seconds}"


def _add_in_window(key: str, amount: int, seconds: int) -> tuple[int, float]:
    """The local-memory cache's way (any Django cache): the window's end in a key beside."""
    now = time.time()
    if not cache.add(key, amount, seconds):
        try:
            total = cache.incr(key, amount)
        except ValueError:  # the window ended between add and incr
            pass
        else:
            ends = cache.get(f"{key}:ends")
            return total, (ends - now if isinstance(ends, float) else float(seconds))
        cache.set(key, amount, seconds)
    cache.set(f"{key}:ends", now + seconds, seconds)
    return amount, float(seconds)


def _add_in_windows(items: Sequence[tuple[str, int, int]]) -> list[tuple[int, float]] | None:
    """Add to each counter in its window: [(its total, seconds left in its window)]; None
    when the cache cannot count (Redis down: the limits open)."""
    add_in_windows = getattr(cache, "add_in_windows", None)
    if add_in_windows is not None:  # Redis, in one round trip (yukon_site/cache.py)
        result: list[tuple[int, float]] | None = add_in_windows(items)
        return result
    return [_add_in_window(key, amount, seconds) for key, amount, seconds in items]


def _add_if_present(items: Sequence[tuple[str, int]]) -> None:
    """Add to each counter whose window is still open; a window that ended keeps nothing."""
    add_if_present = getattr(cache, "add_if_present", None)
    if add_if_present is not None:
        add_if_present(items)
        return
    for key, amount in items:
        with contextlib.suppress(ValueError):  # the window ended meanwhile
            cache.incr(key, amount)


def solver_seconds_charged(per: str, ident: str) -> dict[int, float]:
    """The solver seconds charged to ``ident`` (see ``player_ident``, ``address_ident``) in
    each of its open windows, by window length (the tests read them; so may an operator)."""
    limits = getattr(settings, "COSTLY_CALL_LIMITS", {})
    charged = {}
    for window in parse_limits(limits.get(SOLVER_SECONDS + _SUFFIX[per])):
        milliseconds = cache.get(_counter_key(SOLVER_SECONDS + _SUFFIX[per], ident, window))
        charged[window.seconds] = (milliseconds or 0) / 1000
    return charged


# ----- a costly call ---------------------------------------------------------------------------


class OverBudget(ServiceError):
    """A budget of costly calls is spent: 429, ``Retry-After`` and ``retry_after`` say when
    it opens again, ``limit`` which one (a scope of ``COSTLY_CALL_LIMITS``), ``per`` whose."""

    http_status = 429

    def __init__(self, detail: str, *, retry_after: int, limit: str, per: str) -> None:
        super().__init__(detail, retry_after=retry_after, limit=limit, per=per)
        self.headers = {"Retry-After": str(retry_after)}


@dataclass(frozen=True)
class _Counter:
    kind: str  # a key of KINDS, or SOLVER_SECONDS
    per: str  # PLAYER or ADDRESS
    ident: str
    window: Window
    amount: int  # what the call adds when it starts: 1 call, or its hold in milliseconds

    @property
    def scope(self) -> str:
        return self.kind + _SUFFIX[self.per]

    @property
    def key(self) -> str:
        return _counter_key(self.scope, self.ident, self.window)

    def is_over(self, total: int) -> bool:
        if self.kind == SOLVER_SECONDS:  # spent before this call, others' holds included
            return total - self.amount >= self.window.limit * 1000
        return total > self.window.limit

    def refusal(self, retry_after: int) -> str:
        fields = {"limit": self.window.limit, "per": self.window.per, "wait": retry_after}
        if self.kind == SOLVER_SECONDS and self.per == PLAYER:
            return (
                _(
                    "you have used up your share of the solver's time (%(limit)s s %(per)s); "
                    "try again in %(wait)s s"
                )
                % fields
            )
        if self.kind == SOLVER_SECONDS:
            return (
                _(
                    "your network address has used up its share of the solver's time "
                    "(%(limit)s s %(per)s); try again in %(wait)s s"
                )
                % fields
            )
        fields["what"] = str(KINDS[self.kind])
        if self.per == PLAYER:
            return (
                _(
                    "too many %(what)s: at most %(limit)s %(per)s for each player; "
                    "try again in %(wait)s s"
                )
                % fields
            )
        return (
            _(
                "too many %(what)s from your network address: at most %(limit)s %(per)s; "
                "try again in %(wait)s s"
            )
            % fields
        )


# A late change to a counter is made only while the window the call was counted in has at
# least this long left: past it, the key may already be a later window's.
LATE_CHANGE_MARGIN = 0.5


@dataclass(frozen=True)
class _Charge:
    """A started call's part of the budgets: its solver counters and what it holds there,
    the counters that counted it, and when each one's window ends (``time.monotonic``)."""

    keys: tuple[str, ...]
    hold_ms: int
    counted: tuple[str, ...] = ()
    ends: tuple[tuple[str, float], ...] = ()

    def _open(self, keys: tuple[str, ...]) -> list[str]:
        """``keys`` whose windows are still those the call was counted in: a change to a
        later window's counter (a call that outlived its window) would take from, or give
        to, calls it never saw, down to a negative count."""
        ends = dict(self.ends)
        now = time.monotonic()
        return [key for key in keys if ends.get(key, 0.0) - now > LATE_CHANGE_MARGIN]

    def settle(self, spent_seconds: float) -> None:
        change = round(spent_seconds * 1000) - self.hold_ms
        if change and self.keys:
            _add_if_present([(key, change) for key in self._open(self.keys)])

    def uncount(self) -> None:
        """Give the call's count back: it came to nothing (the solver time stays charged)."""
        if self.counted:
            _add_if_present([(key, -1) for key in self._open(self.counted)])


def _counters(request: Request | HttpRequest, kind: str, hold_ms: int) -> list[_Counter]:
    limits: dict[str, str] = getattr(settings, "COSTLY_CALL_LIMITS", {})
    counters = []
    for per, ident in _idents(request):
        for window in parse_limits(limits.get(kind + _SUFFIX[per])):
            counters.append(_Counter(kind, per, ident, window, 1))
        for window in parse_limits(limits.get(SOLVER_SECONDS + _SUFFIX[per])):
            counters.append(_Counter(SOLVER_SECONDS, per, ident, window, hold_ms))
    return counters


def start_costly_call(
    request: Request | HttpRequest, kind: str, *, hold_seconds: float = 0.0
) -> _Charge:
    """Count the call and hold its solver time; OverBudget if a budget is spent."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of costly call {kind!r}")
    hold_ms = max(0, round(hold_seconds * 1000))
    counters = _counters(request, kind, hold_ms)
    if not counters:
        return _Charge((), 0)
    totals = _add_in_windows([(c.key, c.amount, c.window.seconds) for c in counters])
    if totals is None:
        return _Charge((), 0)
    now = time.monotonic()
    charge = _Charge(
        tuple(c.key for c in counters if c.kind == SOLVER_SECONDS),
        hold_ms,
        tuple(c.key for c in counters if c.kind != SOLVER_SECONDS),
        tuple((c.key, now + left) for c, (_, left) in zip(counters, totals, strict=True)),
    )
    refused = [
        (left, counter)
        for counter, (total, left) in zip(counters, totals, strict=True)
        if counter.is_over(total)
    ]
    if refused:
        charge.settle(0.0)  # the hold back: a refused call costs no solver time
        left, counter = max(refused, key=lambda pair: pair[0])
        retry_after = max(1, math.ceil(left))
        raise OverBudget(
            counter.refusal(retry_after),
            retry_after=retry_after,
            limit=counter.scope,
            per=counter.per,
        )
    return charge


@contextmanager
def costly_call(
    request: Request | HttpRequest,
    kind: str,
    *,
    hold_seconds: float = 0.0,
    not_counted_on: tuple[type[Exception], ...] = (),
) -> Iterator[None]:
    """Run the block as a costly call of ``kind`` (a key of ``KINDS``): refused with
    OverBudget if a budget of the caller is spent, else counted, and charged afterwards
    with the solver time the block spent. ``hold_seconds``: the most it may spend. A block
    that raises one of ``not_counted_on`` made nothing (no practice deal ready yet, asked
    again after Retry-After): its count is given back, its solver time still charged."""
    charge = start_costly_call(request, kind, hold_seconds=hold_seconds)
    with _metered() as spent:
        try:
            yield
        except not_counted_on:
            charge.uncount()
            raise
        finally:  # a call that fails still spent what it spent
            charge.settle(spent[0])


# ----- solver time spent later, on a caller's behalf ----------------------------------------
# A practice game's analysis runs when the game is verified, in a worker, long after the
# request that started the game: it is charged to that request's player and address (kept
# in the cache beside the budgets' counters), or, when none is kept (the cache lost it, or
# the game outlived it), to the game's owner alone.

CALLER_SECONDS = 30 * 86400  # a practice game may be finished long after it was started


def _caller_key(game_id: int) -> str:
    return f"{KEY_PREFIX}:caller:game:{game_id}"


def remember_caller(request: Request | HttpRequest, game_id: int) -> None:
    """Whose budgets pay for the solver time a game costs after this request."""
    cache.set(_caller_key(game_id), _idents(request), CALLER_SECONDS)


def _solver_counters(game_id: int, owner: str | None) -> list[_Counter]:
    """The solver-seconds counters of the player and address that started the game, else
    of ``owner`` (see ``player_ident``) alone (the amount 0)."""
    idents = cache.get(_caller_key(game_id)) or ([(PLAYER, owner)] if owner else [])
    limits: dict[str, str] = getattr(settings, "COSTLY_CALL_LIMITS", {})
    return [
        _Counter(SOLVER_SECONDS, per, ident, window, 0)
        for per, ident in idents
        for window in parse_limits(limits.get(SOLVER_SECONDS + _SUFFIX[per]))
    ]


def solver_budget_spent(game_id: int, owner: str | None) -> bool:
    """True when the solver seconds of whoever started the game are spent (in any window)."""
    counters = _solver_counters(game_id, owner)
    spent = cache.get_many([c.key for c in counters]) if counters else {}
    return any(c.is_over(int(spent.get(c.key) or 0)) for c in counters)


@contextmanager
def charged_to_caller(game_id: int, owner: str | None) -> Iterator[None]:
    """Meter the solver time the block spends and charge it to whoever started the game
    (opening a window where none is open); the block's time is not also charged to a
    costly call this thread may be serving."""
    with _metered() as spent:
        try:
            yield
        finally:
            counters = _solver_counters(game_id, owner)
            milliseconds = round(spent[0] * 1000)
            if counters and milliseconds > 0:
                _add_in_windows([(c.key, milliseconds, c.window.seconds) for c in counters])


# ----- the OpenAPI schema ------------------------------------------------------------------------

OVER_BUDGET_ERROR = inline_serializer(
    "OverBudget",
    {
        "detail": serializers.CharField(help_text="What was refused, and when to come back."),
        "retry_after": serializers.IntegerField(required=False, help_text="Seconds to wait."),
        "limit": serializers.CharField(
            required=False, help_text="The budget that is spent (a COSTLY_CALL_LIMITS scope)."
        ),
        "per": serializers.ChoiceField(
            [PLAYER, ADDRESS], required=False, help_text="Whose budget: yours or your address's."
        ),
    },
)
OVER_BUDGET_TEXT = (
    "A budget of costly calls is spent (per player or guest, and per address; in calls "
    "and in solver seconds; docs/api.md): wait Retry-After seconds."
)
OVER_BUDGET = OpenApiResponse(OVER_BUDGET_ERROR, description=OVER_BUDGET_TEXT)
RETRY_AFTER_ON_429 = OpenApiParameter(
    "Retry-After",
    int,
    OpenApiParameter.HEADER,
    response=[429],
    description="Seconds to wait before the budget opens again.",
)


def over_budget_or(description: str) -> OpenApiResponse:
    """A 429 that a view answers for a reason of its own too (the coach is busy)."""
    return OpenApiResponse(OVER_BUDGET_ERROR, description=f"{description} Or: {OVER_BUDGET_TEXT}")
