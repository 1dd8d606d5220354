// The replay viewer: rebuilds every position of a game from its log, then steps through them.

import { api, serverNow } from "../shared/api.js";
import { Board } from "../shared/board.js";
import { siteConstants } from "../shared/dom.js";
import { formatTime } from "../shared/format.js";
import { replayTitle } from "../shared/game_names.js";
import { moveShort } from "../shared/hint_words.js";
import { el, fill } from "../shared/html.js";
import { gettext, interpolate, ngettext, pgettext } from "../shared/i18n.js";
import { turnoverAt } from "../shared/local_time.js";
import { applyMove, fromMasked, revealCard } from "../shared/rules.js";

const root = document.querySelector("[data-replay]");
const $ = (sel) => root.querySelector(sel);
const board = new Board($("[data-board]"));
const scrub = $("[data-scrub]");
const playButton = $("[data-play]");

let frames = []; // [{pos, text, atMs}]; frames[0] is the deal
let at = 0;
let timer = 0;

/** Every position of the game, in order; an "undo" entry returns to the one before. */
function buildFrames(start, log) {
  const out = [{ pos: start, text: "", atMs: 0 }];
  const standing = [start];
  for (const entry of log) {
    let pos;
    if (entry.move === "undo") {
      if (standing.length > 1) standing.pop();
      pos = standing[standing.length - 1];
    } else {
      const step = applyMove(standing[standing.length - 1], entry.move);
      pos = step.uncovered === null ? step.position : revealCard(step.position, step.uncovered, entry.turned);
      standing.push(pos);
    }
    out.push({ pos, text: entry.move, atMs: entry.at_ms ?? null });
  }
  return out;
}

function show(index) {
  at = Math.max(0, Math.min(frames.length - 1, index));
  const frame = frames[at];
  board.render(frame.pos, { animate: true });
  $("[data-score]").textContent = frame.pos.score;
  $("[data-moves]").textContent = `${at}/${frames.length - 1}`;
  $("[data-time]").textContent = frame.atMs == null ? "–" : formatTime(frame.atMs / 1000);
  $("[data-move-text]").textContent = frame.text || gettext("the deal, before move 1");
  scrub.value = String(at);
  if (at >= frames.length - 1) stop();
}

function stop() {
  clearInterval(timer);
  timer = 0;
  playButton.textContent = pgettext("replay", "Play");
  playButton.setAttribute("aria-label", pgettext("replay", "Play"));
}

function play() {
  if (timer) { stop(); return; }
  if (at >= frames.length - 1) show(0);
  playButton.textContent = pgettext("replay", "Pause");
  playButton.setAttribute("aria-label", pgettext("replay", "Pause"));
  timer = setInterval(() => show(at + 1), Number($("[data-speed]").value));
}

async function load() {
  let game;
  try {
    game = await api.get(`/api/games/${root.dataset.gameId}/replay/`);
  } catch (err) {
    const why = err.status === 409 ? gettext("This game is still being played; its replay opens when it ends.")
      : err.status === 404 ? gettext("This replay is not public yet (daily games open when their day closes).")
        : err.message;
    fill($("[data-board]"), el("p", "loading", why));
    return;
  }
  frames = buildFrames(fromMasked(game.start), game.log || []);
  $("[data-title]").textContent = replayTitle(game, siteConstants()?.variant_titles);
  scrub.max = String(frames.length - 1);
  show(0);
  // A daily game's analysis shows the deal: it opens with the deal number, when the day closes.
  if (game.mode === "practice" || game.deal != null) loadAnalysis(game, 0);
  else showClosedAnalysis();
}

function showClosedAnalysis() {
  sayAnalysis(interpolate(
    gettext("The analysis of a daily game opens when its day closes, at %(time)s."),
    { time: turnoverAt(serverNow()) },
  ));
}

/** The analysis's sentence: in its section, below the first screen, and on the first
 * screen's line that leads down to it (nothing there said it was below). */
function sayAnalysis(text) {
  $("[data-analysis]").hidden = false;
  $("[data-analysis-summary]").textContent = text;
  $("[data-analysis-peek-text]").textContent = text;
  $("[data-analysis-peek]").classList.remove("waiting");
}

// ----- the analysis: where the game stopped being winnable ----------------------

/** The par line: the player's move count beside the solver's line length. */
function parText(analysis) {
  const values = { moves: analysis.player_moves, par: analysis.par };
  return interpolate(analysis.par
    ? ngettext("You played %(moves)s move; par (the solver's winning line from the deal) is %(par)s.",
      "You played %(moves)s moves; par (the solver's winning line from the deal) is %(par)s.", analysis.player_moves)
    : ngettext("You played %(moves)s move.", "You played %(moves)s moves.", analysis.player_moves), values);
}

async function loadAnalysis(game, attempt) {
  let analysis;
  try {
    analysis = await api.get(`/api/games/${game.id}/analysis/`);
  } catch (err) {
    if (err.status === 403 || err.status === 429) sayAnalysis(err.message); // a daily's before the close; over budget
    return; // 404: no analysis for this game (not verified, or not yours)
  }
  sayAnalysis(analysis.summary);
  if (analysis.status !== "done") { // computing: look again soon; deferred: the summary says when
    if (analysis.status === "pending" && attempt < 20) setTimeout(() => loadAnalysis(game, attempt + 1), 1500);
    return;
  }
  $("[data-analysis-par]").textContent = parText(analysis);
  const jump = $("[data-analysis-jump]");
  const lost = analysis.losing_move;
  if (lost && lost.ply != null) {
    jump.hidden = false;
    jump.textContent = interpolate(gettext("Show move %(number)s"), { number: lost.number }); // the summary names it
    jump.onclick = () => { stop(); show(lost.ply + 1); };
  }
  if (analysis.continuation && analysis.continuation.length) {
    $("[data-analysis-line]").hidden = false;
    $("[data-analysis-moves]").textContent = analysis.continuation.map(moveShort).join(" · ");
  }
}

// The first screen's line goes down to the analysis and takes the focus there (main scrolls).
$("[data-analysis-link]").addEventListener("click", (event) => {
  event.preventDefault();
  const panel = $("[data-analysis]");
  panel.scrollIntoView({ block: "nearest" });
  panel.focus({ preventScroll: true });
});

$("[data-first]").addEventListener("click", () => { stop(); show(0); });
$("[data-back]").addEventListener("click", () => { stop(); show(at - 1); });
$("[data-forward]").addEventListener("click", () => { stop(); show(at + 1); });
$("[data-last]").addEventListener("click", () => { stop(); show(frames.length - 1); });
playButton.addEventListener("click", play);
scrub.addEventListener("input", () => { stop(); show(Number(scrub.value)); });
$("[data-speed]").addEventListener("change", () => { if (timer) { stop(); play(); } });
document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, select, textarea")) return;
  if (e.key === "ArrowRight") { stop(); show(at + 1); } else if (e.key === "ArrowLeft") { stop(); show(at - 1); } else return;
  e.preventDefault();
});

load();
