"""Signals the games app sends; other apps (leaderboards) subscribe in AppConfig.ready().

``game_verified`` is sent after the transaction that verified a game has committed, with
``sender=Game`` and ``game=<the Game>``. Games never import the apps that listen.
"""

from django.dispatch import Signal

game_verified = Signal()
