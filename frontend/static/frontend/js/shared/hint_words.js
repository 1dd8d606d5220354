// The practice coach's hint in words, and where it points on the board.
//
// The hint API answers with a move text ("Qc>5", "3:9h>4", "3h>F"). A player reads "Move
// the Q♣ and the cards on it onto column 5" or "Move the 3♥ home" and sees the card and its
// target lit; a screen reader hears the same sentence (the play page's live region). The
// words and the marks are worked out without a page (tests/frontend/hint_words.test.mjs);
// only markHint and clearHint touch the board.

import { rankLabel, suitOf } from "./cards.js";
import { gettext, interpolate } from "./i18n.js";
import { faceOf, parseMove } from "./rules.js";

const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** A card as its corner shows it: "Qc" -> "Q♣", "Th" -> "10♥"; a copy ("9h#2") as its face. */
export function cardSymbol(card) {
  const face = faceOf(card);
  return `${rankLabel(face)}${SUIT_SYMBOLS[suitOf(face)]}`;
}

/** Where the hinted card lies: {col, index, card} with the mirror's own name for it (a
 * multi-deck game's "9h#2"), or null when it is not face up in the tableau. */
function findCard(pos, move) {
  const columns = pos?.columns ?? [];
  const matches = (c) => c === move.card || faceOf(c) === move.card;
  const search = move.source === undefined ? columns.keys() : [move.source];
  for (const col of search) {
    const up = columns[col]?.up ?? [];
    const index = up.findIndex(matches);
    if (index >= 0) return { col, index, card: up[index] };
  }
  return null;
}

/** How many face-up copies of `face` lie in the tableau (two only with several decks). */
function faceUpCopies(pos, face) {
  return (pos?.columns ?? []).reduce((n, column) => n + column.up.filter((c) => faceOf(c) === face).length, 0);
}

/**
 * The hint as a sentence, without a full stop: "Move the Q♣ and the cards on it onto
 * column 5", "Move the 3♥ home". `pos` (the mirror's position, as the board shows it) adds
 * what the move text leaves out: the cards that travel with the card, an empty target
 * column, and which copy moves when two identical cards are both face up. A text that is
 * not a move comes back as it is.
 */
export function hintWords(moveText, pos = null) {
  const move = parseMove(moveText);
  if (!move) return String(moveText ?? "");
  const at = findCard(pos, move);
  const face = faceOf(move.card);
  const card = cardSymbol(face);
  const named = at && faceUpCopies(pos, face) > 1; // two alike face up: say which one
  const above = move.dest === "F" || !at ? 0 : pos.columns[at.col].up.length - 1 - at.index;
  // Translators: %(card)s is a card as its corner shows it ("Q♥"); "the cards on it" lie on it in its column.
  const subject = interpolate(named
    ? [gettext("the %(card)s in column %(column)s"), gettext("the %(card)s in column %(column)s and the card on it"),
      gettext("the %(card)s in column %(column)s and the cards on it")][Math.min(above, 2)]
    : [gettext("the %(card)s"), gettext("the %(card)s and the card on it"), gettext("the %(card)s and the cards on it")][Math.min(above, 2)],
  { card, column: at ? at.col + 1 : "" });
  // Translators: %(cards)s says which card moves ("the Q♥ and the cards on it").
  if (move.dest === "F") return interpolate(gettext("Move %(cards)s home"), { cards: subject });
  const target = pos?.columns?.[move.dest];
  const empty = target && target.down === 0 && target.up.length === 0;
  return interpolate(empty ? gettext("Move %(cards)s onto the empty column %(column)s") : gettext("Move %(cards)s onto column %(column)s"),
    { cards: subject, column: move.dest + 1 });
}

/** A move in a list of moves, short but in the cards' own signs: "8♠ → 6", "A♣ → home"
 * (a text that is not a move comes back as it is). */
export function moveShort(moveText) {
  const move = parseMove(moveText);
  if (!move) return String(moveText ?? "");
  const card = cardSymbol(faceOf(move.card));
  return move.dest === "F" ? interpolate(gettext("%(card)s → home"), { card })
    : interpolate(gettext("%(card)s → %(column)s"), { card, column: move.dest + 1 });
}

/** What the board lights for a hint: the card (the mirror's name for it, or null when it is
 * not found face up) and its target, a column index or a foundation's suit. */
export function hintMarks(moveText, pos = null) {
  const move = parseMove(moveText);
  if (!move) return null;
  const at = findCard(pos, move);
  const card = at ? at.card : null;
  return move.dest === "F"
    ? { card, column: null, suit: suitOf(faceOf(move.card)) }
    : { card, column: move.dest, suit: null };
}

/** Take the last hint's marks off the board. */
export function clearHint(root) {
  for (const node of root.querySelectorAll(".hinted, .hint-target")) node.classList.remove("hinted", "hint-target");
}

/** Light the hinted card (`.hinted`) and the column or foundation it goes to (`.hint-target`). */
export function markHint(root, moveText, pos) {
  clearHint(root);
  const marks = hintMarks(moveText, pos);
  if (!marks) return;
  const card = marks.card && root.querySelector(`.tableau [data-card="${marks.card}"]`);
  if (card) card.classList.add("hinted");
  const target = marks.suit
    ? root.querySelector(`.foundation[data-suit="${marks.suit}"]`)
    : root.querySelector(`.tableau .column[data-col="${marks.column}"]`);
  if (target) target.classList.add("hint-target");
}
