"""What accounts tells the apps above it (which it never imports).

``guest_logged_in``: a guest who had a session logged in, with ``user`` and the guest's
old ``session_key``; the games app hands the guest's practice games to the player.
Sent inside ``log_in``, synchronously: the games are the player's when the answer goes.
"""

from django.dispatch import Signal

guest_logged_in = Signal()
