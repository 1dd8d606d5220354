// The keyboard help (shared/keyboard_help.js): `?` opens it unless it is being typed, the
// current page's shortcuts come first, and every key a page's keydown handler answers to
// is in the list.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

import { SHORTCUTS, orderedShortcuts } from "../../frontend/static/frontend/js/shared/keyboard_help.js";
import { asksForHelp, isTypingTarget } from "../../frontend/static/frontend/js/shared/keyboard_keys.js";

const JS = new URL("../../frontend/static/frontend/js/", import.meta.url);

const node = (tagName, attrs = {}, isContentEditable = false) => ({
  tagName, isContentEditable, getAttribute: (name) => attrs[name] ?? null,
});
const press = (key, target, more = {}) => ({
  key, target, ctrlKey: false, metaKey: false, altKey: false, repeat: false, defaultPrevented: false, ...more,
});

test("typing a ? into a field is typing, not a shortcut", () => {
  for (const field of [node("TEXTAREA"), node("SELECT"), node("INPUT"), node("INPUT", { type: "number" }),
    node("INPUT", { type: "Search" }), node("DIV", {}, true)]) {
    assert.ok(isTypingTarget(field), field.tagName);
    assert.equal(asksForHelp(press("?", field)), false);
  }
  for (const other of [node("BUTTON"), node("INPUT", { type: "checkbox" }), node("INPUT", { type: "range" }),
    node("BODY"), node("DIV")]) {
    assert.equal(isTypingTarget(other), false, other.tagName);
  }
  assert.equal(isTypingTarget(null), false);
});

test("? alone asks for the help; with a modifier, held down, or taken by the page it does not", () => {
  const card = node("DIV");
  assert.ok(asksForHelp(press("?", card)));
  assert.equal(asksForHelp(press("/", card)), false);
  assert.equal(asksForHelp(press("?", card, { ctrlKey: true })), false);
  assert.equal(asksForHelp(press("?", card, { metaKey: true })), false);
  assert.equal(asksForHelp(press("?", card, { altKey: true })), false);
  assert.equal(asksForHelp(press("?", card, { repeat: true })), false);
  assert.equal(asksForHelp(press("?", card, { defaultPrevented: true })), false); // a win's cascade stopping
});

/** A page with the elements `present` (selectors) and nothing else. */
const pageWith = (...present) => ({ querySelector: (selector) => (present.includes(selector) ? {} : null) });

test("this page's shortcuts first, marked; the rest after", () => {
  const titles = (groups) => groups.map((g) => `${g.title}${g.here ? " *" : ""}`);
  const replay = orderedShortcuts(pageWith("[data-replay]"));
  assert.deepEqual(titles(replay).slice(0, 2), ["Everywhere *", "Replays *"]);
  assert.equal(replay.length, SHORTCUTS.length);
  assert.ok(replay.slice(2).every((g) => !g.here));
  const practice = orderedShortcuts(pageWith("[data-game]", '[data-game][data-mode="practice"]'));
  assert.deepEqual(titles(practice).filter((t) => t.endsWith("*")).length, 4);
  assert.equal(practice.at(-1).title, "Replays");
  const home = orderedShortcuts(pageWith());
  assert.deepEqual(titles(home).filter((t) => t.endsWith("*")), ["Everywhere *"]);
});

// How the list writes a key that a handler compares `event.key` with.
const LISTED_AS = { ArrowLeft: "←", ArrowRight: "→", ArrowUp: "↑", ArrowDown: "↓", " ": "Space", Escape: "Esc" };

test("every key a page's keydown handler answers to is listed", () => {
  const listed = new Set(SHORTCUTS.flatMap((g) => g.rows.flatMap((r) => r.keys.flat())));
  assert.ok(listed.has("?"));
  const files = ["pages/", "shared/"].flatMap((dir) => readdirSync(new URL(dir, JS)).map((name) => dir + name));
  let handlers = 0;
  for (const file of files.filter((f) => f.endsWith(".js"))) {
    const source = readFileSync(new URL(file, JS), "utf8");
    if (!source.includes('"keydown"') || file.endsWith("keyboard_help.js")) continue;
    handlers += 1;
    for (const [, key] of source.matchAll(/\bkey\s*[!=]==\s*"([^"]+)"/g)) {
      const shown = LISTED_AS[key] ?? (key.length === 1 ? key.toUpperCase() : key);
      assert.ok(listed.has(shown), `${file} answers to ${JSON.stringify(key)}, which the help does not list`);
    }
  }
  assert.ok(handlers >= 3, "board.js, play.js and replay.js at least");
});
