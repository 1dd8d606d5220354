// Offline practice (/practice/offline/?deal=7&variant=yukon, and /practice/7/ when the service
// worker serves this page for it without a network): a numbered practice deal dealt by
// shared/deal.js and played with the rules mirror alone, kept on this device.
//
// Nothing here talks to the server: no daily, no archive game, only numbered practice deals,
// which anyone may play anyway. The game is never sent anywhere (the server trusts no game
// it did not referee move by move); it lives in localStorage as its deal, variant, move list
// and start time, and is replayed from the deal on every load.

import { Board } from "../shared/board.js";
import { theCardName } from "../shared/cards.js";
import { confirmChoice } from "../shared/confirm.js";
import { watchConnection } from "../shared/connection.js";
import { dealGame, parseDealNumber, playMoves } from "../shared/deal.js";
import { siteConstants, speak, toast } from "../shared/dom.js";
import { formatTime, variantTitle } from "../shared/format.js";
import { el } from "../shared/html.js";
import { gettext, interpolate, ngettext } from "../shared/i18n.js";
import { applyMove, isWon, legalMoves, revealCard, variantOf } from "../shared/rules.js";
import { moveSound, playSound } from "../shared/sounds.js";

const STORE_KEY = "yd-offline-practice";
const KEEP_GAMES = 20; // the latest games, one per deal and variant; older ones are dropped
const RANDOM_DEALS = 1_000_000_000; // "New deal" picks below this, as the practice form does
const PRACTICE_DEAL_PATH = /^\/practice\/([0-9]{1,20})\/$/;

const root = document.querySelector("[data-offline-game]");
const $ = (sel) => root.querySelector(sel);
const constants = siteConstants() || {};
const variantNames = constants.variants || ["yukon"];
const announceEl = $("[data-announce]");

const state = {
  game: null, // {deal, variant, moves, startedAt, finishedAt}: what the device keeps
  dealt: null, // dealGame(deal, variant): the start, and the face-down cards
  pos: null, // the position after game.moves
  stuckTold: false,
  said: "", // the board's last announcement, to which a turned card is added
};

function announce(text) {
  state.said = text;
  speak(announceEl, text);
}

const board = new Board($("[data-board]"), {
  onMove: (text) => playMove(text),
  notify: (text) => toast(text, { warn: true, silent: true }), // the board announces it
  announce,
  sound: playSound, // pick-ups and refusals; the moves and the win are played below
});

// ----- the device's store -------------------------------------------------------------

let storeWarned = false;

function readGames() {
  try {
    const games = JSON.parse(localStorage.getItem(STORE_KEY) || "[]");
    return Array.isArray(games) ? games.filter(isGameRecord) : [];
  } catch {
    return []; // unreadable (or storage refused): start afresh
  }
}

function isGameRecord(game) {
  if (!game || parseDealNumber(game.deal) === null || typeof game.variant !== "string") return false;
  const [base, option] = game.variant.split("+");
  return variantKey(base, option === "takeback") === game.variant
    && Array.isArray(game.moves) && game.moves.every((m) => typeof m === "string")
    && Number.isFinite(game.startedAt);
}

function saveGame(game) {
  const others = readGames().filter((g) => g.deal !== game.deal || g.variant !== game.variant);
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify([game, ...others].slice(0, KEEP_GAMES)));
  } catch {
    if (!storeWarned) toast(gettext("This browser keeps nothing for this site: the game ends with the page."), { warn: true });
    storeWarned = true;
  }
}

// ----- which game ---------------------------------------------------------------------

/** The variant key a request names: a known variant, take-back for one deck only. */
function variantKey(name, takeback) {
  const base = variantNames.includes(name) ? name : "yukon";
  return takeback && variantOf({ variant: base }).decks === 1 ? `${base}+takeback` : base;
}

function freshGame(deal, variant) {
  return { deal, variant, moves: [], startedAt: Date.now(), finishedAt: null };
}

function randomDeal() {
  return String(Math.floor(Math.random() * RANDOM_DEALS));
}

/** The game the address asks for: /practice/<n>/ (served by the service worker) or
 * ?deal=&variant=&takeback=; the one kept on this device when it is the same deal, and
 * with no deal asked for, the last one played here. */
function requestedGame() {
  const params = new URLSearchParams(window.location.search);
  const inPath = PRACTICE_DEAL_PATH.exec(window.location.pathname);
  const asked = inPath ? inPath[1] : params.get("deal");
  const variant = variantKey(params.get("variant") || "yukon", params.get("takeback") === "1");
  const games = readGames();
  if (asked === null) return games[0] || freshGame(randomDeal(), variant);
  const number = parseDealNumber(asked);
  if (number === null) {
    const deal = randomDeal();
    toast(interpolate(gettext("A deal number is a whole number from 0 to %(max)s: dealt #%(deal)s instead."),
      { max: constants.max_deal, deal }), { warn: true });
    return freshGame(deal, variant);
  }
  const deal = String(number); // "007" is deal 7
  return games.find((g) => g.deal === deal && g.variant === variant) || freshGame(deal, variant);
}

/** Show `game`: deal it, play its moves, and say in the address which deal this is. */
function open(game) {
  state.dealt = dealGame(game.deal, game.variant);
  try {
    state.pos = playMoves(state.dealt, game.moves).position;
  } catch {
    toast(gettext("The game kept here could not be played back; it starts again."), { warn: true });
    game = freshGame(game.deal, game.variant);
    state.pos = state.dealt.position;
  }
  state.game = game;
  saveGame(game);
  const [base, option] = game.variant.split("+");
  const url = new URL("/practice/offline/", window.location.origin);
  url.searchParams.set("deal", game.deal);
  url.searchParams.set("variant", base);
  if (option === "takeback") url.searchParams.set("takeback", "1");
  window.history.replaceState(null, "", url);
  $("[data-title]").textContent = interpolate(gettext("Practice #%(deal)s · %(variant)s"),
    { deal: game.deal, variant: variantTitle(game.variant, constants.variant_titles) });
  $("[data-variant-pick]").value = base;
  board.render(state.pos);
  board.setFrozen(isOver());
  showConnection();
  updateHud();
  if (isOver()) showEnd();
}

function isOver() {
  return Number.isFinite(state.game.finishedAt);
}

// ----- moves --------------------------------------------------------------------------

function playMove(text) {
  if (isOver()) return;
  let step;
  try {
    step = applyMove(state.pos, text);
  } catch (err) {
    playSound("illegal");
    toast(err.message, { warn: true });
    return;
  }
  playSound(moveSound(text));
  let pos = step.position;
  if (step.uncovered !== null) {
    const column = pos.columns[step.uncovered];
    const card = state.dealt.hidden[step.uncovered][column.down - 1];
    pos = revealCard(pos, step.uncovered, card);
    // Translators: %(move)s is what was just said of the move; %(card)s the turned card's name with its article.
    announce(interpolate(gettext("%(move)s; turned up %(card)s"), { move: state.said, card: theCardName(card) }));
  }
  state.pos = pos;
  state.game.moves.push(text);
  const won = isWon(pos);
  if (won) state.game.finishedAt = Date.now();
  saveGame(state.game);
  board.render(pos, { animate: true });
  updateHud();
  if (won) {
    board.setFrozen(true);
    playSound("win");
    showEnd();
  }
}

function undo() {
  if (isOver() || !state.game.moves.length) return;
  state.game.moves.pop();
  state.pos = playMoves(state.dealt, state.game.moves).position;
  saveGame(state.game);
  board.render(state.pos, { animate: true });
  updateHud();
  announce(gettext("move taken back"));
}

// ----- what the page shows --------------------------------------------------------------

function updateHud() {
  const { game, pos } = state;
  $("[data-score]").textContent = pos.score;
  $("[data-moves]").textContent = pos.moves;
  $("[data-time]").textContent = formatTime(((game.finishedAt ?? Date.now()) - game.startedAt) / 1000);
  $("[data-undo]").disabled = isOver() || game.moves.length === 0;
  if (!isOver() && !legalMoves(pos).length) {
    board.statusLine.textContent = gettext("No legal move left: undo, or deal a new game.");
    if (!state.stuckTold) announce(gettext("No legal move left."));
    state.stuckTold = true;
  } else {
    board.statusLine.textContent = "";
    state.stuckTold = false;
  }
}
setInterval(() => { if (state.game && !isOver()) updateHud(); }, 1000);

function showEnd() {
  const { game, pos } = state;
  const time = formatTime((game.finishedAt - game.startedAt) / 1000);
  const score = interpolate(ngettext("Score %(score)s in %(moves)s move, %(time)s.", "Score %(score)s in %(moves)s moves, %(time)s.",
    pos.moves), { score: pos.score, moves: pos.moves, time });
  $("[data-end-line]").textContent = `${score} ${gettext("Offline practice: kept on this device, not sent to the server.")}`;
  const dialog = $("[data-end]");
  if (!dialog.open) dialog.showModal();
}

let reached = null; // whether the site answered when last asked (shared/connection.js); null before

/** Online or not, the game is offline practice: say so, and when the network comes back
 * (`changed`), say that it stays here (the server never takes a game it did not referee). */
function showConnection(changed = false) {
  const line = $("[data-connection]");
  if (reached === null) return; // the page's own words until the site is asked
  if (!reached) {
    line.textContent = gettext("You are offline. This practice game is kept on this device.");
    return;
  }
  const [base, option] = state.game.variant.split("+");
  const online = `/practice/${state.game.deal}/?variant=${encodeURIComponent(base)}${option ? "&takeback=1" : ""}`;
  line.replaceChildren(
    changed ? `${gettext("You are back online.")} ` : "",
    `${gettext("This game is offline practice: it stays on this device and is not sent to the server.")} `,
    el("a", { href: online }, gettext("Play this deal online")),
    ` ${gettext("(with hints).")}`,
  );
  if (changed) toast(gettext("Back online: this offline practice game is not sent to the server."), { silent: true });
}
watchConnection((answers) => {
  const back = reached === false && answers;
  reached = answers;
  showConnection(back);
});

// ----- controls -------------------------------------------------------------------------

/** A game in play with moves made is left only when the player says so. */
async function mayLeave(go, starts) {
  const moves = state.game.moves.length;
  if (isOver() || moves === 0) return true;
  const inPlay = interpolate(ngettext("This game is in play, %(moves)s move in.", "This game is in play, %(moves)s moves in.", moves),
    { moves });
  return confirmChoice({ title: gettext("Leave this game?"), text: `${inPlay} ${starts}`, go });
}

async function newDeal() {
  if (await mayLeave(gettext("Deal a new game"), gettext("It stays on this device; Deal a new game starts another."))) {
    open(freshGame(randomDeal(), state.game.variant));
  }
}

$("[data-undo]").addEventListener("click", undo);
$("[data-new]").addEventListener("click", newDeal);

const variantPick = $("[data-variant-pick]");
variantPick.addEventListener("change", async () => {
  const title = variantPick.selectedOptions[0]?.textContent || variantPick.value;
  const [current, option] = state.game.variant.split("+");
  const go = interpolate(gettext("Play %(variant)s"), { variant: title });
  if (!(await mayLeave(go, interpolate(gettext("It stays on this device; Play %(variant)s starts another."), { variant: title })))) {
    variantPick.value = current;
    return;
  }
  const variant = variantKey(variantPick.value, option === "takeback");
  const kept = readGames().find((g) => g.deal === state.game.deal && g.variant === variant);
  open(kept || freshGame(state.game.deal, variant));
});

const endDialog = $("[data-end]");
$("[data-end-close]").addEventListener("click", () => endDialog.close());
$("[data-end-new]").addEventListener("click", () => {
  endDialog.close();
  newDeal();
});

document.addEventListener("keydown", (e) => {
  if ((e.key === "z" || e.key === "Z") && (e.ctrlKey || e.metaKey) && !$("[data-undo]").disabled) {
    e.preventDefault();
    undo();
  }
});

open(requestedGame());
