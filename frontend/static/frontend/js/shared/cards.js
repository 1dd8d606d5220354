// Cards as text ("Kh", "Tc"), their names for screen readers, and their SVG drawings.

import { svgEl } from "./html.js";
import { interpolate, pgettext } from "./i18n.js";

export const RANKS = "A23456789TJQK";
export const SUITS = "cdhs";
// Suits and ranks as words are read from the page's catalogue (shared/i18n.js) when first
// asked for: a language's card names are one message each, joined by a message of its own.
let suitWords = null;
function suitWordsNow() {
  suitWords ||= {
    c: pgettext("suit", "clubs"), d: pgettext("suit", "diamonds"),
    h: pgettext("suit", "hearts"), s: pgettext("suit", "spades"),
  };
  return suitWords;
}
/** A suit's name in the page's language ("hearts"; German "Herz"). */
export function suitName(suit) {
  return suitWordsNow()[suit];
}
let rankWords = null;
function rankWordsNow() {
  rankWords ||= [pgettext("rank", "ace"), pgettext("rank", "two"), pgettext("rank", "three"),
    pgettext("rank", "four"), pgettext("rank", "five"), pgettext("rank", "six"), pgettext("rank", "seven"),
    pgettext("rank", "eight"), pgettext("rank", "nine"), pgettext("rank", "ten"), pgettext("rank", "jack"),
    pgettext("rank", "queen"), pgettext("rank", "king")];
  return rankWords;
}
// A card's name with its article, which in many languages follows the rank (Spanish "la
// reina", "el rey"): one message per rank, told apart by context.
let theCardWords = null;
function theCardWordsNow() {
  theCardWords ||= [
    // Translators: a card's name (%(card)s, "ace of hearts") with the article an ace takes.
    pgettext("an ace", "the %(card)s"),
    pgettext("a two", "the %(card)s"), pgettext("a three", "the %(card)s"),
    pgettext("a four", "the %(card)s"), pgettext("a five", "the %(card)s"),
    pgettext("a six", "the %(card)s"), pgettext("a seven", "the %(card)s"),
    pgettext("an eight", "the %(card)s"), pgettext("a nine", "the %(card)s"),
    pgettext("a ten", "the %(card)s"), pgettext("a jack", "the %(card)s"),
    pgettext("a queen", "the %(card)s"), pgettext("a king", "the %(card)s"),
  ];
  return theCardWords;
}
const RANK_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

export function rankOf(card) { return RANKS.indexOf(card[0]) + 1; }
export function suitOf(card) { return card[1]; }
export function isRed(card) { return card[1] === "d" || card[1] === "h"; }
export function isCard(text) {
  return typeof text === "string" && text.length === 2
    && RANKS.includes(text[0]) && SUITS.includes(text[1]);
}
/** A rank and a suit as one name, in the language's order ("queen of hearts", German
 * "Herz-Dame"). */
function joinName(rank, suit) {
  // Translators: a card's name: its rank ("queen", or the digit its corner shows) and suit ("hearts").
  return interpolate(pgettext("card name", "%(rank)s of %(suit)s"), { rank, suit: suitName(suit) });
}
/** A card's name for screen readers: "queen of hearts". */
export function cardName(card) {
  return joinName(rankWordsNow()[rankOf(card) - 1], suitOf(card));
}
/** A card's name with its article, to go into a sentence: "the queen of hearts". */
export function theCardName(card) {
  return interpolate(theCardWordsNow()[rankOf(card) - 1], { card: cardName(card) });
}
export function rankLabel(card) { return RANK_LABELS[rankOf(card) - 1]; }
/** A card's accessible name, starting with what its face shows ("4 of diamonds", "king of
 * hearts": the corner reads "4" or "K"), so a voice-control user can say what they see. */
export function cardLabel(card) {
  const rank = rankOf(card);
  const shown = rank === 1 || rank > 10 ? rankWordsNow()[rank - 1] : RANK_LABELS[rank - 1];
  return joinName(shown, suitOf(card));
}

// Suit shapes in a 100x100 box. The shapes alone tell the suits apart (colour is extra).
export const SUIT_PATHS = {
  h: "M50 90C22 68 5 51 5 31 5 16 16 6 29 6c9 0 16 5 21 13 5-8 12-13 21-13 13 0 24 10 24 25 0 20-17 37-45 59z",
  d: "M50 3 87 50 50 97 13 50z",
  s: "M50 4C40 22 7 39 7 60c0 13 10 22 22 22 7 0 13-3 17-8-1 10-6 17-14 22h36c-8-5-13-12-14-22 4 5 10 8 17 8 12 0 22-9 22-22C93 39 60 22 50 4z",
  c: "M50 6a21 21 0 0 0-17 33A21 21 0 1 0 46 74c-1 9-6 16-14 22h36c-8-6-13-13-14-22a21 21 0 1 0 13-35A21 21 0 0 0 50 6z",
};

const INK = { red: "#c0142b", black: "#15171a" };
const SVG_ATTRS = { viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false" };

function suitIcon(suit, x, y, size, fill) {
  const s = size / 100;
  return ["path", { transform: `translate(${x} ${y}) scale(${s})`, d: SUIT_PATHS[suit], fill }];
}

// One card face (viewBox 100x140) as a list of shapes, [tag, attributes, text]: rank
// top-left, suit top-right, both inside the strip that stays visible when cards overlap;
// a big suit below. Drawn as elements on the board (`cardSvgElement`), as text where an
// image needs it (`cardSvg`: the results screen's picture).
function cardShapes(card) {
  const fill = isRed(card) ? INK.red : INK.black;
  const suit = suitOf(card);
  const label = rankLabel(card);
  const court = rankOf(card) > 10;
  return [
    ["rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "#fffdf7", stroke: "#6b6b6b", "stroke-width": 2 }],
    ["text", { x: 7, y: 39, "font-family": "DejaVu Sans, Arial, Helvetica, sans-serif", "font-weight": 700,
      "font-size": label.length > 1 ? 40 : 44, "letter-spacing": label.length > 1 ? -3 : 0, fill }, label],
    suitIcon(suit, 60, 8, 33, fill),
    court && ["rect", { x: 18, y: 56, width: 64, height: 72, rx: 6, fill: "none", stroke: fill, "stroke-width": 2.5, opacity: ".55" }],
    suitIcon(suit, 27, 66, 46, fill),
  ].filter(Boolean);
}

// An empty foundation: the suit's outline, so the four places can be told apart.
function slotShapes(suit) {
  return [
    ["rect", { x: 2, y: 2, width: 96, height: 136, rx: 9, fill: "rgba(0,0,0,.15)", stroke: "rgba(255,255,255,.7)", "stroke-width": 2, "stroke-dasharray": "6 5" }],
    suitIcon(suit, 25, 45, 50, "rgba(255,255,255,.55)"),
  ];
}

const attrText = (attrs) => Object.entries(attrs).map(([name, value]) => ` ${name}="${value}"`).join("");

function svgText(shapes) {
  const inner = shapes.map(([tag, attrs, text]) => (text === undefined
    ? `<${tag}${attrText(attrs)}/>` : `<${tag}${attrText(attrs)}>${text}</${tag}>`));
  // as a file of its own (an image), the text names its namespace
  return `<svg${attrText({ xmlns: "http://www.w3.org/2000/svg", ...SVG_ATTRS })}>${inner.join("")}</svg>`;
}

function svgElement(shapes, attrs = {}) {
  return svgEl("svg", { ...SVG_ATTRS, ...attrs }, shapes.map(([tag, shapeAttrs, text]) => svgEl(tag, shapeAttrs, text)));
}

const cache = new Map();

/** A card's face as SVG text (for an image's data: address; every value is the card's own). */
export function cardSvg(card) {
  if (!cache.has(card)) cache.set(card, svgText(cardShapes(card)));
  return cache.get(card);
}

/** A card's face as an SVG element, new each time (a node lives in one place). Its class
 * names the suit, so the stylesheet can recolour the face for a theme or four-colour suits
 * (site.css, "Themes"); the colours written here are what an image of the card shows. */
export function cardSvgElement(card) {
  return svgElement(cardShapes(card), { class: `face suit-${suitOf(card)}` });
}

/** An empty foundation's outline as an SVG element. */
export function slotSvgElement(suit) {
  return svgElement(slotShapes(suit));
}
