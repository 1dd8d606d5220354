// The rules mirror: legal moves on a masked position, for instant feedback only.
//
// The server's engine (games/engine) is the referee; this file mirrors just enough of it
// to highlight targets, refuse an obviously illegal drop with a reason, and apply a move
// before the server answers. tests/frontend checks it against tests/engine/vectors.
//
// A masked position is the JSON the API sends:
//   {variant, columns: [{down, up: ["Kh", ...]} x7], foundations: {c, d, h, s}, score, moves}
// Face-down cards are only counted, and no rule ever needs their identity. After a move
// that uncovers a face-down card the client keeps the column as {down: n, up: []} until
// the server names the card: such a column has an unknown top and takes no part in moves.

import { RANKS, SUITS, SUIT_NAMES, cardName, isRed, rankOf, suitOf } from "./cards.js";

// build: "alternate" (colour), "suit" (the card's own suit), "other" (any suit but its own)
export const VARIANTS = {
  yukon: { title: "Yukon", build: "alternate", upOrDown: false, runsOnly: false },
  russian: { title: "Russian", build: "suit", upOrDown: false, runsOnly: false },
  alaska: { title: "Alaska", build: "suit", upOrDown: true, runsOnly: false },
  moosehide: { title: "Moosehide", build: "other", upOrDown: false, runsOnly: false },
  "moosehide-runs": {
    title: "Moosehide (runs only)", build: "alternate", upOrDown: false, runsOnly: true,
  },
};

const BUILD_WORDS = {
  alternate: "in alternating colour",
  suit: "in suit",
  other: "in any suit but the card's own",
};

export function variantOf(pos) {
  const [name, option] = String(pos.variant).split("+");
  const base = VARIANTS[name];
  if (!base) throw new Error(`unknown variant ${pos.variant}`);
  return { ...base, name, takeback: option === "takeback" };
}

export function buildRule(v) {
  const dir = v.upOrDown ? "up or down" : "down";
  return `builds ${dir} ${BUILD_WORDS[v.build]}`;
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

export function moveText(card, dest) {
  return `${card}>${dest === "F" ? "F" : dest + 1}`;
}

/** "9h>4" -> {card: "9h", dest: 3}; "Ac>F" -> {card: "Ac", dest: "F"}; null if malformed. */
export function parseMove(text) {
  const m = /^(?:[1-7]:)?([A2-9TJQK][cdhs])>([1-7F])$/.exec(String(text));
  if (!m) return null;
  return { card: m[1], dest: m[2] === "F" ? "F" : Number(m[2]) - 1 };
}

/** Where a card lies: {col, index} for a face-up tableau card, {home: true}, or null. */
export function locate(pos, card) {
  for (let k = 0; k < 7; k++) {
    const index = pos.columns[k].up.indexOf(card);
    if (index >= 0) return { col: k, index };
  }
  if (pos.foundations[suitOf(card)] >= rankOf(card)) return { home: true };
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
  return n ? RANKS[n - 1] + suit : null;
}

/** Every legal move as text, in the engine's notation (order unspecified). */
export function legalMoves(pos) {
  const v = variantOf(pos);
  const cols = pos.columns;
  const moves = [];
  const empties = [];
  for (let k = 0; k < 7; k++) {
    const col = cols[k];
    if (isEmpty(col)) { empties.push(k); continue; }
    const top = topOf(col);
    if (!top) continue; // a card is turning: its identity is not known yet
    if (pos.foundations[suitOf(top)] === rankOf(top) - 1) moves.push(moveText(top, "F"));
    for (let j = 0; j < 7; j++) {
      if (j === k) continue;
      const up = cols[j].up;
      for (let i = 0; i < up.length; i++) {
        if (fits(v, up[i], top) && (!v.runsOnly || isRun(v, up.slice(i)))) {
          moves.push(moveText(up[i], k));
        }
      }
    }
  }
  if (empties.length) {
    for (let j = 0; j < 7; j++) {
      const col = cols[j];
      col.up.forEach((card, i) => {
        if (rankOf(card) !== 13) return;
        if (col.down === 0 && i === 0) return; // already the bottom card: nothing to gain
        if (v.runsOnly && !isRun(v, col.up.slice(i))) return;
        for (const k of empties) moves.push(moveText(card, k));
      });
    }
  }
  if (v.takeback) {
    for (const suit of SUITS) {
      const card = foundationTop(pos, suit);
      if (!card) continue;
      for (let k = 0; k < 7; k++) {
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
  const name = cardName(card);
  if (!where) return `the ${name} is face down`;
  if (where.home && !v.takeback) return "a card on a foundation stays there";
  if (where.home && dest === "F") return `the ${name} is already home`;
  if (dest === "F") {
    const up = pos.columns[where.col].up;
    if (where.index !== up.length - 1) return "only the last card of a column can go home";
    const have = pos.foundations[suitOf(card)];
    if (have !== rankOf(card) - 1) {
      const needed = RANKS[have] + suitOf(card);
      return `the ${SUIT_NAMES[suitOf(card)]} foundation needs the ${cardName(needed)} first`;
    }
    return null;
  }
  if (!where.home && where.col === dest) return `the ${name} is already in column ${dest + 1}`;
  const target = pos.columns[dest];
  if (isEmpty(target)) {
    if (rankOf(card) !== 13) return "only a King can go into an empty column";
    if (!where.home && where.index === 0 && pos.columns[where.col].down === 0) {
      return "that King already starts its column";
    }
  } else {
    const top = topOf(target);
    if (!top) return "wait for the face-down card to turn";
    if (!fits(v, card, top)) {
      return `the ${name} cannot go on the ${cardName(top)}: ${v.title} ${buildRule(v)}`;
    }
  }
  if (!where.home && v.runsOnly && !isRun(v, pos.columns[where.col].up.slice(where.index))) {
    return `in ${v.title} only an ordered run moves`;
  }
  return null;
}

export function clonePosition(pos) {
  return {
    ...pos,
    columns: pos.columns.map((c) => ({ down: c.down, up: [...c.up] })),
    foundations: { ...pos.foundations },
  };
}

/**
 * Apply a legal move to a copy of `pos`. Returns {position, uncovered}, where `uncovered`
 * is the column whose face-down card is now exposed (the server will name it), or null.
 * The score counts the foundation points at once and the turn points when the card is named.
 */
export function applyMove(pos, text) {
  const m = parseMove(text);
  if (!m) throw new Error(`not a move: ${text}`);
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
      next.foundations[suitOf(m.card)] += 1;
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
  return SUITS.split("").every((s) => pos.foundations[s] === 13);
}

/** Read the engine's text form ("yukon .4d/2c.9h8sKs/... -A-- 15 3") as a masked position. */
export function fromText(text) {
  const [variant, columnsText, foundText, score, moves] = text.trim().split(/\s+/);
  const columns = columnsText.split("/").map((col) => {
    const [hidden, shown] = col.split(".");
    const up = [];
    for (let i = 0; i < shown.length; i += 2) up.push(shown.slice(i, i + 2));
    return { down: hidden.length / 2, up };
  });
  const foundations = {};
  SUITS.split("").forEach((s, i) => {
    foundations[s] = foundText[i] === "-" ? 0 : RANKS.indexOf(foundText[i]) + 1;
  });
  return { variant, columns, foundations, score: Number(score), moves: Number(moves) };
}
