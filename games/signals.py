"""Signals the games app sends; other apps (leaderboards) subscribe in AppConfig.ready().

``game_verified`` is sent after the transaction that verified a game has committed, with
``sender=Game`` and ``game=<the Game>``. Games never import the apps that listen.

When a game's result stops counting or counts again (disqualified, put back, a voided
day), ``games.services.standing`` sends ``accounts.signals.results_changed`` after commit:
the one signal accounts sends for a ban, defined there because accounts cannot import games.
"""

from django.dispatch import Signal

game_verified = Signal()
