// The fair-play page: recompute a closed day's commitment in the browser from its opening.

import { api, serverNow } from "../shared/api.js";
import { el, fill } from "../shared/html.js";
import { gettext, interpolate } from "../shared/i18n.js";
import { clockFrom } from "../shared/local_time.js";
import { commitmentText, sha256Hex } from "../shared/proof.js";

const form = document.querySelector("[data-proof-form]");
const out = document.querySelector("[data-proof-result]");

/** The verdict: `lines` of text and elements, one under the other. */
function show(lines, ok) {
  const shown = [lines].flat().flatMap((line, i) => (i ? [el("br"), line] : [line]));
  fill(out, el("p", `notice ${ok ? "ok" : "warn"}`, shown));
}

/** A translated sentence with elements in its `%(name)s` fields: each language puts the
 * hash or the link where its word order wants it, so the sentence is never cut in pieces. */
function sentence(text, parts) {
  return text.split(/(%\(\w+\)s)/).map((piece) => {
    const field = /^%\((\w+)\)s$/.exec(piece);
    return field && field[1] in parts ? parts[field[1]] : piece;
  });
}

form?.addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = new FormData(form);
  const date = String(data.get("date"));
  const tier = String(data.get("tier"));
  // The option's text is the tier's name in the page's language; its value is the API's.
  const tierName = form.elements.tier.selectedOptions[0]?.text ?? tier;
  const recorded = String(data.get("recorded") || "").trim().toLowerCase();
  let entries;
  try {
    entries = await api.get(`/api/daily/${encodeURIComponent(date)}/`);
  } catch (err) {
    show(err.message, false);
    return;
  }
  const entry = entries.find((c) => c.tier === tier);
  if (!entry) {
    return show(interpolate(gettext("No %(tier)s challenge on %(date)s."), { tier: tierName, date }), false);
  }
  const code = (text) => el("code", null, text);
  if (!entry.closed) {
    const closes = clockFrom(entry.closes_at, serverNow());
    const text = gettext("This day is still open: its commitment is %(commitment)s; the deal and salt are published when it closes, at %(time)s your time.");
    return show([sentence(text, { commitment: code(entry.commitment), time: closes })], true);
  }
  const digest = await sha256Hex(commitmentText(entry));
  if (digest === null) return show(gettext("This browser cannot compute SHA-256 here (it needs HTTPS)."), false);
  const matches = digest === entry.commitment && (!recorded || recorded === entry.commitment);
  const lines = [
    sentence(gettext("Deal %(deal)s, salt %(salt)s."), { deal: el("strong", null, entry.deal), salt: code(entry.salt) }),
    sentence(gettext("SHA-256 computed here: %(digest)s."), { digest: code(digest) }),
    sentence(gettext("Published commitment: %(commitment)s."), { commitment: code(entry.commitment) }),
  ];
  if (recorded) lines.push(sentence(gettext("You recorded: %(recorded)s."), { recorded: code(recorded) }));
  lines.push(el("strong", null, matches ? gettext("They match.") : gettext("They do not match.")));
  lines.push(sentence(gettext("Every ranked game: %(link)s."), {
    link: el("a", { href: entry.games_url }, entry.games_url),
  }));
  show(lines, matches);
});
