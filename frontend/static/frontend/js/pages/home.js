// Today's page: the three tiers with their counts (how many played as guests among them),
// and a button to start or resume each (guests too: one tap, no sign-up first); yesterday's
// winners; your streak; and, one click away in "How we keep it fair", today's commitments
// and yesterday's deals and salts.

import { api, serverNow } from "../shared/api.js";
import { copyText, siteConstants } from "../shared/dom.js";
import { formatElapsed, formatTime, tierTitle, variantTitle } from "../shared/format.js";
import { dailyCounts } from "../shared/game_names.js";
import { escapeHtml, playerLink } from "../shared/html.js";
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
    action = `<p class="mine">${escapeHtml(detail)}</p><a class="button" href="/play/${game.id}/">${label}</a>`;
  } else {
    // Guests and players alike: the game starts at once (sign-up is offered after it).
    action = `<p class="start-note" data-start-note></p>
      <button type="button" class="button" data-start="${escapeHtml(tier)}">Play<span class="sr-only"> ${escapeHtml(tier)}</span></button>`;
  }
  const note = variantNote(variant);
  return `<article class="tier" aria-label="${escapeHtml(tierName(tier, variant))} challenge">
    <h2>${escapeHtml(tierTitle(tier))}${note ? ` <span class="muted">· ${escapeHtml(note)}</span>` : ""}</h2>
    <p>${BLURB[tier] || ""}</p>
    <p class="counts">${escapeHtml(dailyCounts(challenge))} · <span data-playing="${escapeHtml(tier)}">${playingNow[tier] ?? 0}</span> playing now</p>
    ${action}
  </article>`;
}

// ----- how we keep it fair (closed until asked) --------------------------------------

// Today's deals are fixed in advance: each one's SHA-256 commitment, whole in the title and the copy.
function commitmentRow(challenge) {
  const full = escapeHtml(challenge.commitment);
  return `<li><strong>${escapeHtml(tierName(challenge.tier, challenge.variant))}</strong>:
    <code title="${full}">${escapeHtml(shortCommitment(challenge.commitment))}</code>
    <button type="button" class="linkish" data-copy-commitment="${full}" aria-label="Copy the whole ${escapeHtml(challenge.tier)} commitment">copy</button></li>`;
}

function showCommitments(challenges) {
  const box = fairBox?.querySelector("[data-fair-today]");
  const committed = challenges.filter((c) => c.commitment);
  if (!box || !committed.length) return;
  box.innerHTML = `<h3>Today's commitments</h3><ul>${committed.map(commitmentRow).join("")}</ul>`;
}

function openedRow(entry) {
  return `<li><strong>${escapeHtml(tierName(entry.tier, entry.variant))}</strong>: deal <a href="${escapeHtml(practiceUrl(entry.deal, entry.variant))}">${escapeHtml(entry.deal)}</a>,
    salt <code>${escapeHtml(entry.salt)}</code>, commitment <code title="${escapeHtml(entry.commitment)}">${escapeHtml(shortCommitment(entry.commitment))}</code>
    · <a href="${escapeHtml(entry.games_url)}">every ranked game</a></li>`;
}

function showOpened(opened) {
  if (!openedBox || !opened?.length) return;
  openedBox.innerHTML = `<h3>Yesterday's deals, opened (${escapeHtml(opened[0].date)})</h3>
    <ul>${opened.map(openedRow).join("")}</ul>
    <p class="muted">Each deal and salt hash to the commitment shown all day yesterday.</p>`;
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
    box.innerHTML = `<p class="notice">Today's challenges could not be loaded: ${escapeHtml(err.message)}.</p>`;
    return;
  }
  const challenges = daily.challenges || [];
  if (!challenges.length) {
    box.innerHTML = `<p class="notice">Today's deals are still being prepared. Try <a href="/practice/">a practice deal</a> meanwhile.</p>`;
    return;
  }
  box.innerHTML = challenges.map(tierCard).join("");
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
  boxY.innerHTML = `<h2>Yesterday's winners</h2><div class="tiers">${entries.map((t) => `<article class="tier small">
    <h3>${escapeHtml(tierTitle(t.tier))}</h3>
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
