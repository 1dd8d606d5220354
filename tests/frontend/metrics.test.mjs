// The metrics beacon (frontend/static/frontend/js/shared/metrics.js): what a visit says of
// the last one, once a day; nothing at all for a browser that asks not to be tracked.

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  ENDPOINT, LAST_VISIT_KEY, countShare, countVisit, declinesTracking, shareTier, visitBucket,
} from "../../frontend/static/frontend/js/shared/metrics.js";

test("the bucket: first, the next day, within 7 days, later; once a day", () => {
  assert.equal(visitBucket(null, "2026-12-05"), "first");
  assert.equal(visitBucket("not a day", "2026-12-05"), "first");
  assert.equal(visitBucket("2026-12-05", "2026-12-05"), null);
  assert.equal(visitBucket("2026-12-06", "2026-12-05"), null); // a clock set back
  assert.equal(visitBucket("2026-12-04", "2026-12-05"), "next_day");
  assert.equal(visitBucket("2026-11-30", "2026-12-01"), "next_day"); // across a month
  assert.equal(visitBucket("2026-12-03", "2026-12-05"), "within_7_days");
  assert.equal(visitBucket("2026-11-28", "2026-12-05"), "within_7_days");
  assert.equal(visitBucket("2026-11-27", "2026-12-05"), "later");
});

test("Do Not Track and Global Privacy Control decline", () => {
  assert.equal(declinesTracking({ doNotTrack: "1" }), true);
  assert.equal(declinesTracking({ globalPrivacyControl: true }), true);
  assert.equal(declinesTracking({ doNotTrack: "0", globalPrivacyControl: false }), false);
  assert.equal(declinesTracking({ doNotTrack: null }), false);
});

function memory(initial = {}) {
  const items = { ...initial };
  return { items, getItem: (key) => items[key] ?? null, setItem: (key, value) => { items[key] = String(value); } };
}

function recorder() {
  const sent = [];
  const fetcher = (url, options) => {
    sent.push({ url, ...options, body: JSON.parse(options.body) });
    return Promise.resolve({ ok: true });
  };
  return { sent, fetcher };
}

test("a visit is sent once a day, with no cookie and only the bucket; the day stays home", () => {
  const storage = memory({ [LAST_VISIT_KEY]: "2026-12-04" });
  const { sent, fetcher } = recorder();
  const now = Date.parse("2026-12-05T23:59:00Z");
  assert.deepEqual(countVisit({ nav: {}, storage, now, fetcher }), { event: "visit", returned: "next_day" });
  assert.equal(countVisit({ nav: {}, storage, now: now + 30_000, fetcher }), null);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].url, ENDPOINT);
  assert.equal(sent[0].credentials, "omit");
  assert.deepEqual(sent[0].body, { event: "visit", returned: "next_day" });
  assert.equal(storage.items[LAST_VISIT_KEY], "2026-12-05");
  // the next UTC day counts again
  countVisit({ nav: {}, storage, now: Date.parse("2026-12-06T00:00:30Z"), fetcher });
  assert.deepEqual(sent[1].body, { event: "visit", returned: "next_day" });
});

test("a browser that declines sends nothing and keeps nothing", () => {
  const storage = memory();
  const { sent, fetcher } = recorder();
  assert.equal(countVisit({ nav: { doNotTrack: "1" }, storage, fetcher }), null);
  assert.equal(countVisit({ nav: { globalPrivacyControl: true }, storage, fetcher }), null);
  assert.equal(countShare({ mode: "daily", tier: "easy" }, { nav: { doNotTrack: "1" }, fetcher }), null);
  assert.equal(sent.length, 0);
  assert.deepEqual(storage.items, {});
});

test("a share names the daily's tier, or practice and archive apart", () => {
  assert.equal(shareTier({ mode: "daily", tier: "hard" }), "hard");
  assert.equal(shareTier({ mode: "guest", tier: "weekly" }), "weekly");
  assert.equal(shareTier({ mode: "archive", tier: "easy" }), "archive");
  assert.equal(shareTier({ mode: "practice", tier: null }), "practice");
  const { sent, fetcher } = recorder();
  countShare({ mode: "guest", tier: "medium" }, { nav: {}, fetcher });
  assert.deepEqual(sent[0].body, { event: "share", tier: "medium" });
});
