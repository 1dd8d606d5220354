// The share text and its progress line (share.js): plain words and numbers, nothing that
// needs an emoji font, and nothing in it names a card.

import { test } from "node:test";
import assert from "node:assert/strict";

import { fillShareBox, homeByEighths, progressLine, shareText } from "../../frontend/static/frontend/js/shared/share.js";

const GAME = {
  mode: "daily", status: "won", date: "2026-12-01", tier: "hard", score: 625, moves: 16,
  variant: "yukon", deal: null,
};

test("cards home at the end of each eighth of the game", () => {
  const moves = [
    "Ah>F", "2h>F", "9c>4", "Kd>1", "3h>F", "4h>F", "5h>F", "Qs>1",
    "Ac>F", "2c>F", "3c>F", "4c>F", "5c>F", "6c>F", "7c>F", "8c>F",
  ];
  assert.deepEqual(homeByEighths(moves), [2, 2, 4, 5, 7, 9, 11, 13]);
  assert.equal(progressLine(moves), "Cards home by eighths: 2 2 4 5 7 9 11 13");
  assert.deepEqual(homeByEighths(moves.slice(0, 4)), [0, 1, 1, 2, 2, 2, 2, 2]);
  assert.deepEqual(homeByEighths([]), [0, 0, 0, 0, 0, 0, 0, 0]);
  // An undo takes back the move before it.
  assert.deepEqual(homeByEighths(["Ah>F", "2h>F", "undo"]), homeByEighths(["Ah>F"]));
});

test("plain text: no emoji, no card, column or suit", () => {
  const moves = ["3:Ah>F", "Kd>1", "9c>4", "Qs>7"];
  const text = shareText(GAME, {
    seconds: 312, par: 98, streak: 4, moves, origin: "https://y.example",
    summary: "Faster than 73 % of today's winners · beat the computer",
  });
  for (const card of ["Ah", "Kd", "9c", "Qs", ">1", ">4", ">7"]) assert.ok(!text.includes(card), card);
  assert.ok(/^[\x20-\x7e\n·–]*$/.test(text), text); // ASCII, the middle dot and the dash
  assert.deepEqual(text.split("\n"), [
    "Yukon Daily 2026-12-01 hard: won, 625 points, 5:12",
    "16 moves (par 98) · streak 4", // the time once, on the first line
    "Faster than 73 % of today's winners · beat the computer",
    "Cards home by eighths: 0 1 1 1 1 1 1 1",
    "https://y.example/leaderboards/daily/?date=2026-12-01&tier=hard",
  ]);
});

test("par only once known, streak for dailies, archive boards and practice", () => {
  const open = shareText(GAME, { seconds: 61, par: null, streak: null });
  assert.equal(open.split("\n")[1], "16 moves");
  const archive = shareText({ ...GAME, mode: "archive", status: "stuck" }, { seconds: 5, par: 90, streak: 3 });
  assert.match(archive, /^Yukon Daily 2026-12-01 hard \(archive\): no moves left/);
  assert.ok(!archive.includes("streak"));
  assert.ok(archive.endsWith("&archive=1"));
  const guest = shareText({ ...GAME, mode: "guest" }, { seconds: 5, streak: 2, origin: "https://y.example" });
  assert.match(guest, /^Yukon Daily 2026-12-01 hard: won/);
  assert.ok(!guest.includes("streak") && guest.endsWith("/leaderboards/daily/?date=2026-12-01&tier=hard"));
  const practice = shareText({ ...GAME, mode: "practice", deal: "17", status: "resigned" }, { seconds: 5 });
  // the deal's own page, for a friend to play it (a practice share had no link)
  assert.equal(practice, "Yukon Daily practice yukon #17: resigned, 625 points, 0:05\n16 moves\n/practice/17/?variant=yukon");
  const takeback = shareText({ ...GAME, mode: "practice", deal: "17", variant: "yukon+takeback", takeback: true },
    { seconds: 5, origin: "https://yukon.example" });
  assert.match(takeback, /\nhttps:\/\/yukon\.example\/practice\/17\/\?variant=yukon&takeback=1$/);
});

test("the share box shows every line from the first", () => {
  const calls = [];
  const field = { value: "", rows: 2, scrollTop: 99, setSelectionRange: (a, b) => calls.push([a, b]) };
  fillShareBox(field, "one\ntwo\nthree\nfour\nfive");
  assert.equal(field.rows, 5);
  assert.equal(field.scrollTop, 0);
  assert.deepEqual(calls, [[0, 0]]);
  fillShareBox(field, "one line");
  assert.equal(field.rows, 2);
});
