// Today's page: the three tiers with their counts (how many played as guests among them),
// and a button to start or resume each (guests too: one tap, no sign-up first); yesterday's
// winners; your streak; and, one click away in "How we keep it fair", today's commitments
// and yesterday's deals and salts.

import { api, serverNow } from "../shared/api.js";
import { copyText, siteConstants } from "../shared/dom.js";
import { formatElapsed, formatTime, tierTitle, variantTitle } from "../shared/format.js";
import { dailyCounts } from "../shared/game_names.js";
import { el, emptyState, fill, playerLink } from "../shared/html.js";
import { poll } from "../shared/poll.js";
import { shortCommitment } from "../shared/proof.js";

const box = document.querySelector("[data-daily]");
const openedBox = document.querySelector("[data-opened]");
const fairBox = document.querySelector("[data-fair]");
const variantTitles = siteConstants()?.variant_titles;

const playingNow = {};
let nextDealAt = 0;

const BLURB = {
  easy: "A gentle deal: most players who try it win.",
  medium: "Some digging needed; plan your Kings.",
  hard: "Proven winnable, but only just.",
  weekly: "Sundays only: Double Yukon, two decks and ten columns, proven winnable. Its own board and streak.",
};

// Practice links keep the variant (the weekly is Double Yukon).
const practiceUrl = (deal, variant) => `/practice/${encodeURIComponent(deal)}/${variant && variant !== "yukon" ? `?variant=${encodeURIComponent(variant)}` : ""}`;

// A tier's variant, named, when it is not plain Yukon (the weekly's "Double Yukon").
const variantNote = (variant) => (variant && variant !== "yukon" ? variantTitle(variant, variantTitles) : "");
// "Easy", "Weekly · Double Yukon".
function tierName(tier, variant) {
  const note = variantNote(variant);
  return note ? `${tierTitle(tier)} · ${note}` : tierTitle(tier);
}

function tierCard(challenge) {
  const { tier, game, variant } = challenge;
  let action;
  if (game) {
    const done = game.status !== "playing";
    const label = done ? "See result" : "Resume";
    const detail = done
      ? `Your game: ${game.status}, ${game.score} points${game.elapsed_ms != null ? `, ${formatTime(game.elapsed_ms / 1000)}` : ""}`
      : `In progress: ${game.score} points`;
    action = [el("p", "mine", detail), el("a", { class: "button", href: `/play/${game.id}/` }, label)];
  } else {
    // Guests and players alike: the game starts at once (sign-up is offered after it).
    action = [el("p", { class: "start-note", "data-start-note": true }),
      el("button", { type: "button", class: "button", "data-start": tier }, "Play", el("span", "sr-only", ` ${tier}`))];
  }
  const note = variantNote(variant);
  return el("article", { class: "tier", "aria-label": `${tierName(tier, variant)} challenge` },
    el("h2", null, tierTitle(tier), note && [" ", el("span", "muted", `· ${note}`)]),
    el("p", null, BLURB[tier] || ""),
    el("p", "counts", `${dailyCounts(challenge)} · `, el("span", { "data-playing": tier }, playingNow[tier] ?? 0), " playing now"),
    action);
}

// ----- how we keep it fair (closed until asked) --------------------------------------

// Today's deals are fixed in advance: each one's SHA-256 commitment, whole in the title and the copy.
function commitmentRow(challenge) {
  const full = challenge.commitment;
  return el("li", null, el("strong", null, tierName(challenge.tier, challenge.variant)), ": ",
    el("code", { title: full }, shortCommitment(challenge.commitment)), " ",
    el("button", { type: "button", class: "linkish", "data-copy-commitment": full, "aria-label": `Copy the whole ${challenge.tier} commitment` }, "copy"));
}

function showCommitments(challenges) {
  const box = fairBox?.querySelector("[data-fair-today]");
  const committed = challenges.filter((c) => c.commitment);
  if (!box || !committed.length) return;
  fill(box, el("h3", null, "Today's commitments"), el("ul", null, committed.map(commitmentRow)));
}

function openedRow(entry) {
  return el("li", null, el("strong", null, tierName(entry.tier, entry.variant)), ": deal ",
    el("a", { href: practiceUrl(entry.deal, entry.variant) }, entry.deal), ", salt ", el("code", null, entry.salt),
    ", commitment ", el("code", { title: entry.commitment }, shortCommitment(entry.commitment)),
    " · ", el("a", { href: entry.games_url }, "every ranked game"));
}

function showOpened(opened) {
  if (!openedBox || !opened?.length) return;
  fill(openedBox, el("h3", null, `Yesterday's deals, opened (${opened[0].date})`),
    el("ul", null, opened.map(openedRow)),
    el("p", "muted", "Each deal and salt hash to the commitment shown all day yesterday."));
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

async function load() {
  let daily;
  try {
    daily = await api.get("/api/daily/");
  } catch (err) {
    fill(box, el("p", "notice", `Today's challenges could not be loaded: ${err.message}.`));
    return;
  }
  const challenges = daily.challenges || [];
  if (!challenges.length) {
    fill(box, el("p", "notice", "Today's deals are still being prepared. Try ", el("a", { href: "/practice/" }, "a practice deal"), " meanwhile."));
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
  if (copy) await copyText(copy.dataset.copyCommitment, "Commitment copied.");
});

// ----- the home figures (/api/leaderboards/home/, polled) --------------------------

const rowLink = (row) => playerLink(row.display_name);

function showYesterday(entries) {
  const boxY = document.querySelector("[data-yesterday]");
  if (!entries.length) return;
  const winner = (w) => el("li", null, rowLink(w), ` ${w.moves} moves, ${formatElapsed(w.elapsed_ms)} `,
    el("a", { href: w.replay_url, "aria-label": `replay of ${w.display_name}'s game` }, "replay"));
  fill(boxY, el("h2", null, "Yesterday's winners"), el("div", "tiers", entries.map((t) => el("article", "tier small",
    el("h3", null, tierTitle(t.tier)),
    el("p", "muted", `Par ${t.par == null ? "–" : t.par} moves · ${t.count} results`),
    t.winners.length ? el("ol", "winners", t.winners.map(winner)) : emptyState("Nobody finished it.", "/archive/", "Try it in the archive"),
    el("a", { href: t.board_url }, "the whole board")))));
  boxY.hidden = false;
}

function showLeagues(leagues) {
  const boxL = document.querySelector("[data-home-leagues]");
  if (!leagues.length) {
    boxL.hidden = true;
    return;
  }
  const leader = ([tier, row]) => [`${tier} `, row ? rowLink(row) : el("span", "muted", "nobody yet")];
  const leaders = (l) => Object.entries(l.leaders).map((entry, i) => [i ? " · " : "", leader(entry)]);
  fill(boxL, el("h2", null, "Your leagues today"), el("ul", "plain", leagues.map((l) => el("li", null,
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
    const sundays = weekly && (weekly.current || weekly.best)
      ? ` · weekly: ${weekly.current} Sunday${weekly.current === 1 ? "" : "s"} (best ${weekly.best})` : "";
    streak.textContent = `Your streak: ${current} day${current === 1 ? "" : "s"} (best ${best})${sundays}`;
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
