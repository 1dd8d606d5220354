// The rules mirror on Double, Triple and Quadruple Yukon: legal moves of every position in
// yukon/tests/engine/vectors/multi-deck.json (hand-counted ones included), the copies named.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  applyMove, fromMasked, fromText, isWon, legalMoves, parseMove, revealCard,
} from "../../frontend/static/frontend/js/shared/rules.js";

const VECTORS = JSON.parse(
  readFileSync(new URL("../../yukon/tests/engine/vectors/multi-deck.json", import.meta.url), "utf8"),
);

/** The engine writes a copy's deck only when the column shows two copies of the card. */
function engineText(pos, text) {
  const m = parseMove(text);
  if (m.source === undefined) return text;
  const face = m.card.slice(0, 2);
  const twins = pos.columns[m.source].up.filter((c) => c.startsWith(face)).length;
  return twins > 1 ? text : text.replace(/#\d/, "");
}

for (const entry of VECTORS.positions) {
  test(`legal moves: ${entry.name}`, () => {
    const pos = fromText(entry.text);
    const got = legalMoves(pos).map((t) => engineText(pos, t)).sort();
    assert.deepEqual(got, [...entry.legal].sort());
  });
}

test("a move names its column and copy, and plays", () => {
  const pos = fromText(VECTORS.positions.find((p) => p.name === "double-yukon-two-copies").text);
  assert.equal(pos.columns.length, 10);
  assert.deepEqual(pos.columns[2].up, ["Th#1", "Th#2"]);
  const { position } = applyMove(pos, "3:Th#1>2");
  assert.deepEqual(position.columns[1].up, ["Qh#1", "Js#1", "Th#1", "Th#2"]);
  assert.throws(() => applyMove(pos, "3:Th#1>F"), /only the last card/);
  const home = applyMove(pos, "5:Ts#1>F").position;
  assert.deepEqual(home.foundations.s, [10, 9]);
});

test("the triple hand position is won by the mirror too", () => {
  let pos = fromText(VECTORS.positions.find((p) => p.name === "triple-yukon-kings").text);
  for (const text of ["2:Ks#2>F", "4:Ks#3>F", "1:Qs#3>F"]) pos = applyMove(pos, text).position;
  assert.deepEqual(pos.foundations.s, [13, 13, 12]);
  assert.equal(isWon(pos), false);
});

test("the API's masked view becomes copies", () => {
  const masked = {
    variant: "double-yukon",
    columns: [{ down: 0, up: ["9h", "9h"], copies: [2, 1] }],
    foundations: { c: [0, 0], d: [0, 0], h: [8, 0], s: [0, 0] },
    score: 0, moves: 0,
  };
  const pos = fromMasked(masked);
  assert.deepEqual(pos.columns[0].up, ["9h#2", "9h#1"]);
  assert.deepEqual(pos.foundations.h, [8, 0]);
  assert.notEqual(pos.foundations.h, masked.foundations.h);
});

test("a logged game replays: unlabelled moves find their copy, turned cards get one", () => {
  const masked = {
    variant: "double-yukon",
    columns: [
      { down: 1, up: ["Ah"], copies: [2] },
      { down: 0, up: ["2c", "Ah"], copies: [1, 1] },
      ...Array.from({ length: 8 }, () => ({ down: 0, up: [], copies: [] })),
    ],
    foundations: { c: [0, 0], d: [0, 0], h: [0, 0], s: [0, 0] },
    score: 0, moves: 0,
  };
  let step = applyMove(fromMasked(masked), "1:Ah>F");
  assert.equal(step.uncovered, 0);
  const pos = revealCard(step.position, 0, "Kd");
  assert.deepEqual(pos.columns[0].up, ["Kd#1"]);
  step = applyMove(pos, "2:Ah>F");
  assert.deepEqual(step.position.foundations.h, [1, 1]);
});
