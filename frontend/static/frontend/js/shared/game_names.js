// How games and a day's counts are said where people read them: how a game ended (a kept
// guest's game says it never ranked), a practice deal by its variant's name ("Double Yukon
// #17", never "double-yukon"), a replay's heading, and a daily's counts on the home page
// with its guests. No DOM, so the node tests read it (tests/frontend/game_names.test.mjs).
// `titles` is the page's table of variant names, `siteConstants().variant_titles`
// (shared/format.js, variantTitle).

import { variantTitle } from "./format.js";

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

const ENDINGS = { won: "Won", stuck: "No move left", resigned: "Resigned", abandoned: "Not finished", playing: "In play" };

/** How a game ended, in words ("No move left"). */
export function endingWords(status) {
  return ENDINGS[status] || status;
}

/** A player page's history row's result in words. A game the player played as a guest
 * and kept (a log-in took it, or a sign-up after its day closed) never ranked, and says so:
 * "Won · played as a guest, not ranked". */
export function historyResult(row) {
  const words = endingWords(row.status);
  return row.guest ? `${words} · played as a guest, not ranked` : words;
}

/** A game's variant by name, with its take-back option ("Yukon with take-back"). */
function variantOf(game, titles) {
  const name = String(game.variant ?? "");
  return variantTitle(game.takeback && !name.includes("+") ? `${name}+takeback` : name, titles);
}

/** A practice deal as a list or a share text says it: "Double Yukon #17". */
export function practiceName(game, titles) {
  return `${variantOf(game, titles)} #${game.deal ?? ""}`;
}

/** A replay's heading: the day and tier of a daily (its variant when not plain Yukon: the
 * weekly's Double Yukon), said unranked for a guest's or an archive game; a practice deal by
 * its variant's name. */
export function replayTitle(game, titles) {
  if (game.mode === "practice" || !game.date) return `Replay practice ${practiceName(game, titles)}`;
  const variant = game.variant && game.variant !== "yukon" ? ` · ${variantOf(game, titles)}` : "";
  const how = { archive: " (archive)", guest: " (played as a guest)" }[game.mode] ?? "";
  return `Replay ${game.date} ${game.tier}${variant}${how}`;
}

/** A daily's counts so far: "7 played (1 as a guest) · 3 won"; `guests` are the games
 * played without an account, some since kept by the account their guest signed up for. */
export function dailyCounts({ played, won, guests = 0 }) {
  const asGuests = guests ? ` (${plural(guests, "as a guest", "as guests")})` : "";
  return `${played} played${asGuests} · ${won} won`;
}
