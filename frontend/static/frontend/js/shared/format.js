// Times and names as the pages show them. No DOM, so the node tests can import what uses it
// (share.js). Words in the page's language (i18n.js).

import { gettext, interpolate, pageLanguage, pgettext } from "./i18n.js";

/** Seconds as m:ss, or h:mm:ss from an hour on. */
export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds || 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** An answer's `elapsed_ms` (or `best_time_ms`) as a time, or `missing` where it is null:
 * a game still in play, or a record with no win yet. */
export function formatElapsed(ms, missing = "") {
  return ms == null ? missing : formatTime(ms / 1000);
}

/** A variant as people name it ("double-yukon" -> "Double Yukon", "moosehide-runs" ->
 * "Moosehide (runs only)"). `titles` is the engine's table, which every page carries:
 * `siteConstants().variant_titles` (frontend/templatetags/variant_names.py). A position's
 * "+takeback" is said in words; a name the table lacks shows with spaces for hyphens. */
export function variantTitle(name, titles) {
  if (!name) return "";
  const [base, option] = String(name).split("+");
  const title = titles?.[base] ?? base.replaceAll("-", " ");
  return option === "takeback" ? interpolate(gettext("%(variant)s with take-back"), { variant: title }) : title;
}

const TIER_TITLES = {
  easy: pgettext("tier", "Easy"),
  medium: pgettext("tier", "Medium"),
  hard: pgettext("tier", "Hard"),
  weekly: pgettext("tier", "Weekly"),
};

/** A tier as a heading or a button says it: "easy" -> "Easy", "weekly" -> "Weekly"; a tier
 * it does not know as it came, capitalised. */
export function tierTitle(tier) {
  const text = String(tier ?? "");
  return Object.hasOwn(TIER_TITLES, text) ? TIER_TITLES[text] : text.charAt(0).toUpperCase() + text.slice(1);
}

/** A message shown on its own as a sentence: its first letter a capital, in the page's
 * language ("the eight of spades cannot go on ..." -> "The eight of spades ..."; "die
 * Karo-Vier ..." -> "Die Karo-Vier ..."). The rules' reasons are clauses, lower-case, since
 * they are also read after other words. */
export function asSentence(message) {
  const text = String(message ?? "");
  const [first = ""] = text;
  return first.toLocaleUpperCase(pageLanguage()) + text.slice(first.length);
}
