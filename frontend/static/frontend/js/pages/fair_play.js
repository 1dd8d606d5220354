// The fair-play page: recompute a closed day's commitment in the browser from its opening.

import { api, serverNow } from "../shared/api.js";
import { escapeHtml } from "../shared/html.js";
import { clockFrom } from "../shared/local_time.js";
import { commitmentText, sha256Hex } from "../shared/proof.js";

const form = document.querySelector("[data-proof-form]");
const out = document.querySelector("[data-proof-result]");

function show(html, ok) {
  out.innerHTML = `<p class="notice ${ok ? "ok" : "warn"}">${html}</p>`;
}

form?.addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = new FormData(form);
  const date = String(data.get("date"));
  const tier = String(data.get("tier"));
  const recorded = String(data.get("recorded") || "").trim().toLowerCase();
  let entries;
  try {
    entries = await api.get(`/api/daily/${encodeURIComponent(date)}/`);
  } catch (err) {
    show(escapeHtml(err.message), false);
    return;
  }
  const entry = entries.find((c) => c.tier === tier);
  if (!entry) return show(`No ${escapeHtml(tier)} challenge on ${escapeHtml(date)}.`, false);
  if (!entry.closed) {
    return show(`This day is still open: its commitment is <code>${escapeHtml(entry.commitment)}</code>; `
      + `the deal and salt are published when it closes, at ${escapeHtml(clockFrom(entry.closes_at, serverNow()))} your time.`, true);
  }
  const digest = await sha256Hex(commitmentText(entry));
  if (digest === null) return show("This browser cannot compute SHA-256 here (it needs HTTPS).", false);
  const matches = digest === entry.commitment && (!recorded || recorded === entry.commitment);
  const lines = [
    `Deal <strong>${escapeHtml(entry.deal)}</strong>, salt <code>${escapeHtml(entry.salt)}</code>.`,
    `SHA-256 computed here: <code>${escapeHtml(digest)}</code>.`,
    `Published commitment: <code>${escapeHtml(entry.commitment)}</code>.`,
  ];
  if (recorded) lines.push(`You recorded: <code>${escapeHtml(recorded)}</code>.`);
  lines.push(matches ? "<strong>They match.</strong>" : "<strong>They do not match.</strong>");
  lines.push(`Every ranked game: <a href="${escapeHtml(entry.games_url)}">${escapeHtml(entry.games_url)}</a>.`);
  show(lines.join("<br>"), matches);
});
