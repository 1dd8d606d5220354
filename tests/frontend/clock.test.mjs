// The browser's estimate of the server's clock, from answers' Date headers (api.js).

import { test } from "node:test";
import assert from "node:assert/strict";

import { betterClock } from "../../frontend/static/frontend/js/shared/api.js";

const NONE = { offset: 0, roundTrip: Infinity };
const SERVER = Date.parse("Mon, 30 Nov 2026 12:00:00 GMT");
const answer = (date, extra = {}) => new Headers({ Date: date, ...extra });
const NOON = answer("Mon, 30 Nov 2026 12:00:00 GMT");

test("a browser an hour fast learns the server's time within half a second", () => {
  for (const into of [0, 400, 999]) { // how far into the header's second the answer left
    const sent = SERVER + 3_600_000 + into - 50; // the browser's clock, an hour ahead
    const clock = betterClock(NONE, sent, sent + 100, NOON);
    const estimate = sent + 50 + clock.offset; // the moment the server wrote the header
    assert.ok(Math.abs(estimate - (SERVER + into)) <= 500, `${into}: ${estimate - SERVER}`);
    assert.equal(clock.roundTrip, 100);
  }
});

test("the quickest round trip wins; a slower answer changes nothing", () => {
  const quick = betterClock(NONE, 1_000, 1_040, NOON);
  assert.equal(betterClock(quick, 5_000, 5_400, answer("Mon, 30 Nov 2026 13:00:00 GMT")), quick);
  const quicker = betterClock(quick, 9_000, 9_010, NOON);
  assert.equal(quicker.roundTrip, 10);
  assert.notEqual(quicker.offset, quick.offset);
});

test("an answer a cache may have kept does not count, however quick", () => {
  const kept = answer("Mon, 30 Nov 2026 11:00:00 GMT", { "Cache-Control": "public, max-age=300" });
  assert.equal(betterClock(NONE, 0, 1, kept), NONE);
});

test("no Date header, a bad one, or time running backwards: no estimate", () => {
  assert.equal(betterClock(NONE, 0, 10, new Headers()), NONE);
  assert.equal(betterClock(NONE, 0, 10, answer("yesterday-ish")), NONE);
  assert.equal(betterClock(NONE, 10, 0, NOON), NONE);
});
