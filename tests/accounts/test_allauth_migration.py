"""Moving to django-allauth keeps every account, password and session made before it."""

from __future__ import annotations

import json

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

PASSWORD = "a long enough pass 42"
BEFORE = [("accounts", "0004_username_key"), ("account", None)]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_accounts_passwords_and_sessions_made_before_allauth_keep_working(settings) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old_user = executor.loader.project_state(BEFORE[:1]).apps.get_model("accounts", "User")
        # as today's code made them: a hashed password, an email typed at sign-up or none
        olga = old_user.objects.create(
            username="olga",
            display_name="Olga",
            password=make_password(PASSWORD),
            email="olga@example.org",
            username_key="olga",
            display_name_key="olga",
        )
        old_user.objects.create(
            username="pete",
            display_name="Pete",
            password=make_password(PASSWORD),
            email="OLGA@example.org",
            username_key="pete",
            display_name_key="pete",
        )
        # a logged-in session as django.contrib.auth.login wrote it with our backend
        from accounts.models import User

        session = SessionStore()
        session["_auth_user_id"] = str(olga.pk)
        session["_auth_user_backend"] = settings.AUTHENTICATION_BACKENDS[0]
        session["_auth_user_hash"] = User(
            pk=olga.pk, password=olga.password
        ).get_session_auth_hash()
        session.create()
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
    kept = Client()
    kept.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    assert kept.get("/api/auth/me/").json()["player"]["username"] == "olga"
    # the old password through allauth's log-in
    fresh = Client()
    response = fresh.post(
        "/_allauth/browser/v1/auth/login",
        json.dumps({"username": "pete", "password": PASSWORD}),
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    # the address is allauth's now, unverified; the second account that typed it does not get it
    addresses = list(EmailAddress.objects.values_list("user__username", "email", "verified"))
    assert addresses == [("olga", "olga@example.org", False)]
