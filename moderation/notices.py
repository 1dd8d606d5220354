"""Telling a player what the moderators decided about them, in plain words: a notice on
their own player page and a mail, sent once the decision has committed (a decision rolled
back tells nobody anything).

The mail goes through Django's ``send_mail`` and whatever ``EMAIL_BACKEND`` the settings
name; a mail that fails is logged and never undoes the decision. Both are written in the
player's language (``in_language_of``): the decision is taken on a moderator's request,
whose language is the moderator's.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.core.mail import send_mail
from django.db import transaction
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.language import in_language_of
from accounts.models import User
from games.models import Game
from moderation.models import Notice, NoticeKind

logger = logging.getLogger(__name__)

SUBJECTS: dict[str, str | Promise] = {
    NoticeKind.DISQUALIFIED: gettext_lazy("A result of yours was taken off the boards"),
    NoticeKind.BANNED: gettext_lazy("Your account was banned from the ranked games"),
    NoticeKind.REINSTATED: gettext_lazy("A result of yours is back on the boards"),
    NoticeKind.APPEAL_REFUSED: gettext_lazy("Your appeal: the decision stands"),
}
APPEAL_HOW = gettext_lazy(
    "If you think this is wrong, you can appeal once: open your player page on Yukon "
    "Daily, find this notice and say why, in your own words. A moderator reads every "
    "appeal before any other work, and you will be told the answer here and by mail."
)
# Tiers inside a sentence, in lower case ("your hard daily").
TIER_WORDS = {
    "easy": pgettext_lazy("tier", "easy"),
    "medium": pgettext_lazy("tier", "medium"),
    "hard": pgettext_lazy("tier", "hard"),
    "weekly": pgettext_lazy("tier", "weekly"),
}


def game_words(game: Game) -> str:
    """'your hard daily of 2026-12-05' (or the archive's, or a guest's game)."""
    challenge = game.challenge
    if challenge is None:
        return _("your practice game %(game)s") % {"game": game.pk}
    fields = {
        "tier": TIER_WORDS.get(challenge.tier, challenge.tier),
        "date": challenge.date.isoformat(),
    }
    if game.mode == "daily":
        return _("your %(tier)s daily of %(date)s") % fields
    if game.mode == "archive":
        return _("your %(tier)s archive game of %(date)s") % fields
    return _("your %(tier)s game of %(date)s") % fields


def disqualified_text(game: Game, reason: str, seen: Iterable[str | Promise]) -> str:
    """``seen``: the open flags' labels (lazy: they are written in the player's language)."""
    seen = list(seen)
    lines = [
        _(
            "A moderator took %(game_words)s (game %(game)s) off the boards: it no longer "
            "counts on its board, in your streak or in your leagues."
        )
        % {"game_words": game_words(game), "game": game.pk},
        "",
        moderators_reason(reason),
    ]
    if seen:
        lines += ["", _("What our checks saw in the game:"), *(f"- {words}" for words in seen)]
    return "\n".join([*lines, "", str(APPEAL_HOW)])


def banned_text(reason: str, results: int) -> str:
    if results:
        text = _(
            "A moderator banned your account from the ranked games: you can still log in and "
            "practise, but not play the dailies. Your ranked results (%(results)s) were taken "
            "off the boards."
        ) % {"results": results}
    else:
        text = _(
            "A moderator banned your account from the ranked games: you can still log in and "
            "practise, but not play the dailies."
        )
    return f"{text}\n\n{moderators_reason(reason)}"


def reinstated_text(game: Game, reason: str, *, on_appeal: bool) -> str:
    fields = {"game_words": game_words(game), "game": game.pk}
    if on_appeal:
        text = (
            _(
                "After your appeal, a moderator put %(game_words)s (game %(game)s) back on its "
                "board: it counts again."
            )
            % fields
        )
    else:
        text = (
            _("A moderator put %(game_words)s (game %(game)s) back on its board: it counts again.")
            % fields
        )
    return f"{text}\n\n{moderators_reason(reason)}"


def appeal_refused_text(game: Game, reason: str) -> str:
    text = _(
        "A moderator read your appeal about %(game_words)s (game %(game)s) and the decision "
        "stands: the game stays off the boards. An appeal is heard once."
    ) % {"game_words": game_words(game), "game": game.pk}
    return f"{text}\n\n{moderators_reason(reason)}"


def moderators_reason(reason: str) -> str:
    return _("The moderator's reason: %(reason)s") % {"reason": reason}


def notify(player: User, kind: str, text: str, game: Game | None = None) -> Notice:
    """Write the notice now (inside the decision's transaction) and mail it after commit.
    ``text`` is already in the player's language (written ``in_language_of`` them)."""
    notice = Notice.objects.create(player=player, game=game, kind=kind, text=text)
    address = player.email
    if address:
        with in_language_of(player):
            subject = str(SUBJECTS.get(kind, _("A message from the moderators")))

        def mail() -> None:
            send_mail(f"[Yukon Daily] {subject}", text, None, [address])

        # robust: a mail server's trouble must not undo a committed decision (it is logged)
        transaction.on_commit(mail, robust=True)
    return notice
