"""What accounts tells the apps above it (which it never imports), and asks of them.

``guest_logged_in``: a guest who had a session logged in, with ``user`` and the guest's
old ``session_key``; the games app hands the guest's practice games to the player.
Sent inside ``log_in``, synchronously: the games are the player's when the answer goes.
"""

from django.dispatch import Signal

guest_logged_in = Signal()

# ``guest_signed_up``: a guest who had a session created an account, with ``user`` (the new
# account) and the guest's ``session_key``; sent as the sign-up completes, before its
# log-in (which may wait for an email address to be confirmed). The games app gives the
# guest's games of today's dailies to the new account, where they rank.
guest_signed_up = Signal()

# ``personal_data``: sent with ``user`` when a player downloads their data
# (accounts.services.export_data). Each app above accounts answers with a dict of the
# sections it holds about the player (JSON-ready), so accounts never imports them.
personal_data = Signal()

# ``account_deleted``: sent with ``user`` inside the transaction that deletes the account
# (accounts.services.delete_account), after its row is emptied. Each app above accounts
# lets go of what ties the player to others (social: leagues and follows), in that same
# transaction: all of it happens, or none.
account_deleted = Signal()

# ``results_changed``: sent after the commit of a change to which results count, other than
# a game's verification (``games.signals.game_verified``). Keyword arguments, lists of ids
# (empty when none): ``players`` whose every result changed (a ban laid or lifted:
# accounts.services), ``games`` disqualified or put back, ``challenges`` whose every game
# was disqualified (a voided day: games.services). It lives here, the lowest of its
# senders, so that accounts and games send the one signal; the boards listen
# (leaderboards.services.on_results_changed).
results_changed = Signal()
