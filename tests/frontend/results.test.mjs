// The results screen's words and numbers (shared/results.js), from answers shaped as
// GET /api/games/<id>/results/ gives them (docs/api.md).

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  barLabel, barRows, botSentences, cascadeOrder, nextAction, nextDealText, percent, percentileSentence,
  recordItems, recordTitle, shareSummary, signUpHref, spreadTitle, stepCard, turnoutSentence, CASCADE,
} from "../../frontend/static/frontend/js/shared/results.js";

const WINNERS = {
  kind: "time", yours: 148_500, compared: 4, beaten: 3, percentile: 73, counted: true, results: 10, wins: 5,
  bars: [
    { low: 60_000, high: 90_000, count: 1, yours: false },
    { low: 90_000, high: 120_000, count: 0, yours: false },
    { low: 120_000, high: 150_000, count: 2, yours: true },
    { low: 210_000, high: null, count: 1, yours: false },
  ],
};
const OTHERS = {
  kind: "cards_home", yours: 13, compared: 4, beaten: 2, percentile: 50, counted: false, results: 9, wins: 5,
  bars: [
    { low: 0, high: 3, count: 1, yours: false },
    { low: 12, high: 13, count: 2, yours: true },
    { low: 40, high: null, count: 1, yours: false },
  ],
};
const BOT_WON = { won: true, moves: 96, cards_home: 52, cards: 52, win_rate: 0.41 };
const BOT_STUCK = { won: false, moves: 25, cards_home: 19, cards: 52, win_rate: 0.414 };

test("bars say what they hold: minutes, m:ss, cards, the open last bar", () => {
  assert.equal(barLabel({ low: 120_000, high: 180_000 }, "time"), "2–3 min");
  assert.equal(barLabel({ low: 60_000, high: 90_000 }, "time"), "1:00–1:30");
  assert.equal(barLabel({ low: 600_000, high: null }, "time"), "10 min or more");
  assert.equal(barLabel({ low: 210_000, high: null }, "time"), "3:30 or more");
  assert.equal(barLabel({ low: 12, high: 15 }, "cards_home"), "12–14 cards");
  assert.equal(barLabel({ low: 1, high: 2 }, "cards_home"), "1 card");
  assert.equal(barLabel({ low: 13, high: 14 }, "cards_home"), "13 cards");
  assert.equal(barLabel({ low: 40, high: null }, "cards_home"), "40 or more cards");
});

test("bar rows: widths against the fullest bar, the player's bar spoken as theirs", () => {
  const rows = barRows(WINNERS);
  assert.deepEqual(rows.map((row) => row.width), [0.5, 0, 1, 0.5]);
  assert.deepEqual(rows.map((row) => row.yours), [false, false, true, false]);
  assert.equal(rows[2].spoken, "2:00–2:30: 2 results, yours among them");
  assert.equal(rows[0].spoken, "1:00–1:30: 1 result");
  assert.equal(rows[1].spoken, "1:30–2:00: 0 results");
  // A bar of one among hundreds still shows.
  const tall = barRows({ kind: "cards_home", bars: [{ low: 0, high: 5, count: 500 }, { low: 5, high: 10, count: 1 }] });
  assert.equal(tall[1].width, 0.04);
});

test("the percentile sentence, open day or closed, and with nobody to compare", () => {
  assert.equal(percentileSentence(WINNERS, { open: true }), "Faster than 73 % of today's winners.");
  assert.equal(percentileSentence(WINNERS, { open: false }), "Faster than 73 % of the day's winners.");
  assert.equal(percentileSentence(OTHERS, { open: true }),
    "More cards home than 50 % of today's players who did not win.");
  assert.equal(percentileSentence({ ...WINNERS, percentile: null }, { open: true }), "No one else has won today yet.");
  assert.equal(percentileSentence({ ...OTHERS, percentile: null }, { open: false }),
    "No one else finished that day without a win.");
  assert.equal(spreadTitle(WINNERS, { open: true }), "Today's winners by time");
  assert.equal(spreadTitle(OTHERS, { open: false }), "The day's other results by cards home");
  assert.equal(turnoutSentence(WINNERS, { open: true }), "10 players on the board so far today; 5 won.");
  assert.equal(turnoutSentence({ ...OTHERS, results: 1, wins: 1 }, { open: false }), "1 player on the day's board; 1 won.");
});

test("no \"Faster than 0 %\": the slowest winner's line is left out, the only winner told so", () => {
  // the slowest of the day's winners (or tied with all of them) beats nobody: 0 % is no news
  const slowest = { ...WINNERS, percentile: 0, beaten: 0 };
  assert.equal(percentileSentence(slowest, { open: true }), null);
  assert.equal(percentileSentence(slowest, { open: false }), null);
  assert.equal(percentileSentence({ ...OTHERS, percentile: 0, beaten: 0 }, { open: true }), null);
  // the only winner so far: nobody to compare with, said as such
  const only = { ...WINNERS, percentile: null, compared: 0, beaten: 0 };
  assert.equal(percentileSentence(only, { open: true }), "No one else has won today yet.");
  assert.equal(percentileSentence(only, { open: false }), "No one else won that day.");
  // a percentile above 0 is still said
  assert.equal(percentileSentence({ ...WINNERS, percentile: 1 }, { open: true }), "Faster than 1 % of today's winners.");
});

test("against the computer: its game, its rate, and who beat whom", () => {
  const won = { status: "won", moves: 90 };
  assert.deepEqual(botSentences(BOT_WON, won, 148_500), {
    verdict: "You beat the computer: you won in fewer moves.",
    detail: "The computer won in 96 moves; it wins 41 % of its playouts.",
  });
  assert.equal(botSentences(BOT_WON, { status: "won", moves: 96 }).verdict, "You and the computer won in as many moves.");
  assert.equal(botSentences(BOT_WON, { status: "won", moves: 120 }).verdict, "The computer won in fewer moves.");
  assert.deepEqual(botSentences(BOT_STUCK, won), {
    verdict: "You beat the computer.",
    detail: "The computer got stuck with 19 cards home after 25 moves; it wins 41 % of its playouts.",
  });
  const stuck = { status: "stuck", moves: 40 };
  assert.equal(botSentences(BOT_WON, stuck, 13).verdict, "The computer won this one.");
  assert.equal(botSentences(BOT_STUCK, stuck, 20).verdict, "You beat the computer: more cards home.");
  assert.equal(botSentences(BOT_STUCK, stuck, 19).verdict, "You and the computer got as many cards home.");
  assert.equal(botSentences(BOT_STUCK, stuck, 13).verdict, "The computer got more cards home.");
  assert.equal(botSentences({ ...BOT_STUCK, win_rate: null, cards_home: 1 }, stuck, 0).detail,
    "The computer got stuck with 1 card home after 25 moves.");
});

test("the record, the share summary, the next deal", () => {
  assert.deepEqual(recordItems({ played: 12, won: 7, win_rate: 0.5833, current_streak: 3, best_streak: 5 }), [
    ["Played", "12"], ["Win %", "58"], ["Current streak", "3"], ["Best streak", "5"],
  ]);
  assert.equal(percent(0.41), 41);
  const results = { spread: WINNERS, bot: BOT_STUCK };
  assert.equal(shareSummary(results, { status: "won", moves: 90 }, { open: true }),
    "Faster than 73 % of today's winners · beat the computer");
  assert.equal(shareSummary({ spread: OTHERS, bot: BOT_WON }, { status: "stuck", moves: 40 }, { open: true }),
    "More cards home than 50 % of today's players who did not win");
  // alone in the spread: a win is the first (or the day's only one); a loss says nothing of it
  const alone = (spread) => ({ ...spread, percentile: null, compared: 0, beaten: 0 });
  assert.equal(shareSummary({ spread: alone(WINNERS), bot: BOT_WON }, { status: "won", moves: 200 }, { open: true }),
    "the first to win today");
  assert.equal(shareSummary({ spread: alone(WINNERS), bot: BOT_WON }, { status: "won", moves: 200 }, { open: false }),
    "the day's only win");
  assert.equal(shareSummary({ spread: alone(OTHERS), bot: BOT_WON }, { status: "stuck", moves: 40 }, { open: true }), "");
  // a win held for a moderator: two held winners each shared "the first to win today"
  assert.equal(shareSummary({ spread: alone(WINNERS), bot: BOT_WON, held: true }, { status: "won", moves: 200 }, { open: true }), "");
  // the slowest of the winners: no "Faster than 0 %" to share
  assert.equal(shareSummary({ spread: { ...WINNERS, percentile: 0, beaten: 0 }, bot: BOT_WON }, { status: "won", moves: 200 }, { open: true }), "");
  const now = Date.parse("2026-12-01T20:47:30Z");
  const options = { locale: "en-GB", timeZone: "America/New_York" };
  assert.deepEqual(nextDealText("2026-12-02T00:00:00Z", now, options), { left: "3 h 12 min", at: "19:00 your time" });
  assert.deepEqual(nextDealText("2026-12-02T00:00:00Z", Date.parse("2026-12-01T23:59:15Z"), options),
    { left: "45 s", at: "19:00 your time" });
  assert.deepEqual(nextDealText("2026-12-02T05:00:00Z", now, { locale: "en-GB", timeZone: "Europe/Paris" }),
    { left: "8 h 12 min", at: "06:00 tomorrow your time" });
  assert.equal(nextDealText("2026-12-02T00:00:00Z", Date.parse("2026-12-02T00:00:01Z"), options), null);
});

test("the cascade: kings first, one of each suit in turn, bouncing off the floor", () => {
  const order = cascadeOrder();
  assert.equal(order.length, 52);
  assert.deepEqual(order.slice(0, 5), ["Kc", "Kd", "Kh", "Ks", "Qc"]);
  assert.deepEqual(order.slice(-4), ["Ac", "Ad", "Ah", "As"]);
  const falling = { x: 10, y: 95, vx: -3, vy: 8 };
  const bounced = stepCard(falling, 100);
  assert.equal(bounced.x, 7);
  assert.equal(bounced.y, 100);
  assert.ok(bounced.vy < 0 && Math.abs(bounced.vy) < 8.55, bounced.vy);
  assert.equal(bounced.vy, -(8 + CASCADE.gravity) * CASCADE.bounce);
  const flying = stepCard({ x: 0, y: 0, vx: 2, vy: -5 }, 100);
  assert.deepEqual(flying, { x: 2, y: -5, vx: 2, vy: -5 + CASCADE.gravity });
});

test("a guest's game offers sign-up, back to the game; a player's does not", () => {
  assert.equal(signUpHref({ id: 42, guest: true }, false), "/signup/?next=%2Fplay%2F42%2F");
  assert.equal(signUpHref({ id: 42, guest: true }, true), null); // taken by an account at log-in
  assert.equal(signUpHref({ id: 42, guest: false }, false), null);
  assert.equal(signUpHref({ id: 42 }, false), null); // a game JSON from before guests played dailies
});

test("the record's heading says when the game is not in it yet", () => {
  // a first win showed "Played 0" under "Your daily record" while it was being checked
  const daily = { tier: "easy" };
  assert.equal(recordTitle({ spread: WINNERS }, daily), "Your daily record");
  assert.equal(recordTitle({ spread: OTHERS }, daily), "Your daily record, not counting this game yet");
  assert.equal(recordTitle({ spread: OTHERS }, { tier: "weekly" }), "Your weekly record, not counting this game yet");
  assert.equal(recordTitle({ spread: WINNERS }, { tier: "weekly" }), "Your weekly record");
  assert.equal(recordTitle({ spread: OTHERS, guest: true }, daily), "Your record (it starts when you sign up)");
});

test("the end dialog's way on: the tier again, the next number, the day's other deals, the archive", () => {
  const max = "18446744073709551615";
  assert.deepEqual(nextAction({ mode: "practice", tier: "hard", variant: "yukon", takeback: false, deal: "7" }, max), {
    label: "Another hard deal", start: { practice: "hard", variant: "yukon", takeback: false },
  });
  assert.deepEqual(nextAction({ mode: "practice", tier: null, variant: "double-yukon", takeback: false, deal: "41" }, max),
    { label: "Next deal", href: "/practice/42/?variant=double-yukon" });
  assert.equal(nextAction({ mode: "practice", tier: null, variant: "yukon", takeback: true, deal: "9007199254740993" }, max).href,
    "/practice/9007199254740994/?variant=yukon&takeback=1"); // past a double's precision
  assert.deepEqual(nextAction({ mode: "practice", tier: null, variant: "yukon", deal: max }, max), { label: "Practice", href: "/practice/" });
  for (const mode of ["daily", "guest"]) {
    assert.deepEqual(nextAction({ mode, date: "2026-12-07" }, max), { label: "Today's other deals", href: "/" });
  }
  assert.deepEqual(nextAction({ mode: "archive", date: "2026-11-30" }, max), { label: "More from the archive", href: "/archive/?month=2026-11" });
});
