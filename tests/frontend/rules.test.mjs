// The browser's rules mirror must offer exactly the engine's legal moves.
//
// Reads the engine's shared vectors (yukon/tests/engine/vectors/positions.json, documented in
// docs/engine.md): positions in the engine's text form with their sorted legal moves.
// The mirror only ever sees the masked view, so each position is masked first: face-down
// cards become counts, exactly as the API sends them.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import {
  applyMove, fromText, illegalReason, legalMoves, parseMove, revealCard,
} from "../../frontend/static/frontend/js/shared/rules.js";

const here = dirname(fileURLToPath(import.meta.url));
const vectorsDir = join(here, "..", "..", "yukon", "tests", "engine", "vectors");
const vectorFile = process.env.RULES_VECTORS || join(vectorsDir, "positions.json");

/** Pull [{position, legal}] out of the vector file, whatever its outer shape. */
function readPositionVectors(file) {
  const data = JSON.parse(readFileSync(file, "utf8"));
  const list = Array.isArray(data) ? data : data.positions || data.vectors || [];
  return list.map((entry) => ({
    name: entry.name || entry.id || entry.position,
    position: entry.position || entry.text || entry.fen,
    legal: entry.legal || entry.legal_moves || entry.moves,
  })).filter((e) => typeof e.position === "string" && Array.isArray(e.legal));
}

const haveVectors = existsSync(vectorFile);

test("position vectors exist", { skip: !haveVectors && "no positions.json yet" }, () => {
  assert.ok(readPositionVectors(vectorFile).length > 0, "positions.json holds no positions");
});

if (haveVectors) {
  for (const vec of readPositionVectors(vectorFile)) {
    test(`legal moves: ${vec.name}`, () => {
      const pos = fromText(vec.position);
      assert.deepEqual(legalMoves(pos).sort(), [...vec.legal].sort());
      // Every legal move also passes illegalReason, and applies.
      for (const text of vec.legal) {
        const m = parseMove(text);
        assert.equal(illegalReason(pos, m.card, m.dest), null, text);
        applyMove(pos, text);
      }
    });
  }
}

// The deal algorithm of ARCHITECTURE.md, only to build start positions for games.json.
function dealDeck(number) {
  const mask = (1n << 64n) - 1n;
  let state = BigInt(number);
  const next = () => {
    state = (state + 0x9E3779B97F4A7C15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & mask;
    return z ^ (z >> 31n);
  };
  const deck = [];
  for (const suit of "cdhs") for (const rank of "A23456789TJQK") deck.push(rank + suit);
  for (let i = 51; i >= 1; i--) {
    const j = Number(next() % BigInt(i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

function startPosition(number, variant) {
  const deck = dealDeck(number);
  const columns = [];
  let at = 0;
  for (let k = 0; k < 7; k++) {
    const size = k === 0 ? 1 : k + 5;
    columns.push({ down: k, up: deck.slice(at + k, at + size) });
    at += size;
  }
  return { variant, columns, foundations: { c: 0, d: 0, h: 0, s: 0 }, score: 0, moves: 0 };
}

const gamesFile = join(vectorsDir, "games.json");
const dealsFile = join(vectorsDir, "deals.json");

test("deals.json matches the deal algorithm used here", { skip: !existsSync(dealsFile) && "no deals.json yet" }, () => {
  for (const d of JSON.parse(readFileSync(dealsFile, "utf8")).deals) {
    assert.deepEqual(dealDeck(d.number), d.deck, `deal ${d.number}`);
  }
});

if (existsSync(gamesFile)) {
  for (const g of JSON.parse(readFileSync(gamesFile, "utf8")).games) {
    test(`game replays on the masked view: ${g.name}`, () => {
      let pos = startPosition(g.deal, g.variant);
      const stop = g.error ? g.error.index : g.moves.length;
      for (let i = 0; i < stop; i++) {
        const text = g.moves[i];
        assert.ok(legalMoves(pos).includes(text), `${text} should be legal at ply ${i}`);
        const { position, uncovered } = applyMove(pos, text);
        assert.equal(uncovered !== null, Boolean(g.turned[i]), `turn at ply ${i}`);
        pos = uncovered === null ? position : revealCard(position, uncovered, g.turned[i]);
      }
      if (g.error) assert.ok(!legalMoves(pos).includes(g.error.move), g.error.move);
      const final = fromText(g.final);
      assert.deepEqual(pos, final);
      if (!g.error && g.status === "stuck") assert.deepEqual(legalMoves(pos), []);
    });
  }
}

// Hand-made positions need not hold a whole deck: the mirror never counts cards.
test("illegal moves get a short reason", () => {
  const pos = fromText("yukon .5h/.Kc/.Qd/.2c/.Js/.Th/. A--- 0 0");
  assert.match(illegalReason(pos, "5h", 6), /only a King/);
  assert.match(illegalReason(pos, "Th", 1), /cannot go on the king of clubs/);
  assert.equal(illegalReason(pos, "Qd", 1), null);
  assert.equal(illegalReason(pos, "2c", "F"), null);
  assert.match(illegalReason(pos, "5h", "F"), /hearts foundation needs the ace of hearts/);
  assert.match(illegalReason(pos, "Kc", 6), /already starts its column/);
});

test("a move that uncovers a card waits for the server to name it", () => {
  const pos = fromText("yukon .5h/9s.KcQd/.2c/./././. A--- 0 0");
  assert.equal(illegalReason(pos, "Qd", 3), "only a King can go into an empty column");
  const step = applyMove(pos, "Kc>4");
  assert.equal(step.uncovered, 1);
  assert.deepEqual(step.position.columns[1], { down: 1, up: [] });
  assert.ok(!legalMoves(step.position).some((m) => m.endsWith(">2")));
  const named = revealCard(step.position, 1, "9s");
  assert.deepEqual(named.columns[1], { down: 0, up: ["9s"] });
  assert.equal(named.score, 5);
});
