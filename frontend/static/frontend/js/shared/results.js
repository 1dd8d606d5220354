// The results screen at the end of a daily game (GET /api/games/<id>/results/, docs/api.md):
// the player's record, the day's spread of results as bars with their own marked, the
// percentile, the computer's game, the countdown to the next deal; and, for a win, the
// classic cascade of cards bouncing off the foundations.
//
// The words and numbers are pure functions of the answer (tests/frontend/results.test.mjs);
// `showResults` writes them into the play page's dialog; `cascade` draws on a canvas. Nothing
// runs on import.

import { cardSvg, RANKS, SUITS } from "./cards.js";
import { formatTime } from "./format.js";
import { tierWord } from "./game_names.js";
import { gettext, interpolate, ngettext } from "./i18n.js";
import { clockFrom, countdown } from "./local_time.js";

const MINUTE_MS = 60_000;

/** A share (0..1) as a whole percentage. */
export function percent(share) {
  return Math.round((share || 0) * 100);
}

/** "3 cards" in the page's language. */
function cardCount(count) {
  return interpolate(ngettext("%(count)s card", "%(count)s cards", count), { count });
}

/** What one bar holds, in words: "2–3 min", "1:30–2:00", "10 min or more" (times, ms);
 * "13 cards", "12–14 cards", "40 or more cards" (cards home). */
export function barLabel(bar, kind) {
  if (kind === "time") {
    const minutes = bar.low % MINUTE_MS === 0 && (bar.high == null || bar.high % MINUTE_MS === 0);
    const at = (ms) => (minutes ? String(ms / MINUTE_MS) : formatTime(ms / 1000));
    if (bar.high == null) {
      return minutes
        ? interpolate(gettext("%(low)s min or more"), { low: at(bar.low) })
        : interpolate(gettext("%(low)s or more"), { low: at(bar.low) });
    }
    return minutes
      ? interpolate(gettext("%(low)s–%(high)s min"), { low: at(bar.low), high: at(bar.high) })
      : `${at(bar.low)}–${at(bar.high)}`;
  }
  if (bar.high == null) return interpolate(gettext("%(low)s or more cards"), { low: bar.low });
  if (bar.high - 1 === bar.low) return cardCount(bar.low);
  return interpolate(gettext("%(low)s–%(high)s cards"), { low: bar.low, high: bar.high - 1 });
}

/** The bars as the list draws them: label, count, width (share of the fullest bar, at
 * least a sliver where there is a result) and the spoken text of each. */
export function barRows(spread) {
  const most = Math.max(1, ...spread.bars.map((bar) => bar.count));
  return spread.bars.map((bar) => {
    const label = barLabel(bar, spread.kind);
    const count = bar.count;
    const spoken = bar.yours
      ? ngettext("%(label)s: %(count)s result, yours among them", "%(label)s: %(count)s results, yours among them", count)
      : ngettext("%(label)s: %(count)s result", "%(label)s: %(count)s results", count);
    return {
      label,
      count,
      yours: bar.yours,
      width: count ? Math.max(0.04, count / most) : 0,
      spoken: interpolate(spoken, { label, count }),
    };
  });
}

/** The heading over the bars: whose results, of which day. */
export function spreadTitle(spread, { open }) {
  if (spread.kind === "time") return open ? gettext("Today's winners by time") : gettext("The day's winners by time");
  return open ? gettext("Today's other results by cards home") : gettext("The day's other results by cards home");
}

/** "Faster than 73 % of today's winners." / "More cards home than 40 % of today's players
 * who did not win." (`open`: the day has not closed yet). Null at a percentile of 0: the
 * slowest winner (or one tied with every other) read "Faster than 0 % of today's winners",
 * neither kind nor news, so the line is left out, on the results screen and in the share
 * text alike. */
export function percentileSentence(spread, { open }) {
  if (spread.percentile === 0) return null;
  const values = { percentile: spread.percentile };
  if (spread.kind === "time") {
    if (spread.percentile == null) return open ? gettext("No one else has won today yet.") : gettext("No one else won that day.");
    return interpolate(open ? gettext("Faster than %(percentile)s % of today's winners.")
      : gettext("Faster than %(percentile)s % of the day's winners."), values);
  }
  if (spread.percentile == null) {
    return open ? gettext("No one else has finished today without a win yet.")
      : gettext("No one else finished that day without a win.");
  }
  return interpolate(open ? gettext("More cards home than %(percentile)s % of today's players who did not win.")
    : gettext("More cards home than %(percentile)s % of the day's players who did not win."), values);
}

/** How many finished the day's deal, and how many won: "7 players on the board so far
 * today; 3 won." */
export function turnoutSentence(spread, { open }) {
  const players = interpolate(ngettext("%(count)s player", "%(count)s players", spread.results), { count: spread.results });
  const wins = interpolate(ngettext("%(count)s won", "%(count)s won", spread.wins), { count: spread.wins });
  return interpolate(open ? gettext("%(players)s on the board so far today; %(wins)s.")
    : gettext("%(players)s on the day's board; %(wins)s."), { players, wins });
}

/** Who did better against the computer on the same deal: a key of `VERDICTS`. */
function botOutcome(bot, game, mine) {
  if (game.status === "won") {
    if (!bot.won) return "beat";
    if (game.moves < bot.moves) return "beatFewer";
    return game.moves === bot.moves ? "sameMoves" : "botFewer";
  }
  if (bot.won) return "botWon";
  if (mine > bot.cards_home) return "beatCards";
  return mine === bot.cards_home ? "sameCards" : "botCards";
}

const VERDICTS = {
  beat: () => gettext("You beat the computer."),
  beatFewer: () => gettext("You beat the computer: you won in fewer moves."),
  sameMoves: () => gettext("You and the computer won in as many moves."),
  botFewer: () => gettext("The computer won in fewer moves."),
  botWon: () => gettext("The computer won this one."),
  beatCards: () => gettext("You beat the computer: more cards home."),
  sameCards: () => gettext("You and the computer got as many cards home."),
  botCards: () => gettext("The computer got more cards home."),
};

/** The computer on the same deal: `verdict` (did you beat it?) and `detail` (its game and
 * its win rate). `game` is the player's game (status, moves); `mine` their cards home when
 * they did not win (the spread's `yours`). */
export function botSentences(bot, game, mine) {
  const values = { moves: bot.moves, rate: percent(bot.win_rate), cards: cardCount(bot.cards_home) };
  let detail;
  if (bot.won) {
    detail = bot.win_rate == null ? gettext("The computer won in %(moves)s moves.")
      : gettext("The computer won in %(moves)s moves; it wins %(rate)s % of its playouts.");
  } else {
    detail = bot.win_rate == null ? gettext("The computer got stuck with %(cards)s home after %(moves)s moves.")
      : gettext("The computer got stuck with %(cards)s home after %(moves)s moves; it wins %(rate)s % of its playouts.");
  }
  return { verdict: VERDICTS[botOutcome(bot, game, mine)](), detail: interpolate(detail, values) };
}

/** A short line for the share text: the percentile and the computer, plainly. Alone in its
 * spread, a win is the first (or only) one, said as a boast; a loss says nothing of it
 * ("No one else has won today yet" read oddly to the friends it was sent to), nor does a
 * percentile of 0 (`percentileSentence` leaves it out). */
export function shareSummary(results, game, { open }) {
  const { spread } = results;
  let first = percentileSentence(spread, { open })?.replace(/\.$/, "") ?? null;
  if (spread.percentile == null) {
    // a win held off the board for a moderator is on no board yet: no boast of being first
    if (spread.kind === "time" && !results.held) first = open ? gettext("the first to win today") : gettext("the day's only win");
    else first = null;
  }
  const parts = [first].filter(Boolean);
  const outcome = botOutcome(results.bot, game, results.spread.yours);
  if (outcome.startsWith("beat")) parts.push(gettext("beat the computer"));
  return parts.join(" · ");
}

/** What to play next, the end dialog's way on: {label, href} for a page, or {label, start}
 * for a practice game to ask for (`start`, the POST /api/games/ body). A practice deal of a
 * tier: another of the tier; a numbered one: the next number; a daily: the day's others;
 * an archive game: its month. `maxDeal` is the last deal number (a string). */
export function nextAction(game, maxDeal) {
  if (game.mode === "practice") {
    if (game.tier) {
      return {
        label: interpolate(gettext("Another %(tier)s deal"), { tier: tierWord(game.tier) }),
        start: { practice: game.tier, variant: game.variant, takeback: Boolean(game.takeback) },
      };
    }
    if (game.deal != null && BigInt(game.deal) < BigInt(maxDeal)) {
      const takeback = game.takeback ? "&takeback=1" : "";
      return {
        label: gettext("Next deal"),
        href: `/practice/${BigInt(game.deal) + 1n}/?variant=${encodeURIComponent(game.variant)}${takeback}`,
      };
    }
    return { label: gettext("Practice"), href: "/practice/" };
  }
  if (game.mode === "archive") return { label: gettext("More from the archive"), href: `/archive/?month=${game.date.slice(0, 7)}` };
  return { label: gettext("Today's other deals"), href: "/" };
}

/** Where a guest's game offers sign-up, coming back to the game after: the game's JSON
 * says `guest: true`, and nobody is logged in (a guest's game that an account took at
 * log-in stays a guest's game). Null otherwise. */
export function signUpHref(game, loggedIn) {
  if (game.guest !== true || loggedIn) return null;
  return `/signup/?next=${encodeURIComponent(`/play/${game.id}/`)}`;
}

/** The record as label-value pairs: played, win %, current and best streak. */
export function recordItems(record) {
  return [
    [gettext("Played"), String(record.played)],
    [gettext("Win %"), String(percent(record.win_rate))],
    [gettext("Current streak"), String(record.current_streak)],
    [gettext("Best streak"), String(record.best_streak)],
  ];
}

/** Until the next deal: how long ("3 h 12 min") and when on the reader's clock ("01:00
 * your time"); null once it is out. */
export function nextDealText(nextDealAt, now, options = {}) {
  const left = Date.parse(nextDealAt) - now;
  if (!(left > 0)) return null;
  return { left: countdown(left), at: interpolate(gettext("%(time)s your time"), { time: clockFrom(nextDealAt, now, options) }) };
}

// ----- the dialog ---------------------------------------------------------------------

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

function drawRecord(list, record) {
  list.replaceChildren(...recordItems(record).map(([label, value]) => {
    const item = el("div");
    item.append(el("dt", null, label), el("dd", null, value));
    return item;
  }));
}

function drawBars(list, spread) {
  list.replaceChildren(...barRows(spread).map((row) => {
    const item = el("li", row.yours ? "yours" : "");
    const shown = el("span", "bar-text");
    shown.setAttribute("aria-hidden", "true");
    shown.append(el("span", "bar-label", row.label));
    const track = el("span", "bar-track");
    const bar = el("span", "bar");
    bar.style.setProperty("--share", String(row.width));
    track.append(bar);
    shown.append(track, el("span", "bar-count", String(row.count)));
    if (row.yours) shown.append(el("span", "bar-you", gettext("you")));
    item.append(shown, el("span", "sr-only", row.spoken));
    return item;
  }));
}

/** The record's heading. Until the game is checked and counted, the record is the one
 * before it (a first game shows 0 played beside "You won!"), and the heading says so. */
export function recordTitle(results, game) {
  if (results.guest) return gettext("Your record (it starts when you sign up)");
  const weekly = game.tier === "weekly";
  if (!results.spread.counted) {
    return weekly ? gettext("Your weekly record, not counting this game yet")
      : gettext("Your daily record, not counting this game yet");
  }
  return weekly ? gettext("Your weekly record") : gettext("Your daily record");
}

/**
 * Fill the results part of the end dialog (`root`, the play page's `[data-results]`) from
 * the API's answer; `game` is the game's JSON, `now` the server's time. Returns the
 * function that moves the countdown on (call it each second while the dialog is open).
 */
export function showResults(root, results, game, now) {
  const open = Date.parse(results.closes_at) > now;
  const $ = (sel) => root.querySelector(sel);
  drawRecord($("[data-record]"), results.record);
  $("[data-record-title]").textContent = recordTitle(results, game);
  $("[data-spread-title]").textContent = spreadTitle(results.spread, { open });
  const standing = percentileSentence(results.spread, { open });
  $("[data-percentile]").textContent = standing ?? "";
  $("[data-percentile]").hidden = !standing;
  $("[data-turnout]").textContent = turnoutSentence(results.spread, { open })
    + (results.spread.counted || results.guest ? ""
      : ` ${results.held ? gettext("Your result is held off the board until a moderator has looked at it.")
        : gettext("Your result is not on the board yet.")}`);
  drawBars($("[data-histogram]"), results.spread);
  const bot = botSentences(results.bot, game, results.spread.yours);
  $("[data-bot-verdict]").textContent = bot.verdict;
  $("[data-bot-detail]").textContent = bot.detail;
  const par = $("[data-par]");
  par.textContent = results.par == null
    ? gettext("Par (the solver's line) is shown once the day has closed.")
    : interpolate(gettext("Par: the solver's line wins in %(moves)s moves."), { moves: results.par });
  const tick = (at) => {
    const next = nextDealText(results.next_deal_at, at);
    if (next) {
      const timer = $("[data-countdown]");
      if (timer.textContent !== next.left) timer.textContent = next.left;
      $("[data-next-at]").textContent = `(${next.at})`;
    }
    $("[data-next-deal]").hidden = !next;
    $("[data-next-out]").hidden = Boolean(next);
  };
  tick(now);
  root.hidden = false;
  return tick;
}

// ----- the cascade -------------------------------------------------------------------

export const CASCADE = {
  launchEveryMs: 75, // 52 cards in about four seconds
  frameMs: 1000 / 60, // one step of the flight; a faster screen draws no faster flight
  gravity: 0.55, // px a step, a step squared
  bounce: 0.74, // of the speed kept at each bounce off the bottom
  maxMs: 9000, // whatever happens, it ends
};

/** The cards in the order they leave the foundations: the four kings, the four queens, …,
 * the four aces (each from its own suit's foundation). */
export function cascadeOrder() {
  const order = [];
  for (let rank = RANKS.length - 1; rank >= 0; rank -= 1) {
    for (const suit of SUITS) order.push(RANKS[rank] + suit);
  }
  return order;
}

/** One step of a card's flight: moved by its speed, pulled down, bounced off `floor`. */
export function stepCard(card, floor) {
  const next = { ...card, x: card.x + card.vx, y: card.y + card.vy, vy: card.vy + CASCADE.gravity };
  if (next.y > floor) {
    next.y = floor;
    next.vy = -Math.abs(next.vy) * CASCADE.bounce;
  }
  return next;
}

function cardImage(card) {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(cardSvg(card))}`;
  return image;
}

/**
 * The win: every card leaves its foundation, kings first, and bounces across the screen,
 * leaving its trail (`canvas` fills the viewport, behind the results panel). `slots`
 * gives each suit's foundation as the page shows it ({c: DOMRect, ...}). Returns
 * `stop()`; `onEnd` runs once, when the last card has left or it was stopped.
 */
export function cascade(canvas, slots, onEnd = () => {}) {
  const ratio = window.devicePixelRatio || 1;
  const width = window.innerWidth;
  const height = window.innerHeight;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const context = canvas.getContext("2d");
  context.scale(ratio, ratio);
  canvas.hidden = false;
  const waiting = cascadeOrder().map((card) => ({ card, image: cardImage(card) }));
  const flying = [];
  const started = performance.now();
  let launched = 0;
  let frame = 0;
  let ended = false;
  let last = started;

  const end = () => {
    if (ended) return;
    ended = true;
    cancelAnimationFrame(frame);
    context.clearRect(0, 0, width, height);
    canvas.hidden = true;
    onEnd();
  };

  const draw = (now) => {
    const due = Math.min(waiting.length, Math.floor((now - started) / CASCADE.launchEveryMs) + 1);
    while (launched < due) {
      const { card, image } = waiting[launched];
      const slot = slots[card[1]];
      launched += 1;
      if (!slot) continue;
      const direction = Math.random() < 0.5 ? -1 : 1;
      flying.push({
        image,
        w: slot.width,
        h: slot.height,
        x: slot.left,
        y: slot.top,
        vx: direction * (2.5 + Math.random() * 4.5),
        vy: -Math.random() * 9,
      });
    }
    const steps = Math.min(4, Math.max(1, Math.round((now - last) / CASCADE.frameMs)));
    last = now;
    for (let i = flying.length - 1; i >= 0; i -= 1) {
      let moved = flying[i];
      for (let step = 0; step < steps; step += 1) moved = stepCard(moved, height - moved.h);
      flying[i] = moved;
      if (moved.x + moved.w < 0 || moved.x > width) flying.splice(i, 1);
      else if (moved.image.complete) context.drawImage(moved.image, moved.x, moved.y, moved.w, moved.h);
    }
    if ((launched >= waiting.length && !flying.length) || now - started > CASCADE.maxMs) end();
    else frame = requestAnimationFrame(draw);
  };
  frame = requestAnimationFrame(draw);
  return end;
}

// Whether the player asked for less motion (then no cascade): the settings' Animations,
// else the device's reduced motion.
export { reducedMotion } from "./settings.js";
