// The practice coach's hint in words (shared/hint_words.js): what the player reads and the
// screen reader says instead of a move text, and which card and target the board lights.

import assert from "node:assert/strict";
import { test } from "node:test";

import { cardSymbol, hintMarks, hintWords, moveShort } from "../../frontend/static/frontend/js/shared/hint_words.js";
import { fromText } from "../../frontend/static/frontend/js/shared/rules.js";

// Column 1 empty; 2: K♥ 9♠ Q♣ face up; 6: 10♠ 9♥; 7: Q♠ J♥ J♠ (yukon-buried-king-unordered-group).
const YUKON = fromText("yukon ./Jd.Kh9sQc/.Ks/Qd.Th/Kd.JcQh/.Ts9h/Kc.QsJhJs TT88 445 80");
// Two 10♥ in column 3, a 10♠ face up in columns 5 and 10 (double-yukon-two-copies).
const DOUBLE = fromText("double-yukon .KhQsJh/Ks.QhJs/.ThTh/./.Ts/.Kh/Qs.Jh/.KsQh/.Js/.Ts KK99KK99 1090 100");

test("cards as their corners show them, with the suit's symbol", () => {
  assert.equal(cardSymbol("Qc"), "Q♣");
  assert.equal(cardSymbol("Th"), "10♥");
  assert.equal(cardSymbol("Ad"), "A♦");
  assert.equal(cardSymbol("7s"), "7♠");
  assert.equal(cardSymbol("9h#2"), "9♥");
});

test("a card alone, a card with one on it, a pile, home and an empty column", () => {
  assert.equal(hintWords("Qh>3", YUKON), "Move the Q♥ onto column 3");
  assert.equal(hintWords("Jh>2", YUKON), "Move the J♥ and the card on it onto column 2");
  assert.equal(hintWords("Kh>1", YUKON), "Move the K♥ and the cards on it onto the empty column 1");
  assert.equal(hintWords("9h>F", YUKON), "Move the 9♥ home");
  assert.equal(hintWords("Th>7", YUKON), "Move the 10♥ onto column 7");
});

test("no move text in sight: never '(Qc>5)', and nothing that is not a move is dressed up", () => {
  for (const move of ["Qh>3", "Jh>2", "Kh>1", "9h>F"]) {
    assert.doesNotMatch(hintWords(move, YUKON), /[>(]|[2-9TJQKA][cdhs]\b/);
  }
  assert.equal(hintWords("not a move", YUKON), "not a move");
  assert.equal(hintWords(null), "");
});

test("without the position the words still name the card and its target", () => {
  assert.equal(hintWords("Qc>5"), "Move the Q♣ onto column 5");
  assert.equal(hintWords("3h>F"), "Move the 3♥ home");
});

test("several decks: the column is named only when two copies of the card are face up", () => {
  assert.equal(hintWords("1:Qs>6", DOUBLE), "Move the Q♠ and the card on it onto column 6");
  assert.equal(hintWords("10:Ts>1", DOUBLE), "Move the 10♠ in column 10 onto column 1");
  assert.equal(hintWords("3:Th#1>2", DOUBLE), "Move the 10♥ in column 3 and the card on it onto column 2");
  assert.equal(hintWords("3:Th#2>F", DOUBLE), "Move the 10♥ in column 3 home");
});

test("the marks: the card as the board names it, and its column or foundation", () => {
  assert.deepEqual(hintMarks("Kh>1", YUKON), { card: "Kh", column: 0, suit: null });
  assert.deepEqual(hintMarks("9h>F", YUKON), { card: "9h", column: null, suit: "h" });
  assert.deepEqual(hintMarks("3:Th#1>2", DOUBLE), { card: "Th#1", column: 1, suit: null });
  assert.deepEqual(hintMarks("10:Ts>7", DOUBLE), { card: "Ts#2", column: 6, suit: null });
  assert.deepEqual(hintMarks("Qc>5"), { card: null, column: 4, suit: null });
  assert.equal(hintMarks("nonsense"), null);
});

test("a move in a list (the analysis' winning line): the card's signs, never the move text", () => {
  assert.equal(moveShort("8s>6"), "8♠ → 6");
  assert.equal(moveShort("Tc>F"), "10♣ → home");
  assert.equal(moveShort("12:9h#2>4"), "9♥ → 4");
  assert.equal(moveShort("not a move"), "not a move");
});
