// The modules the pages share (frontend/static/frontend/js/shared/): each only exports, so
// it loads without a page around it; and the helpers that several pages once wrote each
// for themselves (a time, a player's link, a number cell, a list of badges), built as
// elements with what the API sends as text, never as markup.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";

import { formatElapsed, formatTime } from "../../frontend/static/frontend/js/shared/format.js";
import { badgeList, el, fill, numberCell, playerLink } from "../../frontend/static/frontend/js/shared/html.js";

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

// Just enough of a document for the builders (node has none): elements with attributes and
// children, text nodes, and the markup a browser would serialize them to.
const escapeText = (text) => text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]);
class FakeElement {
  constructor(tag, ns = null) { Object.assign(this, { tag, ns, attributes: new Map(), children: [] }); }
  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  append(...nodes) { this.children.push(...nodes.map((n) => (typeof n === "string" ? { text: n } : n))); }
  replaceChildren(...nodes) { this.children = []; this.append(...nodes); }
  get outerHTML() {
    const attrs = [...this.attributes].map(([k, v]) => ` ${k}="${escapeText(v).replace(/"/g, "&quot;")}"`).join("");
    const inner = this.children.map((c) => (c instanceof FakeElement ? c.outerHTML : escapeText(c.text))).join("");
    return `<${this.tag}${attrs}>${inner}</${this.tag}>`;
  }
}
const fakeDocument = {
  createElement: (tag) => new FakeElement(tag),
  createElementNS: (ns, tag) => new FakeElement(tag, ns),
};
/** A test run with the fake as `document`, which is gone again after it (other modules here
 * tell "no page" by its absence). */
const withDocument = (body) => () => {
  globalThis.document = fakeDocument;
  try {
    body();
  } finally {
    delete globalThis.document;
  }
};

test("elements: attributes and text from data stay attributes and text", withDocument(() => {
  const hostile = `<img src=x onerror=alert(1)>`;
  const link = el("a", { href: "/x/", title: hostile, hidden: true, "data-off": false, "data-none": null }, hostile, 7, null, false, "");
  assert.equal(link.outerHTML, `<a href="/x/" title="&lt;img src=x onerror=alert(1)&gt;" hidden="">&lt;img src=x onerror=alert(1)&gt;7</a>`);
  assert.equal(link.children.length, 2, "the markup is one text node, not an element");
  assert.equal(el("p", "muted", ["a", ["b", el("b", null, 0)]]).outerHTML, `<p class="muted">ab<b>0</b></p>`);
  const box = el("div", null, "old");
  fill(box, el("i", null, "new"), false);
  assert.equal(box.outerHTML, "<div><i>new</i></div>");
}));

test("a player's link and a number cell", withDocument(() => {
  assert.equal(playerLink("Ann <3").outerHTML, `<a href="/players/Ann%20%3C3/">Ann &lt;3</a>`);
  assert.equal(numberCell(7).outerHTML, `<td class="num">7</td>`);
}));

test("badges, with the month they were won in where the page wants it", withDocument(() => {
  const badges = [{ tier: "hard", title: "Every day of <May>", name: "Hard May", month: "2026-05" }];
  assert.equal(badgeList(badges).outerHTML,
    `<ul class="badges"><li class="badge hard" title="Every day of &lt;May&gt;">Hard May</li></ul>`);
  assert.equal(badgeList(badges, { withMonth: true }).outerHTML,
    `<ul class="badges"><li class="badge hard" title="Every day of &lt;May&gt;">Hard May <span class="muted">2026-05</span></li></ul>`);
}));
