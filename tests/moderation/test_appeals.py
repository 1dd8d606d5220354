"""A disqualified player is told, in plain words and by mail, and may appeal once from their
player page; the appeal heads the queue, is audited, and a moderator decides it."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from games.models import Game, Tier
from moderation import services
from moderation.models import (
    Appeal,
    AppealStatus,
    AuditAction,
    AuditLog,
    Flag,
    FlagKind,
    Notice,
    NoticeKind,
)
from tests.factories import Api, client_for, make_challenges, make_player, result

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

APPEALS = "/api/moderation/appeals/"
NOTICES = "/api/moderation/notices/"


@pytest.fixture
def ann(db: None) -> User:
    return make_player("Ann", email="ann@example.com")


@pytest.fixture
def disqualified(ann: User, moderator: User, django_capture_on_commit_callbacks: Any) -> Game:
    """Ann's hard daily, flagged and disqualified by the moderator (mails sent on commit)."""
    game = result(ann, make_challenges()[Tier.HARD])
    Flag.objects.create(game=game, kind=FlagKind.SOLVER_LINE, reason="followed 95% of it")
    with django_capture_on_commit_callbacks(execute=True):
        services.disqualify_game(moderator, game.pk, "played the solver's line move for move")
    return game


def test_the_notice_and_its_mail_are_in_the_players_language(
    ann: User, moderator: User, django_capture_on_commit_callbacks: Any
) -> None:
    """The moderator decides in English; Ann, who chose German, reads German (issue 43)."""
    ann.language = "de"
    ann.save(update_fields=["language"])
    game = result(ann, make_challenges()[Tier.HARD])
    Flag.objects.create(game=game, kind=FlagKind.SOLVER_LINE, reason="followed 95% of it")
    with django_capture_on_commit_callbacks(execute=True):
        services.disqualify_game(moderator, game.pk, "played the solver's line")
    assert game.challenge is not None
    notice = Notice.objects.get(player=ann)
    for words in (
        f"dein Tagesspiel (schwer) vom {game.challenge.date.isoformat()}",
        "Begründung des Moderators: played the solver's line",
        "Ist dem gespeicherten Lösungsweg des Solvers gefolgt",  # what the checks saw
        "einmal Einspruch einlegen",
    ):
        assert words in notice.text
    [sent] = mail.outbox
    assert sent.body == notice.text and "von den Bestenlisten genommen" in sent.subject


def test_a_disqualified_player_gets_a_notice_in_plain_words_and_a_mail(
    ann: User, disqualified: Game
) -> None:
    notice = Notice.objects.get(player=ann)
    assert disqualified.challenge is not None
    assert notice.kind == NoticeKind.DISQUALIFIED and notice.game_id == disqualified.pk
    for words in (
        f"your hard daily of {disqualified.challenge.date.isoformat()}",
        "played the solver's line move for move",  # the moderator's reason
        "Followed the solver's stored line",  # what the checks saw, in words
        "appeal once",
    ):
        assert words in notice.text
    [sent] = mail.outbox
    assert sent.to == ["ann@example.com"] and sent.body == notice.text
    assert "taken off the boards" in sent.subject

    status, body = Api(client_for(ann)).get(NOTICES)
    assert status == 200
    assert [(n["kind"], n["game"], n["can_appeal"], n["appeal"]) for n in body] == [
        ("disqualified", disqualified.pk, True, None)
    ]
    # Nobody else sees it.
    assert Api(client_for(make_player("Bob"))).get(NOTICES) == (200, [])


@pytest.mark.slow  # the admin's pages, rendered for the first time in the process
def test_the_player_appeals_once_it_heads_the_queue_is_audited_and_a_moderator_decides(
    ann: User,
    disqualified: Game,
    mod_client: Client,
    moderator: User,
    django_capture_on_commit_callbacks: Any,
) -> None:
    api = Api(client_for(ann))
    assert api.post(APPEALS, {"game": disqualified.pk, "reason": " "})[0] == 400
    status, appeal = api.post(APPEALS, {"game": disqualified.pk, "reason": "I play fast"})
    assert status == 201, appeal
    assert (appeal["game"], appeal["status"]) == (disqualified.pk, "open")
    status, again = api.post(APPEALS, {"game": disqualified.pk, "reason": "really"})
    assert (status, again["detail"]) == (
        400,
        "you have appealed this decision already: an appeal is heard once",
    )
    assert Appeal.objects.count() == 1
    row = AuditLog.objects.get(action=AuditAction.APPEAL)
    assert (row.actor_id, row.target_id, row.reason) == (
        ann.pk,
        str(disqualified.pk),
        "I play fast",
    )
    [notice] = api.get(NOTICES)[1]
    assert notice["appeal"]["status"] == "open" and notice["can_appeal"] is False

    # The queue names it above every flag; the appeals' list has it.
    flags_page = mod_client.get("/admin/moderation/flag/").content.decode()
    assert "1 appeal(s) waiting" in flags_page
    appeals_page = mod_client.get("/admin/moderation/appeal/")
    assert appeals_page.status_code == 200 and b"I play fast" in appeals_page.content

    # A moderator reinstates it: back on the board, audited, the player told.
    url = "/admin/moderation/appeal/"
    data = {"action": "reinstate_appeals", "_selected_action": [str(appeal["id"])]}
    with django_capture_on_commit_callbacks(execute=True):
        done = mod_client.post(url, {**data, "confirm": "yes", "reason": "a fast human"})
    assert done.status_code == 302, done.content[:500]
    disqualified.refresh_from_db()
    assert not disqualified.disqualified
    assert Appeal.objects.get().status == AppealStatus.REINSTATED
    assert AuditLog.objects.filter(action=AuditAction.REINSTATE, actor=moderator).count() == 1
    assert Notice.objects.filter(player=ann, kind=NoticeKind.REINSTATED).count() == 1
    assert mail.outbox[-1].subject.endswith("back on the boards")


def test_an_appeal_of_someone_else_s_game_or_of_a_game_that_stands_is_refused(
    ann: User, disqualified: Game
) -> None:
    bob = make_player("Bob")
    api = Api(client_for(bob))
    status, body = api.post(APPEALS, {"game": disqualified.pk, "reason": "not mine"})
    assert (status, body["detail"]) == (404, "you have no game with this id")
    assert disqualified.challenge is not None
    standing = result(bob, disqualified.challenge)
    status, body = api.post(APPEALS, {"game": standing.pk, "reason": "why not"})
    assert status == 400 and "not disqualified" in body["detail"]
    assert api.post(APPEALS, {"game": 2**63, "reason": "x"})[0] == 400
    # only spaces: the sentence the form shows alone
    status, body = Api(client_for(ann)).post(APPEALS, {"game": disqualified.pk, "reason": "  "})
    assert (status, body["errors"]) == (
        400,
        {"reason": ["say why the decision is wrong: a reason is required"]},
    )
    assert Api(Client()).post(APPEALS, {"game": disqualified.pk, "reason": "x"})[0] == 403
    assert not Appeal.objects.exists()


def test_the_export_holds_the_notices_and_appeals_and_the_page_has_the_form(
    ann: User, disqualified: Game
) -> None:
    client = client_for(ann)
    services.file_appeal(ann, disqualified.pk, "I play fast")
    export = client.get("/api/auth/export/").json()
    assert [n["kind"] for n in export["moderation_notices"]] == ["disqualified"]
    assert export["appeals"][0]["reason"] == "I play fast"
    assert export["appeals"][0]["status"] == "open"

    own = client.get("/players/Ann/").content.decode()
    assert "data-appeal-form" in own and 'name="reason"' in own
    other = client_for(make_player("Bob")).get("/players/Ann/").content.decode()
    assert "data-appeal-form" not in other
