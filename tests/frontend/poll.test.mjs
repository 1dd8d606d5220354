// Polling an open page's data (poll.js): ETags sent back, and nothing drawn once stopped.

import { test } from "node:test";
import assert from "node:assert/strict";

import { poll } from "../../frontend/static/frontend/js/shared/poll.js";

globalThis.document = { visibilityState: "visible" };

/** A stand-in for the browser's fetch whose answers the test releases one by one. */
function pendingFetch() {
  const calls = [];
  globalThis.fetch = (url, options) =>
    new Promise((resolve) => calls.push({ url, headers: options.headers, resolve }));
  const answer = (call, status, body, etag = "") =>
    call.resolve({ status, headers: { get: () => etag }, json: async () => body });
  return { calls, answer };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
/** Settle until `done()` holds (at most about two seconds): on a loaded machine the poll's
 * 1 ms timer may fire after one 5 ms settle has already run out. */
async function until(done) {
  for (let i = 0; i < 400 && !done(); i += 1) await settle();
}

test("the answer is drawn, and the next request sends its ETag back", async () => {
  const { calls, answer } = pendingFetch();
  const drawn = [];
  const stop = poll("/board/", (body) => drawn.push(body), { every: 1 });
  try {
    answer(calls[0], 200, { page: 1 }, '"t1"');
    await until(() => calls.length > 1);
    assert.deepEqual(drawn, [{ page: 1 }]);
    assert.equal(calls[1].headers["If-None-Match"], '"t1"');
  } finally {
    stop(); // even when an assertion fails: its next request must not reach the next test
  }
});

test("an answer arriving after stop() is not drawn, nor its error reported", async () => {
  const { calls, answer } = pendingFetch();
  const drawn = [];
  const errors = [];
  const stopFirst = poll("/board/?page=2", (body) => drawn.push(body), { onError: (code) => errors.push(code) });
  const stopSecond = poll("/board/?page=3", (body) => drawn.push(body), { onError: (code) => errors.push(code) });
  stopFirst();  // the player went to another page while these were on their way
  stopSecond();
  answer(calls[0], 200, { page: 2 }, '"t2"');
  answer(calls[1], 404, { detail: "page 3 does not exist" });
  await settle();
  assert.deepEqual(drawn, []);
  assert.deepEqual(errors, []);
  assert.equal(calls.length, 2, "no request after stop()");
});
