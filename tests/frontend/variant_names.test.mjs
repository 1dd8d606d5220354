// Variants and tiers by the names people use (shared/format.js): the engine's titles, which
// every page carries in its site constants (frontend/templatetags/variant_names.py); and a
// message shown alone (a toast) as a sentence.

import assert from "node:assert/strict";
import { test } from "node:test";

import { asSentence, tierTitle, variantTitle } from "../../frontend/static/frontend/js/shared/format.js";

// As base.html writes them (tests/frontend/test_variant_names.py checks the page's copy).
const TITLES = { yukon: "Yukon", "double-yukon": "Double Yukon", "moosehide-runs": "Moosehide (runs only)" };

test("a variant's title from the page's table, take-back said in words", () => {
  assert.equal(variantTitle("double-yukon", TITLES), "Double Yukon");
  assert.equal(variantTitle("moosehide-runs", TITLES), "Moosehide (runs only)");
  assert.equal(variantTitle("yukon+takeback", TITLES), "Yukon with take-back");
});

test("without the table a name still never shows its hyphen", () => {
  assert.equal(variantTitle("triple-yukon", undefined), "triple yukon");
  assert.equal(variantTitle("", TITLES), "");
  assert.equal(variantTitle(null, TITLES), "");
});

test("tiers as a button says them", () => {
  assert.deepEqual(["easy", "medium", "hard", "weekly"].map(tierTitle), ["Easy", "Medium", "Hard", "Weekly"]);
  assert.equal(tierTitle(undefined), "");
});

test("a message shown alone starts with a capital, whatever its first character", () => {
  assert.equal(asSentence("the eight of spades cannot go on the six of spades: Yukon builds down"),
    "The eight of spades cannot go on the six of spades: Yukon builds down");
  assert.equal(asSentence("Move 8s>2 was not accepted"), "Move 8s>2 was not accepted");
  assert.equal(asSentence("éso no"), "Éso no");
  assert.equal(asSentence("𝑥 stays whole"), "𝑥 stays whole"); // a first character of two code units
  assert.equal(asSentence(""), "");
});
