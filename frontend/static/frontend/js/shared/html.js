// HTML text for the pages' innerHTML: escaping, and the pieces several pages draw alike.

export function escapeHtml(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A player's name, linked to their page. */
export function playerLink(name) {
  return `<a href="/players/${encodeURIComponent(name)}/">${escapeHtml(name)}</a>`;
}

/** A table cell for a number (right-aligned by the stylesheet). */
export function numberCell(value) {
  return `<td class=num>${escapeHtml(value)}</td>`;
}

/** Badges from the API (a player's record, a month of the archive); `withMonth` names the
 * month each was won in. */
export function badgeList(badges, { withMonth = false } = {}) {
  const item = (b) => `<li class="badge ${escapeHtml(b.tier)}" title="${escapeHtml(b.title)}">${escapeHtml(b.name)}`
    + `${withMonth ? ` <span class="muted">${escapeHtml(b.month)}</span>` : ""}</li>`;
  return `<ul class="badges">${badges.map(item).join("")}</ul>`;
}
