// The play page's notice of the close of day (closing.js).

import { test } from "node:test";
import assert from "node:assert/strict";

import { closingNotice, formatLeft } from "../../frontend/static/frontend/js/shared/closing.js";

const CLOSE = "2026-12-02T00:00:00Z";
const at = (hh, mm, ss = 0, ms = 0) => Date.UTC(2026, 11, 1, hh, mm, ss, ms);

test("nothing is said long before the close, nor for practice or a finished game", () => {
  assert.equal(closingNotice(CLOSE, at(12, 0), "playing"), null);
  assert.equal(closingNotice(CLOSE, at(22, 59, 59), "playing"), null);
  assert.equal(closingNotice(null, at(23, 59), "playing"), null);
  assert.equal(closingNotice(CLOSE, at(23, 59), "won"), null);
  assert.equal(closingNotice("not a date", at(23, 59), "playing"), null);
});

test("a start in the last hour is told how long is left, in whole minutes", () => {
  const notice = closingNotice(CLOSE, at(23, 14, 30), "playing", { locale: "en-GB", timeZone: "America/New_York" });
  assert.equal(notice.urgent, false);
  assert.match(notice.text, /closes at 19:00 your time, in 46 min/); // on the player's clock
  assert.match(closingNotice(CLOSE, at(23, 0), "playing").text, /in 60 min/);
});

test("the last ten minutes count down in m:ss", () => {
  assert.deepEqual(closingNotice(CLOSE, at(23, 50), "playing"), {
    text: "The day closes in 10:00", urgent: true, closed: false,
  });
  assert.equal(closingNotice(CLOSE, at(23, 58, 1), "playing").text, "The day closes in 1:59");
  assert.equal(closingNotice(CLOSE, at(23, 59, 59, 999), "playing").text, "The day closes in 0:01");
});

test("at midnight the day is closed", () => {
  for (const now of [Date.parse(CLOSE), Date.parse(CLOSE) + 5_000]) {
    const notice = closingNotice(CLOSE, now, "playing");
    assert.equal(notice.closed, true);
    assert.match(notice.text, /closed/);
  }
});

test("formatLeft rounds up and never goes negative", () => {
  assert.equal(formatLeft(61_001), "1:02");
  assert.equal(formatLeft(600_000), "10:00");
  assert.equal(formatLeft(-5), "0:00");
});
