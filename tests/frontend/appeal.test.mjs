// The moderators' notices on one's own player page (appeal.js): the words shown about an
// appeal, and a notice's text line by line as it was mailed.

import { test } from "node:test";
import assert from "node:assert/strict";

import { appealLine, noticeDay, noticeLines } from "../../frontend/static/frontend/js/shared/appeal.js";

test("a notice says whether it can still be appealed, and how an appeal went", () => {
  assert.equal(appealLine({ can_appeal: true, appeal: null }), "You can appeal this decision once.");
  assert.equal(appealLine({ can_appeal: false, appeal: { status: "open" } }), "Your appeal is waiting for a moderator.");
  assert.equal(appealLine({ can_appeal: false, appeal: { status: "upheld" } }), "Your appeal was heard: the decision stands.");
  assert.equal(appealLine({ can_appeal: false, appeal: null }), "");
});

test("a notice's text keeps its lines, markup and all, as text", () => {
  const notice = { text: "Taken off.\n\nThe moderator's reason: <b>bot</b>\n- Followed the line\n", created_at: "2026-12-05T08:00:00Z" };
  assert.deepEqual(noticeLines(notice), ["Taken off.", "The moderator's reason: <b>bot</b>", "- Followed the line"]);
  assert.equal(noticeDay(notice), "2026-12-05");
});
