// Local time (shared/local_time.js): the game's day is the UTC day, every time shown is the
// reader's. Each test names its zone and language, except the one that checks the
// defaults, which runs under this process's TZ (node --test gives each file its own).

import { test } from "node:test";
import assert from "node:assert/strict";

process.env.TZ = "America/New_York";

const {
  clockFrom, closesAt, countdown, dayName, fillLocalTimes, localClock, localDateTime, localText, shortDayName,
  nextUtcMidnight, turnoverAt, utcDay, zoneLabel,
} = await import("../../frontend/static/frontend/js/shared/local_time.js");

const GB = { locale: "en-GB" };
const at = (month, day, hh, mm = 0) => Date.UTC(2026, month - 1, day, hh, mm);
const in_ = (timeZone, options = GB) => ({ ...options, timeZone });

test("the game's day turns over at 00:00 UTC, whatever the reader's zone", () => {
  assert.equal(nextUtcMidnight(at(12, 1, 15)), at(12, 2, 0));
  assert.equal(nextUtcMidnight(at(12, 1, 23, 59)), at(12, 2, 0));
  assert.equal(nextUtcMidnight(at(12, 2, 0)), at(12, 3, 0)); // the new day has begun
  assert.equal(nextUtcMidnight(new Date(at(12, 31, 12))), at(1, 1, 0) + 365 * 86_400_000);
  assert.equal(utcDay(at(12, 1, 23, 59)), "2026-12-01");
  assert.equal(utcDay("2026-12-01T20:00:00-05:00"), "2026-12-02"); // New York's evening is tomorrow in UTC
});

test("the close on the reader's clock: New York's evening, with and without summer time", () => {
  const winter = at(12, 1, 15);
  assert.equal(closesAt("2026-12-02T00:00:00Z", winter, in_("America/New_York")),
    "this day closes at 19:00 your time");
  const summer = at(7, 1, 15);
  assert.equal(closesAt(nextUtcMidnight(summer), summer, in_("America/New_York")),
    "this day closes at 20:00 your time");
  // In the reader's language: 7:00 PM in American English.
  assert.equal(closesAt(nextUtcMidnight(winter), winter, in_("America/New_York", { locale: "en-US" })),
    "this day closes at 7:00 PM your time");
});

test("the close names its day when it is not the reader's today", () => {
  // Tokyo (UTC+9): the day closes at 09:00, today before 09:00 local, tomorrow after it.
  assert.equal(clockFrom(at(12, 2, 0), at(12, 1, 23), in_("Asia/Tokyo")), "09:00"); // 08:00 local
  assert.equal(clockFrom(at(12, 2, 0), at(12, 1, 3), in_("Asia/Tokyo")), "09:00 tomorrow"); // 12:00 local
  assert.equal(clockFrom(at(12, 2, 0), at(12, 1, 15), in_("Asia/Kolkata")), "05:30 tomorrow");
  // In London in winter (and in UTC) the day closes at the reader's own midnight.
  assert.equal(turnoverAt(at(12, 1, 15), in_("Europe/London")), "midnight your time");
  assert.equal(turnoverAt(at(12, 1, 15), in_("UTC")), "midnight your time");
  assert.equal(turnoverAt(at(7, 1, 15), in_("Europe/London")), "01:00 tomorrow your time");
  assert.equal(clockFrom(at(11, 29, 12), at(12, 1, 15), in_("UTC")), "12:00 on Sun 29 Nov");
  assert.equal(clockFrom(at(11, 30, 12), at(12, 1, 15), in_("UTC")), "12:00 yesterday");
});

test("countdowns in hours and minutes, seconds only in the last minute", () => {
  assert.equal(countdown(3 * 3_600_000 + 12 * 60_000 + 59_000), "3 h 12 min");
  assert.equal(countdown(3_600_000), "1 h");
  assert.equal(countdown(12 * 60_000 + 1), "12 min");
  assert.equal(countdown(59_001), "1 min");
  assert.equal(countdown(45_000), "45 s");
  assert.equal(countdown(1), "1 s");
  assert.equal(countdown(0), "0 s");
  assert.equal(countdown(-5), "0 s");
  assert.equal(countdown(Number.NaN), "0 s");
});

test("moments, days and zones as a reader reads them", () => {
  assert.equal(localClock("2026-12-01T23:30:00Z", in_("America/New_York")), "18:30");
  assert.equal(localDateTime("2026-12-01T23:30:00Z", in_("Asia/Tokyo")), "2 Dec 2026, 08:30");
  // A day is a date: named as it is, never moved into the reader's zone.
  assert.equal(dayName("2026-12-01", GB), "Tue, 1 Dec 2026");
  assert.equal(shortDayName("2026-12-01", GB), "1 Dec 2026"); // a table's column
  assert.equal(zoneLabel(at(12, 1, 15), in_("America/New_York")), "America/New_York, UTC−5");
  assert.equal(zoneLabel(at(12, 1, 15), in_("Asia/Kolkata")), "Asia/Calcutta, UTC+5:30");
  assert.equal(zoneLabel(at(12, 1, 15), in_("UTC")), "UTC");
});

test("in German: German dates on a 24-hour clock, as Intl writes them for \"de\"", () => {
  const DE = { locale: "de" };
  assert.equal(localClock("2026-12-01T23:30:00Z", in_("America/New_York", DE)), "18:30");
  assert.equal(localDateTime("2026-12-01T23:30:00Z", in_("Asia/Tokyo", DE)), "02.12.2026, 08:30");
  assert.equal(dayName("2026-12-01", DE), "Di., 1. Dez. 2026");
  assert.equal(shortDayName("2026-12-01", DE), "1. Dez. 2026");
});

test("without a locale, the page's language: a German page (<html lang=\"de\">) writes German", () => {
  globalThis.document = { documentElement: { lang: "de" } };
  try {
    assert.equal(dayName("2026-12-01"), "Di., 1. Dez. 2026");
    assert.equal(localClock("2026-12-01T23:30:00Z", { timeZone: "America/New_York" }), "18:30");
  } finally {
    delete globalThis.document;
  }
});

test("without options, the browser's own zone and language (here TZ=America/New_York)", () => {
  assert.match(turnoverAt(at(12, 1, 15)), /^7:00\s?PM your time$|^19:00 your time$/);
  assert.equal(zoneLabel(at(12, 1, 15)), "America/New_York, UTC−5");
});

/** A stand-in for a server-rendered `<time data-local>`: only what fillLocalTimes touches. */
function timeElement(kind, datetime, text) {
  const attributes = { datetime };
  return {
    dataset: { local: kind },
    textContent: text,
    title: "",
    getAttribute: (name) => attributes[name] ?? null,
    setAttribute: (name, value) => { attributes[name] = value; },
  };
}

test("server-rendered <time data-local> elements get the reader's time, the UTC one as title", () => {
  const turnover = timeElement("turnover", null, "00:00 UTC");
  const left = timeElement("turnover-in", null, "before 00:00 UTC");
  const clock = timeElement("clock", "2026-12-02T00:00:00Z", "00:00 UTC");
  const moment = timeElement("datetime", "2026-12-01T18:05:00Z", "2026-12-01 18:05 UTC");
  const zone = timeElement("zone", null, "UTC");
  const unknown = timeElement("weekday", "2026-12-01T18:05:00Z", "as written");
  const whereYouAre = { hidden: true };
  const root = {
    querySelectorAll: (selector) => (selector === "time[data-local]"
      ? [turnover, left, clock, moment, zone, unknown]
      : selector === "[data-local-only][hidden]" ? [whereYouAre] : []),
  };
  fillLocalTimes(root, at(12, 1, 20, 48), in_("America/New_York"));
  assert.equal(turnover.textContent, "19:00 your time");
  assert.equal(turnover.getAttribute("datetime"), "2026-12-02T00:00:00.000Z");
  assert.equal(turnover.title, "00:00 UTC");
  assert.equal(left.textContent, "3 h 12 min");
  assert.equal(clock.textContent, "19:00 your time");
  assert.equal(moment.textContent, "1 Dec 2026, 13:05");
  assert.equal(moment.title, "2026-12-01 18:05 UTC");
  assert.equal(zone.textContent, "America/New_York, UTC−5");
  assert.equal(unknown.textContent, "as written"); // a kind it does not know is left alone
  assert.equal(whereYouAre.hidden, false); // a sentence about the reader's zone shows once filled
  assert.equal(localText("weekday", null, 0), null);
});
