"""Signals the games app sends; other apps (leaderboards) subscribe in AppConfig.ready().

``game_verified`` is sent after the transaction that verified a game has committed, with
``sender=Game`` and ``game=<the Game>``. Games never import the apps that listen.

When a game's result stops counting or counts again (disqualified, put back, a voided
day), ``games.services.standing`` sends ``accounts.signals.results_changed`` after commit:
the one signal accounts sends for a ban, defined there because accounts cannot import games.
"""

from django.dispatch import Signal

game_verified = Signal()

# ``result_counting``: a daily result is about to count, sent inside the transaction that
# makes it count (its verification, or a guest's game given to the account signed up from
# it), with ``sender=Game`` and ``game=<the Game>``, so that a receiver may keep it off the
# boards before anyone sees it there (moderation holds a result linked to a guest's game:
# ``games.services.hold_results``). A receiver's error undoes that transaction.
result_counting = Signal()

# ``challenges_under_review``: sent by ``games.retention`` before it deletes guests' old
# games, with ``sender=Game``; each receiver answers the ids of the challenges on which a
# case is still open (moderation: an open flag or report), whose guest games are evidence
# and are kept until it is closed.
challenges_under_review = Signal()
