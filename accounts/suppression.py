"""Addresses the site no longer mails: hard bounces and spam complaints fed back by the
mail provider (``manage.py mail_feedback``, ``POST /api/mail/feedback/``), checked by the
task that sends every mail (accounts/tasks.py), shown to the player whose address it is,
and lifted when a player adds or confirms the address again (docs/operations.md, "Mail").
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from email.utils import parseaddr
from typing import Any

from allauth.account.models import EmailAddress
from django.db import IntegrityError, transaction

from accounts.models import SuppressedAddress, SuppressionReason, User

logger = logging.getLogger(__name__)

# A complaint outranks a bounce: an address whose owner complained stays suppressed when
# a player re-adds it (that lifts bounces only); only its confirmation lifts it.
_RANK = {SuppressionReason.BOUNCE: 0, SuppressionReason.COMPLAINT: 1}


def fold_address(recipient: str) -> str:
    """The bare address of a recipient (``"Kate <Kate@Example.org>"`` -> ``kate@example.org``)."""
    return parseaddr(recipient)[1].strip().lower()


def suppress_address(address: str, reason: str) -> SuppressedAddress:
    """Stop mail to ``address``; a complaint replaces a bounce, never the other way round."""
    folded = fold_address(address)
    with transaction.atomic():
        entry = SuppressedAddress.objects.select_for_update().filter(address=folded).first()
        if entry is None:
            try:
                with transaction.atomic():
                    entry = SuppressedAddress.objects.create(address=folded, reason=reason)
            except IntegrityError:  # the same address, fed back a moment ago
                entry = SuppressedAddress.objects.select_for_update().get(address=folded)
        if _RANK[SuppressionReason(reason)] > _RANK[SuppressionReason(entry.reason)]:
            entry.reason = reason
            entry.save(update_fields=["reason"])
    logger.info("mail to %s suppressed: %s", folded, entry.reason)
    return entry


def lift_suppression(address: str, *, bounces_only: bool = False) -> bool:
    """Mail ``address`` again; whether it was suppressed (with ``bounces_only``, a
    complaint stays)."""
    entries = SuppressedAddress.objects.filter(address=fold_address(address))
    if bounces_only:
        entries = entries.filter(reason=SuppressionReason.BOUNCE)
    lifted, _ = entries.delete()
    if lifted:
        logger.info("mail to %s no longer suppressed", fold_address(address))
    return bool(lifted)


def suppressed_among(recipients: Iterable[str]) -> set[str]:
    """The folded addresses among ``recipients`` that are not to be mailed."""
    folded = {fold_address(r) for r in recipients} - {""}
    if not folded:
        return set()
    return set(
        SuppressedAddress.objects.filter(address__in=folded).values_list("address", flat=True)
    )


def _addresses_of(user: User) -> set[str]:
    addresses = set(EmailAddress.objects.filter(user=user).values_list("email", flat=True))
    if user.email:
        addresses.add(user.email)
    return {fold_address(a) for a in addresses}


def undeliverable_address(user: User) -> SuppressedAddress | None:
    """The suppression of the player's own address, if its mail no longer goes out."""
    if not user.email:
        return None
    return SuppressedAddress.objects.filter(address=fold_address(user.email)).first()


def suppressions_of(user: User) -> list[dict[str, Any]]:
    """The player's addresses that are suppressed, for their data export."""
    return [
        {"address": s.address, "reason": s.reason, "created_at": s.created_at.isoformat()}
        for s in SuppressedAddress.objects.filter(address__in=_addresses_of(user)).order_by("pk")
    ]


def forget_suppressions_of(user: User) -> None:
    """With the account's deletion: nothing about its addresses is kept, suppressions too."""
    SuppressedAddress.objects.filter(address__in=_addresses_of(user)).delete()


def lift_bounce_of_added_address(
    sender: Any, instance: EmailAddress, created: bool, **kwargs: Any
) -> None:
    """An address added (at sign-up, or on the account page) and not yet confirmed: its
    confirmation mail is about to go, so a past bounce of it no longer stops mail.
    Connected to ``post_save`` of EmailAddress, which allauth saves before it mails."""
    if not instance.verified:
        lift_suppression(instance.email, bounces_only=True)


def lift_suppression_of_confirmed_address(
    sender: Any, email_address: EmailAddress, **kwargs: Any
) -> None:
    """Its owner followed our link: the address works and wants our mail."""
    lift_suppression(email_address.email)
