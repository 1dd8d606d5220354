"""What players are told on the site's pages: a voided board, a disqualified game, a ban."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

from apikit.staff import has_staff_powers
from games.models import Game
from moderation import services
from moderation.models import DayVoid

register = template.Library()


@register.simple_tag
def day_void_notice(day: str, tier: str) -> str:
    """On a daily board's page: the board was voided, and why."""
    try:
        date = dt.date.fromisoformat(day)
    except ValueError:
        return ""
    void = DayVoid.objects.filter(challenge__date=date, challenge__tier=tier).first()
    if void is None:
        return ""
    return format_html(
        '<p class="notice warn" data-voided>{}</p>',
        _("This board was voided by the moderators: %(reason)s") % {"reason": void.reason},
    )


@register.simple_tag(takes_context=True)
def game_standing_notice(context: Any, game_id: int) -> str:
    """On a replay page, for the game's player (and staff powers): disqualified or voided,
    and why."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if request is None or user is None or not user.is_authenticated:
        return ""
    game = Game.objects.select_related("challenge").filter(pk=game_id).first()
    if game is None or not (game.player_id == user.pk or has_staff_powers(request)):
        return ""
    void = services.void_of(game.challenge)
    if void is not None:
        return format_html(
            '<p class="notice warn" data-standing>{}</p>',
            _("This day's board was voided: %(reason)s") % {"reason": void.reason},
        )
    if game.disqualified:
        return format_html(
            '<p class="notice warn" data-standing>{}</p>',
            _("This game was disqualified by the moderators and is off the boards."),
        )
    return ""


@register.simple_tag(takes_context=True)
def ban_notice(context: Any) -> str:
    """On every page, for a banned player: the ban and its reason."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not getattr(user, "is_banned", False):
        return ""
    return format_html(
        '<p class="notice warn" role="alert" data-banned>{}</p>',
        _(
            "Your account is banned: %(reason)s. "
            "You can still practise; ranked games and boards are closed to you."
        )
        % {"reason": user.ban_notice},
    )


@register.inclusion_tag("moderation/report_form.html", takes_context=True)
def report_form(context: Any, game_id: int) -> dict[str, Any]:
    """On a replay page: the form to report the game (logged-in players, not its own player)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    show = False
    if user is not None and user.is_authenticated:
        owner = Game.objects.filter(pk=game_id).values_list("player_id", flat=True).first()
        show = owner != user.pk
    return {"show": show, "game_id": game_id, "reason_max_length": services.MAX_REASON}
