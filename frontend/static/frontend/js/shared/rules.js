// The rules mirror: legal moves on a masked position, for instant feedback only.
//
// The server's engine (yukon/engine) is the referee; this file mirrors just enough of it
// to highlight targets, refuse an obviously illegal drop with a reason, and apply a move
// before the server answers. tests/frontend checks it against yukon/tests/engine/vectors.
//
// A masked position is the JSON the API sends:
//   {variant, columns: [{down, up: ["Kh", ...]} x7], foundations: {c, d, h, s}, score, moves}
// Face-down cards are only counted, and no rule ever needs their identity. After a move
// that uncovers a face-down card the client keeps the column as {down: n, up: []} until
// the server names the card: such a column has an unknown top and takes no part in moves.

import { RANKS, SUITS, isRed, rankOf, suitName, suitOf, theCardName } from "./cards.js";
import { gettext, interpolate } from "./i18n.js";

// build: "alternate" (colour), "suit" (the card's own suit), "other" (any suit but its own)
export const VARIANTS = {
  yukon: { title: "Yukon", build: "alternate", upOrDown: false, runsOnly: false },
  russian: { title: "Russian", build: "suit", upOrDown: false, runsOnly: false },
  alaska: { title: "Alaska", build: "suit", upOrDown: true, runsOnly: false },
  moosehide: { title: "Moosehide", build: "other", upOrDown: false, runsOnly: false },
  "moosehide-runs": {
    title: "Moosehide (runs only)", build: "alternate", upOrDown: false, runsOnly: true,
  },
  // Yukon with 2, 3 or 4 decks (docs/engine.md): two identical cards can both be face up,
  // so the mirror names a card by its copy ("9h#2", see fromMasked) and a move by its
  // source column ("3:9h#2>4").
  "double-yukon": { title: "Double Yukon", build: "alternate", upOrDown: false, runsOnly: false, decks: 2 },
  "triple-yukon": { title: "Triple Yukon", build: "alternate", upOrDown: false, runsOnly: false, decks: 3 },
  "quadruple-yukon": {
    title: "Quadruple Yukon", build: "alternate", upOrDown: false, runsOnly: false, decks: 4,
  },
};

// How each variant builds, as the end of a refusal ("... : Alaska builds up or down in
// suit"): the whole clause one message, since the variant's name and the words around it
// change places between languages.
const BUILD_RULES = {
  "alternate,down": (title) => interpolate(gettext("%(variant)s builds down in alternating colour"), { variant: title }),
  "alternate,up-or-down": (title) => interpolate(gettext("%(variant)s builds up or down in alternating colour"), { variant: title }),
  "suit,down": (title) => interpolate(gettext("%(variant)s builds down in suit"), { variant: title }),
  "suit,up-or-down": (title) => interpolate(gettext("%(variant)s builds up or down in suit"), { variant: title }),
  "other,down": (title) => interpolate(gettext("%(variant)s builds down in any suit but the card's own"), { variant: title }),
  "other,up-or-down": (title) => interpolate(gettext("%(variant)s builds up or down in any suit but the card's own"), { variant: title }),
};

// The variants' names as players read them: the page's site constants carry them in its
// language (frontend/templatetags/variant_names.py); without a page (node's tests), English.
let pageTitles;
function variantName(v) {
  pageTitles ??= readPageTitles();
  return pageTitles[v.name] ?? v.title;
}
function readPageTitles() {
  try {
    return JSON.parse(globalThis.document?.getElementById("site-constants")?.textContent || "{}")?.variant_titles ?? {};
  } catch {
    return {}; // unreadable constants: the English titles
  }
}

export function variantOf(pos) {
  const [name, option] = String(pos.variant).split("+");
  const base = VARIANTS[name];
  if (!base) throw new Error(`unknown variant ${pos.variant}`);
  return { decks: 1, ...base, name, takeback: option === "takeback" };
}

/** Is `pos` a multi-deck game (cards named "9h#2", moves "3:9h#2>4")? */
export function isMultiDeck(pos) {
  return variantOf(pos).decks > 1;
}

/**
 * The API's masked position as the mirror holds it: in a multi-deck game each face-up card
 * becomes "face#deck" (from the column's `copies`), so that two identical cards stay two
 * cards; one-deck positions are returned as they are.
 */
export function fromMasked(pos) {
  if (!isMultiDeck(pos)) return pos;
  return {
    ...pos,
    columns: pos.columns.map((c) => ({
      down: c.down, up: c.up.map((card, i) => `${card}#${c.copies[i]}`),
    })),
    foundations: Object.fromEntries(SUITS.split("").map((s) => [s, [...pos.foundations[s]]])),
  };
}

/** The face of a card ("9h#2" -> "9h"). */
export function faceOf(card) {
  return card.slice(0, 2);
}

/** How many cards of `suit` are home (over all its foundations). */
export function homeCount(pos, suit) {
  const n = pos.foundations[suit];
  return Array.isArray(n) ? n.reduce((a, b) => a + b, 0) : n;
}

/** The foundation (index within its suit) that takes `card` now, or -1. */
function homePile(pos, card) {
  const n = pos.foundations[suitOf(card)];
  return Array.isArray(n) ? n.indexOf(rankOf(card) - 1) : n === rankOf(card) - 1 ? 0 : -1;
}

/** How the tableau of `v` builds, named: "Yukon builds down in alternating colour". */
export function buildRule(v) {
  return BUILD_RULES[`${v.build},${v.upOrDown ? "up-or-down" : "down"}`](variantName(v));
}

/** May `card` be placed on `onto` in the tableau? */
export function fits(v, card, onto) {
  const sameKind =
    v.build === "suit" ? suitOf(card) === suitOf(onto)
    : v.build === "other" ? suitOf(card) !== suitOf(onto)
    : isRed(card) !== isRed(onto);
  const gap = rankOf(onto) - rankOf(card);
  return sameKind && (gap === 1 || (v.upOrDown && gap === -1));
}

/** Is the pile (bottom card first) an ordered run, each card fitting on the one below? */
export function isRun(v, cards) {
  for (let i = 0; i + 1 < cards.length; i++) {
    if (!fits(v, cards[i + 1], cards[i])) return false;
  }
  return true;
}

/** A move's text: "9h>4" in one-deck games; "3:9h#2>4" (the source column named) when
 * `pos` is a multi-deck game. */
export function moveText(card, dest, pos = null) {
  const to = `>${dest === "F" ? "F" : dest + 1}`;
  if (card.length === 2) return card + to;
  const where = locate(pos, card);
  return `${where.col + 1}:${card}${to}`;
}

/** "9h>4" -> {card: "9h", dest: 3}; "Ac>F" -> {card: "Ac", dest: "F"}; "3:9h#2>10" ->
 * {card: "9h#2", dest: 9, source: 2}; null if malformed. */
export function parseMove(text) {
  const m = /^(?:([1-9]|1[0-6]):)?([A2-9TJQK][cdhs](?:#[1-4])?)>([1-9]|1[0-6]|F)$/.exec(String(text));
  if (!m) return null;
  const move = { card: m[2], dest: m[3] === "F" ? "F" : Number(m[3]) - 1 };
  if (m[1]) move.source = Number(m[1]) - 1;
  return move;
}

/** Where a card lies: {col, index} for a face-up tableau card, {home: true}, or null. */
export function locate(pos, card) {
  for (let k = 0; k < pos.columns.length; k++) {
    const index = pos.columns[k].up.indexOf(card);
    if (index >= 0) return { col: k, index };
  }
  if (card.length === 2 && pos.foundations[suitOf(card)] >= rankOf(card)) return { home: true };
  return null;
}

function topOf(column) {
  return column.up.length ? column.up[column.up.length - 1] : null;
}
function isEmpty(column) {
  return column.down === 0 && column.up.length === 0;
}
function foundationTop(pos, suit) {
  const n = pos.foundations[suit];
  return n && !Array.isArray(n) ? RANKS[n - 1] + suit : null;
}

/** Every legal move as text, in the engine's notation (order unspecified). */
export function legalMoves(pos) {
  const v = variantOf(pos);
  const cols = pos.columns;
  const moves = [];
  const empties = [];
  const n = cols.length;
  for (let k = 0; k < n; k++) {
    const col = cols[k];
    if (isEmpty(col)) { empties.push(k); continue; }
    const top = topOf(col);
    if (!top) continue; // a card is turning: its identity is not known yet
    if (homePile(pos, top) >= 0) moves.push(moveText(top, "F", pos));
    for (let j = 0; j < n; j++) {
      if (j === k) continue;
      const up = cols[j].up;
      for (let i = 0; i < up.length; i++) {
        if (fits(v, up[i], top) && (!v.runsOnly || isRun(v, up.slice(i)))) {
          moves.push(moveText(up[i], k, pos));
        }
      }
    }
  }
  if (empties.length) {
    for (let j = 0; j < n; j++) {
      const col = cols[j];
      col.up.forEach((card, i) => {
        if (rankOf(card) !== 13) return;
        if (col.down === 0 && i === 0) return; // already the bottom card: nothing to gain
        if (v.runsOnly && !isRun(v, col.up.slice(i))) return;
        for (const k of empties) moves.push(moveText(card, k, pos));
      });
    }
  }
  if (v.takeback) {
    for (const suit of SUITS) {
      const card = foundationTop(pos, suit);
      if (!card) continue;
      for (let k = 0; k < cols.length; k++) {
        const top = topOf(cols[k]);
        if (top ? fits(v, card, top) : isEmpty(cols[k]) && rankOf(card) === 13) {
          moves.push(moveText(card, k));
        }
      }
    }
  }
  return moves;
}

/** The legal destinations of one card: columns (0..6) and/or "F". */
export function targetsOf(pos, card) {
  const out = [];
  for (const text of legalMoves(pos)) {
    const m = parseMove(text);
    if (m.card === card) out.push(m.dest);
  }
  return out;
}

/** Why moving `card` to `dest` (0..6 or "F") is illegal, in a few words; null if legal. */
export function illegalReason(pos, card, dest) {
  const v = variantOf(pos);
  const where = locate(pos, card);
  const theCard = () => theCardName(card);
  const suit = () => suitName(suitOf(card));
  // Translators: %(card)s is a card's name with its article ("the queen of hearts").
  if (!where) return interpolate(gettext("%(card)s is face down"), { card: theCard() });
  if (where.home && !v.takeback) return gettext("a card on a foundation stays there");
  if (where.home && dest === "F") return interpolate(gettext("%(card)s is already home"), { card: theCard() });
  if (dest === "F") {
    const up = pos.columns[where.col].up;
    if (where.index !== up.length - 1) return gettext("only the last card of a column can go home");
    const have = pos.foundations[suitOf(card)];
    if (Array.isArray(have)) {
      if (homePile(pos, card) >= 0) return null;
      const below = RANKS[rankOf(card) - 2] + suitOf(card);
      return interpolate(gettext("no %(suit)s foundation has %(card)s on top"),
        { suit: suit(), card: theCardName(below) });
    }
    if (have !== rankOf(card) - 1) {
      const needed = RANKS[have] + suitOf(card);
      return interpolate(gettext("the %(suit)s foundation needs %(card)s first"),
        { suit: suit(), card: theCardName(needed) });
    }
    return null;
  }
  if (!where.home && where.col === dest) {
    return interpolate(gettext("%(card)s is already in column %(column)s"), { card: theCard(), column: dest + 1 });
  }
  const target = pos.columns[dest];
  if (isEmpty(target)) {
    if (rankOf(card) !== 13) return gettext("only a King can go into an empty column");
    if (!where.home && where.index === 0 && pos.columns[where.col].down === 0) {
      return gettext("that King already starts its column");
    }
  } else {
    const top = topOf(target);
    if (!top) return gettext("wait for the face-down card to turn");
    if (!fits(v, card, top)) {
      // Translators: %(rule)s says how the variant builds: "Yukon builds down in alternating colour".
      return interpolate(gettext("%(card)s cannot go on %(onto)s: %(rule)s"),
        { card: theCard(), onto: theCardName(top), rule: buildRule(v) });
    }
  }
  if (!where.home && v.runsOnly && !isRun(v, pos.columns[where.col].up.slice(where.index))) {
    return interpolate(gettext("in %(variant)s only an ordered run moves"), { variant: variantName(v) });
  }
  return null;
}

export function clonePosition(pos) {
  return {
    ...pos,
    columns: pos.columns.map((c) => ({ down: c.down, up: [...c.up] })),
    foundations: Object.fromEntries(Object.entries(pos.foundations)
      .map(([s, n]) => [s, Array.isArray(n) ? [...n] : n])),
  };
}

/**
 * Apply a legal move to a copy of `pos`. Returns {position, uncovered}, where `uncovered`
 * is the column whose face-down card is now exposed (the server will name it), or null.
 * The score counts the foundation points at once and the turn points when the card is named.
 */
export function applyMove(pos, text) {
  const m = parseMove(text);
  if (!m) throw new Error(interpolate(gettext("not a move: %(move)s"), { move: text }));
  if (m.source !== undefined && m.card.length === 2 && isMultiDeck(pos)) {
    // A logged move ("3:9h>4") names the copy only when its column shows two: the one there.
    const copy = pos.columns[m.source].up.find((c) => faceOf(c) === m.card);
    if (copy) m.card = copy;
  }
  const reason = illegalReason(pos, m.card, m.dest);
  if (reason) throw new Error(reason);
  const next = clonePosition(pos);
  const where = locate(next, m.card);
  let uncovered = null;
  if (where.home) {
    next.foundations[suitOf(m.card)] -= 1;
    next.columns[m.dest].up.push(m.card);
    next.score -= 10;
  } else {
    const src = next.columns[where.col];
    const pile = src.up.splice(where.index);
    if (m.dest === "F") {
      const piles = next.foundations[suitOf(m.card)];
      if (Array.isArray(piles)) piles[homePile(pos, m.card)] += 1;
      else next.foundations[suitOf(m.card)] += 1;
      next.score += 10;
    } else {
      next.columns[m.dest].up.push(...pile);
    }
    if (src.up.length === 0 && src.down > 0) uncovered = where.col;
  }
  next.moves += 1;
  return { position: next, uncovered };
}

/** Name the card the server turned up in column `col`. */
export function revealCard(pos, col, card) {
  if (card.length === 2 && isMultiDeck(pos)) {
    // A face without its deck (a replay's log): a copy not on the table, for drawing only.
    const shown = new Set(pos.columns.flatMap((c) => c.up));
    let deck = 1;
    while (shown.has(`${card}#${deck}`)) deck += 1;
    card = `${card}#${deck}`;
  }
  const next = clonePosition(pos);
  const column = next.columns[col];
  if (column.up.length === 0 && column.down > 0) {
    column.down -= 1;
    column.up.push(card);
    next.score += 5;
  }
  return next;
}

export function isWon(pos) {
  return SUITS.split("").every((s) => [pos.foundations[s]].flat().every((n) => n === 13));
}

/** Read the engine's text form ("yukon .4d/2c.9h8sKs/... -A-- 15 3") as a masked position. */
export function fromText(text) {
  const [variant, columnsText, foundText, score, moves, decksText] = text.trim().split(/\s+/);
  const counts = [...foundText].map((ch) => (ch === "-" ? 0 : RANKS.indexOf(ch) + 1));
  const multi = counts.length > 4;
  // Multi-deck: each card's deck from the sixth field, or (left out) in order: the copies
  // home first, then the columns' from column 1, bottom first (as the engine reads it).
  const used = {};
  if (multi) {
    counts.forEach((n, p) => {
      for (let r = 1; r <= n; r++) {
        const face = RANKS[r - 1] + SUITS[p % 4];
        used[face] = (used[face] || 0) + 1;
      }
    });
  }
  let digit = 0;
  const deckOf = (face) => {
    if (decksText) return decksText[digit++];
    used[face] = (used[face] || 0) + 1;
    return String(used[face]);
  };
  const columns = columnsText.split("/").map((col) => {
    const [hidden, shown] = col.split(".");
    for (let i = 0; i < hidden.length; i += 2) if (multi) deckOf(hidden.slice(i, i + 2));
    const up = [];
    for (let i = 0; i < shown.length; i += 2) {
      const face = shown.slice(i, i + 2);
      up.push(multi ? `${face}#${deckOf(face)}` : face);
    }
    return { down: hidden.length / 2, up };
  });
  const foundations = {};
  SUITS.split("").forEach((s, i) => {
    foundations[s] = multi ? counts.filter((_, p) => p % 4 === i) : counts[i];
  });
  return { variant, columns, foundations, score: Number(score), moves: Number(moves) };
}
