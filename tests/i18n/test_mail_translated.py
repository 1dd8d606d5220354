"""The mail a player gets is written in their language, all of it (issue 43, "Done when"):
the address check and the password reset (allauth's), a reminder (reminders/mail.py) and a
moderators' notice (moderation/notices.py), each rendered in the pseudo-locale
(tests/i18n/pseudo.py), where any word left in plain ASCII letters was never translated.

The mail goes its usual way (queued on commit, sent by the delivery task, here run
in-process) to Django's locmem backend: how it travels is tests/accounts/test_mail_delivery.py's
business, what it says is this file's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from django.utils import translation

from games.models import Tier
from moderation.models import NoticeKind
from moderation.notices import banned_text, disqualified_text, notify
from reminders.mail import send_reminder_mail
from reminders.services import streak_text
from tests.accounts.test_allauth_flows import AUTH, PASSWORD, call, sign_up
from tests.factories import make_challenges, make_player, result
from tests.i18n.pseudo import english_words
from yukon_site.celery import app

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

# The moderator's own words are quoted as written: here, already "translated".
REASON = "Ŕéåšöñ ŵŕîţţéñ ƃý ţĥé ɱöđéŕåţöŕ"


@pytest.fixture
def delivered_here(settings: Any) -> Iterator[None]:
    """The delivery task runs in-process and hands the mail to mail.outbox."""
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ACCOUNT_EMAIL_ANSWER_SECONDS = 0
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


def english_in(message: mail.EmailMessage, *names: str) -> list[str]:
    """Untranslated words of the mail, less the names in it (the site's is its host's)."""
    return english_words(f"{message.subject}\n{message.body}", allowed=["testserver", *names])


@pytest.mark.slow
def test_every_mail_to_a_player_is_in_the_player_s_language(
    in_pseudo_locale: str, delivered_here: None, django_capture_on_commit_callbacks: Any
) -> None:
    browser = Client(HTTP_ACCEPT_LANGUAGE=in_pseudo_locale)
    left: dict[str, list[str]] = {}

    with django_capture_on_commit_callbacks(execute=True):  # account mail: on commit
        sign_up(browser, "hana", email="hana@example.org")
    [verification] = mail.outbox
    left["address check (allauth)"] = english_in(verification, "hana")

    ivy = make_player("Ivy", email="ivy@example.org", language=in_pseudo_locale)
    ivy.set_password(PASSWORD)
    ivy.save()
    EmailAddress.objects.create(user=ivy, email="ivy@example.org", verified=True, primary=True)
    with django_capture_on_commit_callbacks(execute=True):
        call(browser, "post", f"{AUTH}/auth/password/request", {"email": "ivy@example.org"})
    reset = mail.outbox[-1]
    assert reset.to == ["ivy@example.org"]
    left["password reset (allauth)"] = english_in(reset, "Ivy", "ivy")

    with translation.override(in_pseudo_locale):
        now = dt.datetime(2026, 12, 5, 21, 30, tzinfo=dt.UTC)
        send_reminder_mail("ivy@example.org", streak_text(now), link="/", unsubscribe_token="t0ken")
        left["reminder (reminders/mail.py)"] = english_in(mail.outbox[-1], "t0ken")

        game = result(ivy, make_challenges()[Tier.HARD])
        with django_capture_on_commit_callbacks(execute=True):
            notify(ivy, NoticeKind.BANNED, banned_text(REASON, 2))
            notify(ivy, NoticeKind.DISQUALIFIED, disqualified_text(game, REASON, []), game)
        left["ban notice (moderation/notices.py)"] = english_in(mail.outbox[-2])
        left["disqualification notice (moderation/notices.py)"] = english_in(mail.outbox[-1])

    left = {what: words for what, words in left.items() if words}
    assert not left, "English left in mail:\n" + "\n".join(
        f"{what}: {' '.join(words)}" for what, words in left.items()
    )
