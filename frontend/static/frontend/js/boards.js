// Leaderboard and player pages. They draw whatever the leaderboard API returns and say
// so plainly when it is not there yet.

import { api, listOf } from "./api.js";
import { escapeHtml, formatTime } from "./site.js";

const COMING = `<p class="notice">The leaderboards are coming soon. Finished games are already
  verified and kept, and will appear here as soon as the boards open.</p>`;

function playerName(row) {
  return row.display_name || row.player_name || row.name || row.username
    || (typeof row.player === "string" ? row.player : row.player?.display_name || row.player?.username) || "?";
}
function playerKey(row) {
  return row.username || row.player?.username || (typeof row.player === "string" ? row.player : null) || playerName(row);
}

function cell(row, ...keys) {
  for (const key of keys) if (row[key] !== undefined && row[key] !== null) return row[key];
  return "";
}

function table(rows, board) {
  if (!rows.length) return `<p class="muted">No verified results here yet.</p>`;
  const streak = board === "streaks";
  const allTime = board === "alltime";
  const head = streak ? "<th class=num>Streak</th><th class=num>Best</th>"
    : allTime ? "<th class=num>Wins</th><th class=num>Played</th><th class=num>Avg score</th>"
      : "<th class=num>Score</th><th class=num>Moves</th><th class=num>Time</th>";
  const body = rows.map((row, i) => {
    const ms = cell(row, "elapsed_ms", "time_ms");
    const stats = streak
      ? `<td class=num>${escapeHtml(cell(row, "streak", "current", "current_streak"))}</td><td class=num>${escapeHtml(cell(row, "best", "best_streak"))}</td>`
      : allTime
        ? `<td class=num>${escapeHtml(cell(row, "wins", "won"))}</td><td class=num>${escapeHtml(cell(row, "played", "games"))}</td><td class=num>${escapeHtml(Math.round(Number(cell(row, "average_score", "points", "score")) || 0))}</td>`
        : `<td class=num>${escapeHtml(cell(row, "score"))}</td><td class=num>${escapeHtml(cell(row, "moves"))}</td><td class=num>${ms === "" ? escapeHtml(cell(row, "time")) : formatTime(ms / 1000)}</td>`;
    const me = row.me || row.is_me ? " class=me" : "";
    const replayUrl = row.replay_url === undefined && row.game_id ? `/replay/${row.game_id}/` : row.replay_url;
    const replay = replayUrl ? ` <a href="${escapeHtml(replayUrl)}" aria-label="replay">▶</a>` : "";
    return `<tr${me}><td class=num>${escapeHtml(cell(row, "rank") || i + 1)}</td>
      <td><a href="/players/${encodeURIComponent(playerKey(row))}/">${escapeHtml(playerName(row))}</a>${board === "daily" ? replay : ""}</td>${stats}</tr>`;
  }).join("");
  return `<table class="ranks"><thead><tr><th class=num>#</th><th>Player</th>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function history(rows) {
  const body = rows.map((row) => `<tr><td>${escapeHtml(row.date)}</td><td>${escapeHtml(row.tier)}</td>
    <td>${escapeHtml(row.status)}</td><td class=num>${escapeHtml(row.score)}</td>
    <td class=num>${row.elapsed_ms == null ? "" : formatTime(row.elapsed_ms / 1000)}</td>
    <td class=num>${escapeHtml(row.rank ?? "")}</td>
    <td>${row.replay_url ? `<a href="${escapeHtml(row.replay_url)}">replay</a>` : ""}</td></tr>`).join("");
  return `<table class="ranks"><thead><tr><th>Date</th><th>Tier</th><th>Result</th><th class=num>Score</th>
    <th class=num>Time</th><th class=num>Rank</th><th></th></tr></thead><tbody>${body}</tbody></table>`;
}

async function loadBoard(section, page) {
  const { board, day, tier } = section.dataset;
  const around = section.querySelector("[data-around]").checked;
  const params = new URLSearchParams();
  if (page > 1) params.set("page", page);
  if (around) params.set("around", "me");
  const path = board === "daily" ? `/api/leaderboards/daily/${day}/${tier}/` : `/api/leaderboards/${board}/`;
  const body = section.querySelector("[data-board-body]");
  if (section.dataset.api === "0") { body.innerHTML = COMING; return; }
  const pager = section.querySelector("[data-pager]");
  pager.innerHTML = "";
  let data;
  try {
    data = await api.get(`${path}${params.size ? `?${params}` : ""}`);
  } catch (err) {
    body.innerHTML = err.status === 404 || err.status === 0 ? COMING : `<p class="notice">${escapeHtml(err.message)}</p>`;
    return;
  }
  body.innerHTML = table(listOf(data), board);
  if (data?.par) {
    body.insertAdjacentHTML("afterbegin", `<p class="muted" data-par>Par: ${escapeHtml(data.par)} moves,
      the length of the solver's winning line (not necessarily the fewest).</p>`);
  }
  if (data && !Array.isArray(data)) {
    if (data.previous || page > 1) pager.insertAdjacentHTML("beforeend", `<button class="button small ghost" data-page="${page - 1}">Previous</button>`);
    if (data.next) pager.insertAdjacentHTML("beforeend", `<button class="button small ghost" data-page="${page + 1}">Next</button>`);
  }
}

const section = document.querySelector("[data-boards]");
if (section) {
  section.querySelector("[data-around]").addEventListener("change", () => loadBoard(section, 1));
  section.querySelector("[data-pager]").addEventListener("click", (e) => {
    const button = e.target.closest("[data-page]");
    if (button) loadBoard(section, Number(button.dataset.page));
  });
  loadBoard(section, 1);
}

const player = document.querySelector("[data-player]");
if (player) {
  const body = player.querySelector("[data-player-body]");
  if (player.dataset.api === "0") body.innerHTML = COMING;
  else api.get(`/api/players/${encodeURIComponent(player.dataset.player)}/`).then((data) => {
    const stats = Object.entries(data || {}).filter(([, v]) => v === null || typeof v !== "object");
    const games = listOf(data, "history", "games", "recent_games");
    body.innerHTML = `<dl class="stats-list">${stats.map(([k, v]) => `<dt>${escapeHtml(k.replaceAll("_", " "))}</dt><dd>${escapeHtml(v ?? "–")}</dd>`).join("")}</dl>`
      + (games.length ? `<h2>Daily games</h2>${history(games)}` : "");
  }).catch((err) => {
    body.innerHTML = err.status === 404 && !err.body?.detail?.includes("player") ? COMING : `<p class="notice">${escapeHtml(err.message)}</p>`;
  });
}
