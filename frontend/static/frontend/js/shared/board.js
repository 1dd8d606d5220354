// The card table: draws a masked position and turns pointer, click and key input into moves.
//
// The board never changes the position itself. It asks the rules mirror whether a move is
// legal, and hands legal moves to `onMove(text)`; the page then calls `render()` with the
// new position. Without `onMove` the board is a read-only view (the replay page).

import { SUITS, cardLabel, cardName, cardSvgElement, slotSvgElement, suitName, suitOf, theCardName } from "./cards.js";
import { asSentence } from "./format.js";
import { gettext, interpolate, ngettext } from "./i18n.js";
import { faceOf, illegalReason, locate, moveText, targetsOf, variantOf } from "./rules.js";
import { reducedMotion } from "./settings.js"; // the player's Animations, else the device's

const DRAG_THRESHOLD = 6; // px before a press becomes a drag
const DOUBLE_CLICK_MS = 400;
// The tightest strips of a compressed column, in card heights: a face-up card keeps its
// rank and suit in view (the label ends at 39/140 of the face), a face-down one a sliver.
const MIN_UP = 0.29;
const MIN_DOWN = 0.04;
const SLACK = 4; // px kept free under the longest column

/** Card width (px) for a board of ``width`` x ``height``: every column across (7, or 10,
 * 13, 16 with several decks), and the top row plus the longest column at its tightest
 * strips down, so that no face-up card's rank and suit are ever covered; a longer column
 * makes every card smaller instead. Never under 30 px, where ``strips`` squeezes further;
 * a board that does not fit at 30 px scrolls sideways (a phone with 13 or 16 columns). */
export function cardWidth(width, height, gap, columns) {
  const tallest = Math.max(...columns.map((column) =>
    1 + column.down * MIN_DOWN + Math.max(0, column.up.length - 1) * MIN_UP));
  const n = columns.length;
  const byWidth = (width - (n - 1) * gap) / n;
  const byHeight = (height - 1.5 * gap - SLACK) / (1.4 * Math.max(4.2, 1 + tallest));
  return Math.floor(Math.max(30, Math.min(byWidth, byHeight, 112)));
}

/** The strips (px) of a column's face-down and face-up cards, for cards ``ch`` high and
 * ``available`` px of tableau: roomy when it fits, else the face-down ones squeezed
 * first, then the face-up ones (to MIN_UP when the cards are sized for it; thinner only
 * at the smallest cards), so that the column always ends inside the board. */
export function strips(column, ch, available) {
  let down = ch * 0.1;
  let up = ch * (available > ch * 6 ? 0.36 : 0.3); // tall phones get bigger strips to tap
  const ups = Math.max(0, column.up.length - 1);
  if (ch + column.down * down + ups * up > available) {
    const spare = available - ch;
    down = Math.max(ch * MIN_DOWN, Math.min(down, (spare - ups * up) / Math.max(1, column.down)));
    if (ups) up = Math.max(1, (spare - column.down * down) / ups);
  }
  return { down, up };
}

/** The columns of a fresh deal (column k: k face down, then 1 or 5 face up): the board is
 * sized for them before the deal arrives, so nothing moves when it does. */
export const DEAL_SHAPE = Array.from({ length: 7 }, (_, k) => ({ down: k, up: Array(k ? 5 : 1).fill(null) }));

function el(tag, className, attrs = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// A suit's foundations' counts as drawn under its slot on a several-deck board: "3 · 0";
// three or four tighter, "3·0·0", to fit under a phone's slot on one line.
const piles = (counts) => counts.join(counts.length > 2 ? "·" : " · ");

/** A foundation's accessible name: its top card and how many are home ("king of hearts,
 * hearts foundation, 13 home"), or, with several decks, every foundation's count as drawn. */
function foundationLabel(suit, top, n, counts) {
  const values = { card: top ? cardLabel(top) : "", suit: suitName(suit), count: n, piles: piles(counts), foundations: counts.length };
  if (counts.length > 1) {
    return interpolate(top ? gettext("%(card)s, %(suit)s foundation, %(foundations)s foundations holding %(piles)s")
      : gettext("%(suit)s foundation, %(foundations)s foundations holding %(piles)s"), values);
  }
  return interpolate(top ? ngettext("%(card)s, %(suit)s foundation, %(count)s home", "%(card)s, %(suit)s foundation, %(count)s home", n)
    : gettext("%(suit)s foundation, empty"), values);
}

export class Board {
  constructor(root, { onMove = null, notify = () => {}, announce = () => {}, sound = () => {} } = {}) {
    this.root = root;
    this.onMove = onMove;
    this.notify = notify;
    this.announce = announce;
    this.sound = sound; // sound("pickup" | "illegal"): the page plays it if the settings say so
    this.pos = null;
    this.frozen = !onMove;
    this.cardEls = new Map();
    this.backEls = [];
    this.selected = null; // a card picked up by click or keyboard
    // keyboard cursor: column and face-up index (-1: the column itself), or col "F" and
    // index 0..3 for the foundations
    this.focus = { col: 0, index: 0 };
    this.press = null; // an ongoing pointer press or drag
    this.lastClick = { card: null, t: 0 };
    this.build();
    if (onMove) this.listen();
    this.layout(); // size the empty table now: the deal must not move anything
    new ResizeObserver(() => this.layout()).observe(root);
    root.addEventListener("scroll", () => this.markHiddenColumns(), { passive: true });
  }

  build(columns = 7) {
    this.root.replaceChildren();
    this.backEls = Array.from({ length: columns }, () => []);
    this.cardEls = new Map();
    this.root.style.setProperty("--cols", String(columns));
    // A read-only board (the replay) shows pictures; a playable one is made of buttons.
    this.role = this.onMove ? "button" : "img";
    const top = el("div", "top-row");
    this.statusLine = el("div", "status-line");
    // Seen only while the board scrolls sideways with columns past its right edge (site.css,
    // markHiddenColumns); the keyboard's way along the columns needs no words for it.
    const scrollHint = el("div", "scroll-hint", { "data-scroll-hint": "", "aria-hidden": "true" });
    scrollHint.textContent = gettext("More columns") + "\u00a0→"; // the arrow never alone on a line
    const foundations = el("div", "foundations");
    this.foundationEls = {};
    for (const suit of SUITS) {
      const slot = el("div", "slot foundation", { "data-dest": "F", "data-suit": suit, role: this.role });
      if (this.onMove) slot.setAttribute("tabindex", "-1");
      this.foundationEls[suit] = slot;
      foundations.append(slot);
    }
    top.append(this.statusLine, scrollHint, foundations);
    const tableau = el("div", "tableau");
    this.columnEls = [];
    this.slotEls = [];
    for (let k = 0; k < columns; k++) {
      const column = el("div", "column", { "data-col": String(k) });
      const slot = el("div", "slot", { "data-col-slot": String(k), role: this.role });
      if (this.onMove) slot.setAttribute("tabindex", "-1");
      column.append(slot);
      this.slotEls.push(slot);
      this.columnEls.push(column);
      tableau.append(column);
    }
    this.tableau = tableau;
    this.root.append(top, tableau);
  }

  setFrozen(frozen) {
    this.frozen = frozen || !this.onMove;
    this.root.classList.toggle("frozen", this.frozen);
    if (this.frozen) this.clearSelection();
  }

  // ----- drawing ------------------------------------------------------------------

  cardEl(card) {
    let node = this.cardEls.get(card);
    if (!node) {
      node = el("div", "card up", { "data-card": card, role: this.role });
      if (this.onMove) {
        node.setAttribute("tabindex", "-1");
        node.setAttribute("aria-pressed", "false"); // "true" while picked up
      }
      node.append(cardSvgElement(card));
      this.cardEls.set(card, node);
    }
    return node;
  }

  backEl(k, i) {
    let node = this.backEls[k][i];
    if (!node) {
      node = el("div", "card down", { "aria-hidden": "true" });
      this.backEls[k][i] = node;
    }
    return node;
  }

  /** Draw `pos`. With `animate`, cards that changed place glide from where they were. */
  render(pos, { animate = false } = {}) {
    if (pos.columns.length !== this.columnEls.length) { // a variant with more decks
      this.build(pos.columns.length);
      this.focus = { col: 0, index: 0 };
    }
    const before = animate && !reducedMotion() ? this.rects() : null;
    const focusedCard = document.activeElement?.dataset?.card;
    // The keyboard was on the board (or the last render lost it, and nothing took it since):
    // it stays there, though its element leaves (a card gone home, a slot now covered).
    const active = document.activeElement;
    const hadFocus = this.root.contains(active) || (this.focusLost && (!active || active === document.body));
    this.pos = pos;
    const seen = new Set();
    const dragged = new Set(this.press?.dragging ? this.press.pile : []);
    pos.columns.forEach((column, k) => {
      const nodes = [this.slotEls[k]];
      for (let i = 0; i < column.down; i++) {
        const back = this.backEl(k, i);
        back.classList.toggle("turning", column.up.length === 0 && i === column.down - 1);
        nodes.push(back);
      }
      column.up.forEach((card, i) => {
        const node = this.cardEl(card);
        // With several decks, name the copy when the column shows another one just like it.
        const twin = card.length > 2
          && column.up.some((other) => other !== card && faceOf(other) === faceOf(card));
        const name = twin
          ? interpolate(gettext("%(card)s, copy %(copy)s"), { card: cardLabel(card), copy: card.slice(3) })
          : cardLabel(card);
        const above = column.up.length - 1 - i;
        node.setAttribute("aria-label", above
          ? interpolate(ngettext("%(card)s, column %(column)s, face up, %(count)s on it",
            "%(card)s, column %(column)s, face up, %(count)s on it", above), { card: name, column: k + 1, count: above })
          : interpolate(gettext("%(card)s, column %(column)s, face up"), { card: name, column: k + 1 }));
        if (!dragged.has(node)) { // a server answer may arrive mid-drag: leave that pile be
          node.style.transform = "";
          node.classList.remove("dragging", "snapback");
        }
        seen.add(card);
        nodes.push(node);
      });
      const empty = column.down === 0 && column.up.length === 0;
      this.slotEls[k].classList.toggle("empty-col", empty);
      this.slotEls[k].setAttribute("aria-label", empty
        ? interpolate(gettext("column %(column)s, empty"), { column: k + 1 })
        : interpolate(gettext("column %(column)s, %(down)s face down, %(up)s face up"),
          { column: k + 1, down: column.down, up: column.up.length }));
      const colEl = this.columnEls[k];
      const same = colEl.childElementCount === nodes.length
        && nodes.every((n, i) => colEl.children[i] === n);
      if (!same) colEl.replaceChildren(...nodes);
    });
    for (const [card, node] of this.cardEls) {
      if (!seen.has(card)) { node.remove(); this.cardEls.delete(card); }
    }
    // With the take-back option a foundation's top card can be picked up like a face-up card.
    const takeback = variantOf(pos).takeback;
    for (const suit of SUITS) {
      // Several decks: one slot per suit stands for its foundations (a card dropped there
      // goes to one that takes it); it shows the highest and lists every count.
      const counts = [pos.foundations[suit]].flat();
      const n = Math.max(...counts);
      const slot = this.foundationEls[suit];
      const top = n ? "A23456789TJQK"[n - 1] + suit : null;
      const shown = (top || "") + (counts.length > 1 ? counts.join(",") : "");
      if (slot.dataset.top !== shown || slot.dataset.takeback !== String(takeback)) {
        slot.dataset.top = shown;
        slot.dataset.takeback = String(takeback);
        const face = !top ? slotSvgElement(suit)
          : takeback ? el("div", "card up", { "data-card": top })
          : el("div", "card");
        if (top) face.append(cardSvgElement(top));
        slot.replaceChildren(face);
        if (counts.length > 1) slot.append(Object.assign(el("span", "piles"), { textContent: piles(counts) }));
      }
      // The name holds the counts as shown, so a voice-control user can say what they see.
      slot.setAttribute("aria-label", foundationLabel(suit, top, n, counts));
    }
    const held = this.selected && locate(pos, this.selected);
    if (!held || held.home) this.selected = null;
    this.markSelection();
    this.layout();
    this.updateRoving(focusedCard, hadFocus);
    if (before) this.glide(before);
  }

  rects() {
    const out = new Map();
    for (const [card, node] of this.cardEls) out.set(card, node.getBoundingClientRect());
    return out;
  }

  glide(before) {
    for (const [card, node] of this.cardEls) {
      const a = before.get(card);
      if (!a) continue;
      const b = node.getBoundingClientRect();
      const dx = a.left - b.left;
      const dy = a.top - b.top;
      if (Math.abs(dx) + Math.abs(dy) < 1) continue;
      // While it glides the card is drawn where it was, so it must not catch the pointer:
      // a quick next press belongs to the card now lying there.
      node.style.pointerEvents = "none";
      const glide = node.animate([{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 500 },
        { transform: "none", zIndex: 500 }], { duration: 160, easing: "ease-out" });
      glide.onfinish = glide.oncancel = () => { node.style.pointerEvents = ""; };
    }
  }

  /** Size the cards to the board and space each column (``cardWidth``, ``strips``). */
  layout() {
    const width = this.root.clientWidth;
    const height = this.root.clientHeight;
    if (!width || !height) return;
    const gap = Math.round(Math.min(12, Math.max(3, window.innerWidth * 0.01)));
    const columns = this.pos ? this.pos.columns : DEAL_SHAPE;
    const cw = cardWidth(width, height, gap, columns);
    // Too many columns for the width even at the smallest cards: scroll sideways.
    this.root.classList.toggle("wide", columns.length * (cw + gap) - gap > width + 1);
    const ch = Math.round(cw * 1.4);
    this.root.style.setProperty("--gap", `${gap}px`);
    this.root.style.setProperty("--cw", `${cw}px`);
    this.root.style.setProperty("--ch", `${ch}px`);
    this.markHiddenColumns();
    if (!this.pos) return;
    const available = Math.max(ch, this.tableau.clientHeight - SLACK);
    this.pos.columns.forEach((column, k) => {
      const { down, up } = strips(column, ch, available);
      let y = 0;
      const nodes = this.columnEls[k].children;
      for (let i = 1; i < nodes.length; i++) { // children[0] is the column slot
        nodes[i].style.top = `${Math.round(y)}px`;
        y += i <= column.down ? down : up;
      }
    });
  }

  /** On a board that scrolls sideways, mark the edges that columns lie past: ``more-left``
   * and ``more-right``, which site.css fades (and says "More columns" by the right one), so
   * a newcomer sees that the board goes on. A board that fits has neither. Measured from
   * the end columns, not the scroll width, which the keyboard cursor's ring and a dragged
   * card stretch by a few pixels without a scroll. */
  markHiddenColumns() {
    const root = this.root;
    const wide = root.classList.contains("wide");
    const first = this.columnEls[0];
    const last = this.columnEls[this.columnEls.length - 1];
    // offsetLeft is from the board (the columns' positioned ancestor), scrolled or not
    root.classList.toggle("more-left", wide && first.offsetLeft < root.scrollLeft - 1);
    root.classList.toggle("more-right", wide
      && last.offsetLeft + last.offsetWidth > root.scrollLeft + root.clientWidth + 1);
  }

  /** The keyboard's cursor on a board that scrolls sideways: its column (or foundation)
   * is brought into view, clear of the faded edges. Only the board scrolls, sideways: the
   * page stays where it is (the cursor focuses with preventScroll). */
  revealSideways(node) {
    const root = this.root;
    if (!root.classList.contains("wide")) return;
    const box = node.getBoundingClientRect(), view = root.getBoundingClientRect();
    const margin = 48; // px: the faded edges (site.css, --fade-left and --fade-right) and a little
    if (box.left < view.left + margin) root.scrollLeft -= view.left + margin - box.left;
    else if (box.right > view.right - margin) root.scrollLeft += box.right - (view.right - margin);
  }

  // ----- selection and keyboard focus ---------------------------------------------

  pileOf(card) {
    const where = this.pos && locate(this.pos, card);
    if (where?.home) { // a foundation's top card, with the take-back option
      const node = this.foundationEls[suitOf(card)].querySelector(`.card.up[data-card="${card}"]`);
      return node ? [node] : [];
    }
    if (!where) return [];
    return this.pos.columns[where.col].up.slice(where.index).map((c) => this.cardEls.get(c));
  }

  markSelection() {
    for (const node of this.root.querySelectorAll(".card.selected")) node.classList.remove("selected");
    for (const node of this.root.querySelectorAll("[aria-pressed='true']")) node.setAttribute("aria-pressed", "false");
    if (this.selected) {
      for (const node of this.pileOf(this.selected)) node.classList.add("selected");
      this.cardEls.get(this.selected)?.setAttribute("aria-pressed", "true");
    }
  }

  clearSelection() {
    this.selected = null;
    this.markSelection();
    this.clearTargets();
  }

  focusTarget() {
    const { col, index } = this.focus;
    if (col === "F") return this.foundationEls[SUITS[index]];
    const up = this.pos.columns[col].up;
    return index >= 0 && index < up.length ? this.cardEls.get(up[index]) : this.slotEls[col];
  }

  /** Keep one element of the board in the tab order, and keep focus on a card that moved
   * (or on the board, when it had the focus). */
  updateRoving(focusedCard, hadFocus = false) {
    if (!this.pos || !this.onMove) return;
    if (focusedCard) {
      const where = locate(this.pos, focusedCard);
      if (where && !where.home) this.focus = { col: where.col, index: where.index };
    }
    if (this.focus.col !== "F") {
      const up = this.pos.columns[this.focus.col].up;
      if (this.focus.index >= up.length || (this.focus.index < 0 && up.length)) {
        this.focus.index = up.length - 1;
      }
    }
    const target = this.focusTarget();
    for (const node of this.root.querySelectorAll("[tabindex='0']")) node.setAttribute("tabindex", "-1");
    target.setAttribute("tabindex", "0");
    const active = document.activeElement; // checkVisibility: Safari 17.4 and later
    const lost = hadFocus && !(this.root.contains(active) && (active.checkVisibility?.() ?? true));
    if ((focusedCard || lost) && document.activeElement !== target) target.focus({ preventScroll: true });
    // a target that cannot take it (a column of face-down cards only, until the server
    // names the card that turned): the next render tries again
    this.focusLost = hadFocus && !this.root.contains(document.activeElement);
  }

  moveFocus(col, index) {
    if (col === "F") {
      this.focus = { col, index: (index + 4) % 4 };
    } else {
      const up = this.pos.columns[col].up;
      this.focus = { col, index: up.length ? Math.max(0, Math.min(index, up.length - 1)) : -1 };
    }
    for (const node of this.root.querySelectorAll("[tabindex='0']")) node.setAttribute("tabindex", "-1");
    const target = this.focusTarget();
    target.setAttribute("tabindex", "0");
    target.focus({ preventScroll: true });
    this.revealSideways(target);
    if (this.selected) {
      // The focused element's name is spoken on focus; this adds whether the drop is legal.
      const dest = col === "F" ? "F" : col;
      const where = col === "F"
        ? interpolate(gettext("%(suit)s foundation"), { suit: suitName(SUITS[this.focus.index]) })
        : interpolate(gettext("column %(column)s"), { column: col + 1 });
      const fits = col === "F" ? suitOf(this.selected) === SUITS[this.focus.index] && !illegalReason(this.pos, this.selected, dest)
        : !illegalReason(this.pos, this.selected, dest);
      this.announce(interpolate(fits ? gettext("%(place)s: drop here with Enter") : gettext("%(place)s: cannot drop here"),
        { place: where }));
    }
  }

  /** The column under the first foundation: the last four columns' first (the left end
   * on a board that scrolls sideways). */
  foundationsFrom() {
    return this.root.classList.contains("wide") ? 0 : this.pos.columns.length - 4;
  }

  // ----- moves --------------------------------------------------------------------

  tryMove(card, dest) {
    const reason = illegalReason(this.pos, card, dest);
    if (reason) {
      const said = asSentence(reason); // a clause of the rules', alone here
      this.notify(said); // seen: a toast that is not spoken; heard: the announcement
      this.announce(said);
      this.sound("illegal");
      for (const node of this.pileOf(card)) {
        node.classList.remove("flash");
        void node.offsetWidth; // restart the animation
        node.classList.add("flash");
      }
      return false;
    }
    this.selected = null;
    this.clearTargets();
    const text = moveText(card, dest, this.pos);
    this.announce(dest === "F"
      ? interpolate(gettext("%(card)s to its foundation"), { card: cardName(card) })
      : interpolate(gettext("%(card)s to column %(column)s"), { card: cardName(card), column: dest + 1 }));
    this.onMove(text);
    return true;
  }

  showTargets(card) {
    this.clearTargets();
    for (const dest of targetsOf(this.pos, card)) {
      if (dest === "F") this.foundationEls[suitOf(card)].classList.add("target");
      else this.columnEls[dest].classList.add("target");
    }
  }

  clearTargets() {
    for (const node of this.root.querySelectorAll(".target, .hover")) node.classList.remove("target", "hover");
  }

  /** The destination under a point: a column (0..6), "F", or null. */
  destAt(x, y) {
    // The dragged pile lies under the pointer: look through it.
    const hit = document.elementsFromPoint(x, y).find((node) => !node.closest(".dragging"));
    if (hit?.closest(".foundations")) return "F";
    const column = hit?.closest(".column");
    if (column) return Number(column.dataset.col);
    const box = this.tableau.getBoundingClientRect();
    if (y >= box.top && y <= box.bottom && x >= box.left - 20 && x <= box.right + 20) {
      let best = null;
      let bestDistance = Infinity;
      this.columnEls.forEach((node, k) => {
        const r = node.getBoundingClientRect();
        const d = Math.abs(x - (r.left + r.right) / 2);
        if (d < bestDistance) { bestDistance = d; best = k; }
      });
      return best;
    }
    return null;
  }

  // ----- input --------------------------------------------------------------------

  listen() {
    const root = this.root;
    root.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    root.addEventListener("pointermove", (e) => this.onPointerMove(e));
    root.addEventListener("pointerup", (e) => this.onPointerUp(e));
    root.addEventListener("pointercancel", () => this.cancelDrag());
    root.addEventListener("keydown", (e) => this.onKey(e));
    root.addEventListener("focusin", (e) => {
      const card = e.target.dataset?.card;
      const slot = e.target.dataset?.colSlot;
      if (card) {
        const where = locate(this.pos, card);
        if (where && !where.home) this.focus = { col: where.col, index: where.index };
      } else if (slot !== undefined) {
        this.focus = { col: Number(slot), index: -1 };
      } else if (e.target.dataset?.suit) {
        this.focus = { col: "F", index: SUITS.indexOf(e.target.dataset.suit) };
      }
      this.markCursor(e.target);
    });
    root.addEventListener("focusout", (e) => {
      if (!root.contains(e.relatedTarget)) this.markCursor(null);
    });
    root.addEventListener("contextmenu", (e) => { if (this.press) e.preventDefault(); });
  }

  /** The keyboard cursor (cyan ``.kbd-focus``, drawn above the cards on top of it): on the
   * focused element when focus came from the keyboard, never after a click or a tap. */
  markCursor(target) {
    for (const node of this.root.querySelectorAll(".kbd-focus")) node.classList.remove("kbd-focus");
    if (target && target !== this.root && target.matches(":focus-visible")) target.classList.add("kbd-focus");
  }

  onPointerDown(e) {
    if (this.frozen || this.press || (e.pointerType === "mouse" && e.button !== 0)) return;
    const cardNode = e.target.closest(".card.up[data-card]");
    const inPlay = [...this.columnEls, ...Object.values(this.foundationEls)];
    if (cardNode && inPlay.some((c) => c.contains(cardNode))) {
      e.preventDefault();
      cardNode.setPointerCapture(e.pointerId);
      this.press = {
        card: cardNode.dataset.card, x: e.clientX, y: e.clientY, id: e.pointerId,
        node: cardNode, dragging: false, pile: [],
      };
      return;
    }
    this.press = { card: null, x: e.clientX, y: e.clientY, id: e.pointerId, target: e.target };
  }

  onPointerMove(e) {
    const press = this.press;
    if (!press || press.id !== e.pointerId || !press.card) return;
    const dx = e.clientX - press.x;
    const dy = e.clientY - press.y;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      press.dragging = true;
      this.sound("pickup");
      press.pile = this.pileOf(press.card);
      for (const node of press.pile) node.classList.add("dragging");
      this.selected = null;
      this.markSelection();
      this.showTargets(press.card);
    }
    for (const node of press.pile) node.style.transform = `translate(${dx}px, ${dy}px)`;
    const dest = this.destAt(e.clientX, e.clientY);
    for (const node of this.root.querySelectorAll(".hover")) node.classList.remove("hover");
    if (dest === "F") this.foundationEls[suitOf(press.card)].classList.add("hover");
    else if (dest !== null) this.columnEls[dest].classList.add("hover");
  }

  onPointerUp(e) {
    const press = this.press;
    if (!press || press.id !== e.pointerId) return;
    this.press = null;
    if (press.dragging) {
      this.drop(press, this.destAt(e.clientX, e.clientY));
      return;
    }
    if (press.card) this.clickCard(press.card);
    else this.clickPlace(press.target);
  }

  drop(press, dest) {
    this.clearTargets();
    const where = locate(this.pos, press.card);
    const fromCol = where && !where.home ? where.col : where?.home ? "F" : null;
    if (dest !== null && dest !== fromCol && this.tryMove(press.card, dest)) return;
    this.snapBack(press.pile);
  }

  snapBack(pile) {
    for (const node of pile) {
      node.classList.add("snapback");
      node.classList.remove("dragging");
      node.style.transform = "";
      setTimeout(() => node.classList.remove("snapback"), 200);
    }
  }

  cancelDrag() {
    if (this.press?.dragging) this.snapBack(this.press.pile);
    this.press = null;
    this.clearTargets();
  }

  clickCard(card) {
    const now = performance.now();
    const double = this.lastClick.card === card && now - this.lastClick.t < DOUBLE_CLICK_MS;
    this.lastClick = { card, t: now };
    if (double) {
      this.clearSelection();
      this.lastClick = { card: null, t: 0 };
      this.tryMove(card, "F");
      return;
    }
    if (this.selected && this.selected !== card) {
      const where = locate(this.pos, card);
      const from = locate(this.pos, this.selected);
      if (where && from && where.col !== from.col) {
        const moving = this.selected;
        if (!this.tryMove(moving, where.col)) this.clearSelection();
        this.lastClick = { card: null, t: 0 };
        return;
      }
    }
    if (this.selected === card) {
      this.clearSelection();
      return;
    }
    this.select(card);
  }

  clickPlace(target) {
    if (!this.selected || !target) return;
    const card = this.selected;
    if (target.closest(".foundations")) {
      if (!this.tryMove(card, "F")) this.clearSelection();
      return;
    }
    const column = target.closest(".column");
    if (column) {
      if (!this.tryMove(card, Number(column.dataset.col))) this.clearSelection();
    }
  }

  select(card) {
    this.sound("pickup");
    this.selected = card;
    this.markSelection();
    this.showTargets(card);
    const n = this.pileOf(card).length - 1;
    this.announce(n
      ? interpolate(ngettext("picked up %(card)s with %(count)s card on it; choose a column",
        "picked up %(card)s with %(count)s cards on it; choose a column", n), { card: cardName(card), count: n })
      : interpolate(gettext("picked up %(card)s; choose a column"), { card: cardName(card) }));
  }

  onKey(e) {
    if (this.frozen || !this.pos) return;
    const { col, index } = this.focus;
    const key = e.key;
    if (col === "F") {
      if (!this.onFoundationKey(key, index)) return;
      e.preventDefault();
      return;
    }
    const up = this.pos.columns[col].up;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const step = key === "ArrowLeft" ? -1 : 1;
      const count = this.pos.columns.length;
      const next = (col + step + count) % count;
      this.moveFocus(next, this.pos.columns[next].up.length - 1);
    } else if (key === "ArrowUp") {
      // Above a column's first face-up card: the foundations (the row above the columns).
      if (up.length && index > 0) this.moveFocus(col, index - 1);
      else this.moveFocus("F", Math.max(0, Math.min(3, col - this.foundationsFrom())));
    } else if (key === "ArrowDown") {
      if (up.length) this.moveFocus(col, Math.min(up.length - 1, index + 1));
    } else if (key === "Enter" || key === " ") {
      if (this.selected) {
        const from = locate(this.pos, this.selected);
        if (from && from.col === col) this.clearSelection();
        else if (!this.tryMove(this.selected, col)) this.clearSelection();
      } else if (index >= 0 && up[index]) {
        this.select(up[index]);
      }
    } else if (key === "f" || key === "F") {
      const card = this.selected || (index >= 0 ? up[index] : null);
      if (card) this.tryMove(card, "F");
    } else if (key === "Escape") {
      this.putBack();
    } else {
      return;
    }
    e.preventDefault();
  }

  /** Keys on the foundations: ←/→ along them, ↓ back to the columns, Enter drops the
   * picked-up card home (or, with take-back and nothing picked up, picks up the top card).
   * Returns whether the key was used. */
  onFoundationKey(key, index) {
    if (key === "ArrowLeft" || key === "ArrowRight") {
      this.moveFocus("F", index + (key === "ArrowLeft" ? -1 : 1));
    } else if (key === "ArrowDown") {
      const col = index + this.foundationsFrom();
      this.moveFocus(col, this.pos.columns[col].up.length - 1);
    } else if (key === "Enter" || key === " " || key === "f" || key === "F") {
      const suit = SUITS[index];
      const n = this.pos.foundations[suit];
      if (!this.selected && n && variantOf(this.pos).takeback && key !== "f" && key !== "F") {
        this.select("A23456789TJQK"[n - 1] + suit); // take-back: pick up the top card
      } else if (!this.selected) {
        this.announce(gettext("pick up a card first"));
      } else if (suitOf(this.selected) !== SUITS[index]) {
        this.announce(interpolate(gettext("%(card)s goes on the %(suit)s foundation"),
          { card: theCardName(this.selected), suit: suitName(suitOf(this.selected)) }));
      } else if (!this.tryMove(this.selected, "F")) {
        this.clearSelection();
      }
    } else if (key === "Escape") {
      this.putBack();
    } else {
      return false;
    }
    return true;
  }

  putBack() {
    if (this.selected) this.announce(gettext("put back"));
    this.clearSelection();
  }
}
