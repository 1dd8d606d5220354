// The browser's estimate of the server's clock, from an answer's Date header.

import { test } from "node:test";
import assert from "node:assert/strict";

import { clockOffset } from "../../frontend/static/frontend/js/api.js";

test("a browser an hour fast reads the server's time", () => {
  const server = Date.parse("Mon, 30 Nov 2026 12:00:00 GMT");
  const sent = server + 3_600_000 + 200; // the browser's clock, one hour ahead
  const offset = clockOffset(sent, sent + 100, "Mon, 30 Nov 2026 12:00:00 GMT");
  // the header's whole second stands for its middle, met halfway through the trip
  assert.equal(offset, server + 500 - (sent + 50));
  assert.ok(Math.abs(sent + 50 + offset - server) <= 500);
});

test("no Date header, or a bad one: no estimate", () => {
  assert.equal(clockOffset(0, 10, ""), null);
  assert.equal(clockOffset(0, 10, "yesterday-ish"), null);
});
