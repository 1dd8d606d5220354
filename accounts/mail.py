"""The site's mail backend (EMAIL_BACKEND): every message sent through Django's mail API
(``send_mail``, ``EmailMessage.send``, allauth's adapter) is queued for a Celery task,
which sends it with the real backend (EMAIL_DELIVERY_BACKEND), retrying while the mail
server is away (accounts/tasks.py). No request ever waits for, or fails with, SMTP."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend

from accounts.tasks import queue_mail


class QueuedEmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        """Queue each message that has a recipient; sent once the transaction commits."""
        queued = 0
        for message in email_messages:
            if message.recipients():
                queue_mail(message)
                queued += 1
        return queued
