"""Every change to leagues and follows, and the look-ups that authorise a reader.

``league_of_member`` is the one door to a league's contents (``league_circle`` the same
door for the boards, with the members in the same query): a player who is not a member
now (never joined, left, removed, or the league closed) gets NotFound, the same answer as
for a league that does not exist, so nothing of a private league shows. Each
read checks membership afresh: a removed member loses access with the next request.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User, no_player_called
from accounts.skeleton import name_key
from accounts.validators import check_name_form
from apikit.errors import Conflict, Forbidden, NotFound, ServiceError
from apikit.sql import in_subquery
from social.models import LEAGUE_NAME_MAX_LENGTH, Follow, League, Membership

_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
NO_LEAGUE = gettext_lazy("no such league (or you are not a member)")
NO_INVITE = gettext_lazy(
    "this invite link is not valid: ask the league's owner for the current one"
)


class LimitReached(ServiceError):
    """A per-player or per-league limit: 409 with the limit in the answer."""

    http_status = 409


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


def clean_league_name(name: Any, *, exclude_id: int | None = None) -> str:
    """The name as stored, or ServiceError (400) saying why not: the form of a display
    name, and not confusable with another open league's name."""
    if not isinstance(name, str):
        raise ServiceError(_("a league name is text"), field="name")
    try:
        # `what` names the rule (accounts/validators.py), which is translated whole: a
        # translated `what` found none, and a German reader got "Ein Liganame has 2 to 40
        # characters."
        name = check_name_form(name, what="A league name", max_length=LEAGUE_NAME_MAX_LENGTH)
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages), field="name") from exc
    others = League.objects.filter(closed_at__isnull=True, name_key=name_key(name))
    if exclude_id is not None:
        others = others.exclude(pk=exclude_id)
    if others.exists():
        raise ServiceError(
            _("That league name is taken or too close to another league's; pick another."),
            field="name",
        )
    return name


def active_members(league: League | int) -> Any:
    league_id = league if isinstance(league, int) else league.pk
    return Membership.objects.filter(league_id=league_id, removed_at__isnull=True)


def is_member(league: League | int, user_id: int | None) -> bool:
    return user_id is not None and active_members(league).filter(player_id=user_id).exists()


def unbanned_members(league: League | int) -> dict[int, str]:
    """The league's current members who are not banned, with their display names: the
    circle its boards rank (one query)."""
    league_id = league if isinstance(league, int) else league.pk
    members = Membership.objects.filter(league_id=league_id, removed_at__isnull=True)
    return dict(
        User.objects.filter(
            in_subquery("pk", members.values("player_id")), is_banned=False
        ).values_list("pk", "display_name")
    )


def unbanned_following(user_id: int) -> dict[int, str]:
    """The player and those they follow, not banned, with their display names (one query)."""
    followed = Follow.objects.filter(follower_id=user_id).values("followed_id")
    return dict(
        User.objects.filter(
            Q(pk=user_id) | Q(in_subquery("pk", followed)), is_banned=False
        ).values_list("pk", "display_name")
    )


def leagues_of(user_id: int) -> list[League]:
    """The open leagues the player is a member of, with their member counts."""
    return list(
        League.objects.filter(
            closed_at__isnull=True,
            memberships__player_id=user_id,
            memberships__removed_at__isnull=True,
        )
        .annotate(member_count=Count("memberships", filter=Q(memberships__removed_at__isnull=True)))
        .select_related("owner")
        .order_by("name", "pk")
    )


def _open_league_of_member(user_id: int, league_id: int) -> Any:
    """The open league ``league_id`` (a queryset of it) if ``user_id`` is a member now."""
    return League.objects.filter(
        pk=league_id,
        closed_at__isnull=True,
        memberships__player_id=user_id,
        memberships__removed_at__isnull=True,
    )


def league_of_member(user_id: int | None, league_id: int) -> League:
    """The open league ``league_id`` if ``user_id`` is a member now; else NotFound."""
    if user_id is None:
        raise NotFound(str(NO_LEAGUE))
    league = _open_league_of_member(user_id, league_id).select_related("owner").first()
    if league is None:
        raise NotFound(str(NO_LEAGUE))
    return league


@dataclass(frozen=True)
class LeagueCircle:
    """A league as its boards need it: id, name, and the members ranked (not banned)."""

    league_id: int
    name: str
    players: dict[int, str]


def league_circle(user_id: int | None, league_id: int) -> LeagueCircle:
    """``league_of_member`` and ``unbanned_members`` in one query (the boards' hot path,
    read on every poll): each member row carries the league's name only when ``user_id``
    is a member of the open league now. No row with a name: asked again the long way,
    which raises NotFound, or finds a league whose members are all banned (none ranked)."""
    if user_id is None:
        raise NotFound(str(NO_LEAGUE))
    name = _open_league_of_member(user_id, league_id).values("name")[:1]
    rows = list(
        User.objects.filter(
            in_subquery("pk", active_members(league_id).values("player_id")), is_banned=False
        )
        .annotate(league_name=Subquery(name))
        .values_list("pk", "display_name", "league_name")
    )
    if not rows or rows[0][2] is None:
        league = league_of_member(user_id, league_id)
        return LeagueCircle(league.pk, league.name, {})
    return LeagueCircle(league_id, rows[0][2], {pk: shown for pk, shown, _ in rows})


def _league_by_token(token: str, *, lock: bool = False) -> League:
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        raise NotFound(str(NO_INVITE))
    found = League.objects.filter(invite_token=token, closed_at__isnull=True)
    if lock:
        found = found.select_for_update()
    league = found.select_related("owner").first()
    if league is None:
        raise NotFound(str(NO_INVITE))
    return league


def invite_preview(token: str) -> tuple[League, int]:
    """What an invite shows before joining: the league and its member count."""
    league = _league_by_token(token)
    return league, active_members(league).count()


def _lock_player(user_id: int) -> None:
    """Serialise one player's joins and creations: the per-player limit holds under races."""
    User.objects.select_for_update().filter(pk=user_id).first()


def _check_player_limit(user_id: int) -> None:
    limit = settings.LEAGUES_PER_PLAYER
    count = Membership.objects.filter(
        player_id=user_id, removed_at__isnull=True, league__closed_at__isnull=True
    ).count()
    if count >= limit:
        raise LimitReached(
            _(
                "you are in %(count)s leagues, the most a player may be in (%(limit)s): "
                "leave one first"
            )
            % {"count": count, "limit": limit},
            limit=limit,
        )


def create_league(user: Any, name: Any) -> League:
    name = clean_league_name(name)
    with transaction.atomic():
        _lock_player(user.pk)
        _check_player_limit(user.pk)
        league = League.objects.create(
            name=name, name_key=name_key(name), owner=user, invite_token=new_invite_token()
        )
        Membership.objects.create(league=league, player=user)
    return league


def join_league(user: Any, token: str) -> tuple[League, bool]:
    """Join with an invite token: (league, joined now). Already a member: no change."""
    with transaction.atomic():
        _lock_player(user.pk)
        league = _league_by_token(token, lock=True)  # serialises joins: the member limit
        membership = Membership.objects.filter(league=league, player=user).first()
        if membership is not None and membership.removed_at is None:
            return league, False
        if membership is not None:
            raise Forbidden(_("the league's owner removed you from this league"))
        _check_player_limit(user.pk)
        limit = settings.LEAGUE_MAX_MEMBERS
        if active_members(league).count() >= limit:
            raise LimitReached(
                _("this league is full: it has %(limit)s members") % {"limit": limit}, limit=limit
            )
        Membership.objects.create(league=league, player=user)
    return league, True


def leave_league(user: Any, league_id: int) -> League:
    """Leave a league. An owner who leaves hands it to the longest-standing member; the
    last member to leave closes it."""
    with transaction.atomic():
        league = league_of_member(user.pk, league_id)
        return _leave(user.pk, league.pk)


def _leave(user_id: int, league_id: int) -> League:
    league = League.objects.select_for_update().get(pk=league_id)
    Membership.objects.filter(league=league, player_id=user_id).delete()
    if league.owner_id == user_id and league.closed_at is None:
        heir = active_members(league).order_by("joined_at", "pk").first()
        if heir is None:
            league.closed_at = timezone.now()
            league.closed_reason = "its last member left"
            league.save(update_fields=["closed_at", "closed_reason"])
        else:
            league.owner_id = heir.player_id
            league.save(update_fields=["owner"])
    return league


def forget_player(user: Any) -> None:
    """A deleted account (accounts.signals.account_deleted, inside its transaction):
    it leaves every league as a member who leaves does (an owner hands the league on,
    the last member closes it), its rows of removal go too, and it follows nobody and
    nobody follows it. The leagues' boards drop it with their next read (their members
    are read afresh each time: leaderboards.circles)."""
    league_ids = list(
        Membership.objects.filter(player_id=user.pk)
        .order_by("league_id")
        .values_list("league_id", flat=True)
    )
    for league_id in league_ids:
        _leave(user.pk, league_id)
    Follow.objects.filter(Q(follower_id=user.pk) | Q(followed_id=user.pk)).delete()


def _owned_league(user: Any, league_id: int) -> League:
    league = league_of_member(user.pk, league_id)
    if league.owner_id != user.pk:
        raise Forbidden(_("only the league's owner may do this"))
    return league


def remove_member(owner: Any, league_id: int, display_name: str) -> None:
    """The owner removes a member: their access ends with this commit, and the invite
    link does not let them back."""
    with transaction.atomic():
        league = _owned_league(owner, league_id)
        membership = (
            active_members(league)
            .select_for_update()
            .filter(player__display_name__iexact=display_name.strip())
            .first()
            if "\x00" not in display_name  # nobody's name: PostgreSQL cannot hold a NUL
            else None
        )
        if membership is None:
            raise NotFound(
                _("“%(name)s” is not a member of this league")
                % {"name": display_name.strip().replace("\x00", "")}
            )
        if membership.player_id == owner.pk:
            raise Conflict(_("the owner cannot remove themselves: leave the league instead"))
        membership.removed_at = timezone.now()
        membership.save(update_fields=["removed_at"])


def replace_invite(owner: Any, league_id: int) -> League:
    """A new invite link; the old one joins nobody from now on."""
    with transaction.atomic():
        league = _owned_league(owner, league_id)
        league.invite_token = new_invite_token()
        league.save(update_fields=["invite_token"])
    return league


# ----- moderation's side (moderation.services audits these, and owns the reports) -------


def set_league_name(league_id: int, name: Any) -> tuple[League, str]:
    """Rename a league (a moderator): (league, old name)."""
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league_id)
        new_name = clean_league_name(name, exclude_id=league.pk)
        old = league.name
        league.name = new_name
        league.name_key = name_key(new_name)
        league.save(update_fields=["name", "name_key"])
    return league, old


def close_league(league_id: int, reason: str) -> League:
    """Close a league (a moderator): nobody sees it any more, its link joins nobody."""
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league_id)
        if league.closed_at is None:
            league.closed_at = timezone.now()
            league.closed_reason = reason
            league.save(update_fields=["closed_at", "closed_reason"])
    return league


# ----- follows ---------------------------------------------------------------------------


def _player_named(name: Any) -> User:
    if not isinstance(name, str) or not name.strip():
        raise ServiceError(_("name a player to follow"), field="display_name")
    user = User.named(name)
    if user is None:
        raise NotFound(no_player_called(name.strip()))
    return user


def follow(user: Any, name: Any) -> tuple[User, bool]:
    """Follow a player by display name: (player, followed now)."""
    target = _player_named(name)
    if target.pk == user.pk:
        raise ServiceError(_("you cannot follow yourself"), field="display_name")
    with transaction.atomic():
        _lock_player(user.pk)
        if Follow.objects.filter(follower=user, followed=target).exists():
            return target, False
        limit = settings.FOLLOWS_PER_PLAYER
        if Follow.objects.filter(follower=user).count() >= limit:
            raise LimitReached(
                _("you follow %(limit)s players, the most allowed: unfollow someone first")
                % {"limit": limit},
                limit=limit,
            )
        Follow.objects.create(follower=user, followed=target)
    return target, True


def unfollow(user: Any, name: str) -> None:
    target = _player_named(name)
    deleted, _by_model = Follow.objects.filter(follower=user, followed=target).delete()
    if not deleted:
        raise NotFound(_("you do not follow %(name)s") % {"name": target.display_name})


def followed_names(user_id: int) -> list[str]:
    return list(
        Follow.objects.filter(follower_id=user_id, followed__is_banned=False)
        .order_by("followed__display_name")
        .values_list("followed__display_name", flat=True)
    )
