"""``manage.py mail_feedback bounce|complaint|lift ADDRESS...``: stop mail to addresses that
bounced for good or whose owner complained, or mail them again (docs/operations.md, "Mail")."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_email

from accounts.models import SuppressionReason
from accounts.suppression import fold_address, lift_suppression, suppress_address

LIFT = "lift"


class Command(BaseCommand):
    help = (
        "Feed back a hard bounce or a spam complaint (mail to the address stops), or lift "
        "an address's suppression (mail to it goes again)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=[*SuppressionReason.values, LIFT])
        parser.add_argument("addresses", nargs="+", metavar="address")

    def handle(self, *args: Any, **options: Any) -> None:
        addresses = [fold_address(a) for a in options["addresses"]]
        for given, address in zip(options["addresses"], addresses, strict=True):
            try:
                validate_email(address)
            except ValidationError:
                raise CommandError(f"{given!r} is not an email address") from None
        for address in addresses:
            if options["kind"] == LIFT:
                lifted = lift_suppression(address)
                self.stdout.write(
                    f"{address}: {'mailed again' if lifted else 'was not suppressed'}"
                )
            else:
                entry = suppress_address(address, options["kind"])
                self.stdout.write(f"{address}: suppressed ({entry.reason})")
