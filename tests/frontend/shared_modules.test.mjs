// The modules the pages share (frontend/static/frontend/js/shared/): each only exports, so
// it loads without a page around it; and the helpers that several pages once wrote each
// for themselves (a time, a player's link, a number cell, a list of badges).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";

import { formatElapsed, formatTime } from "../../frontend/static/frontend/js/shared/format.js";
import { badgeList, escapeHtml, numberCell, playerLink } from "../../frontend/static/frontend/js/shared/html.js";

const SHARED = new URL("../../frontend/static/frontend/js/shared/", import.meta.url);

test("every shared module loads without a page: nothing in it runs on import", async () => {
  const names = readdirSync(SHARED).filter((name) => name.endsWith(".js"));
  assert.ok(names.length >= 10, names.join(" "));
  for (const name of names) await import(new URL(name, SHARED));
});

test("times: m:ss, h:mm:ss from an hour on, and a stand-in where there is none", () => {
  assert.equal(formatTime(0), "0:00");
  assert.equal(formatTime(312.9), "5:12");
  assert.equal(formatTime(3725), "1:02:05");
  assert.equal(formatElapsed(312_000), "5:12");
  assert.equal(formatElapsed(null), "");
  assert.equal(formatElapsed(undefined, "–"), "–");
  assert.equal(formatElapsed(0, "–"), "0:00");
});

test("HTML pieces escape what the API sends", () => {
  assert.equal(escapeHtml(`<b a="1">'&`), "&#60;b a=&#34;1&#34;&#62;&#39;&#38;");
  assert.equal(escapeHtml(null), "");
  assert.equal(playerLink("Ann <3"), `<a href="/players/Ann%20%3C3/">Ann &#60;3</a>`);
  assert.equal(numberCell(7), "<td class=num>7</td>");
});

test("badges, with the month they were won in where the page wants it", () => {
  const badges = [{ tier: "hard", title: "Every day of <May>", name: "Hard May", month: "2026-05" }];
  assert.equal(badgeList(badges),
    `<ul class="badges"><li class="badge hard" title="Every day of &#60;May&#62;">Hard May</li></ul>`);
  assert.equal(badgeList(badges, { withMonth: true }),
    `<ul class="badges"><li class="badge hard" title="Every day of &#60;May&#62;">Hard May <span class="muted">2026-05</span></li></ul>`);
});
