// The keyboard help: `?` (or the footer's "Keyboard shortcuts") opens a dialog listing
// every key the site answers to, the current page's first.
//
// The list is written here by hand from the pages' own key handlers: shared/board.js
// (`onKey`, `onFoundationKey`), pages/play.js (Ctrl+Z, the results screen's keys) and
// pages/replay.js (←/→). A new shortcut belongs in this list too: tests/frontend/
// keyboard_help.test.mjs fails on a key a keydown handler answers to and the list lacks.
// shared/keyboard_keys.js opens it on every page, loading this module on the first `?`.
// Nothing here runs on import.

import { el } from "./html.js";
import { gettext, interpolate, pgettext } from "./i18n.js";

// Each key combination is a list of keys pressed together; a row lists the combinations
// that do the same thing. An arrow's symbol is read by its name.
const KEY_NAMES = {
  "←": gettext("Left arrow"), "→": gettext("Right arrow"), "↑": gettext("Up arrow"), "↓": gettext("Down arrow"),
  "⌘": gettext("Command"),
};
// Keys as their caps are labelled where the language's keyboards differ ("Ctrl": German "Strg").
const SPACE = pgettext("key", "Space");
const CTRL = pgettext("key", "Ctrl");

/** The site's shortcuts, by where they work: `where` is a selector for the pages they
 * belong to (null: every page). */
export const SHORTCUTS = Object.freeze([
  {
    title: gettext("Everywhere"),
    where: null,
    rows: [
      { keys: [["?"]], does: gettext("Open this list of keyboard shortcuts.") },
      { keys: [["Esc"]], does: gettext("Close a dialog: this list, a question, the results screen.") },
    ],
  },
  {
    title: gettext("The card table"),
    where: "[data-game]",
    rows: [
      { keys: [["Tab"]], does: gettext("Reach the card table (one stop); the keys below work while it has the focus.") },
      { keys: [["←"], ["→"]], does: gettext("The previous or next column (round from the last to the first); on the foundations, the previous or next foundation.") },
      { keys: [["↑"], ["↓"]], does: gettext("Up or down a column's face-up cards. ↑ from a column's first face-up card goes to the foundations, ↓ from a foundation back to the columns.") },
      { keys: [["Enter"], [SPACE]], does: gettext("Pick up the chosen card with every card on it; again on another column, drop it there; on its own column, put it back. On a foundation, send the picked-up card home (with take-back and nothing picked up: pick up the foundation's top card).") },
      { keys: [["F"]], does: gettext("Send the picked-up card, or the chosen one, to its foundation.") },
      { keys: [["Esc"]], does: gettext("Put the picked-up card back.") },
    ],
  },
  {
    title: gettext("Practice games"),
    where: '[data-game][data-mode="practice"]',
    rows: [
      { keys: [[CTRL, "Z"], ["⌘", "Z"]], does: gettext("Undo the last move.") },
    ],
  },
  {
    title: gettext("The results screen, at the end of a game"),
    where: "[data-game]",
    rows: [
      { keys: [[pgettext("key", "any key")]], does: gettext("Stop a win's cascade of cards.") },
      { keys: [["Esc"]], does: gettext("Close the results and look at the board.") },
    ],
  },
  {
    title: gettext("Replays"),
    where: "[data-replay]",
    rows: [
      { keys: [["←"], ["→"]], does: gettext("One move back or forward (the move slider, when it has the focus, moves with the arrow keys too).") },
    ],
  },
]);

/** The shortcut groups in the order the dialog shows them: every page's, then this page's,
 * then the rest; each with `here` (whether it works on this page). */
export function orderedShortcuts(doc) {
  const here = (group) => group.where === null || Boolean(doc.querySelector(group.where));
  const groups = SHORTCUTS.map((group) => ({ ...group, here: here(group) }));
  return [...groups.filter((g) => g.here), ...groups.filter((g) => !g.here)];
}

function keyCombo(keys) {
  const parts = [];
  keys.forEach((key, i) => {
    if (i) parts.push("+");
    const name = KEY_NAMES[key];
    if (name) parts.push(el("kbd", null, el("span", { "aria-hidden": "true" }, key), el("span", "sr-only", name)));
    else if (key.includes(" ")) parts.push(key); // words ("any key"), not a key's name
    else parts.push(el("kbd", null, key));
  });
  return parts;
}

function groupTable(group, index) {
  const title = group.here && group.where ? interpolate(gettext("%(group)s (this page)"), { group: group.title }) : group.title;
  return el("table", "shortcut-table",
    el("caption", { id: `keyboard-help-group-${index}` }, title),
    el("thead", null, el("tr", null,
      el("th", { scope: "col" }, gettext("Keys")), el("th", { scope: "col" }, gettext("What they do")))),
    el("tbody", null, group.rows.map((row) => el("tr", null,
      el("th", { scope: "row" }, row.keys.map((keys, i) => [i ? ` ${pgettext("between keys", "or")} ` : "", keyCombo(keys)])),
      el("td", null, row.does)))));
}

function build(doc) {
  const close = el("button", { type: "button", class: "button small", "data-keyboard-help-close": true }, gettext("Close"));
  const dialog = el("dialog", { class: "keyboard-help", "aria-labelledby": "keyboard-help-title", "data-keyboard-help": true },
    el("div", "keyboard-help-head",
      el("h2", { id: "keyboard-help-title" }, gettext("Keyboard shortcuts")), close),
    orderedShortcuts(doc).map(groupTable));
  close.addEventListener("click", () => dialog.close());
  // A click on the backdrop closes it too, as the results screen does. The backdrop's clicks
  // reach the dialog itself, as do its padding's: only a point outside its box counts.
  dialog.addEventListener("click", (event) => {
    const box = dialog.getBoundingClientRect();
    const outside = event.clientX < box.left || event.clientX > box.right
      || event.clientY < box.top || event.clientY > box.bottom;
    if (event.target === dialog && outside) dialog.close();
  });
  doc.body.append(dialog);
  return dialog;
}

let dialog = null;
let returnFocus = null;

/** Open the list; focus goes to Close and comes back where it was when the list closes. */
export function openKeyboardHelp(doc = document) {
  dialog ||= build(doc);
  if (dialog.open) return;
  returnFocus = doc.activeElement;
  dialog.addEventListener("close", () => {
    if (returnFocus && returnFocus.isConnected && typeof returnFocus.focus === "function") {
      returnFocus.focus({ preventScroll: true });
    }
    returnFocus = null;
  }, { once: true });
  dialog.showModal();
  dialog.querySelector("[data-keyboard-help-close]").focus();
}
