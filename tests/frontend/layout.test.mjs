// Card size and column spacing of the board (board.js cardWidth and strips).

import { test } from "node:test";
import assert from "node:assert/strict";

import { cardWidth, strips } from "../../frontend/static/frontend/js/shared/board.js";

const column = (down, up) => ({ down, up: Array.from({ length: up }, (_, i) => `c${i}`) });
const deal = [column(0, 1), ...[1, 2, 3, 4, 5, 6].map((n) => column(n, 5))];
const GAP = 12;

/** Where the column ends, and its narrowest face-up strip, at the width chosen. */
function laidOut(width, height, columns) {
  const cw = cardWidth(width, height, GAP, columns);
  const ch = Math.round(cw * 1.4);
  const available = height - ch - 1.5 * GAP - 4; // the top row, the gap, the slack
  return columns.map((c) => {
    const { down, up } = strips(c, ch, available);
    return { ch, cw, end: ch + c.down * down + Math.max(0, c.up.length - 1) * up, up, available };
  });
}

test("a fresh deal on a desktop board: full-size cards, roomy strips", () => {
  for (const c of laidOut(1200, 700, deal)) {
    assert.equal(c.cw, 112);
    assert.ok(c.end <= c.available + 1e-9 && c.up >= 0.3 * c.ch - 1e-9);
  }
});

test("a long column shrinks the cards so every rank still shows", () => {
  const long = [...deal.slice(0, 6), column(1, 13)];
  const fresh = laidOut(1200, 700, deal)[0].cw;
  const rows = laidOut(1200, 700, long);
  assert.ok(rows[0].cw < fresh);
  for (const c of rows) {
    assert.ok(c.end <= c.available + 1e-9, `ends at ${c.end} of ${c.available}`);
    if (c.up) assert.ok(c.up >= 0.29 * c.ch - 1, `strip ${c.up} of ${c.ch}`);
  }
});

test("a board too small even for the smallest cards: the column still fits", () => {
  const long = [...deal.slice(0, 6), column(6, 19)];
  const rows = laidOut(300, 330, long);
  assert.equal(rows[0].cw, 30);
  for (const c of rows) assert.ok(c.end <= c.available + 1e-9, `ends at ${c.end} of ${c.available}`);
  assert.ok(rows[6].up < 0.29 * rows[6].ch); // thinner than MIN_UP, but inside the board
});
