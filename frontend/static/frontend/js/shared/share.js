// The share text after a game: no DOM, so the node tests read it (tests/frontend/share.test.mjs).
//
// The emoji line shows how the game went without giving away a card: the game's move log
// is cut into EIGHTHS by ply, and each eighth is one square coloured by how many moves in
// it sent a card home (a move whose destination is `F`): none ⬜, 1-2 🟨, 3-5 🟧, 6 or more
// 🟩. A last sign tells how it ended (🏆 won, 🧱 no move left, 🏳️ resigned, 🌙 not finished).
// Only counts of moves home per eighth go in: never which card, which column or which suit.

import { formatTime } from "./format.js";

export const EIGHTHS = 8;
const ENDINGS = { won: "🏆", stuck: "🧱", resigned: "🏳️", abandoned: "🌙" };
const RESULT_WORDS = { won: "won", stuck: "no moves left", resigned: "resigned", abandoned: "not finished" };

function square(home) {
  if (home >= 6) return "🟩";
  if (home >= 3) return "🟧";
  if (home >= 1) return "🟨";
  return "⬜";
}

/** The emoji line of a finished game from its log's move texts (undo entries skipped). */
export function emojiLine(moves, status) {
  const played = moves.filter((text) => text !== "undo");
  const squares = [];
  for (let part = 0; part < EIGHTHS; part += 1) {
    const from = Math.floor((part * played.length) / EIGHTHS);
    const to = Math.floor(((part + 1) * played.length) / EIGHTHS);
    const home = played.slice(from, to).filter((text) => text.endsWith(">F")).length;
    squares.push(square(home));
  }
  return squares.join("") + (ENDINGS[status] || "");
}

/** The whole share text: where and when, the result, moves against par (once the day is
 * closed: par describes the deal, secret until then), time, streak, the emoji line and a
 * link to the day's board. */
export function shareText(game, { seconds, par = null, streak = null, moves = null, origin = "" }) {
  const result = RESULT_WORDS[game.status] || game.status;
  const ranked = game.mode === "daily" || game.mode === "archive";
  const where = ranked
    ? `${game.date} ${game.tier}${game.mode === "archive" ? " (archive)" : ""}`
    : `practice ${game.variant} #${game.deal}`;
  const parts = [`${game.moves} moves${par ? ` (par ${par})` : ""}`, formatTime(seconds)];
  if (streak && game.mode === "daily") parts.push(game.tier === "weekly" ? `weekly streak ${streak}` : `streak ${streak}`);
  const lines = [`Yukon Daily ${where}: ${result}, ${game.score}, ${formatTime(seconds)}`, parts.join(" · ")];
  if (moves) lines.push(emojiLine(moves, game.status));
  if (ranked) {
    const board = game.mode === "archive" ? "&archive=1" : "";
    lines.push(`${origin}/leaderboards/daily/?date=${game.date}&tier=${game.tier}${board}`);
  }
  return lines.join("\n");
}
