// Today's page: the three tiers with their counts, and a button to start or resume each.

import { api, serverNow } from "../shared/api.js";
import { copyText, isLoggedIn, postAndOpen } from "../shared/dom.js";
import { formatElapsed, formatTime } from "../shared/format.js";
import { escapeHtml, playerLink } from "../shared/html.js";
import { poll } from "../shared/poll.js";
import { shortCommitment } from "../shared/proof.js";

const box = document.querySelector("[data-daily]");
const openedBox = document.querySelector("[data-opened]");
const loggedIn = isLoggedIn();

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

function tierCard(challenge) {
  const { tier, played, won, game, variant } = challenge;
  let action;
  if (game) {
    const done = game.status !== "playing";
    const label = done ? "See result" : "Resume";
    const detail = done
      ? `Your game: ${game.status}, ${game.score} points${game.elapsed_ms != null ? `, ${formatTime(game.elapsed_ms / 1000)}` : ""}`
      : `In progress: ${game.score} points`;
    action = `<p class="mine">${escapeHtml(detail)}</p><a class="button" href="/play/${game.id}/">${label}</a>`;
  } else if (loggedIn) {
    action = `<button type="button" class="button" data-start="${escapeHtml(tier)}">Play ${escapeHtml(tier)}</button>`;
  } else {
    action = `<a class="button" href="/signup/?next=/">Sign up to play</a>`;
  }
  return `<article class="tier" aria-label="${escapeHtml(tier)} challenge">
    <h2>${escapeHtml(tier)}${variant && variant !== "yukon" ? ` <span class="muted">· ${escapeHtml(variant.replace("-", " "))}</span>` : ""}</h2>
    <p>${BLURB[tier] || ""}</p>
    <p class="counts">${played} played · ${won} won · <span data-playing="${escapeHtml(tier)}">${playingNow[tier] ?? 0}</span> playing now</p>
    ${commitmentLine(challenge.commitment)}
    ${action}
  </article>`;
}

// The deal is fixed in advance: its SHA-256 commitment, whole in the title and the copy.
function commitmentLine(commitment) {
  if (!commitment) return "";
  const full = escapeHtml(commitment);
  return `<p class="commitment muted">Commitment <code title="${full}">${escapeHtml(shortCommitment(commitment))}</code>
    <button type="button" class="linkish" data-copy-commitment="${full}" aria-label="Copy the whole commitment">copy</button>
    · <a href="/fair-play/">check it</a></p>`;
}

function openedRow(entry) {
  return `<li><strong>${escapeHtml(entry.tier)}</strong>: deal <a href="${escapeHtml(practiceUrl(entry.deal, entry.variant))}">${escapeHtml(entry.deal)}</a>,
    salt <code>${escapeHtml(entry.salt)}</code>, commitment <code title="${escapeHtml(entry.commitment)}">${escapeHtml(shortCommitment(entry.commitment))}</code>
    · <a href="${escapeHtml(entry.games_url)}">every ranked game</a></li>`;
}

function showOpened(opened) {
  if (!openedBox || !opened?.length) return;
  openedBox.innerHTML = `<h2>Yesterday's deals, opened (${escapeHtml(opened[0].date)})</h2>
    <ul>${opened.map(openedRow).join("")}</ul>
    <p class="muted">Each deal and salt hash to the commitment shown all day yesterday. <a href="/fair-play/">How to check</a>.</p>`;
  openedBox.hidden = false;
}

async function load() {
  let daily;
  try {
    daily = await api.get("/api/daily/");
  } catch (err) {
    box.innerHTML = `<p class="notice">Today's challenges could not be loaded: ${escapeHtml(err.message)}.</p>`;
    return;
  }
  const challenges = daily.challenges || [];
  if (!challenges.length) {
    box.innerHTML = `<p class="notice">Today's deals are still being prepared. Try <a href="/practice/">a practice deal</a> meanwhile.</p>`;
    return;
  }
  box.innerHTML = challenges.map(tierCard).join("");
  showOpened(daily.opened);
}

box.addEventListener("click", async (e) => {
  const copy = e.target.closest("[data-copy-commitment]");
  if (copy) {
    await copyText(copy.dataset.copyCommitment, "Commitment copied.");
    return;
  }
  const button = e.target.closest("[data-start]");
  if (!button) return;
  await postAndOpen(button, "/api/games/", { daily: button.dataset.start }, (game) => `/play/${game.id}/`);
});

// ----- the home figures (/api/leaderboards/home/, polled) --------------------------

const rowLink = (row) => playerLink(row.display_name);

function showYesterday(entries) {
  const boxY = document.querySelector("[data-yesterday]");
  if (!entries.length) return;
  boxY.innerHTML = `<h2>Yesterday's winners</h2><div class="tiers">${entries.map((t) => `<article class="tier small">
    <h3>${escapeHtml(t.tier)}</h3>
    <p class="muted">Par ${t.par == null ? "–" : escapeHtml(t.par)} moves · ${escapeHtml(t.count)} results</p>
    ${t.winners.length ? `<ol class="winners">${t.winners.map((w) => `<li>${rowLink(w)} ${escapeHtml(w.moves)} moves,
      ${formatElapsed(w.elapsed_ms)} <a href="${escapeHtml(w.replay_url)}" aria-label="replay of ${escapeHtml(w.display_name)}'s game">replay</a></li>`).join("")}</ol>`
      : `<p class="muted">Nobody finished it.</p>`}
    <a href="${escapeHtml(t.board_url)}">the whole board</a></article>`).join("")}</div>`;
  boxY.hidden = false;
}

function showLeagues(leagues) {
  const boxL = document.querySelector("[data-home-leagues]");
  if (!leagues.length) {
    boxL.hidden = true;
    return;
  }
  boxL.innerHTML = `<h2>Your leagues today</h2><ul class="plain">${leagues.map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(l.name)}</a>:
    ${Object.entries(l.leaders).map(([tier, row]) => `${escapeHtml(tier)} ${row ? rowLink(row) : "<span class=muted>nobody yet</span>"}`).join(" · ")}</li>`).join("")}</ul>`;
  boxL.hidden = false;
}

function showHome(data) {
  nextDealAt = Date.parse(data.next_deal_at);
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
