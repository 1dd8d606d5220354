// The share text's score says its unit (shared/share.js scoreWords): "won, 625 points,
// 0:28", not "won, 625, 0:28", one point singular.

import { test } from "node:test";
import assert from "node:assert/strict";

import { scoreWords, shareText } from "../../frontend/static/frontend/js/shared/share.js";

test("a score with its unit, singular for one point", () => {
  assert.equal(scoreWords(625), "625 points");
  assert.equal(scoreWords(1), "1 point");
  assert.equal(scoreWords(0), "0 points");
});

test("the share text's first line gives the score its unit", () => {
  const game = { status: "won", mode: "daily", date: "2026-12-07", tier: "easy", score: 625, moves: 99 };
  const text = shareText(game, { seconds: 28 });
  assert.equal(text.split("\n")[0], "Yukon Daily 2026-12-07 easy: won, 625 points, 0:28");
});
