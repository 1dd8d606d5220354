"""Every change to accounts: sign up, log in, log out (the views only call these)."""

from __future__ import annotations

from django.contrib.auth import login, logout
from django.db import transaction
from django.http import HttpRequest

from accounts.models import User
from games import services as game_services


def sign_up(
    request: HttpRequest, *, username: str, display_name: str, password: str, email: str = ""
) -> User:
    """Create a player and log them in; their guest practice games come along."""
    with transaction.atomic():
        user = User.objects.create_user(
            username=username, password=password, email=email, display_name=display_name
        )
    log_in(request, user)
    return user


def log_in(request: HttpRequest, user: User) -> None:
    """Start an authenticated session; practice games played as a guest become the player's."""
    guest_session_key = request.session.session_key
    login(request, user)  # the one configured backend (settings.AUTHENTICATION_BACKENDS)
    if guest_session_key:
        game_services.claim_guest_games(user, guest_session_key)


def log_out(request: HttpRequest) -> None:
    logout(request)
