"""Guests' games, which rank only through a sign-up, and the results they keep off the boards.

A guest's game of a daily is a scout like any other: its origin is recorded and linked by
device and network (``moderation.origins``). Being a guest costs nothing, so two rules
*hold* a provisional result (a new account's) off every board until a moderator confirms
it (``games.services.hold_results``), with a ``guest_linked`` flag that names the links:

- a guest's game that became a new account's daily at sign-up, linked to any other game of
  its challenge: one person may have played the deal in several private windows and
  signed up from the best of them;
- a provisional result linked to a game played as a guest (still a guest's, or given to
  an account at log-in): the scout and the main account, at their cheapest.

An established account's result is never held: it is flagged ``linked_accounts`` when a
linked game (a guest's too) turned its cards first, like any linked account's. The rules
run inside the transaction that makes a result count (``games.signals.result_counting``:
its verification, or the sign-up that claims it), so a held result never shows on a board,
and again when a linked game is verified (``flags.recheck_links``). A moderator's decision
stands: a result confirmed, or whose ``guest_linked`` flag was cleared, is not held again.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import services as game_services
from games.models import Game, Mode
from moderation.detector import Finding
from moderation.models import Flag, FlagKind
from moderation.origins import linked_games


def hold_finding(game: Game) -> Finding | None:
    """Why ``game``'s result must wait for a moderator, or None."""
    if game.mode != Mode.DAILY or not game.provisional or game.challenge_id is None:
        return None
    links = linked_games(game)
    if not game.played_as_guest:
        links = [link for link in links if link.played_as_guest]
    if not links:
        return None
    names = sorted({link.owner for link in links})
    shared = sorted({part for link in links for part in link.shared})
    if game.played_as_guest:
        why = "played as a guest, then signed up, and linked to"
    else:
        why = "a new account's result linked to the guests' games of"
    return Finding(
        FlagKind.GUEST_LINKED,
        f"{why} {len(links)} other game(s) of this challenge ({', '.join(names)}; same "
        f"{' and '.join(shared)}): held off the board until a moderator confirms it",
        {
            "accounts": names,
            "shared": shared,
            "games": [link.game_id for link in links],
            "played_as_guest": game.played_as_guest,
        },
    )


def hold_if_linked(game: Game) -> bool:
    """Hold ``game``'s result, and flag why, if a rule above applies and no moderator has
    decided about its links yet; whether it is held now."""
    finding = hold_finding(game)
    if finding is None:
        return False
    flag, created = Flag.objects.get_or_create(
        game_id=game.pk,
        kind=finding.kind,
        defaults={"reason": finding.reason, "measured": finding.measured},
    )
    if not created and flag.status != "open":  # cleared or upheld: the moderator's call
        return False
    if not created:  # more links since: the flag names them all
        Flag.objects.filter(pk=flag.pk).update(reason=finding.reason, measured=finding.measured)
    game_services.hold_results([game.pk])
    return True


def on_result_counting(sender: Any, game: Game, why: str = "verified", **kwargs: Any) -> None:
    """Receiver of ``games.signals.result_counting`` (inside the transaction that makes the
    result count). A guest's game that became a daily at sign-up was verified while it was
    a guest's, unjudged: it is judged now, by a worker, once the sign-up has committed."""
    hold_if_linked(game)
    if why == "signed_up":
        from moderation import tasks

        game_id = game.pk
        # robust: a broker outage must not undo a sign-up (a moderator can judge by hand)
        transaction.on_commit(lambda: tasks.raise_flags.delay(game_id), robust=True)
