// The share text after a game: no DOM, so the node tests read it (tests/frontend/share.test.mjs).
//
// Plain lines of words and numbers, which read the same in any font and any app: no
// emoji squares, which many fonts draw as empty boxes. How the game went is one line of
// numbers: the cards home at the end of each EIGHTH of the game (its move log cut into
// eight by ply), "Cards home by eighths: 0 2 5 9 14 22 31 52". Only counts go in: never
// which card, which column or which suit.

import { formatTime } from "./format.js";
import { practiceName } from "./game_names.js";
import { gettext, interpolate, ngettext, pgettext } from "./i18n.js";

export const EIGHTHS = 8;
// Read when the text is made: the page's catalogue is loaded by then.
const RESULT_WORDS = {
  won: () => pgettext("share result", "won"),
  stuck: () => pgettext("share result", "no moves left"),
  resigned: () => pgettext("share result", "resigned"),
  abandoned: () => pgettext("share result", "not finished"),
};
const TIER_WORDS = {
  easy: () => pgettext("tier", "easy"),
  medium: () => pgettext("tier", "medium"),
  hard: () => pgettext("tier", "hard"),
  weekly: () => pgettext("tier", "weekly"),
};

/** Cards home at the end of each eighth of a game, from its log's move texts: the moves
 * sent home so far (`...>F`; an undo entry takes back the move before it). A practice game
 * with take-back counts a card taken back as still home: its move text does not say where
 * the card came from. */
export function homeByEighths(moves) {
  const played = [];
  for (const text of moves) {
    if (text === "undo") played.pop();
    else played.push(text);
  }
  const home = [];
  let count = 0;
  let at = 0;
  for (let part = 1; part <= EIGHTHS; part += 1) {
    const to = Math.floor((part * played.length) / EIGHTHS);
    for (; at < to; at += 1) if (played[at].endsWith(">F")) count += 1;
    home.push(count);
  }
  return home;
}

/** The progress line of a finished game: "Cards home by eighths: 0 2 5 9 14 22 31 52". */
export function progressLine(moves) {
  return interpolate(gettext("Cards home by eighths: %(counts)s"), { counts: homeByEighths(moves).join(" ") });
}

/** The whole share text: where and when, the result, score and time; moves against par
 * (once the day is closed: par describes the deal, secret until then) and streak;
 * `summary` (the results screen's percentile and the computer, plainly); the progress
 * line; a link to the day's board, or a practice game's deal. A practice deal is named by its variant's title, from
 * `variantTitles` (the page's `siteConstants().variant_titles`). */
/** A score with its unit, "625 points", as the share text says it ("won, 625 points, 0:28"). */
export function scoreWords(score) {
  return interpolate(ngettext("%(score)s point", "%(score)s points", score), { score });
}

export function shareText(game, { seconds, par = null, streak = null, moves = null, summary = "", origin = "", variantTitles = null }) {
  const result = RESULT_WORDS[game.status]?.() ?? game.status;
  const ranked = game.mode === "daily" || game.mode === "guest" || game.mode === "archive";
  const day = { date: game.date, tier: TIER_WORDS[game.tier]?.() ?? game.tier };
  let where;
  if (!ranked) where = interpolate(gettext("practice %(deal)s"), { deal: practiceName(game, variantTitles) });
  else if (game.mode === "archive") where = interpolate(gettext("%(date)s %(tier)s (archive)"), day);
  else where = interpolate(gettext("%(date)s %(tier)s"), day);
  const moveCount = interpolate(ngettext("%(count)s move", "%(count)s moves", game.moves), { count: game.moves });
  // the time is the first line's: not again here
  const parts = [par ? interpolate(gettext("%(moves)s (par %(par)s)"), { moves: moveCount, par }) : moveCount];
  if (streak && game.mode === "daily") {
    parts.push(interpolate(game.tier === "weekly" ? gettext("weekly streak %(count)s") : gettext("streak %(count)s"), { count: streak }));
  }
  const first = interpolate(gettext("Yukon Daily %(where)s: %(result)s, %(score)s, %(time)s"), {
    where, result, score: scoreWords(game.score), time: formatTime(seconds),
  });
  const lines = [first, parts.join(" · ")];
  if (summary) lines.push(summary);
  if (moves) lines.push(progressLine(moves));
  if (ranked) {
    const board = game.mode === "archive" ? "&archive=1" : "";
    lines.push(`${origin}/leaderboards/daily/?date=${game.date}&tier=${game.tier}${board}`);
  } else if (game.deal != null) {
    // the deal itself, for a friend to play: a practice share had no link at all
    const variant = String(game.variant ?? "yukon").split("+")[0];
    lines.push(`${origin}/practice/${game.deal}/?variant=${encodeURIComponent(variant)}${game.takeback ? "&takeback=1" : ""}`);
  }
  return lines.join("\n");
}

/** Put `text` in the share box, every line in view from the first: the box grows to its
 * lines (a box shorter than its text opened scrolled to the end, past the first line). */
export function fillShareBox(field, text) {
  field.value = text;
  field.rows = Math.max(2, text.split("\n").length);
  field.scrollTop = 0;
  if (typeof field.setSelectionRange === "function") field.setSelectionRange(0, 0);
}
