// The pages' elements built from data, never parsed from HTML text: every value goes in as
// text or as one attribute's value, so a name like `<img src=x onerror=...>` shows as
// those characters and never runs (docs/frontend.md, "No markup from data"). Also the
// pieces several pages draw alike.

import { gettext } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/** Children as `append` takes them: nested lists flattened; null, false and "" left out
 * (so `cond && el(...)` reads as "only when"); numbers as their text. */
function nodes(children) {
  return children.flat(Infinity)
    .filter((child) => child != null && child !== false && child !== "")
    .map((child) => (typeof child === "object" ? child : String(child)));
}

function build(node, attrs, children) {
  const named = typeof attrs === "string" ? { class: attrs } : attrs || {};
  for (const [name, value] of Object.entries(named)) {
    if (value == null || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...nodes(children));
  return node;
}

/**
 * An element: `el("a", { href, "aria-label": label }, "text", child, ...)`. `attrs` is an
 * object of attributes (true: present and empty; null or false: left out) or a string, the
 * class. Children are nodes or text (lists are flattened, null and false skipped).
 */
export function el(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** The same for an SVG element (`svgEl("path", { d })`). */
export function svgEl(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace what `node` holds with `children` (as `el` takes them). */
export function fill(node, ...children) {
  node.replaceChildren(...nodes(children));
  return node;
}

/** A player's name, linked to their page. */
export function playerLink(name) {
  return el("a", { href: `/players/${encodeURIComponent(name)}/` }, name);
}

/** The name a board's row goes by on the page: a deleted account's (`deleted`,
 * docs/leaderboards.md) in the page's language, any other as the player chose it. */
export function rowName(row) {
  return row.deleted ? gettext("deleted player") : row.display_name;
}

/** A board row's player: the name linked to its page, or a deleted account's name linked
 * nowhere (it has no page). */
export function rowPlayer(row) {
  return row.deleted ? el("span", "muted", rowName(row)) : playerLink(row.display_name);
}

/** A board row's ▶ to its game's replay, after the name: none when the API gives no link (an
 * open day's rows but the viewer's own). */
export function replayLink(row) {
  return row.replay_url ? [" ", el("a", { href: row.replay_url, "aria-label": gettext("replay") }, "▶")] : null;
}

/** A table cell for a number (right-aligned by the stylesheet). */
export function numberCell(value) {
  return el("td", "num", value);
}

/** Badges from the API (a player's record, a month of the archive); `withMonth` names the
 * month each was won in. */
export function badgeList(badges, { withMonth = false } = {}) {
  const item = (b) => el("li", { class: `badge ${b.tier}`, title: b.title },
    b.name, withMonth && [" ", el("span", "muted", b.month)]);
  return el("ul", "badges", badges.map(item));
}

/** An empty state: a sentence on what is missing, then the next step as a link
 * (`emptyState("You follow nobody yet.", "/leaderboards/daily/", "Today's board")`). */
export function emptyState(sentence, href, action) {
  return el("p", "empty-state", el("span", null, sentence), el("a", { class: "button small ghost", href }, action));
}
