// The reminders form's words for a failed push subscription (shared/reminders.js): the
// browser's raw error ("Registration failed - permission denied", Chrome in a private
// window) is never what the player reads.

import { test } from "node:test";
import assert from "node:assert/strict";

import { ApiError } from "../../frontend/static/frontend/js/shared/api.js";
import { pushFailureText } from "../../frontend/static/frontend/js/shared/reminders.js";

test("the browser's refusal to subscribe is said in the page's words", () => {
  const refused = new DOMException("Registration failed - permission denied", "NotAllowedError");
  const text = pushFailureText(refused, true);
  assert.doesNotMatch(text, /Registration failed/);
  assert.match(text, /^This browser cannot receive notifications/);
  assert.match(text, /Email reminders still work\.$/);
  const aborted = new DOMException("Registration failed - push service error", "AbortError");
  assert.equal(pushFailureText(aborted, true), text);
  assert.equal(pushFailureText(new TypeError("Failed to register a ServiceWorker"), true), text);
});

test("a failure to turn them off says so, not that the browser cannot receive them", () => {
  const text = pushFailureText(new DOMException("Unsubscription failed", "AbortError"), false);
  assert.match(text, /^Notifications could not be turned off/);
});

test("the server's refusal keeps its own words, without the API's field name", () => {
  const body = { detail: "endpoint: not one this site sends to", errors: { endpoint: ["not one this site sends to"] } };
  assert.equal(pushFailureText(new ApiError(400, body.detail, body), true), "not one this site sends to");
  const offline = new ApiError(0, "the server cannot be reached; check your connection");
  assert.equal(pushFailureText(offline, true), "the server cannot be reached; check your connection");
});
