// Accessible names start with what the card shows (cards.js cardLabel), and the board
// reserves a fresh deal's size before the deal arrives (board.js DEAL_SHAPE).

import { test } from "node:test";
import assert from "node:assert/strict";

import { DEAL_SHAPE, cardWidth } from "../../frontend/static/frontend/js/shared/board.js";
import { RANKS, SUITS, cardLabel, rankLabel } from "../../frontend/static/frontend/js/shared/cards.js";

test("a card's name starts with the rank its corner shows", () => {
  assert.equal(cardLabel("4d"), "4 of diamonds");
  assert.equal(cardLabel("Th"), "10 of hearts");
  assert.equal(cardLabel("Ks"), "king of spades");
  assert.equal(cardLabel("Ac"), "ace of clubs");
  for (const rank of RANKS) {
    for (const suit of SUITS) {
      const card = rank + suit;
      assert.ok(cardLabel(card).toLowerCase().startsWith(rankLabel(card).toLowerCase()), card);
    }
  }
});

test("the empty board is sized exactly as the deal that fills it", () => {
  const dealt = [{ down: 0, up: ["8s"] }, ...[1, 2, 3, 4, 5, 6].map((k) => ({ down: k, up: ["a", "b", "c", "d", "e"] }))];
  for (const [width, height] of [[390, 640], [1280, 700], [740, 260], [360, 560]]) {
    assert.equal(cardWidth(width, height, 6, DEAL_SHAPE), cardWidth(width, height, 6, dealt), `${width}x${height}`);
  }
});
