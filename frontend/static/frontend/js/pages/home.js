// Today's page: the three tiers with their counts (how many played as guests among them),
// and a button to start or resume each (guests too: one tap, no sign-up first); yesterday's
// winners; your streak; and, one click away in "How we keep it fair", today's commitments
// and yesterday's deals and salts. The server draws the tiers' cards (frontend/tier_cards.py);
// this module draws them only when the day was not ready as the page was drawn.

import { api, ApiError, serverNow } from "../shared/api.js";
import { copyText, siteConstants } from "../shared/dom.js";
import { formatElapsed, formatTime, tierTitle, variantTitle } from "../shared/format.js";
import { dailyCounts } from "../shared/game_names.js";
import { el, emptyState, fill, rowName, rowPlayer } from "../shared/html.js";
import { gettext, interpolate, ngettext, pgettext } from "../shared/i18n.js";
import { dayName, shortDayName } from "../shared/local_time.js";
import { poll } from "../shared/poll.js";
import { shortCommitment } from "../shared/proof.js";

const box = document.querySelector("[data-daily]");
const openedBox = document.querySelector("[data-opened]");
const fairBox = document.querySelector("[data-fair]");
const variantTitles = siteConstants()?.variant_titles;

const playingNow = {};
let nextDealAt = 0;

// The server draws the day's cards (frontend/tier_cards.py), the same as tierCard below:
// their Play buttons work from now on, and their playing counts are the page's. It leaves
// places instead when the day was not ready: load() draws the cards then, from /api/daily/.
for (const button of box.querySelectorAll("[data-unbound]")) {
  button.removeAttribute("data-unbound");
  button.disabled = false;
}
for (const count of box.querySelectorAll("[data-playing]")) playingNow[count.dataset.playing] = Number(count.textContent);
const drawnDay = box.querySelector("article.tier") ? document.querySelector("[data-today]")?.getAttribute("datetime") : null;

// The heading's day as every page's script writes a day, in the reader's own variant of the
// language ("7 Dec 2026" in en-GB). The server wrote Django's nearest (frontend/templatetags/
// day_names.py): most often the same text, left alone then, so nothing moves.
const todayHeading = document.querySelector("[data-today]");
if (todayHeading) {
  const written = shortDayName(todayHeading.getAttribute("datetime"));
  if (todayHeading.textContent !== written) todayHeading.textContent = written;
}

const BLURB = {
  easy: gettext("A gentle deal: most players who try it win."),
  medium: gettext("Some digging needed; plan your Kings."),
  hard: gettext("Proven winnable, but only just."),
  weekly: gettext("Sundays only: Double Yukon, two decks and ten columns, proven winnable. Its own board and streak."),
};

// A tier inside a sentence ("Play easy", "Copy the whole easy commitment").
const TIER_WORD = {
  easy: pgettext("tier in a sentence", "easy"),
  medium: pgettext("tier in a sentence", "medium"),
  hard: pgettext("tier in a sentence", "hard"),
  weekly: pgettext("tier in a sentence", "weekly"),
};
const tierWord = (tier) => TIER_WORD[tier] || tier;

// The game's end, as a tier card says it ("Your game: won, ...").
const STATUS_WORD = {
  won: pgettext("game status", "won"),
  resigned: pgettext("game status", "resigned"),
  abandoned: pgettext("game status", "abandoned"),
  stuck: pgettext("game status", "stuck"),
};

/** A translated sentence with elements in it: each `%(name)s` of `text` becomes
 * `nodes[name]` (an element, or text), the words between stay text; for `el`'s children. */
function sentence(text, nodes) {
  return text.split(/(%\(\w+\)s)/).filter(Boolean).map((part) => {
    const name = /^%\((\w+)\)s$/.exec(part)?.[1];
    return name && name in nodes ? nodes[name] : part;
  });
}

// Practice links keep the variant (the weekly is Double Yukon).
const practiceUrl = (deal, variant) => `/practice/${encodeURIComponent(deal)}/${variant && variant !== "yukon" ? `?variant=${encodeURIComponent(variant)}` : ""}`;

// A tier's variant, named, when it is not plain Yukon (the weekly's "Double Yukon").
const variantNote = (variant) => (variant && variant !== "yukon" ? variantTitle(variant, variantTitles) : "");
// "Easy", "Weekly · Double Yukon".
function tierName(tier, variant) {
  const note = variantNote(variant);
  return note ? `${tierTitle(tier)} · ${note}` : tierTitle(tier);
}

// A tier's card, as frontend/tier_cards.py and home.html draw it: the same words in the same elements.
function tierCard(challenge) {
  const { tier, game, variant } = challenge;
  let action;
  if (game) {
    const done = game.status !== "playing";
    const label = done ? gettext("See result") : gettext("Resume");
    const fields = { status: STATUS_WORD[game.status] || game.status, score: game.score };
    let detail;
    if (!done) detail = interpolate(ngettext("In progress: %(score)s point", "In progress: %(score)s points", game.score), fields);
    else if (game.elapsed_ms == null) detail = interpolate(ngettext("Your game: %(status)s, %(score)s point", "Your game: %(status)s, %(score)s points", game.score), fields);
    else {
      detail = interpolate(ngettext("Your game: %(status)s, %(score)s point, %(time)s", "Your game: %(status)s, %(score)s points, %(time)s", game.score),
        { ...fields, time: formatTime(game.elapsed_ms / 1000) });
    }
    action = [el("p", "mine", detail),
      game.held && el("p", "held-note", gettext("Held off the boards until a moderator has looked at it."), " ",
        el("a", { href: "/faq/#held" }, gettext("Why?"))),
      el("a", { class: "button", href: `/play/${game.id}/` }, label)];
  } else {
    // Guests and players alike: the game starts at once (sign-up is offered after it).
    action = [el("p", { class: "start-note", "data-start-note": true }),
      el("button", { type: "button", class: "button", "data-start": tier }, gettext("Play"), el("span", "sr-only", ` ${tierWord(tier)}`))];
  }
  const note = variantNote(variant);
  return el("article", { class: "tier", "aria-label": interpolate(gettext("%(tier)s challenge"), { tier: tierName(tier, variant) }) },
    el("h2", null, tierTitle(tier), note && [" ", el("span", "muted", `· ${note}`)]),
    el("p", null, BLURB[tier] || ""),
    el("p", "counts", `${dailyCounts(challenge)} · `,
      sentence(gettext("%(count)s playing now"), { count: el("span", { "data-playing": tier }, playingNow[tier] ?? 0) })),
    action);
}

// ----- how we keep it fair (closed until asked) --------------------------------------

// Today's deals are fixed in advance: each one's SHA-256 commitment, whole in the title and the copy.
function commitmentRow(challenge) {
  const full = challenge.commitment;
  return el("li", null, el("strong", null, tierName(challenge.tier, challenge.variant)), ": ",
    el("code", { title: full }, shortCommitment(challenge.commitment)), " ",
    el("button", { type: "button", class: "linkish", "data-copy-commitment": full, "aria-label": interpolate(gettext("Copy the whole %(tier)s commitment"), { tier: tierWord(challenge.tier) }) },
      gettext("copy")));
}

function showCommitments(challenges) {
  const box = fairBox?.querySelector("[data-fair-today]");
  const committed = challenges.filter((c) => c.commitment);
  if (!box || !committed.length) return;
  fill(box, el("h3", null, gettext("Today's commitments")), el("ul", null, committed.map(commitmentRow)));
}

function openedRow(entry) {
  return el("li", null, el("strong", null, tierName(entry.tier, entry.variant)), ": ",
    sentence(gettext("deal %(deal)s, salt %(salt)s, commitment %(commitment)s"), {
      deal: el("a", { href: practiceUrl(entry.deal, entry.variant) }, entry.deal),
      salt: el("code", null, entry.salt),
      commitment: el("code", { title: entry.commitment }, shortCommitment(entry.commitment)),
    }),
    " · ", el("a", { href: entry.games_url }, gettext("every ranked game")));
}

function showOpened(opened) {
  if (!openedBox || !opened?.length) return;
  fill(openedBox, el("h3", null, interpolate(gettext("Yesterday's deals, opened (%(date)s)"), { date: dayName(opened[0].date) })),
    el("ul", null, opened.map(openedRow)),
    el("p", "muted", gettext("Each deal and salt hash to the commitment shown all day yesterday.")));
}

async function startDaily(button) {
  const note = button.closest(".tier").querySelector("[data-start-note]");
  button.disabled = true;
  note.textContent = "";
  try {
    const game = await api.post("/api/games/", { daily: button.dataset.start });
    window.location.href = `/play/${game.id}/`;
  } catch (err) {
    // The server's own words (a refusal to a guest says what to do instead).
    note.textContent = err.message;
    button.disabled = false;
  }
}

// A network failure (status 0: no answer at all) also says what still works offline: the
// practice the offline page offers (offline.html's "Pick a deal"), kept by the service worker.
const notLoaded = (err) => el("p", "notice",
  interpolate(gettext("Today's challenges could not be loaded: %(error)s."), { error: err.message }),
  err instanceof ApiError && err.status === 0
    ? [" ", ...sentence(gettext("Practice deals still work without a network: %(practice)s."),
      { practice: el("a", { href: "/practice/offline/" }, gettext("practise offline")) })]
    : null);

// The server drew the day's cards: the commitments, and yesterday's deals once opened, come
// from each day's proof (GET /api/daily/<date>/), which counts no games as /api/daily/ does.
async function loadProofs() {
  let today;
  try {
    today = await api.get(`/api/daily/${drawnDay}/`);
  } catch (err) {
    fill(box, notLoaded(err)); // offline, the worker's copy of the page: its cards may be old
    return;
  }
  showCommitments(today);
  const yesterday = openedBox?.dataset.day; // only when yesterday had deals
  if (yesterday) showOpened(await api.get(`/api/daily/${yesterday}/`).catch(() => []));
}

async function load() {
  if (drawnDay) return loadProofs();
  let daily;
  try {
    daily = await api.get("/api/daily/");
  } catch (err) {
    fill(box, notLoaded(err));
    return;
  }
  const challenges = daily.challenges || [];
  if (!challenges.length) {
    fill(box, el("p", "notice", sentence(gettext("Today's deals are still being prepared. Try %(practice)s meanwhile."),
      { practice: el("a", { href: "/practice/" }, gettext("a practice deal")) })));
    return;
  }
  fill(box, challenges.map(tierCard));
  showCommitments(challenges);
  showOpened(daily.opened);
}

box.addEventListener("click", (e) => {
  const button = e.target.closest("[data-start]");
  if (button) startDaily(button);
});
fairBox?.addEventListener("click", async (e) => {
  const copy = e.target.closest("[data-copy-commitment]");
  if (copy) await copyText(copy.dataset.copyCommitment, gettext("Commitment copied."));
});

// ----- the home figures (/api/leaderboards/home/, polled) --------------------------

function showYesterday(entries) {
  const boxY = document.querySelector("[data-yesterday]");
  if (!entries.length) return;
  const winner = (w) => el("li", null, rowPlayer(w),
    ` ${interpolate(ngettext("%(moves)s move, %(time)s", "%(moves)s moves, %(time)s", w.moves), { moves: w.moves, time: formatElapsed(w.elapsed_ms) })} `,
    el("a", { href: w.replay_url, "aria-label": interpolate(gettext("replay of %(name)s's game"), { name: rowName(w) }) }, gettext("replay")));
  const parLine = (t) => interpolate(ngettext("Par %(par)s moves · %(count)s result", "Par %(par)s moves · %(count)s results", t.count),
    { par: t.par == null ? "–" : t.par, count: t.count });
  fill(boxY, el("h2", null, gettext("Yesterday's winners")), el("div", "tiers", entries.map((t) => el("article", "tier small",
    el("h3", null, tierTitle(t.tier)),
    el("p", "muted", parLine(t)),
    t.winners.length ? el("ol", "winners", t.winners.map(winner)) : emptyState(gettext("Nobody finished it."), "/archive/", gettext("Try it in the archive")),
    el("a", { href: t.board_url }, gettext("the whole board"))))));
  boxY.hidden = false;
}

function showLeagues(leagues) {
  const boxL = document.querySelector("[data-home-leagues]");
  if (!leagues.length) {
    boxL.hidden = true;
    return;
  }
  const leader = ([tier, row]) => [`${tierWord(tier)} `, row ? rowPlayer(row) : el("span", "muted", gettext("nobody yet"))];
  const leaders = (l) => Object.entries(l.leaders).map((entry, i) => [i ? " · " : "", leader(entry)]);
  fill(boxL, el("h2", null, gettext("Your leagues today")), el("ul", "plain", leagues.map((l) => el("li", null,
    el("a", { href: l.url }, l.name), ": ", leaders(l)))));
  boxL.hidden = false;
}

function showHome(data) {
  nextDealAt = Date.parse(data.next_deal_at);
  tick(); // now, not at the interval's next second: the countdown never reads --:--:-- once it can count
  Object.assign(playingNow, data.playing);
  for (const [tier, count] of Object.entries(data.playing)) {
    const el = document.querySelector(`[data-playing="${tier}"]`);
    if (el) el.textContent = count;
  }
  const streak = document.querySelector("[data-streak]");
  if (data.streak) {
    const { current, best } = data.streak;
    const weekly = data.streak.weekly;
    const days = interpolate(ngettext("Your streak: %(current)s day (best %(best)s)", "Your streak: %(current)s days (best %(best)s)", current), { current, best });
    const sundays = weekly && (weekly.current || weekly.best)
      ? ` · ${interpolate(ngettext("weekly: %(current)s Sunday (best %(best)s)", "weekly: %(current)s Sundays (best %(best)s)", weekly.current), weekly)}` : "";
    streak.textContent = `${days}${sundays}`;
    streak.hidden = false;
  }
  showYesterday(data.yesterday);
  showLeagues(data.leagues);
}

function tick() {
  const el = document.querySelector("[data-countdown]");
  if (!el || !nextDealAt) return;
  const left = Math.max(0, Math.round((nextDealAt - serverNow()) / 1000));
  const two = (n) => String(n).padStart(2, "0");
  el.textContent = `${two(Math.floor(left / 3600))}:${two(Math.floor((left % 3600) / 60))}:${two(left % 60)}`;
  el.setAttribute("datetime", `PT${left}S`);
  if (left === 0) {
    nextDealAt = 0;
    setTimeout(() => window.location.reload(), 2000); // the new day's deals
  }
}

load();
poll("/api/leaderboards/home/", showHome, { every: 30000 });
setInterval(tick, 1000);
