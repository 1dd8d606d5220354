"""The practice page's tier buttons in a real Chromium: offered for every variant with a
pool (multi-deck ones too), "Hard" deals a proven-winnable deal from the pool, and the
coach's hint endpoint names a move on it; the player page lists the game to resume."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import practice_pool
from games.models import Deal, Verdict

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HARD = [2, 11, 14]  # Yukon deals the strategy bot rates hard (tests/practice/test_practice_pool.py)


def test_hard_button_deals_a_proven_hard_game_whose_hint_names_a_move(
    browse: Any, settings: Any, client: Any
) -> None:
    settings.PRACTICE_POOL_FILL_ON_REQUEST = False
    run = practice_pool.top_up("yukon", size=len(HARD), numbers=iter(HARD))
    assert run.added == {"hard": 3}
    page = browse()
    page.goto("/practice/")
    p = page.page
    assert "may be unwinnable" in p.locator("#random-note").inner_text()
    page.shot("practice-tiers")
    hard = p.get_by_role("button", name="Hard", exact=True)
    variant = p.locator("select[name=variant]")
    variant.select_option("moosehide-runs")  # a retired rule: no pool, the API would say 400
    assert hard.is_disabled()
    assert "variants with today's rules" in p.locator("[data-practice-status]").inner_text()
    takeback = p.locator("input[name=takeback]")
    takeback.check()
    for pooled in ("quadruple-yukon", "yukon"):  # several decks or one: tiers either way
        variant.select_option(pooled)
        assert hard.is_enabled() and not p.locator("[data-practice-status]").inner_text()
        # take-back is a one-deck option: greyed out (and cleared) for several decks
        assert takeback.is_disabled() == (pooled == "quadruple-yukon")
    assert not takeback.is_checked()
    assert hard.is_enabled()
    hard.click()
    p.wait_for_url(re.compile(r"/practice/\d+/\?variant=yukon&game=\d+$"), timeout=15_000)
    p.locator(".tableau .card").first.wait_for()
    title = p.locator("[data-title]")
    page.shot("practice-hard-game")
    p.wait_for_function(
        "() => document.querySelector('[data-title]').textContent.includes('· Hard')",
        timeout=10_000,
    )
    number = int(re.search(r"/practice/(\d+)/", p.url).group(1))  # type: ignore[union-attr]
    assert number in HARD and f"#{number}" in title.inner_text()
    assert Deal.objects.get(number=number, variant="yukon").verdict == Verdict.SOLVED
    game_id = int(re.search(r"game=(\d+)", p.url).group(1))  # type: ignore[union-attr]
    hint = p.evaluate("async (id) => (await fetch(`/api/games/${id}/hint/`)).json()", game_id)
    assert hint["verdict"] == "solved"
    assert re.fullmatch(r"([1-7]:)?[2-9TJQKA][cdhs]>([1-7]|F)", hint["move"]), hint
    page.assert_clean()


def test_the_player_page_lists_practice_games_with_resume(browse: Any, settings: Any) -> None:
    from django.contrib.auth import get_user_model

    settings.PRACTICE_POOL_FILL_ON_REQUEST = False
    practice_pool.top_up("yukon", size=1, numbers=iter(HARD))
    user = get_user_model().objects.create_user(
        username="resumer", display_name="Resumer", password="a long pass phrase 42"
    )
    page = browse()
    p = page.page
    page.goto("/login/")
    p.get_by_label("Log-in name", exact=True).fill("resumer")
    p.get_by_label("Password").fill("a long pass phrase 42")
    p.get_by_role("button", name="Log in", exact=True).click()
    p.wait_for_url(lambda url: "/login/" not in url, timeout=10_000)
    page.goto("/practice/")
    p.get_by_role("button", name="Hard", exact=True).click()
    p.wait_for_url(re.compile(r"game=\d+$"), timeout=15_000)
    game_id = re.search(r"game=(\d+)", p.url).group(1)  # type: ignore[union-attr]
    page.goto(f"/players/{user.display_name}/")
    resume = p.locator(f"[data-practice-game='{game_id}'] a", has_text="Resume")
    resume.wait_for()
    assert "hard" in p.locator(f"[data-practice-game='{game_id}']").inner_text()
    resume.click()
    p.wait_for_url(re.compile(rf"game={game_id}$"))
    p.locator(".tableau .card").first.wait_for()
    page.assert_clean()


def test_another_deal_of_the_tier_waits_for_the_pool_instead_of_giving_up(
    browse: Any, settings: Any
) -> None:
    """The end dialog's "Another hard deal" showed the 503's message and stopped when no
    hard deal was ready, where the practice page asks again after Retry-After: it now waits
    as that page does, says so, and opens the deal once one is ready."""
    settings.PRACTICE_POOL_FILL_ON_REQUEST = False
    settings.PRACTICE_POOL_RETRY_AFTER = 1
    practice_pool.top_up("yukon", size=1, numbers=iter(HARD[:1]))
    page = browse()
    p = page.page
    page.goto("/practice/")
    p.get_by_role("button", name="Hard", exact=True).click()
    p.wait_for_url(re.compile(rf"/practice/{HARD[0]}/\?variant=yukon&game=\d+$"), timeout=15_000)
    p.locator(".tableau .card").first.wait_for()
    p.locator("[data-resign]").click()
    p.get_by_role("dialog", name="Resign this game?").get_by_role("button", name="Resign").click()
    way_on = p.locator("[data-end-next]")
    way_on.wait_for()
    assert way_on.inner_text() == "Another hard deal"
    way_on.click()  # the pool has no hard deal this guest has not played: 503, Retry-After 1
    p.locator(".toast", has_text="Preparing proven hard deals").wait_for(timeout=10_000)
    assert "/practice/" in p.url and f"/practice/{HARD[0]}/" in p.url  # still waiting here
    practice_pool.top_up("yukon", size=1, numbers=iter(HARD[1:2]))
    p.wait_for_url(re.compile(rf"/practice/{HARD[1]}/\?variant=yukon&game=\d+$"), timeout=30_000)
    p.locator(".tableau .card").first.wait_for()
    unavailable = "the server responded with a status of 503 (Service Unavailable)"
    assert [e for e in page.errors if unavailable not in e] == [], page.errors  # the one asked
    assert page.errors, "no 503: the pool had a deal, and nothing was waited for"
