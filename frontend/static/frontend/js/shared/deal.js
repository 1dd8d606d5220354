// Deal numbers to layouts in the browser: the engine's deal algorithm (yukon/engine/deal.py,
// ARCHITECTURE.md "Fixed formats"), for offline practice, where no server deals.
//
// SplitMix64 seeded with the deal number drives a Fisher-Yates shuffle of the unshuffled
// pack (clubs, diamonds, hearts, spades, each Ace to King; with several decks that order
// once per deck); the columns take the pack in turn, bottom card first. Deal numbers run to
// 2^64 - 1, past what a JavaScript number holds exactly, so the arithmetic is BigInt.
// tests/frontend/deal.test.mjs checks every variant against the engine's own deals.

import { RANKS, SUITS } from "./cards.js";
import { applyMove, revealCard, variantOf } from "./rules.js";

// The engine's DEAL_ALGORITHM_VERSION and layout_version this file deals: a change on the
// server gets a new version there, and this file must follow before offline deals agree.
export const DEAL_ALGORITHM_VERSION = 1;
export const LAYOUT_VERSION = 1;
export const MAX_DEAL = (1n << 64n) - 1n;

const MASK = MAX_DEAL;
const range = (n) => Array.from({ length: n }, (_, i) => i);

// Face-down and face-up cards dealt to each column, column 1 first, by the number of decks
// (yukon/engine/variants.py: every one-deck variant deals like Yukon).
const LAYOUTS = {
  1: { down: range(7), up: [1, 5, 5, 5, 5, 5, 5] },
  2: { down: [...range(9), 8], up: Array(10).fill(6) },
  3: { down: range(13), up: Array(13).fill(6) },
  4: { down: range(16), up: [...Array(8).fill(6), ...Array(8).fill(5)] },
};

/** A deal number from text ("7", "18446744073709551615") as a BigInt, or null when the
 * text is not a whole number from 0 to 2^64 - 1. */
export function parseDealNumber(text) {
  const digits = String(text ?? "").trim();
  if (!/^[0-9]{1,20}$/.test(digits)) return null;
  const number = BigInt(digits);
  return number <= MAX_DEAL ? number : null;
}

// A JavaScript number past 2^53 may already be another number (2^53 + 1 reads as 2^53):
// such a deal is refused, never dealt as its neighbour.
function checkedNumber(number) {
  const value = typeof number === "bigint" ? number
    : typeof number === "number" ? (Number.isSafeInteger(number) ? BigInt(number) : null)
    : parseDealNumber(number);
  if (value === null || value < 0n || value > MAX_DEAL) {
    throw new RangeError(`deal number ${String(number).slice(0, 40)} is out of range: 0 <= N < 2**64`);
  }
  return value;
}

/** The pack after the shuffle, as card texts; with several decks each card carries its
 * deck as the rules mirror names copies ("9h#2"). */
export function shuffledDeck(number, decks = 1) {
  let state = checkedNumber(number);
  const pack = range(52 * decks);
  for (let i = pack.length - 1; i > 0; i--) {
    state = (state + 0x9E3779B97F4A7C15n) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
    z ^= z >> 31n;
    const j = Number(z % BigInt(i + 1));
    [pack[i], pack[j]] = [pack[j], pack[i]];
  }
  return pack.map((physical) => {
    const face = physical % 52;
    const text = RANKS[face % 13] + SUITS[Math.floor(face / 13)];
    return decks > 1 ? `${text}#${Math.floor(physical / 52) + 1}` : text;
  });
}

/**
 * Deal `number` in `variant` ("yukon", "double-yukon", "alaska+takeback"). Returns
 * {position, hidden}: the position as the rules mirror holds it (face-down cards counted),
 * and each column's face-down cards, bottom first, kept apart until they turn.
 */
export function dealGame(number, variant = "yukon") {
  const { decks } = variantOf({ variant });
  const layout = LAYOUTS[decks];
  const pack = shuffledDeck(number, decks);
  const columns = [];
  const hidden = [];
  let at = 0;
  layout.down.forEach((down, k) => {
    const size = down + layout.up[k];
    hidden.push(pack.slice(at, at + down));
    columns.push({ down, up: pack.slice(at + down, at + size) });
    at += size;
  });
  const foundations = Object.fromEntries(
    SUITS.split("").map((suit) => [suit, decks > 1 ? Array(decks).fill(0) : 0]));
  return { position: { variant, columns, foundations, score: 0, moves: 0 }, hidden };
}

/**
 * Play `moves` (the engine's move texts) on a game dealt by `dealGame`, turning each
 * uncovered card up from `hidden` as the server would. Returns {position, turned}: turned[i]
 * is the card move i turned up, or null. Throws on a move the rules refuse.
 */
export function playMoves(dealt, moves) {
  let position = dealt.position;
  const turned = [];
  for (const text of moves) {
    const step = applyMove(position, text);
    position = step.position;
    if (step.uncovered === null) {
      turned.push(null);
    } else {
      const column = position.columns[step.uncovered];
      const card = dealt.hidden[step.uncovered][column.down - 1];
      position = revealCard(position, step.uncovered, card);
      turned.push(card);
    }
  }
  return { position, turned };
}
