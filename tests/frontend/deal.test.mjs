// The browser's deal algorithm (shared/deal.js, offline practice) deals what the engine deals.
//
// deal_vectors.json holds the engine's starting positions for every variant of the practice
// page and deals 0, 1, 7, 2^53 + 1, 12345678901234567890 and 2^64 - 1 (written from the
// engine; tests/frontend/test_deal_vectors.py fails when it goes stale). The engine's whole
// games (yukon/tests/engine/vectors/games.json and multi-deck.json) are then played offline
// from deal.js's deals: every card must turn up as it did on the server.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  DEAL_ALGORITHM_VERSION, LAYOUT_VERSION, MAX_DEAL, dealGame, parseDealNumber, playMoves, shuffledDeck,
} from "../../frontend/static/frontend/js/shared/deal.js";
import { VARIANTS, fromText } from "../../frontend/static/frontend/js/shared/rules.js";

const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
const DEALS = read("./deal_vectors.json");
const ENGINE = "../../yukon/tests/engine/vectors/";
const GAMES = [...read(`${ENGINE}games.json`).games, ...read(`${ENGINE}multi-deck.json`).games];

/** A dealt game in the engine's text form: face-down cards, ".", face-up cards per column;
 * with several decks a sixth field gives every card's deck. */
function engineText({ position, hidden }) {
  const face = (card) => card.slice(0, 2);
  const columns = position.columns.map((c, k) => hidden[k].map(face).join("") + "." + c.up.map(face).join(""));
  const decks = Array.isArray(position.foundations.c) ? position.foundations.c.length : 1;
  const text = `${position.variant} ${columns.join("/")} ${"-".repeat(4 * decks)} 0 0`;
  if (decks === 1) return text;
  const copies = position.columns.flatMap((c, k) => [...hidden[k], ...c.up]).map((card) => card.slice(3));
  return `${text} ${copies.join("")}`;
}

test("the vectors are of this file's algorithm and layouts, for every variant the mirror plays", () => {
  assert.equal(DEALS.algorithm_version, DEAL_ALGORITHM_VERSION);
  for (const version of Object.values(DEALS.layout_versions)) assert.equal(version, LAYOUT_VERSION);
  assert.deepEqual(Object.keys(DEALS.layout_versions).sort(), Object.keys(VARIANTS).sort());
  const numbers = new Set(DEALS.deals.map((d) => d.number));
  for (const n of ["0", "1", "7", "9007199254740993", String(MAX_DEAL)]) assert.ok(numbers.has(n), n);
});

for (const vector of DEALS.deals) {
  test(`deal ${vector.number} of ${vector.variant} is the engine's`, () => {
    const dealt = dealGame(vector.number, vector.variant);
    assert.equal(engineText(dealt), vector.text);
    // The face-down cards are counted in the position, never named there.
    assert.deepEqual(dealt.position.columns.map((c) => c.down), dealt.hidden.map((h) => h.length));
    assert.deepEqual(dealGame(BigInt(vector.number), vector.variant), dealt);
  });
}

test("a deal number is a whole number from 0 to 2^64 - 1", () => {
  assert.equal(parseDealNumber("7"), 7n);
  assert.equal(parseDealNumber(" 18446744073709551615 "), MAX_DEAL);
  for (const bad of ["18446744073709551616", "-1", "", "7.5", "1e3", "seven", null, undefined]) {
    assert.equal(parseDealNumber(bad), null, String(bad));
  }
  assert.throws(() => shuffledDeck(MAX_DEAL + 1n), RangeError);
  assert.throws(() => shuffledDeck(2 ** 60), RangeError); // a number already rounded
  assert.throws(() => dealGame(7, "spider"), /unknown variant/);
  assert.deepEqual(dealGame(7), dealGame("7", "yukon"));
  assert.equal(dealGame(7, "alaska+takeback").position.variant, "alaska+takeback");
});

for (const game of GAMES) {
  test(`the engine's game plays offline: ${game.name}`, () => {
    const moves = game.moves.slice(0, game.error ? game.error.index : game.moves.length);
    const { position, turned } = playMoves(dealGame(game.deal, game.variant), moves);
    assert.deepEqual(turned.map((card) => card && card.slice(0, 2)), game.turned.slice(0, moves.length));
    assert.deepEqual(position, fromText(game.final));
    assert.equal(position.score, game.score);
  });
}
