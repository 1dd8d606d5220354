"""Telling a player what the moderators decided about them, in plain words: a notice on
their own player page and a mail, sent once the decision has committed (a decision rolled
back tells nobody anything).

The mail goes through Django's ``send_mail`` and whatever ``EMAIL_BACKEND`` the settings
name; a mail that fails is logged and never undoes the decision.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.core.mail import send_mail
from django.db import transaction

from accounts.models import User
from games.models import Game
from moderation.models import Notice, NoticeKind

logger = logging.getLogger(__name__)

SUBJECTS: dict[str, str] = {
    NoticeKind.DISQUALIFIED: "A result of yours was taken off the boards",
    NoticeKind.BANNED: "Your account was banned from the ranked games",
    NoticeKind.REINSTATED: "A result of yours is back on the boards",
    NoticeKind.APPEAL_REFUSED: "Your appeal: the decision stands",
}
APPEAL_HOW = (
    "If you think this is wrong, you can appeal once: open your player page on Yukon "
    "Daily, find this notice and say why, in your own words. A moderator reads every "
    "appeal before any other work, and you will be told the answer here and by mail."
)


def game_words(game: Game) -> str:
    """'your hard daily of 2026-12-05' (or the archive's, or a guest's game)."""
    challenge = game.challenge
    if challenge is None:
        return f"your practice game {game.pk}"
    what = {"daily": "daily", "archive": "archive game", "guest": "game"}.get(game.mode, "game")
    return f"your {challenge.tier} {what} of {challenge.date.isoformat()}"


def disqualified_text(game: Game, reason: str, seen: Iterable[str]) -> str:
    seen = list(seen)
    lines = [
        f"A moderator took {game_words(game)} (game {game.pk}) off the boards: it no longer "
        "counts on its board, in your streak or in your leagues.",
        "",
        f"The moderator's reason: {reason}",
    ]
    if seen:
        lines += ["", "What our checks saw in the game:", *(f"- {words}" for words in seen)]
    return "\n".join([*lines, "", APPEAL_HOW])


def banned_text(reason: str, results: int) -> str:
    taken = f" Your ranked results ({results}) were taken off the boards." if results else ""
    return (
        "A moderator banned your account from the ranked games: you can still log in and "
        f"practise, but not play the dailies.{taken}\n\nThe moderator's reason: {reason}"
    )


def reinstated_text(game: Game, reason: str, *, on_appeal: bool) -> str:
    how = "After your appeal, a moderator" if on_appeal else "A moderator"
    return (
        f"{how} put {game_words(game)} (game {game.pk}) back on its board: it counts again."
        f"\n\nThe moderator's reason: {reason}"
    )


def appeal_refused_text(game: Game, reason: str) -> str:
    return (
        f"A moderator read your appeal about {game_words(game)} (game {game.pk}) and the "
        "decision stands: the game stays off the boards. An appeal is heard once."
        f"\n\nThe moderator's reason: {reason}"
    )


def notify(player: User, kind: str, text: str, game: Game | None = None) -> Notice:
    """Write the notice now (inside the decision's transaction) and mail it after commit."""
    notice = Notice.objects.create(player=player, game=game, kind=kind, text=text)
    address = player.email
    if address:
        subject = SUBJECTS.get(kind, "A message from the moderators")

        def mail() -> None:
            send_mail(f"[Yukon Daily] {subject}", text, None, [address])

        # robust: a mail server's trouble must not undo a committed decision (it is logged)
        transaction.on_commit(mail, robust=True)
    return notice
