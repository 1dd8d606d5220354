"""Reminders end to end (docs/reminders.md): a player's choices through the API, the run
that picks who is due, Web Push to a stand-in push service that checks the VAPID token and
whose browsers decrypt the payload (RFC 8291), mail to a real SMTP server with one-click
unsubscribe, at most one reminder a day however many runs race, and the data that goes
with the account."""

from __future__ import annotations

import datetime as dt
import re
import threading
import zoneinfo
from typing import Any
from urllib.parse import urlencode

import pytest
from allauth.account.models import EmailAddress
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test import Client
from py_vapid import Vapid

from accounts.models import User
from accounts.services import delete_account, export_data
from games.models import utc_today
from reminders.models import Kind, PushSubscription, ReminderPreferences, SentReminder
from reminders.services import NO_VERIFIED_ADDRESS, due_player_ids, send_reminders, streak_text
from reminders.tasks import send_reminder_batch
from social.services import create_league, join_league
from tests.accounts.mailbox import Mailbox
from tests.factories import Api, logged_in, make_challenge, make_player, result
from tests.reminders.push_service import Browser, push_service, verify_vapid
from yukon_site import dev_secrets

TODAY = utc_today()
YESTERDAY = TODAY - dt.timedelta(days=1)
# The run of 22:00 UTC, a moment after the quarter hour: two hours before the close.
NOW = dt.datetime.combine(TODAY, dt.time(22, 0, 30), tzinfo=dt.UTC)
PREFERENCES = "/api/reminders/preferences/"
SUBSCRIPTIONS = "/api/reminders/push-subscriptions/"


def local_clock(instant: dt.datetime, zone: str) -> str:
    """``instant`` on the wall clocks of ``zone``, HH:MM: the time a player there picks."""
    return instant.astimezone(zoneinfo.ZoneInfo(zone)).strftime("%H:%M")


def opt_in(player: User, browser: Browser | None = None, **choices: Any) -> Api:
    """The player turns reminders on through the API, subscribing ``browser`` if given."""
    api = Api(logged_in(player))
    if browser is not None:
        status, body = api.post(SUBSCRIPTIONS, browser.subscription())
        assert status == 201, body
    status, body = api.call("put", PREFERENCES, choices)
    assert status == 200, body
    return api


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        (dt.time(22, 0, 30), "Your streak ends in 2 hours."),
        (dt.time(21, 56), "Your streak ends in 2 hours."),
        (dt.time(21, 30), "Your streak ends in under 3 hours."),
        (dt.time(23, 0), "Your streak ends in 1 hour."),
        (dt.time(23, 15), "Your streak ends in 45 minutes."),
        (dt.time(6, 0), "Your streak ends in 18 hours."),
    ],
)
def test_the_streak_reminder_says_how_long_is_left_honestly(clock: dt.time, words: str) -> None:
    assert streak_text(dt.datetime.combine(TODAY, clock, tzinfo=dt.UTC)) == words


def test_a_development_install_makes_its_own_vapid_pair_that_push_services_accept() -> None:
    """No key in the code: each checkout's pair comes from its own SECRET_KEY (kept in its
    development secrets file), and it signs tokens that check against its public half."""
    mine, theirs = (dev_secrets.vapid_private_key(secret) for secret in ("one", "two"))
    assert mine != theirs and mine == dev_secrets.vapid_private_key("one")
    public = dev_secrets.vapid_public_key(mine)
    origin = "https://push.example"
    token = Vapid.from_string(mine).sign({"sub": "mailto:ops@example.org", "aud": origin})
    assert verify_vapid(token["Authorization"], public, origin)["aud"] == origin
    with pytest.raises(ImproperlyConfigured, match="VAPID_PRIVATE_KEY must be"):
        dev_secrets.vapid_public_key("not a key")


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # two threads, each with its own connection
def test_push_reminders_arrive_decrypted_once_a_day_even_when_two_runs_race(vapid: str) -> None:
    yesterday, today = make_challenge(YESTERDAY), make_challenge(TODAY)
    ann, bob, cat, dan, gus = (make_player(n) for n in ("Ann", "Bob", "Cat", "Dan", "Gus"))
    for player in (ann, bob, gus):
        result(player, yesterday)  # a streak at stake today ...
    result(bob, today, won=False)  # ... but Bob has played today's daily already
    result(cat, today, elapsed_ms=90_000)
    result(dan, today, elapsed_ms=60_000)  # Dan beat Cat's time in their league
    league = create_league(cat, "Quick Hands")
    join_league(dan, league.invite_token)

    with push_service(vapid) as service:
        browsers = {p.pk: Browser(service.endpoint(p.username)) for p in (ann, bob, cat, dan, gus)}
        service.gone.add(browsers[gus.pk].endpoint)  # the browser dropped it
        zones = {ann: "America/New_York", bob: "Asia/Kolkata", cat: "Europe/Berlin"}
        zones |= {dan: "UTC", gus: "Australia/Adelaide"}
        for player, zone in zones.items():
            picked = local_clock(NOW - dt.timedelta(minutes=5 * (player.pk % 3)), zone)
            opt_in(player, browsers[player.pk], push=True, time=picked, time_zone=zone)
        make_player("Ida")  # no preferences: reminders are off by default

        due = due_player_ids(NOW)
        assert due == sorted(p.pk for p in zones)

        barrier = threading.Barrier(2)
        outcomes: list[dict[str, Any]] = []

        def run() -> None:
            try:
                barrier.wait(timeout=10)
                outcomes.append(send_reminder_batch(due, NOW.isoformat()))
            finally:
                connection.close()

        threads = [threading.Thread(target=run) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert len(outcomes) == 2, "a run failed"
        assert service.errors == []

        def received(player: User) -> list[Any]:
            browser = browsers[player.pk]
            return [browser.decrypt(d.body) for d in service.to(browser.endpoint)]

        assert received(ann) == [
            {
                "title": "Yukon Daily",
                "body": "Your streak ends in 2 hours.",
                "tag": "streak",
                "url": "/",
            }
        ]
        assert [m["body"] for m in received(cat)] == ["A league rival beat your time."]
        assert received(bob) == [] and received(dan) == []
        assert len(received(gus)) == 1  # answered 410 ...
        assert not PushSubscription.objects.filter(player=gus).exists()  # ... and forgotten
        assert PushSubscription.objects.get(player=ann).last_success_at is not None
        sent = set(SentReminder.objects.values_list("player_id", "kind"))
        assert sent == {(ann.pk, Kind.STREAK), (cat.pk, Kind.RIVAL), (gus.pk, Kind.STREAK)}

        # The next quarter hour looks back over this one: nobody hears twice.
        later = NOW + dt.timedelta(minutes=15)
        again = due_player_ids(later)
        assert set(again) == {bob.pk, dan.pk}
        send_reminders(again, later)
        assert len(service.deliveries) == 3


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db
def test_the_api_refuses_bad_input_and_the_data_goes_with_the_account(vapid: str) -> None:
    assert Client().get(PREFERENCES).status_code == 403
    kim = make_player("Kim")
    api = Api(logged_in(kim))
    status, body = api.get(PREFERENCES)
    assert status == 200
    assert (body["push"], body["email"], body["time"], body["time_zone"]) == (
        False,
        False,
        "18:00",
        "UTC",
    )
    assert body["email_verified"] is False and body["push_available"] is True
    assert api.get("/api/reminders/vapid-key/") == (200, {"public_key": vapid})

    for choices, message in [
        ({"time": "25:00"}, "HH:MM"),
        ({"time_zone": "Mars/Olympus_Mons"}, "unknown time zone"),
        ({"push": 1}, "Must be true or false."),
        # the host's own "localtime" and tzdata's "Factory" are zone files, not places
        ({"time_zone": "localtime"}, "unknown time zone"),
        ({"time_zone": "Factory"}, "unknown time zone"),
    ]:
        status, body = api.call("put", PREFERENCES, choices)
        assert status == 400 and message in str(body), (choices, body)
    status, body = api.call("put", PREFERENCES, {"email": True})  # valid, but not for Kim yet
    assert status == 409 and body["detail"] == NO_VERIFIED_ADDRESS

    browser = Browser("http://127.0.0.1:9/push/kim")
    foreign = {**browser.subscription(), "endpoint": "https://attacker.example/collect"}
    status, body = api.post(SUBSCRIPTIONS, foreign)
    assert status == 400 and "not one this site sends to" in body["detail"]
    status, body = api.post(SUBSCRIPTIONS, {"endpoint": browser.endpoint, "keys": {}})
    assert status == 400 and "p256dh" in str(body)
    assert api.post(SUBSCRIPTIONS, browser.subscription())[0] == 201
    opt_in(kim, push=True, time="07:45", time_zone="Europe/Oslo")

    export = export_data(kim)["reminders"]
    assert export["preferences"]["local_time"] == "07:45"
    assert [s["endpoint"] for s in export["push_subscriptions"]] == [browser.endpoint]
    assert browser.subscription()["keys"]["auth"] not in str(export)  # named, not copied

    assert api.call("delete", SUBSCRIPTIONS)[0] == 400  # which one?
    status, _ = api.call("delete", f"{SUBSCRIPTIONS}?{urlencode({'endpoint': browser.endpoint})}")
    assert status == 204 and not PushSubscription.objects.filter(player=kim).exists()
    api.post(SUBSCRIPTIONS, browser.subscription())
    delete_account(kim)
    assert not ReminderPreferences.objects.filter(player=kim).exists()
    assert not PushSubscription.objects.filter(player=kim).exists()


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.celery
@pytest.mark.django_db(transaction=True)  # the worker reads the committed rows
def test_reminder_mail_goes_to_a_verified_address_with_one_click_unsubscribe(
    mailbox: Mailbox, settings: Any
) -> None:
    settings.EMAIL_BACKEND = "accounts.mail.QueuedEmailBackend"  # the site's own path
    settings.SITE_URL = "https://yukon.example"
    eve, fay = make_player("Eve"), make_player("Fay")
    EmailAddress.objects.create(user=eve, email="eve@example.org", verified=True, primary=True)
    EmailAddress.objects.create(user=fay, email="fay@example.org", verified=False, primary=True)
    result(eve, make_challenge(YESTERDAY))
    status, body = Api(logged_in(fay)).call("put", PREFERENCES, {"email": True})
    assert status == 409 and body["detail"] == NO_VERIFIED_ADDRESS
    opt_in(eve, email=True, time=local_clock(NOW, "Europe/Paris"), time_zone="Europe/Paris")

    assert send_reminders(due_player_ids(NOW), NOW)["emails"] == 1
    message = mailbox.wait_for("eve@example.org")
    assert message["Subject"] == "Yukon Daily: Your streak ends in 2 hours."
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    found = re.fullmatch(
        r"<https://yukon\.example(/reminders/unsubscribe/([^/]+)/)>, <mailto:[^>]+>",
        str(message["List-Unsubscribe"]).strip(),  # folded: a line of its own
    )
    assert found, message["List-Unsubscribe"]
    path = found.group(1)
    assert path in Mailbox.body(message)

    mail_program = Client(enforce_csrf_checks=True)  # no cookie, no CSRF token
    assert b"Turn email reminders off" in mail_program.get(path).content
    assert ReminderPreferences.objects.get(player=eve).email  # a GET changes nothing
    answer = mail_program.post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert answer.status_code == 200
    assert not ReminderPreferences.objects.get(player=eve).email
    assert mail_program.post(path.replace(found.group(2), "1:forged")).status_code == 400
