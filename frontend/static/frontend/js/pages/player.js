// The player's page: totals and daily history, the record (per tier, the archive, the
// last 30 days, badges), and on one's own page the recent practice games. Data:
// leaderboards/serializers.py (PlayerPage, PlayerRecord) and GET /api/games/.

import { api } from "../shared/api.js";
import { formatElapsed } from "../shared/format.js";
import { badgeList, escapeHtml, numberCell as num } from "../shared/html.js";

// The daily totals in words: the answer's other fields (its name, the history's paging)
// are not for the reader.
const TOTALS = [
  ["joined", "Joined"],
  ["played", "Dailies played"],
  ["wins", "Won"],
  ["win_rate", "Win rate", (rate) => `${Math.round(rate * 100)}%`],
  ["average_score", "Average score", Math.round],
  ["current_streak", "Current streak"],
  ["best_streak", "Best streak"],
  ["last_win", "Last win"],
];

function totals(data) {
  const items = TOTALS.map(([key, label, shown = (v) => v]) => `<dt>${label}</dt>
    <dd>${escapeHtml(data[key] == null ? "–" : shown(data[key]))}</dd>`).join("");
  return `<h2>Daily totals</h2><dl class="stats-list">${items}</dl>`;
}

// Six columns fit a phone: the replay link is the board's ▶ after the date (which never
// breaks); a longer row scrolls sideways in its own box, which the keyboard can reach.
function history(rows) {
  const body = rows.map((row) => {
    const replay = row.replay_url ? ` <a href="${escapeHtml(row.replay_url)}" aria-label="replay">▶</a>` : "";
    return `<tr><td class=nowrap>${escapeHtml(row.date)}${replay}</td><td>${escapeHtml(row.tier)}</td>
    <td>${escapeHtml(row.status)}</td><td class=num>${escapeHtml(row.score)}</td>
    <td class=num>${formatElapsed(row.elapsed_ms)}</td>
    <td class=num>${escapeHtml(row.rank ?? "")}</td></tr>`;
  }).join("");
  return `<div class="table-scroll" tabindex="0" role="region" aria-labelledby="daily-games-title">
    <table class="ranks"><thead><tr><th>Date</th><th>Tier</th><th>Result</th><th class=num>Score</th>
    <th class=num>Time</th><th class=num>Rank</th></tr></thead><tbody>${body}</tbody></table></div>`;
}

// ----- the player's record: per tier, the archive, the last 30 days, badges -----------

const STATE_COLOURS = { won: "#4ade80", lost: "#ff8a80", playing: "#ffd34d" };

/** An SVG chart of the last 30 days: one column a day, a square per tier (easy at the
 * bottom), green won, red lost, yellow in progress, outlined not played. */
function recentChart(days, tiers = ["easy", "medium", "hard"]) {
  const size = 10;
  const gap = 2;
  const width = days.length * (size + gap);
  const height = tiers.length * (size + gap);
  const cells = days.map((day, x) => tiers.map((tier, row) => {
    const state = day.tiers[tier];
    const y = height - (row + 1) * (size + gap);
    const fill = STATE_COLOURS[state] || "none";
    return `<rect x="${x * (size + gap)}" y="${y}" width="${size}" height="${size}" rx="2" fill="${fill}"
      stroke="rgba(255,255,255,.35)"><title>${escapeHtml(day.date)} ${tier}: ${escapeHtml(state || "not played")}</title></rect>`;
  }).join("")).join("");
  const won = days.filter((d) => Object.values(d.tiers).includes("won")).length;
  return `<svg class="recent-chart" viewBox="0 0 ${width} ${height}" width="${width * 2}" height="${height * 2}" role="img"
    aria-label="The last ${days.length} days: a day won in ${won} of them">${cells}</svg>`;
}

function recordHtml(record) {
  const rows = Object.entries(record.tiers).map(([tier, r]) => `<tr><td>${escapeHtml(tier)}</td>${num(r.played)}${num(r.wins)}
    ${num(`${Math.round(r.win_rate * 100)}%`)}<td class=num>${formatElapsed(r.best_time_ms, "–")}</td></tr>`).join("");
  const badges = record.badges.length
    ? badgeList(record.badges, { withMonth: true })
    : `<p class="muted">No badge yet: win every day of a month in one tier (the archive counts).</p>`;
  return `<h2>Record</h2><table class="ranks"><thead><tr><th>Tier</th><th class=num>Played</th><th class=num>Won</th>
    <th class=num>Win rate</th><th class=num>Best time</th></tr></thead><tbody>${rows}</tbody></table>
    <p>Archive: ${escapeHtml(record.archive.played)} played, ${escapeHtml(record.archive.wins)} won (unranked).</p>
    <h2>The last 30 days</h2>${recentChart(record.recent)}
    <h2>Badges</h2>${badges}`;
}

const player = document.querySelector("[data-player]");
if (player) {
  const body = player.querySelector("[data-player-body]");
  api.get(`/api/players/${encodeURIComponent(player.dataset.player)}/`).then((data) => {
    const games = data.games;
    body.innerHTML = `<div data-record></div>${totals(data)}`
      + (games.length ? `<h2 id="daily-games-title">Daily games</h2>${history(games)}` : "");
    return api.get(`/api/players/${encodeURIComponent(player.dataset.player)}/record/`).then((record) => {
      body.querySelector("[data-record]").innerHTML = recordHtml(record);
    });
  }).catch((err) => {
    body.innerHTML = `<p class="notice">${escapeHtml(err.message)}</p>`;
  });
}

// ----- one's own page: recent practice games, each to resume while in play or to replay once over

const practiceBox = document.querySelector("[data-practice-games]");

function practiceGameItem(game) {
  const deal = `/practice/${encodeURIComponent(game.deal)}/?variant=${encodeURIComponent(game.variant)}`;
  const link = game.status === "playing"
    ? `<a class="button small" href="${deal}&game=${encodeURIComponent(game.id)}">Resume</a>`
    : `<a class="button small ghost" href="/replay/${encodeURIComponent(game.id)}/">Replay</a>`;
  const tier = game.tier ? ` · ${escapeHtml(game.tier)}` : "";
  return `<li data-practice-game="${escapeHtml(game.id)}">
    <span>${escapeHtml(game.variant)} #${escapeHtml(game.deal)}${tier}</span>
    <span class="muted">${escapeHtml(game.status)} · score ${escapeHtml(game.score)} · ${escapeHtml(game.moves)} moves</span>
    ${link}</li>`;
}

if (practiceBox) {
  api.get("/api/games/").then((games) => {
    practiceBox.innerHTML = games.length
      ? `<ul class="practice-games">${games.map(practiceGameItem).join("")}</ul>`
      : `<p class="muted">No practice games yet. <a href="/practice/">Practise</a>.</p>`;
  }).catch((err) => {
    practiceBox.innerHTML = `<p class="muted">Could not load your practice games: ${escapeHtml(err.message)}.</p>`;
  });
}
