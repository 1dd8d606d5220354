"""App configuration for games: hear from accounts (below it) through its signals."""

from typing import Any

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from accounts.signals import guest_logged_in
        from games.services import claim_guest_games

        def claim(sender: Any, user: Any, session_key: str, **kwargs: Any) -> None:
            claim_guest_games(user, session_key)

        guest_logged_in.connect(claim, dispatch_uid="games.claim_guest_games", weak=False)

        from accounts.signals import guest_signed_up
        from games.services import claim_guest_games_at_sign_up

        def claim_at_sign_up(sender: Any, user: Any, session_key: str, **kwargs: Any) -> None:
            claim_guest_games_at_sign_up(user, session_key)

        guest_signed_up.connect(
            claim_at_sign_up, dispatch_uid="games.claim_guest_games_at_sign_up", weak=False
        )

        from accounts.signals import personal_data
        from games.services.personal_data import player_games

        def games_of(sender: Any, user: Any, **kwargs: Any) -> dict[str, Any]:
            return player_games(user)

        personal_data.connect(games_of, dispatch_uid="games.personal_data", weak=False)

        from accounts.signals import account_deleted
        from games.models import Receipt

        def forget_receipts(sender: Any, user: Any, **kwargs: Any) -> None:
            # a receipt holds the display name it was issued to; the boards now show
            # "deleted player", and a receipt asked for again is issued under that name
            Receipt.objects.filter(game__player=user).delete()

        account_deleted.connect(forget_receipts, dispatch_uid="games.forget_receipts", weak=False)
