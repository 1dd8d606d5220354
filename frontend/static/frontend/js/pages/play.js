// The play page: a ranked daily game (/play/<id>/) or a practice deal (/practice/<n>/).
//
// Moves are applied at once with the rules mirror, then sent one at a time with their ply.
// The server's answer names any card that turned and is final: on a 409, a refused move or
// any other error the page reloads the authoritative game and redraws it.

import { api, serverNow, whenReady } from "../shared/api.js";
import { Board } from "../shared/board.js";
import { theCardName } from "../shared/cards.js";
import { closingNotice } from "../shared/closing.js";
import { confirmChoice } from "../shared/confirm.js";
import { isLoggedIn, siteConstants, speak, toast } from "../shared/dom.js";
import { formatTime, tierTitle, variantTitle } from "../shared/format.js";
import { tierWord } from "../shared/game_names.js";
import { clearHint, hintWords, markHint } from "../shared/hint_words.js";
import { el, fill } from "../shared/html.js";
import { gettext, interpolate, ngettext, pageLanguage } from "../shared/i18n.js";
import { dayName } from "../shared/local_time.js";
import { countShare } from "../shared/metrics.js";
import { shortCommitment } from "../shared/proof.js";
import { applyMove, fromMasked, isMultiDeck, legalMoves, revealCard } from "../shared/rules.js";
import { cascade, nextAction, reducedMotion, shareSummary, showResults, signUpHref } from "../shared/results.js";
import { currentSettings, SETTINGS_EVENT } from "../shared/settings.js";
import { fillShareBox, shareText } from "../shared/share.js";
import { moveSound, playSound } from "../shared/sounds.js";

const root = document.querySelector("[data-game]");
const $ = (sel) => root.querySelector(sel);
const announceEl = $("[data-announce]");

const TITLES = {
  won: gettext("You won!"), stuck: gettext("No moves left"), resigned: gettext("Resigned"), abandoned: gettext("Day closed"),
};

const state = {
  game: null, // the last game JSON from the server
  pos: null, // the position shown: the server's, plus moves not yet answered
  ply: 0, // the ply the next move will carry
  queue: Promise.resolve(),
  generation: 0, // bumped on every reload, so queued sends of an older state give up
  startedAt: 0,
  finished: false,
  asking: false, // a question to the practice coach is on its way
  closeAsked: 0, // when the page last reloaded because the day closed (the server ends the game)
  closeTold: false, // the player was told how long is left before the close
  stuckTold: false, // "No legal move left." was announced
  offline: false, // a move went unanswered: the board waits for the connection (waitForConnection)
};

function announce(text) {
  speak(announceEl, text);
}

const board = new Board($("[data-board]"), {
  onMove: (text) => playMove(text),
  notify: (text) => toast(text, { warn: true, silent: true }), // the board announces it
  sound: playSound, // pick-up and refusals; play.js itself plays the moves and the win
  announce,
});

// ----- loading -------------------------------------------------------------------

async function start() {
  try {
    if (root.dataset.mode === "practice") await startPractice();
    else adopt(await api.get(`/api/games/${root.dataset.gameId}/`));
  } catch (err) {
    fill($("[data-board]"), el("p", "loading", interpolate(gettext("Could not load the game: %(error)s."), { error: err.message })));
  }
}

async function startPractice() {
  const params = new URLSearchParams(window.location.search);
  const known = params.get("game");
  if (known) {
    try {
      adopt(await api.get(`/api/games/${encodeURIComponent(known)}/`));
      return;
    } catch {
      // gone or not ours: deal a fresh one below
    }
  }
  await newPractice();
}

async function newPractice() {
  const takeback = root.dataset.takeback === "1";
  const game = await api.post("/api/games/", { deal: root.dataset.deal, variant: root.dataset.variant, takeback });
  const url = new URL(window.location.href);
  url.searchParams.set("variant", root.dataset.variant);
  if (takeback) url.searchParams.set("takeback", "1");
  else url.searchParams.delete("takeback");
  url.searchParams.set("game", game.id);
  window.history.replaceState(null, "", url);
  adopt(game);
}

/** Take the server's game as the truth and redraw everything from it. */
function adopt(game) {
  state.generation += 1;
  state.queue = Promise.resolve();
  state.game = game;
  state.pos = fromMasked(game.position);
  state.ply = game.ply;
  state.startedAt = game.started_at ? Date.parse(game.started_at) : serverNow();
  state.finished = game.status !== "playing";
  const takebackBox = $("[data-takeback-pick]");
  if (takebackBox) { // a game resumed by its id keeps its own rules
    takebackBox.checked = Boolean(game.takeback);
    root.dataset.takeback = game.takeback ? "1" : "0";
    takebackBox.closest("label").hidden = isMultiDeck(state.pos); // a one-deck option
  }
  if (game.mode === "daily" || game.mode === "guest") {
    const weekly = game.tier === "weekly" ? ` · ${variantTitle(game.variant, siteConstants()?.variant_titles)}` : "";
    $("[data-title]").textContent = `${dayName(game.date)} · ${tierTitle(game.tier)}${weekly}`;
    showCommitment(game);
  } else if (game.mode === "archive") {
    $("[data-title]").textContent = interpolate(gettext("%(date)s · %(tier)s · archive"),
      { date: dayName(game.date), tier: tierTitle(game.tier) });
  } else if (game.tier) { // dealt from the practice pool: proven winnable, rated
    const practice = interpolate(gettext("Practice #%(deal)s · %(tier)s"), { deal: game.deal, tier: tierTitle(game.tier) });
    const rate = game.bot_win_rate == null ? "" : ` · ${interpolate(gettext("bot wins %(rate)s"), {
      rate: new Intl.NumberFormat(pageLanguage(), { style: "percent" }).format(Math.round(game.bot_win_rate * 100) / 100),
    })}`;
    $("[data-title]").textContent = `${practice}${rate}`;
  }
  board.render(state.pos);
  board.setFrozen(state.finished);
  updateHud();
  if (state.finished) showEnd();
  else tellTheClose();
}

/** The deal was fixed in advance: the commitment all day, the deal and salt once it is open. */
function showCommitment(game) {
  const line = $("[data-commitment]");
  if (!line || !game.commitment) return;
  const code = (text, title) => {
    const el = document.createElement("code");
    el.textContent = text;
    if (title) el.title = title;
    return el;
  };
  // The sentence is one message; its codes are put in where its fields stand.
  const fields = {
    commitment: code(shortCommitment(game.commitment), game.commitment),
    deal: game.salt ? code(game.deal) : null,
    salt: game.salt ? code(game.salt) : null,
  };
  const how = document.createElement("a");
  how.href = "/fair-play/";
  how.textContent = gettext("how to check");
  const text = game.salt ? gettext("Commitment %(commitment)s: deal %(deal)s, salt %(salt)s")
    : gettext("Commitment %(commitment)s");
  const parts = text.split(/(%\((?:commitment|deal|salt)\)s)/).filter(Boolean)
    .map((part) => fields[/^%\((\w+)\)s$/.exec(part)?.[1]] ?? part);
  parts.push(" · ", how);
  line.replaceChildren(...parts);
  line.hidden = false;
}

// ----- the close of day (daily games) ------------------------------------------------

/** A daily opened near the close: say at once how long is left (once, not on each reload). */
function tellTheClose() {
  const notice = closingNotice(state.game.closes_at, serverNow(), state.game.status);
  if (!notice || notice.closed || state.closeTold) return;
  state.closeTold = true;
  toast(notice.text, { warn: notice.urgent });
}

/** The notice under the HUD, each second; at the close, reload: the server ends the game. */
function updateClosing() {
  const line = $("[data-closing]");
  if (!line || !state.game) return;
  const notice = closingNotice(state.game.closes_at, serverNow(), state.finished ? "over" : state.game.status);
  line.hidden = !notice;
  line.textContent = notice ? notice.text : "";
  line.classList.toggle("urgent", Boolean(notice && notice.urgent));
  const now = Date.now();
  if (notice && notice.closed && now - state.closeAsked > 5000) {
    if (!state.closeAsked) announce(notice.text);
    state.closeAsked = now; // again in 5 s if this clock ran a little ahead of the server's
    reload();
  }
}

async function reload(reason) {
  if (reason) toast(reason, { warn: true });
  try {
    adopt(await api.get(`/api/games/${state.game.id}/`));
  } catch (err) {
    if (err.status === 0) waitForConnection();
    else toast(interpolate(gettext("Could not reload the game: %(error)s"), { error: err.message }), { warn: true });
  }
}

// ----- a lost connection -----------------------------------------------------------

const RECONNECT_MS = 3000;

/** A move (or a reload) the server never answered: the connection is gone. The board stops
 * taking moves and a line under it says so until the game can be read again, every few
 * seconds; then the game is adopted as the server has it (the lost move may have reached it
 * or not) and play goes on. Before, the board went on taking moves the server never saw, and
 * the first one after the connection came back was refused as "changed elsewhere". */
async function waitForConnection() {
  if (state.offline) return;
  state.offline = true;
  state.generation += 1; // the moves queued behind the lost one are not sent
  board.setFrozen(true);
  const line = $("[data-connection]");
  line.textContent = gettext("No connection: your last move may not have been saved. The game waits here and goes on as soon as the connection is back.");
  line.hidden = false;
  announce(line.textContent);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    let game;
    try {
      game = await api.get(`/api/games/${state.game.id}/`);
    } catch {
      continue;
    }
    state.offline = false;
    line.hidden = true;
    adopt(game);
    toast(gettext("Connected again: the game is as the server has it."));
    return;
  }
}

// ----- moves ---------------------------------------------------------------------

function playMove(text) {
  if (state.finished || state.offline) return;
  let step;
  try {
    step = applyMove(state.pos, text);
  } catch (err) {
    playSound("illegal");
    toast(err.message, { warn: true });
    return;
  }
  playSound(moveSound(text)); // a tap, or a chime for a card going home
  const coachLine = $("[data-coach]");
  if (coachLine) {
    coachLine.textContent = "";
    clearHint($("[data-board]")); // the hint was for the position before this move
  }
  state.pos = step.position;
  const ply = state.ply;
  state.ply += 1;
  board.render(state.pos, { animate: true });
  updateHud();
  const generation = state.generation;
  state.queue = state.queue.then(() => sendMove(generation, ply, text, step.uncovered));
}

async function sendMove(generation, ply, text, uncovered) {
  if (generation !== state.generation) return;
  let result;
  try {
    result = await api.post(`/api/games/${state.game.id}/moves/`, { ply, move: text });
  } catch (err) {
    if (generation !== state.generation) return;
    if (err.status === 0) {
      waitForConnection();
      return;
    }
    const closed = err.status === 409 && err.body && err.body.status === "abandoned";
    const why = closed ? err.message
      : err.status === 409 ? gettext("The game changed elsewhere; reloaded it.")
        : interpolate(gettext("Move %(move)s was not accepted: %(error)s"), { move: text, error: err.message });
    await reload(why);
    return;
  }
  if (generation !== state.generation) return;
  if ((uncovered !== null) !== Boolean(result.turned)) {
    await reload(gettext("The board was out of step; reloaded it."));
    return;
  }
  if (uncovered !== null) {
    let card = result.turned;
    if (isMultiDeck(state.pos)) {
      // The answer names the face; which copy turned is in the position (nothing else
      // has been sent since: the queue sends one move at a time).
      try {
        const game = await api.get(`/api/games/${state.game.id}/`);
        card = `${card}#${game.position.columns[uncovered].copies[0]}`;
      } catch (err) {
        await reload(interpolate(gettext("Could not read the turned card: %(error)s"), { error: err.message }));
        return;
      }
      if (generation !== state.generation) return;
    }
    state.pos = revealCard(state.pos, uncovered, card);
    // Translators: said when a face-down card turns: %(card)s is its name with its article.
    announce(interpolate(gettext("turned up %(card)s"), { card: theCardName(result.turned) }));
  }
  state.pos = { ...state.pos, score: result.score };
  state.game = { ...state.game, ply: result.ply, score: result.score, status: result.status, moves: result.moves };
  board.render(state.pos);
  updateHud();
  if (result.status !== "playing") await finish();
}

async function finish() {
  state.finished = true;
  board.setFrozen(true);
  try {
    state.game = await api.get(`/api/games/${state.game.id}/`);
  } catch {
    // the move result already said how it ended; the details can wait
  }
  updateHud();
  showEnd({ justWon: true });
}

// ----- heads-up display ----------------------------------------------------------

function elapsedSeconds() {
  const g = state.game;
  if (!g) return 0;
  if (g.status !== "playing" && g.elapsed_ms != null) return g.elapsed_ms / 1000;
  if (g.status !== "playing" && g.finished_at) return (Date.parse(g.finished_at) - state.startedAt) / 1000;
  return Math.max(0, serverNow() - state.startedAt) / 1000;
}

function updateHud() {
  if (!state.pos) return;
  updateClosing();
  $("[data-score]").textContent = state.pos.score;
  $("[data-moves]").textContent = state.pos.moves;
  $("[data-time]").textContent = formatTime(elapsedSeconds());
  const undo = $("[data-undo]");
  if (undo) undo.disabled = state.finished || state.pos.moves === 0;
  const resign = $("[data-resign]");
  resign.disabled = state.finished;
  // a finished game offers its results again in Resign's place (after "Look at the board")
  resign.hidden = state.finished;
  $("[data-results-open]").hidden = !state.finished;
  const hints = $("[data-hints]");
  if (hints && state.game) hints.textContent = state.game.hints_used ?? 0;
  for (const sel of ["[data-hint]", "[data-winnable]"]) {
    const button = $(sel);
    if (button) button.disabled = state.finished || state.asking;
  }
  // stuck: no move, nothing left to turn, and cards left (the winning move leaves none, a
  // moment before the server's answer says the game is won)
  const cleared = state.pos.columns.every((c) => !c.up.length && !c.down);
  if (!state.finished && !cleared && !legalMoves(state.pos).length && state.pos.columns.every((c) => c.up.length || !c.down)) {
    board.statusLine.textContent = gettext("No legal move left.");
    if (!state.stuckTold) announce(gettext("No legal move left."));
    state.stuckTold = true;
  } else {
    board.statusLine.textContent = "";
    state.stuckTold = false;
  }
}
setInterval(() => { if (!state.finished) updateHud(); }, 1000);

// ----- the end -------------------------------------------------------------------
// The results screen (shared/results.js): the end line, the rank once verified, and for
// a daily the record, the day's spread, the computer's game and the next deal; the share
// text; a win's cascade, played once, as the game is won.

const ending = {
  seconds: 0, // the game's time, as the end line says it
  moves: null, // the log's move texts, for the share text's progress line
  par: null, // an archive game's par, from its board
  results: null, // GET /api/games/<id>/results/ (dailies)
  tick: null, // moves the countdown on
  stopCascade: null, // while the cascade runs
  swallowClick: false, // the click that stopped the cascade does nothing else
};

/** The share text from what is known so far: the results' par, streak and summary as
 * soon as they are read. */
function refreshShare() {
  const game = state.game;
  const results = ending.results;
  const open = results ? Date.parse(results.closes_at) > serverNow() : false;
  fillShareBox($("[data-share]"), shareText(game, {
    seconds: ending.seconds,
    par: results ? results.par : ending.par,
    streak: results ? results.record.current_streak || null : null,
    summary: results ? shareSummary(results, game, { open }) : "",
    moves: ending.moves,
    origin: window.location.origin,
    variantTitles: siteConstants()?.variant_titles,
  }));
}

async function fillShare(game) {
  refreshShare();
  const [replay, board] = await Promise.all([
    api.get(`/api/games/${game.id}/replay/`).catch(() => null),
    game.mode === "archive" ? api.get(boardApi(game)).catch(() => null) : null,
  ]);
  ending.moves = replay ? replay.log.map((entry) => entry.move) : null;
  ending.par = board?.par ?? null;
  refreshShare();
}

function boardApi(game) {
  const kind = game.mode === "archive" ? "archive" : "daily";
  return `/api/leaderboards/${kind}/${game.date}/${game.tier}/`;
}

/** A daily's results screen, read again once the game is verified (then it counts). */
async function loadResults(game) {
  const note = $("[data-results-note]");
  try {
    ending.results = await api.get(`/api/games/${game.id}/results/`);
  } catch (err) {
    note.textContent = interpolate(gettext("The day's figures could not be read: %(error)s"), { error: err.message });
    note.hidden = false;
    return;
  }
  note.hidden = true;
  ending.tick = showResults($("[data-results]"), ending.results, state.game, serverNow());
  refreshShare();
}
setInterval(() => { if (ending.tick && $("[data-end]").open) ending.tick(serverNow()); }, 1000);

/** The classic win: the cards bounce off the foundations around the results, until the
 * last has gone or a click or a key stops them. Never with reduced motion. */
function celebrate() {
  if (reducedMotion() || ending.stopCascade) return;
  const slots = {};
  for (const suit of "cdhs") {
    const slot = root.querySelector(`.foundations [data-suit="${suit}"]`);
    if (slot) slots[suit] = slot.getBoundingClientRect();
  }
  const dialog = $("[data-end]");
  dialog.classList.add("celebrating");
  ending.stopCascade = cascade($("[data-cascade]"), slots, () => {
    ending.stopCascade = null;
    dialog.classList.remove("celebrating");
  });
}

function stopCelebrating() {
  if (!ending.stopCascade) return false;
  ending.stopCascade();
  return true;
}

function showEnd({ justWon = false } = {}) {
  const g = state.game;
  const dialog = $("[data-end]");
  $("[data-end-title]").textContent = TITLES[g.status] || gettext("Game over");
  if (ending.results && ending.results.game !== g.id) ending.results = null;
  Object.assign(ending, { seconds: elapsedSeconds(), moves: null, par: null });
  $("[data-end-line]").textContent = interpolate(ngettext("Score %(score)s in %(moves)s move, %(time)s.",
    "Score %(score)s in %(moves)s moves, %(time)s.", g.moves), { score: g.score, moves: g.moves, time: formatTime(ending.seconds) });
  fillShare(g);
  const replay = $("[data-end-replay]");
  replay.href = `/replay/${g.id}/`;
  // a practice game's analysis (where the win slipped) is on its replay page: say so
  replay.textContent = g.mode === "practice" ? gettext("Replay and analysis") : gettext("Replay");
  showNext(g);
  const signUp = signUpHref(g, isLoggedIn());
  $("[data-results-guest]").hidden = !signUp;
  if (signUp) $("[data-signup]").href = signUp;
  if (g.mode === "daily" || g.mode === "archive" || g.mode === "guest") {
    const archive = g.mode === "archive" ? "&archive=1" : "";
    $("[data-end-board]").href = `/leaderboards/daily/?date=${g.date}&tier=${g.tier}${archive}`;
  }
  if (g.mode === "daily" || g.mode === "archive") {
    showRank(g, 0);
  } else if (g.mode === "guest") {
    $("[data-end-rank]").textContent = g.ranks_if_signed_up_before
      ? gettext("A guest's game is not on the board: it joins it when you sign up before the day closes.")
      : gettext("A guest's game is not on the board.");
  } else {
    $("[data-end-rank]").textContent = gettext("Practice games are not ranked.");
    $("[data-end-board]").hidden = true;
  }
  if (g.mode === "daily" || g.mode === "guest") loadResults(g);
  if (!dialog.open) dialog.showModal();
  if (justWon && g.status === "won") {
    playSound("win"); // with reduced motion too: the cascade is what motion leaves out
    celebrate();
  }
}

/** The end dialog's way on (shared/results.js nextAction): a page, or a practice deal of
 * the same tier asked for here. */
function showNext(game) {
  const next = $("[data-end-next]");
  const action = nextAction(game, siteConstants().max_deal);
  next.textContent = action.label;
  next.href = action.href ?? "/practice/";
  next.onclick = action.start ? async (e) => {
    e.preventDefault();
    if (next.getAttribute("aria-disabled") === "true") return; // one deal per click
    next.setAttribute("aria-disabled", "true");
    try {
      // none ready yet (503): asked again after its Retry-After, saying so meanwhile
      const created = await whenReady(() => api.post("/api/games/", action.start), {
        waiting: (seconds) => toast(interpolate(
          gettext("Preparing proven %(tier)s deals (the solver is at work); asking again in %(seconds)s s…"),
          { tier: tierWord(action.start.practice), seconds },
        ), { ms: seconds * 1000 }),
      });
      const takeback = created.takeback ? "&takeback=1" : "";
      window.location.href = `/practice/${created.deal}/?variant=${encodeURIComponent(created.variant)}${takeback}&game=${created.id}`;
    } catch (err) {
      toast(err.message, { warn: true }); // still none ready, or over a budget (429)
      next.removeAttribute("aria-disabled");
    }
  } : null;
}

async function showRank(game, attempt) {
  const rankEl = $("[data-end-rank]");
  if (game.verification !== "verified") {
    rankEl.textContent = game.verification === "rejected"
      ? gettext("The server could not verify this game, so it is not ranked.")
      : gettext("Checking your game before it enters the leaderboard…");
    if (game.verification === "pending" && attempt < 15) {
      setTimeout(async () => {
        try {
          const fresh = await api.get(`/api/games/${game.id}/`);
          state.game = fresh;
          showRank(fresh, attempt + 1);
        } catch { /* try again with the next tick */ }
      }, 2000);
    }
    return;
  }
  if (attempt > 0 && game.mode === "daily") loadResults(game); // verified now: it counts
  try {
    if (game.mode === "archive") {
      const board = await api.get(boardApi(game));
      rankEl.textContent = board.me
        ? interpolate(gettext("Unranked archive game: #%(rank)s on the %(tier)s archive board of %(date)s."),
          { rank: board.me.rank, date: dayName(game.date), tier: tierWord(game.tier) })
        : gettext("Verified: on your record and the day's archive board.");
      return;
    }
    const board = await api.get(`/api/leaderboards/daily/${game.date}/${game.tier}/?around=me`);
    if (board.me) {
      const where = { rank: board.me.rank, tier: tierWord(game.tier) };
      // A game without a win ranks below every win: "You are #1" after a resign, with no
      // one else finished yet, read as a victory.
      rankEl.textContent = board.me.won
        ? interpolate(gettext("You are #%(rank)s on today's %(tier)s board."), where)
        : interpolate(gettext("#%(rank)s on today's %(tier)s board without a win: every win ranks above a game without one."), where);
      return;
    }
    // not in the board's copy: counted (the copy is a few seconds behind), held, or neither
    const results = await api.get(`/api/games/${game.id}/results/`);
    rankEl.textContent = results.spread.counted ? gettext("Verified: you are on today's board.")
      : results.held ? gettext("Verified, and held off the board until a moderator has looked at it.")
        : gettext("Verified, but not on today's board.");
  } catch (err) {
    rankEl.textContent = interpolate(gettext("Verified. The board could not be read: %(error)s"), { error: err.message });
  }
}

$("[data-copy]").addEventListener("click", async () => {
  countShare(state.game); // a count for the funnel, no id (shared/metrics.js)
  const text = $("[data-share]").value;
  try {
    await navigator.clipboard.writeText(text);
    toast(gettext("Copied"));
  } catch {
    $("[data-share]").select();
    toast(gettext("Select and copy the text"));
  }
});
const shareSheet = $("[data-share-sheet]");
if (typeof navigator.share === "function") {
  shareSheet.hidden = false;
  shareSheet.addEventListener("click", () => {
    navigator.share({ title: "Yukon Daily", text: $("[data-share]").value }).then(() => countShare(state.game), () => {
      // dismissed, or refused: the text stays in the box to copy
    });
  });
}
const endDialog = $("[data-end]");
const resultsButton = $("[data-results-open]");
$("[data-end-close]").addEventListener("click", () => endDialog.close());
// Closed ("Look at the board", Escape, a click beside the panel), the finished game keeps
// its way back: the HUD's Results, which takes the focus (the board is frozen), opens it again.
resultsButton.addEventListener("click", () => { if (!endDialog.open) endDialog.showModal(); });
endDialog.addEventListener("close", () => { if (state.finished && !resultsButton.hidden) resultsButton.focus(); });
// A click or a key stops the cascade (and does nothing else); Escape then closes, as does
// a click beside the panel.
endDialog.addEventListener("pointerdown", () => { ending.swallowClick = stopCelebrating(); });
endDialog.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" && stopCelebrating()) event.preventDefault();
});
endDialog.addEventListener("cancel", (event) => {
  if (stopCelebrating()) event.preventDefault();
});
endDialog.addEventListener("click", (event) => {
  if (ending.swallowClick) ending.swallowClick = false;
  else if (event.target === endDialog) endDialog.close();
});
endDialog.addEventListener("close", stopCelebrating);

// ----- buttons -------------------------------------------------------------------

/** Resign only when the player says so, unless they turned the question off (settings). */
function mayResign() {
  if (!currentSettings().confirmResign) return Promise.resolve(true);
  return confirmChoice({
    title: gettext("Resign this game?"), text: gettext("It ends here and counts as played."), go: gettext("Resign"),
  });
}

$("[data-resign]").addEventListener("click", async () => {
  if (state.finished || !(await mayResign()) || state.finished) return;
  const generation = state.generation;
  state.queue = state.queue.then(async () => {
    if (generation !== state.generation) return;
    try {
      adopt(await api.post(`/api/games/${state.game.id}/resign/`));
    } catch (err) {
      await reload(interpolate(gettext("Could not resign: %(error)s"), { error: err.message }));
    }
  });
});

const undoButton = $("[data-undo]");
if (undoButton) {
  undoButton.addEventListener("click", () => {
    const generation = state.generation;
    state.queue = state.queue.then(async () => {
      if (generation !== state.generation) return;
      try {
        adopt(await api.post(`/api/games/${state.game.id}/undo/`, { ply: state.ply }));
        announce(gettext("move taken back"));
      } catch (err) {
        await reload(interpolate(gettext("Could not undo: %(error)s"), { error: err.message }));
      }
    });
  });
}

/** A practice game in play with moves made is left only when the player says so ("Keep
 * playing" is the default); `go` names what happens instead ("Deal a new game"), and
 * `goes` says it in the question's sentence ("Deal a new game leaves it unfinished."),
 * one message each, so every language words both as it needs. */
async function mayLeaveGame(go, goes) {
  const moves = state.pos?.moves ?? 0;
  if (state.finished || !state.game || moves === 0) return true;
  const inPlay = interpolate(ngettext("This game is in play, %(moves)s move in.", "This game is in play, %(moves)s moves in.", moves),
    { moves });
  return confirmChoice({ title: gettext("Leave this game?"), text: `${inPlay} ${goes}`, go });
}

function dealAgain() {
  state.generation += 1;
  newPractice().catch((err) => toast(err.message, { warn: true }));
}

const newButton = $("[data-new]");
if (newButton) {
  newButton.addEventListener("click", async () => {
    if (await mayLeaveGame(gettext("Deal a new game"), gettext("Deal a new game leaves it unfinished."))) dealAgain();
  });
}

const variantPick = $("[data-variant-pick]");
if (variantPick) {
  variantPick.addEventListener("change", async () => {
    const title = variantPick.selectedOptions[0]?.textContent || variantPick.value;
    const go = interpolate(gettext("Play %(variant)s"), { variant: title });
    if (!(await mayLeaveGame(go, interpolate(gettext("Play %(variant)s leaves it unfinished."), { variant: title })))) {
      variantPick.value = root.dataset.variant; // the game goes on in its own variant
      return;
    }
    root.dataset.variant = variantPick.value;
    dealAgain();
  });
}
const takebackPick = $("[data-takeback-pick]");
if (takebackPick) {
  takebackPick.addEventListener("change", async () => {
    const on = takebackPick.checked;
    const asked = on
      ? [gettext("Deal again with take-back"), gettext("Deal again with take-back leaves it unfinished.")]
      : [gettext("Deal again without take-back"), gettext("Deal again without take-back leaves it unfinished.")];
    if (!(await mayLeaveGame(...asked))) {
      takebackPick.checked = !on;
      return;
    }
    root.dataset.takeback = on ? "1" : "0";
    dealAgain();
  });
}

document.addEventListener("keydown", (e) => {
  if ((e.key === "z" || e.key === "Z") && (e.ctrlKey || e.metaKey) && undoButton && !undoButton.disabled) {
    e.preventDefault();
    undoButton.click();
  }
});

// ----- the practice coach -------------------------------------------------------

const VERDICT_WORDS = {
  solved: gettext("Yes: this game can still be won."),
  unwinnable: gettext("No win exists from here. Undo a few moves and try another way."),
  unknown: gettext("No win found in time: the solver could not tell within its budget."),
};

// A hint in words ("Move the Q♣ and the cards on it onto column 5."), never a move text; the
// screen reader hears the same sentence.
function hintText(answer) {
  if (answer.verdict === "solved" && answer.move) return `${hintWords(answer.move, state.pos)}.`;
  return VERDICT_WORDS[answer.verdict] || answer.verdict;
}

function showHint(move) {
  if (move) markHint($("[data-board]"), move, state.pos);
  else clearHint($("[data-board]"));
}

async function askCoach(kind) {
  if (state.finished || state.asking) return;
  state.asking = true;
  updateHud();
  const line = $("[data-coach]");
  line.textContent = kind === "hint" ? gettext("Thinking about a hint…") : gettext("Checking…");
  const generation = state.generation;
  try {
    await state.queue; // the server must have every move first
    const answer = await api.get(`/api/games/${state.game.id}/${kind}/`);
    if (generation !== state.generation) return;
    state.game = { ...state.game, hints_used: answer.hints_used };
    if (answer.ply !== state.ply) {
      line.textContent = gettext("The game moved on meanwhile; ask again.");
    } else {
      line.textContent = kind === "hint" ? hintText(answer) : VERDICT_WORDS[answer.verdict];
      if (kind === "hint") showHint(answer.move);
    }
    announce(line.textContent);
  } catch (err) {
    line.textContent = interpolate(gettext("The coach could not answer: %(error)s"), { error: err.message });
  } finally {
    state.asking = false;
    updateHud();
  }
}

const hintButton = $("[data-hint]");
if (hintButton) hintButton.addEventListener("click", () => askCoach("hint"));
// The settings' "Show the Hint button in practice" (docs/frontend.md, "Settings").
const showHintButton = (settings) => { if (hintButton) hintButton.hidden = !settings.hints; };
showHintButton(currentSettings());
document.addEventListener(SETTINGS_EVENT, (event) => showHintButton(event.detail));
const winnableButton = $("[data-winnable]");
if (winnableButton) winnableButton.addEventListener("click", () => askCoach("winnable"));

start();
