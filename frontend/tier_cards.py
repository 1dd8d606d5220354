"""The home page's tier cards, drawn by the server so that the first paint is the page:
nothing moves when home.js starts, whatever the language, the width or the player's
games (docs/frontend.md, "Plain pages", the home page).

home.js draws the same cards (``tierCard``) when the day was not ready as the page was
drawn; the two must say the same words in the same elements, which
tests/e2e/test_home_cards.py checks by drawing a day both ways.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from frontend.templatetags.tier_names import tier_title
from frontend.templatetags.variant_names import variant_title
from games.daily import DailyOverview
from games.models import DailyChallenge, Game, Status
from games.services.common import status_word

BLURBS = {
    "easy": gettext_lazy("A gentle deal: most players who try it win."),
    "medium": gettext_lazy("Some digging needed; plan your Kings."),
    "hard": gettext_lazy("Proven winnable, but only just."),
    "weekly": gettext_lazy(
        "Sundays only: Double Yukon, two decks and ten columns, proven winnable. "
        "Its own board and streak."
    ),
}

# A tier inside a sentence ("Play easy").
TIER_WORDS = {
    "easy": pgettext_lazy("tier in a sentence", "easy"),
    "medium": pgettext_lazy("tier in a sentence", "medium"),
    "hard": pgettext_lazy("tier in a sentence", "hard"),
    "weekly": pgettext_lazy("tier in a sentence", "weekly"),
}


@dataclass(frozen=True)
class TierCard:
    tier: str
    title: str
    variant_note: str  # "Double Yukon" for the weekly, "" for plain Yukon
    label: str  # "Weekly · Double Yukon challenge"
    blurb: str
    counts: str  # "7 played (1 as a guest) · 3 won"
    playing_before: str  # the words around the playing count, which the page updates
    playing: int
    playing_after: str
    tier_word: str
    game: Game | None
    game_line: str  # "Your game: won, 52 points, 4:31"
    held_note: str  # why a finished game is on no board yet, or ""
    game_action: str  # "See result", "Resume"


# A result moderation holds (docs/fair-play.md, "Guests"): why it is on no board, and why
# the streak leaves it out, until a moderator has looked at it.
HELD_NOTE = gettext_lazy("Held off the boards until a moderator has looked at it.")


def format_time(seconds: float) -> str:
    """``formatTime`` of shared/format.js: 4:31, 1:02:09."""
    s = max(0, int(seconds))
    hours, minutes, rest = s // 3600, s % 3600 // 60, s % 60
    return f"{hours}:{minutes:02}:{rest:02}" if hours else f"{minutes}:{rest:02}"


def daily_counts(played: int, won: int, guests: int) -> str:
    """``dailyCounts`` of shared/game_names.js."""
    values = {"played": played, "won": won, "guests": guests}
    if not guests:
        return gettext("%(played)s played · %(won)s won") % values
    return (
        ngettext(
            "%(played)s played (%(guests)s as a guest) · %(won)s won",
            "%(played)s played (%(guests)s as guests) · %(won)s won",
            guests,
        )
        % values
    )


def game_line(game: Game) -> str:
    fields = {"status": status_word(game.status), "score": game.score}
    if game.status == Status.PLAYING:
        return (
            ngettext("In progress: %(score)s point", "In progress: %(score)s points", game.score)
            % fields
        )
    if game.elapsed_ms is None:
        return (
            ngettext(
                "Your game: %(status)s, %(score)s point",
                "Your game: %(status)s, %(score)s points",
                game.score,
            )
            % fields
        )
    return ngettext(
        "Your game: %(status)s, %(score)s point, %(time)s",
        "Your game: %(status)s, %(score)s points, %(time)s",
        game.score,
    ) % {**fields, "time": format_time(game.elapsed_ms / 1000)}


def tier_card(challenge: DailyChallenge, game: Game | None, playing: int) -> TierCard:
    tier, variant = challenge.tier, challenge.deal.variant
    note = variant_title(variant) if variant != "yukon" else ""
    name = f"{tier_title(tier)} · {note}" if note else tier_title(tier)
    before, _, after = gettext("%(count)s playing now").partition("%(count)s")
    return TierCard(
        tier=tier,
        title=tier_title(tier),
        variant_note=note,
        label=gettext("%(tier)s challenge") % {"tier": name},
        blurb=str(BLURBS.get(tier, "")),
        counts=daily_counts(challenge.played, challenge.won, challenge.guests),  # type: ignore[attr-defined]
        playing_before=before,
        playing=playing,
        playing_after=after,
        tier_word=str(TIER_WORDS.get(tier, tier)),
        game=game,
        game_line=game_line(game) if game else "",
        held_note=str(HELD_NOTE) if game and game.awaits_review else "",
        game_action=(
            ""
            if game is None
            else gettext("Resume")
            if game.status == Status.PLAYING
            else gettext("See result")
        ),
    )


def tier_cards(
    overview: DailyOverview, shown: list[str], playing: dict[str, int]
) -> list[TierCard]:
    """The cards of ``overview``'s challenges, or none unless every tier of ``shown`` has
    one (the page then keeps its places and home.js draws the day once /api/daily/ has it)."""
    if [c.tier for c in overview.challenges] != shown:
        return []
    return [
        tier_card(c, overview.own_games.get(c.pk), playing.get(c.tier, 0))
        for c in overview.challenges
    ]
