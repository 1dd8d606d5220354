"""Who is asking: a logged-in player or a guest known by their session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from django.http import HttpRequest
from rest_framework.request import Request

from apikit.staff import has_staff_powers


class Owned(Protocol):
    """Anything a player or a guest's session owns (a game)."""

    player_id: int | None
    session_key: str


@dataclass(frozen=True)
class Actor:
    """Who is asking: a logged-in player (``user_id``) or a guest (``session_key``).

    ``staff_powers``: staff whose session passed a second factor (apikit/staff.py), never
    the account's staff flag alone.
    """

    user_id: int | None
    session_key: str = ""
    staff_powers: bool = False

    def owns(self, thing: Owned) -> bool:
        if thing.player_id is not None:
            return thing.player_id == self.user_id
        return bool(self.session_key) and thing.session_key == self.session_key


def actor_of(request: Request | HttpRequest, *, create_session: bool = False) -> Actor:
    """The Actor behind a request; a guest's session is created when they start a game."""
    user = request.user
    if user.is_authenticated:
        return Actor(user_id=user.pk, staff_powers=has_staff_powers(request))
    session = request.session  # a DRF Request hands it on from Django's
    if create_session and not session.session_key:
        session["guest"] = True  # non-empty, so the middleware sends the cookie
        session.save()
    return Actor(user_id=None, session_key=session.session_key or "")
