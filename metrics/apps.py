"""First-party product metrics (docs/metrics.md). Wiring, each counted after commit:
``post_save`` of a new ``games.Game`` -> a start; ``games.signals.game_verified`` -> a
finish; allauth's ``user_signed_up`` -> a sign-up. Visits, returns and shares come from
the browser (``POST /api/metrics/events/``)."""

from django.apps import AppConfig


class MetricsConfig(AppConfig):
    name = "metrics"
    verbose_name = "Product metrics"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from allauth.account.signals import user_signed_up
        from django.db.models.signals import post_save

        from games.models import Game
        from games.signals import game_verified
        from metrics import receivers

        post_save.connect(
            receivers.count_start, sender=Game, dispatch_uid="metrics.start", weak=False
        )
        game_verified.connect(receivers.count_finish, dispatch_uid="metrics.finish", weak=False)
        user_signed_up.connect(receivers.count_sign_up, dispatch_uid="metrics.sign_up", weak=False)
