"""Celery tasks of accounts: deliver every mail the site sends (allauth's verification
links, password resets, "someone tried to sign up with your address", notices; anything
sent through Django's mail API, by way of accounts/mail.py).

The message is rendered in the request (allauth's templates, with the request's site) and
travels as plain JSON; the worker only speaks SMTP. So no answer waits for the mail
server, and one that sends mail takes no longer than one that sends none (a password
reset for an address we know, or for one we do not: bench/bench_account_timing.py).
The worker skips suppressed addresses (accounts/suppression.py) and tries again later
when the server is away or answers "not now" (docs/operations.md, "Mail").
Without REDIS_URL the task runs eagerly in-process, as every task here does.
"""

from __future__ import annotations

import logging
import smtplib
from email.utils import formatdate, make_msgid
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives, get_connection
from django.core.mail.utils import DNS_NAME
from django.db import transaction

from accounts.suppression import fold_address, suppressed_among

logger = logging.getLogger(__name__)

# Tries after the first, with a wait that doubles (1, 2, 4 s ..., random below that:
# Celery's jitter) up to MAIL_RETRY_WAIT_MAX: about half an hour of trying in all, on
# average, before the task fails (logged, and counted with every failed task).
MAIL_MAX_RETRIES = 16
# Below the broker's visibility timeout (CELERY_VISIBILITY_TIMEOUT, 600 s): Redis hands a
# message whose countdown is longer to a second worker, which would send the mail twice.
MAIL_RETRY_WAIT_MAX = 300


class MailNotYetDelivered(Exception):
    """The mail server was away or answered "not now" (4xx): worth another try later."""


def is_transient(exc: BaseException) -> bool:
    """Whether trying again later could change the answer: a 4xx reply (greylisting, a
    full queue, "try again later") or no reply at all, but not a 5xx (a refused
    recipient or sender, a wrong password: a setting or an address to fix)."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
        return bool(codes) and all(400 <= code < 500 for code in codes)
    if isinstance(exc, smtplib.SMTPResponseException):
        return 400 <= exc.smtp_code < 500
    if isinstance(exc, smtplib.SMTPServerDisconnected):
        return True
    if isinstance(exc, smtplib.SMTPException):  # e.g. STARTTLS not offered: a setting
        return False
    return isinstance(exc, OSError)  # refused, reset, timed out, a name not resolved


def queue_mail(message: EmailMessage) -> None:
    """Have ``message`` sent by a worker once the current transaction commits (at once
    outside one): a mail about a sign-up that rolled back is never sent."""
    payload = mail_payload(message)
    transaction.on_commit(lambda: deliver_mail.delay(payload), robust=True)


def mail_payload(message: EmailMessage) -> dict[str, Any]:
    alternatives = getattr(message, "alternatives", [])
    headers = dict(message.extra_headers)
    names = {name.lower() for name in headers}
    # Fixed now, so that every try sends the same message: a server that took a try whose
    # answer was lost sees the same Message-ID again, and the date is when it was written.
    if "message-id" not in names:
        headers["Message-ID"] = make_msgid(domain=str(DNS_NAME))
    if "date" not in names:
        headers["Date"] = formatdate(localtime=settings.EMAIL_USE_LOCALTIME)
    return {
        "subject": str(message.subject),
        "body": str(message.body),
        "content_subtype": message.content_subtype,
        "from_email": message.from_email,
        "to": list(message.to),
        "cc": list(message.cc),
        "bcc": list(message.bcc),
        "reply_to": list(message.reply_to),
        "headers": headers,
        "alternatives": [[str(content), str(mimetype)] for content, mimetype in alternatives],
    }


@shared_task(
    name="accounts.deliver_mail",
    acks_late=True,
    autoretry_for=(MailNotYetDelivered,),
    retry_backoff=True,
    retry_backoff_max=MAIL_RETRY_WAIT_MAX,
    max_retries=MAIL_MAX_RETRIES,
)
def deliver_mail(payload: dict[str, Any]) -> int:
    """Send one rendered message through the real mail backend (EMAIL_DELIVERY_BACKEND),
    to its recipients that are not suppressed; the number of messages sent (0 or 1)."""
    suppressed = suppressed_among(payload["to"] + payload["cc"] + payload["bcc"])
    recipients = {
        field: [r for r in payload[field] if fold_address(r) not in suppressed]
        for field in ("to", "cc", "bcc")
    }
    if suppressed:
        logger.info("mail %r not sent to suppressed %s", payload["subject"], sorted(suppressed))
    if not any(recipients.values()):
        return 0
    message = EmailMultiAlternatives(
        subject=payload["subject"],
        body=payload["body"],
        from_email=payload["from_email"],
        reply_to=payload["reply_to"],
        headers=payload["headers"],
        connection=get_connection(settings.EMAIL_DELIVERY_BACKEND),
        **recipients,
    )
    message.content_subtype = payload["content_subtype"]
    for content, mimetype in payload["alternatives"]:
        message.attach_alternative(content, mimetype)
    try:
        return message.send()
    except Exception as exc:
        if is_transient(exc):
            logger.info("mail %r not delivered yet (%s); will try again", payload["subject"], exc)
            raise MailNotYetDelivered(str(exc)) from exc
        raise
