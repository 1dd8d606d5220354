// The fair-play page: recompute a closed day's commitment in the browser from its opening.

import { api, serverNow } from "../shared/api.js";
import { el, fill } from "../shared/html.js";
import { clockFrom } from "../shared/local_time.js";
import { commitmentText, sha256Hex } from "../shared/proof.js";

const form = document.querySelector("[data-proof-form]");
const out = document.querySelector("[data-proof-result]");

/** The verdict: `lines` of text and elements, one under the other. */
function show(lines, ok) {
  const shown = [lines].flat().flatMap((line, i) => (i ? [el("br"), line] : [line]));
  fill(out, el("p", `notice ${ok ? "ok" : "warn"}`, shown));
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
    show(err.message, false);
    return;
  }
  const entry = entries.find((c) => c.tier === tier);
  if (!entry) return show(`No ${tier} challenge on ${date}.`, false);
  const code = (text) => el("code", null, text);
  if (!entry.closed) {
    return show([["This day is still open: its commitment is ", code(entry.commitment),
      `; the deal and salt are published when it closes, at ${clockFrom(entry.closes_at, serverNow())} your time.`]], true);
  }
  const digest = await sha256Hex(commitmentText(entry));
  if (digest === null) return show("This browser cannot compute SHA-256 here (it needs HTTPS).", false);
  const matches = digest === entry.commitment && (!recorded || recorded === entry.commitment);
  const lines = [
    ["Deal ", el("strong", null, entry.deal), ", salt ", code(entry.salt), "."],
    ["SHA-256 computed here: ", code(digest), "."],
    ["Published commitment: ", code(entry.commitment), "."],
  ];
  if (recorded) lines.push(["You recorded: ", code(recorded), "."]);
  lines.push(el("strong", null, matches ? "They match." : "They do not match."));
  lines.push(["Every ranked game: ", el("a", { href: entry.games_url }, entry.games_url), "."]);
  show(lines, matches);
});
