"""Celery tasks of accounts: deliver the account mail allauth writes (verification links,
password resets, "someone tried to sign up with your address", notices).

The message is rendered in the request (allauth's templates, with the request's site) and
travels as plain JSON; the worker only speaks SMTP. So no answer waits for the mail
server, and one that sends mail takes no longer than one that sends none (a password
reset for an address we know, or for one we do not: bench/bench_account_timing.py).
Without REDIS_URL the task runs eagerly in-process, as every task here does.
"""

from __future__ import annotations

import smtplib
from typing import Any

from celery import shared_task
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.db import transaction

# Worth another try later: the server was away or busy. A refused recipient or sender is
# not (SMTPRecipientsRefused, SMTPSenderRefused): retrying would not change the answer.
TRANSIENT_SMTP_ERRORS = (
    ConnectionError,
    TimeoutError,
    smtplib.SMTPConnectError,
    smtplib.SMTPServerDisconnected,
)


def queue_mail(message: EmailMessage) -> None:
    """Have ``message`` sent by a worker once the current transaction commits (at once
    outside one): a mail about a sign-up that rolled back is never sent."""
    payload = mail_payload(message)
    transaction.on_commit(lambda: deliver_mail.delay(payload), robust=True)


def mail_payload(message: EmailMessage) -> dict[str, Any]:
    alternatives = getattr(message, "alternatives", [])
    return {
        "subject": str(message.subject),
        "body": str(message.body),
        "content_subtype": message.content_subtype,
        "from_email": message.from_email,
        "to": list(message.to),
        "cc": list(message.cc),
        "bcc": list(message.bcc),
        "reply_to": list(message.reply_to),
        "headers": dict(message.extra_headers),
        "alternatives": [[str(content), str(mimetype)] for content, mimetype in alternatives],
    }


@shared_task(
    name="accounts.deliver_mail",
    acks_late=True,
    autoretry_for=TRANSIENT_SMTP_ERRORS,
    retry_backoff=True,
    retry_backoff_max=600,
    max_retries=8,
)
def deliver_mail(payload: dict[str, Any]) -> int:
    """Send one rendered message through Django's mail backend (EMAIL_URL & co.)."""
    message = EmailMultiAlternatives(
        subject=payload["subject"],
        body=payload["body"],
        from_email=payload["from_email"],
        to=payload["to"],
        cc=payload["cc"],
        bcc=payload["bcc"],
        reply_to=payload["reply_to"],
        headers=payload["headers"],
    )
    message.content_subtype = payload["content_subtype"]
    for content, mimetype in payload["alternatives"]:
        message.attach_alternative(content, mimetype)
    return message.send()
