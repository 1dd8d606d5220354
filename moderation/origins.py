"""Where games are started from, and the games that links on one challenge.

One player with many accounts can turn a daily's cards over with a throwaway account (or a
guest session), then play the deal with a fresh one. Each daily, guest and archive start
records its origin: the client address, its network (/24 for IPv4, /56 for IPv6), a device
cookie and the user agent. Games of one challenge that share a device or a network
(directly or through another such game) are linked, whatever became of them (finished,
abandoned, still in play), and so are a player's own games played as a guest before
logging in; a ranked game is judged with the cards its linked games turned before it did
(``linked_findings``; docs/moderation.md, "Linked accounts").
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import secrets
from contextvars import ContextVar
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.models import Game, Mode
from games.services import log_entries
from moderation.detector import Finding, Thresholds
from moderation.models import (
    Appeal,
    AppealStatus,
    Flag,
    FlagKind,
    FlagStatus,
    GameOrigin,
    Report,
    ReportStatus,
)

DEVICE_COOKIE = "yd_device"
DEVICE_COOKIE_DAYS = 400  # browsers cap a cookie's life at 400 days
IPV4_PREFIX, IPV6_PREFIX = 24, 56
RECORDED_MODES = (Mode.DAILY, Mode.ARCHIVE, Mode.GUEST)  # a guest's game is a scout too


@dataclass
class RequestOrigin:
    """What the request being served says about its client (set by moderation.middleware).
    ``new_device`` is set when a start gave the browser a device id it must keep."""

    address: str | None
    device: str = ""
    user_agent: str = ""
    new_device: bool = False


request_origin: ContextVar[RequestOrigin | None] = ContextVar("request_origin", default=None)


def network_of(address: str) -> str | None:
    """The address's network as text (``203.0.113.0/24``, ``2001:db8:0:100::/56``), or
    None for text that is not an address."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    prefix = IPV4_PREFIX if ip.version == 4 else IPV6_PREFIX
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def is_device_id(value: str) -> bool:
    return len(value) == 32 and all(c in "0123456789abcdef" for c in value)


def record_origin(game: Game) -> None:
    """Remember where a daily, guest or archive game was started from (nothing outside a
    request).

    A browser that has no device id yet is given one with this answer."""
    origin = request_origin.get()
    if origin is None or game.mode not in RECORDED_MODES or not origin.address:
        return
    network = network_of(origin.address)
    if network is None:
        return
    if not origin.device:
        origin.device, origin.new_device = secrets.token_hex(16), True
    GameOrigin.objects.get_or_create(
        game=game,
        defaults={
            "address": origin.address,
            "network": network,
            "device": origin.device,
            "user_agent": origin.user_agent[:300],
        },
    )


def challenges_under_review() -> set[int]:
    """The challenges with a case still open: a flag or a player's report on one of their
    games that no moderator has closed. A moderator judges a flagged game with every game
    of its challenge linked to it, and the links are found through the origins: so the
    origins of all of the challenge's games are kept until the case is closed, and so are
    its guests' games (``games.retention``). A player's appeal reopens the case."""
    open_cases = (
        Flag.objects.filter(status=FlagStatus.OPEN),
        Report.objects.filter(status=ReportStatus.OPEN),
        Appeal.objects.filter(status=AppealStatus.OPEN),
    )
    return {
        challenge
        for cases in open_cases
        for challenge in cases.filter(game__challenge__isnull=False).values_list(
            "game__challenge_id", flat=True
        )
    }


def players_under_review() -> set[int]:
    """The players with an open flag or appeal on one of their games: a moderator may weigh
    where their other games came from (the device of another account, a week earlier)."""
    flagged = Flag.objects.filter(status=FlagStatus.OPEN, game__player__isnull=False)
    appealing = Appeal.objects.filter(status=AppealStatus.OPEN)
    return set(flagged.values_list("game__player_id", flat=True)) | set(
        appealing.values_list("player_id", flat=True)
    )


def purge_origins(now: dt.datetime | None = None) -> int:
    """Forget origins older than ``MODERATION_ORIGIN_DAYS``, but none that an open case
    still needs (``challenges_under_review``, ``players_under_review``): those go at the
    first run after it is closed. Returns how many went."""
    days = settings.MODERATION_ORIGIN_DAYS
    cutoff = (now or timezone.now()) - dt.timedelta(days=days)
    expired = GameOrigin.objects.filter(created_at__lt=cutoff)
    kept = Q(game__challenge_id__in=challenges_under_review()) | Q(
        game__player_id__in=players_under_review()
    )
    deleted, _ = expired.exclude(kept).delete()
    return deleted


def forget_player(player_id: int) -> None:
    """A deleted account's games keep no trace of where they were played from, but for the
    evidence of a case still open (``challenges_under_review``): it goes with the other
    origins of its time (``purge_origins``) once the case is closed."""
    GameOrigin.objects.filter(game__player_id=player_id).exclude(
        game__challenge_id__in=challenges_under_review()
    ).delete()


# ----- links on one challenge --------------------------------------------------------------


@dataclass(frozen=True)
class LinkedGame:
    game_id: int
    owner: str  # a display name, or a guest's session
    shared: tuple[str, ...]  # "device", "network", "player" (its own game, as a guest)
    status: str
    turned: dict[str, dt.datetime]  # each card it turned up, and when
    played_as_guest: bool = False  # a guest's game, whoever holds it now


def _owner(game: Game) -> str:
    if game.player is None:
        return f"a guest (session {game.session_key[:8]})"
    if game.mode == Mode.GUEST:  # played as a guest, then the guest logged in
        return f"{game.player.display_name} (as a guest)"
    return game.player.display_name


def _same_owner(game: Game) -> Q:
    if game.player_id is not None:
        return Q(player_id=game.player_id)
    return Q(player__isnull=True, session_key=game.session_key)


def turned_cards(game: Game) -> dict[str, dt.datetime]:
    """Each card the game turned up, and when (the server's clock)."""
    turned: dict[str, dt.datetime] = {}
    for entry in log_entries(game):
        if entry.turned:
            moment = game.started_at + dt.timedelta(milliseconds=entry.at_ms)
            turned.setdefault(entry.turned, moment)
    return turned


MAX_LINK_STEPS = 4  # a chain longer than this is no longer one player's doing


def linked_games(game: Game) -> list[LinkedGame]:
    """The other accounts' and guests' games of this game's challenge linked to it: sharing
    its device or network, or either with a game so linked (a scout on a phone that also
    played at home), and its own player's games played as a guest before logging in
    (wherever they came from), whatever became of them, each with the cards it turned and
    when."""
    if game.challenge_id is None:
        return []
    origin = GameOrigin.objects.filter(game_id=game.pk).first()
    networks = {origin.network} if origin is not None else set()
    devices = {origin.device} - {""} if origin is not None else set()
    games = Game.objects.filter(challenge_id=game.challenge_id).exclude(pk=game.pk)
    games = games.select_related("player", "origin")
    found: dict[int, Game] = {}
    own_as_guest: set[int] = set()
    if game.player_id is not None:
        for other in games.filter(player_id=game.player_id, played_as_guest=True):
            found[other.pk] = other
            own_as_guest.add(other.pk)
    for _ in range(MAX_LINK_STEPS):
        for other in found.values():
            if hasattr(other, "origin"):
                networks.add(other.origin.network)
                devices.add(other.origin.device)
        devices.discard("")
        new = list(
            games.filter(Q(origin__network__in=networks) | Q(origin__device__in=devices))
            .exclude(_same_owner(game) & Q(played_as_guest=False))
            .exclude(pk__in=found)
        )
        if not new:
            break
        found.update((other.pk, other) for other in new)
    return [
        LinkedGame(
            other.pk,
            _owner(other),
            _shared(origin, other, own=other.pk in own_as_guest),
            other.status,
            turned_cards(other),
            other.played_as_guest,
        )
        for other in sorted(found.values(), key=lambda g: (g.started_at, g.pk))
    ]


def _shared(origin: GameOrigin | None, other: Game, *, own: bool) -> tuple[str, ...]:
    theirs = getattr(other, "origin", None)
    shared = tuple(
        name
        for name, same in (
            ("player", own),
            ("device", bool(origin and theirs and origin.device == theirs.device != "")),
            ("network", bool(origin and theirs and origin.network == theirs.network)),
        )
        if same
    )
    return shared or ("a linked game's device or network",)


def seen_in_advance(game: Game, linked: list[LinkedGame]) -> dict[int, list[str]]:
    """For each linked game, the cards it turned up before this game did (or before this
    game ended, for a card it never turned): what its player could have been told."""
    own = turned_cards(game)
    end = game.finished_at or timezone.now()
    return {
        link.game_id: sorted(card for card, at in link.turned.items() if at < own.get(card, end))
        for link in linked
    }


def linked_findings(game: Game, t: Thresholds) -> list[Finding]:
    """A ``linked_accounts`` finding when linked games turned at least
    ``linked_seen_cards`` of the deal's hidden cards before this game did."""
    linked = linked_games(game)
    seen_by = seen_in_advance(game, linked)
    seen = {card for cards in seen_by.values() for card in cards}
    if len(seen) < t.linked_seen_cards:
        return []
    helpers = [link for link in linked if seen_by[link.game_id]]
    names = sorted({link.owner for link in helpers})
    how = sorted({part for link in helpers for part in link.shared})
    return [
        Finding(
            FlagKind.LINKED_ACCOUNTS,
            f"{len(names)} linked account(s) ({', '.join(names)}; same {' and '.join(how)}) "
            f"turned {len(seen)} of this deal's hidden cards before this game did "
            f"(flagged from {t.linked_seen_cards})",
            {
                "accounts": names,
                "shared": how,
                "seen_hidden_cards": len(seen),
                "games": [link.game_id for link in helpers],
            },
            t.pick("linked_seen_cards"),
        )
    ]
