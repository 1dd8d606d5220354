// How games and a day's counts are said where people read them: how a game ended (a kept
// guest's game says it never ranked), a practice deal by its variant's name ("Double Yukon
// #17", never "double-yukon"), a replay's heading, and a daily's counts on the home page
// with its guests. No DOM, so the node tests read it (tests/frontend/game_names.test.mjs).
// `titles` is the page's table of variant names, `siteConstants().variant_titles`
// (shared/format.js, variantTitle).

import { tierTitle, variantTitle } from "./format.js";
import { el } from "./html.js";
import { gettext, interpolate, ngettext, pgettext } from "./i18n.js";
import { dayName } from "./local_time.js";

const ENDINGS = {
  won: () => gettext("Won"),
  stuck: () => gettext("No move left"),
  resigned: () => gettext("Resigned"),
  abandoned: () => gettext("Not finished"),
  playing: () => gettext("In play"),
};

/** How a game ended, in words ("No move left"). */
export function endingWords(status) {
  return ENDINGS[status]?.() || status;
}

const TIERS = {
  easy: () => pgettext("tier", "easy"),
  medium: () => pgettext("tier", "medium"),
  hard: () => pgettext("tier", "hard"),
  weekly: () => pgettext("tier", "weekly"),
};

/** A daily's tier as a word inside a sentence or a heading ("easy"); an unknown one as it came. */
export function tierWord(tier) {
  return TIERS[tier]?.() ?? String(tier ?? "");
}

/** A player page's history row's result in words. A game the player played as a guest
 * and kept (a log-in took it, or a sign-up after its day closed) never ranked, and says so:
 * "Won · played as a guest, not ranked". */
/** A board's score cell, marked won or not, with the ending's words for a screen reader and
 * a pointer (a resigned game ranked below the wins looked like one). In the score's own
 * cell: a column more overflowed a phone's width in Spanish. */
export function scoreCell(row) {
  const words = endingWords(row.status);
  return el("td", { class: "num result", title: words }, el("span", { class: "result-mark", "aria-hidden": "true" }, row.won ? "✓ " : "✗ "),
    el("span", "sr-only", `${words}: `), row.score);
}

export function historyResult(row) {
  const words = endingWords(row.status);
  return row.guest ? interpolate(gettext("%(result)s · played as a guest, not ranked"), { result: words }) : words;
}

/** A game's variant by name, with its take-back option ("Yukon with take-back"). */
function variantOf(game, titles) {
  const name = String(game.variant ?? "");
  return variantTitle(game.takeback && !name.includes("+") ? `${name}+takeback` : name, titles);
}

/** A practice deal as a list or a share text says it: "Double Yukon #17". */
export function practiceName(game, titles) {
  return interpolate(gettext("%(variant)s #%(deal)s"), { variant: variantOf(game, titles), deal: game.deal ?? "" });
}

/** A replay's heading: the day and tier of a daily (its variant when not plain Yukon: the
 * weekly's Double Yukon), said unranked for a guest's or an archive game; a practice deal by
 * its variant's name. */
export function replayTitle(game, titles) {
  if (game.mode === "practice" || !game.date) {
    return interpolate(gettext("Replay practice %(game)s"), { game: practiceName(game, titles) });
  }
  const variant = game.variant && game.variant !== "yukon" ? ` · ${variantOf(game, titles)}` : "";
  const day = { date: dayName(game.date), tier: tierTitle(game.tier), variant }; // a heading's label
  if (game.mode === "archive") return interpolate(gettext("Replay · %(date)s · %(tier)s%(variant)s (archive)"), day);
  if (game.mode === "guest") return interpolate(gettext("Replay · %(date)s · %(tier)s%(variant)s (played as a guest)"), day);
  return interpolate(gettext("Replay · %(date)s · %(tier)s%(variant)s"), day);
}

/** A daily's counts so far: "7 played (1 as a guest) · 3 won"; `guests` are the games
 * played without an account, some since kept by the account their guest signed up for. */
export function dailyCounts({ played, won, guests = 0 }) {
  const values = { played, won, guests };
  if (!guests) return interpolate(gettext("%(played)s played · %(won)s won"), values);
  return interpolate(ngettext("%(played)s played (%(guests)s as a guest) · %(won)s won",
    "%(played)s played (%(guests)s as guests) · %(won)s won", guests), values);
}
