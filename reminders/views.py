"""The one-click unsubscribe of reminder mail (RFC 8058): ``List-Unsubscribe`` names
``/reminders/unsubscribe/<signed token>/``. A mail program POSTs to it
(``List-Unsubscribe=One-Click``) with no cookie and no CSRF token: the signed token is the
proof, and it can only turn email reminders off. A person who opens the link (GET) sees a
page with one button, so that a link checker fetching it turns nothing off."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from reminders import services


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    player_id = services.player_of_token(token)
    if player_id is None:
        return render(request, "reminders/unsubscribe.html", {"invalid": True}, status=400)
    if request.method == "POST":
        services.turn_email_off(player_id)
        return render(request, "reminders/unsubscribe.html", {"done": True})
    return render(request, "reminders/unsubscribe.html", {"token": token})
