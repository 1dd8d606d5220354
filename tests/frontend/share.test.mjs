// The share text and its emoji line (share.js): nothing in them names a card.

import { test } from "node:test";
import assert from "node:assert/strict";

import { emojiLine, shareText } from "../../frontend/static/frontend/js/shared/share.js";

const GAME = {
  mode: "daily", status: "won", date: "2026-12-01", tier: "hard", score: 625, moves: 16,
  variant: "yukon", deal: null,
};

test("eight squares by moves home per eighth, then the ending", () => {
  const moves = [
    "Ah>F", "2h>F", "9c>4", "Kd>1", "3h>F", "4h>F", "5h>F", "Qs>1",
    "Ac>F", "2c>F", "3c>F", "4c>F", "5c>F", "6c>F", "7c>F", "8c>F",
  ];
  assert.equal(emojiLine(moves, "won"), "🟨⬜🟨🟨🟨🟨🟨🟨🏆");
  assert.equal(emojiLine(moves.slice(0, 8), "stuck"), "🟨🟨⬜⬜🟨🟨🟨⬜🧱");
  assert.equal(emojiLine([], "resigned"), "⬜⬜⬜⬜⬜⬜⬜⬜🏳️");
  const many = Array.from({ length: 80 }, (_, i) => (i < 48 ? "Ah>F" : "9c>4"));
  assert.equal(emojiLine(many, "won"), "🟩🟩🟩🟩🟩⬜⬜⬜🏆");
  assert.equal(emojiLine(["Ah>F", "undo", "2h>F"], "abandoned").length, emojiLine(["Ah>F", "2h>F"], "abandoned").length);
});

test("no card, column or suit reaches the text", () => {
  const moves = ["3:Ah>F", "Kd>1", "9c>4", "Qs>7"];
  const text = shareText(GAME, { seconds: 312, par: 98, streak: 4, moves, origin: "https://y.example" });
  for (const card of ["Ah", "Kd", "9c", "Qs", ">1", ">4", ">7"]) assert.ok(!text.includes(card), card);
  assert.equal(text.split("\n")[0], "Yukon Daily 2026-12-01 hard: won, 625, 5:12");
  assert.equal(text.split("\n")[1], "16 moves (par 98) · 5:12 · streak 4");
  assert.equal(text.split("\n")[3], "https://y.example/leaderboards/daily/?date=2026-12-01&tier=hard");
});

test("par only once known, streak for dailies, archive boards and practice", () => {
  const open = shareText(GAME, { seconds: 61, par: null, streak: null });
  assert.equal(open.split("\n")[1], "16 moves · 1:01");
  const archive = shareText({ ...GAME, mode: "archive", status: "stuck" }, { seconds: 5, par: 90, streak: 3 });
  assert.match(archive, /^Yukon Daily 2026-12-01 hard \(archive\): no moves left/);
  assert.ok(!archive.includes("streak"));
  assert.ok(archive.endsWith("&archive=1"));
  const practice = shareText({ ...GAME, mode: "practice", deal: "17", status: "resigned" }, { seconds: 5 });
  assert.equal(practice, "Yukon Daily practice yukon #17: resigned, 625, 0:05\n16 moves · 0:05");
});
