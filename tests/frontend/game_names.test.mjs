// Games and counts as people read them (shared/game_names.js): the player page's practice
// list, the replay's heading and a practice game's share text name the variant as people do
// ("Double Yukon", never "double-yukon"), and the home page counts the guests who played.

import assert from "node:assert/strict";
import { test } from "node:test";

import { dailyCounts, endingWords, historyResult, practiceName, replayTitle } from "../../frontend/static/frontend/js/shared/game_names.js";
import { shareText } from "../../frontend/static/frontend/js/shared/share.js";

// As base.html writes them (tests/frontend/test_variant_names.py checks the page's copy).
const TITLES = { yukon: "Yukon", "double-yukon": "Double Yukon", "moosehide-runs": "Moosehide (runs only)" };

const PRACTICE = { mode: "practice", variant: "double-yukon", deal: "17", date: null, tier: null, takeback: false };

test("a practice deal by its variant's name, take-back in words (the player page's list)", () => {
  assert.equal(practiceName(PRACTICE, TITLES), "Double Yukon #17");
  assert.equal(practiceName({ ...PRACTICE, variant: "moosehide-runs" }, TITLES), "Moosehide (runs only) #17");
  assert.equal(practiceName({ ...PRACTICE, variant: "yukon", takeback: true }, TITLES), "Yukon with take-back #17");
  assert.equal(practiceName({ variant: "yukon+takeback", deal: "3" }, TITLES), "Yukon with take-back #3");
  assert.equal(practiceName({ variant: "triple-yukon", deal: "5" }, undefined), "triple yukon #5");
});

test("a replay's heading: the day and tier, or the practice deal by name", () => {
  const daily = { mode: "daily", variant: "yukon", deal: null, date: "2026-12-01", tier: "easy" };
  // the day by name in the page's language, never the API's "2026-12-01"
  assert.equal(replayTitle(daily, TITLES), "Replay · Tue, Dec 1, 2026 · Easy");
  assert.equal(replayTitle({ ...daily, tier: "weekly", variant: "double-yukon" }, TITLES),
    "Replay · Tue, Dec 1, 2026 · Weekly · Double Yukon");
  assert.equal(replayTitle({ ...daily, mode: "guest" }, TITLES), "Replay · Tue, Dec 1, 2026 · Easy (played as a guest)");
  assert.equal(replayTitle({ ...daily, mode: "archive" }, TITLES), "Replay · Tue, Dec 1, 2026 · Easy (archive)");
  assert.equal(replayTitle(PRACTICE, TITLES), "Replay practice Double Yukon #17");
  assert.equal(replayTitle({ ...PRACTICE, variant: "yukon", takeback: true }, TITLES),
    "Replay practice Yukon with take-back #17");
});

test("a practice game's share text names its variant as people do", () => {
  const game = { ...PRACTICE, status: "won", score: 1260, moves: 240 };
  const text = shareText(game, { seconds: 600, variantTitles: TITLES });
  assert.equal(text.split("\n")[0], "Yukon Daily practice Double Yukon #17: won, 1260 points, 10:00");
  // the code is only in the deal's link, the last line
  const lines = text.split("\n");
  assert.ok(!lines.slice(0, -1).join("\n").includes("double-yukon"), text);
  assert.equal(lines.at(-1), "/practice/17/?variant=double-yukon");
});

test("a daily's counts say how many played as guests", () => {
  assert.equal(dailyCounts({ played: 7, won: 4, guests: 1 }), "7 played (1 as a guest) · 4 won");
  assert.equal(dailyCounts({ played: 12, won: 5, guests: 3 }), "12 played (3 as guests) · 5 won");
  assert.equal(dailyCounts({ played: 2, won: 0, guests: 0 }), "2 played · 0 won");
  assert.equal(dailyCounts({ played: 0, won: 0 }), "0 played · 0 won");
});

test("a player page's row: a game played as a guest says it never ranked", () => {
  assert.equal(historyResult({ status: "won", guest: false }), "Won");
  assert.equal(historyResult({ status: "stuck", guest: true }), "No move left · played as a guest, not ranked");
  assert.equal(historyResult({ status: "won", guest: true }), "Won · played as a guest, not ranked");
  assert.equal(endingWords("abandoned"), "Not finished");
});
