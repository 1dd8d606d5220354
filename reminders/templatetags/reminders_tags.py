"""Figures of reminders for the site's pages: the privacy page states how long the sent log
is kept from the constant its purge obeys."""

from django import template

from reminders.services import SENT_LOG_DAYS

register = template.Library()


@register.simple_tag
def reminder_log_days() -> int:
    return SENT_LOG_DAYS
