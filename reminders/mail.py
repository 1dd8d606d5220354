"""Reminder mail: sent through the site's mail path (accounts/mail.py queues it, a worker
delivers it), with one-click unsubscribe (RFC 8058): ``List-Unsubscribe`` names our
signed link and a mailbox, ``List-Unsubscribe-Post`` lets the mail program POST to the
link without opening a page."""

from __future__ import annotations

from email.utils import parseaddr
from urllib.parse import quote

from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils.translation import gettext as _


def site_url() -> str:
    """The site's address for links in mail (no request to build them from): SITE_URL;
    else the first name in ALLOWED_HOSTS, over HTTPS; in development the runserver's."""
    if settings.SITE_URL:
        return str(settings.SITE_URL).rstrip("/")
    if settings.DEBUG:
        return "http://localhost:8000"
    names = [h.lstrip(".") for h in settings.ALLOWED_HOSTS if h.strip(".*")]
    return f"https://{names[0] if names else 'localhost'}"


def unsubscribe_url(token: str) -> str:
    return site_url() + reverse("reminders-unsubscribe", args=[token])


def send_reminder_mail(address: str, text: str, *, link: str, unsubscribe_token: str) -> None:
    """Queue one reminder to ``address`` (sent once the current transaction commits), in
    the active language: the caller's ``in_language_of(player)`` (reminders/services.py)."""
    site = site_url()
    one_click = unsubscribe_url(unsubscribe_token)
    sender = parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or "noreply@localhost"
    mailto = f"mailto:{sender}?subject={quote('unsubscribe ' + unsubscribe_token)}"
    lines = [
        text,
        "",
        _("Today's deals: %(url)s") % {"url": site + link},
        "",
        _("You get this mail because you turned on email reminders on your account page (%(url)s).")
        % {"url": f"{site}/account/"},
        _("No more reminder mail, in one click: %(url)s") % {"url": one_click},
    ]
    body = "\n".join(lines) + "\n"
    EmailMessage(
        subject=f"Yukon Daily: {text}",
        body=body,
        to=[address],
        headers={
            "List-Unsubscribe": f"<{one_click}>, <{mailto}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    ).send()
