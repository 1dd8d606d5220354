// Leaderboard and player pages: they draw the leaderboard API's answers
// (leaderboards/serializers.py: DailyBoard, StreakBoard, AllTimeBoard, PlayerPage).

import { api } from "./api.js";
import { escapeHtml, formatTime } from "./site.js";

const HEADS = {
  daily: "<th class=num>Score</th><th class=num>Moves</th><th class=num>Time</th>",
  streaks: "<th class=num>Streak</th><th class=num>Best</th>",
  alltime: "<th class=num>Wins</th><th class=num>Played</th><th class=num>Avg score</th>",
};

const num = (value) => `<td class=num>${escapeHtml(value)}</td>`;

const CELLS = {
  daily: (row) => num(row.score) + num(row.moves)
    + `<td class=num>${row.elapsed_ms == null ? "" : formatTime(row.elapsed_ms / 1000)}</td>`,
  streaks: (row) => num(row.current_streak) + num(row.best_streak),
  alltime: (row) => num(row.wins) + num(row.played) + num(Math.round(row.average_score)),
};

function table(rows, board) {
  if (!rows.length) return `<p class="muted">No verified results here yet.</p>`;
  const body = rows.map((row) => {
    const replay = board === "daily"
      ? ` <a href="${escapeHtml(row.replay_url)}" aria-label="replay">▶</a>` : "";
    return `<tr${row.me ? " class=me" : ""}><td class=num>${escapeHtml(row.rank)}</td>
      <td><a href="/players/${encodeURIComponent(row.display_name)}/">${escapeHtml(row.display_name)}</a>${replay}</td>${CELLS[board](row)}</tr>`;
  }).join("");
  return `<table class="ranks"><thead><tr><th class=num>#</th><th>Player</th>${HEADS[board]}</tr></thead><tbody>${body}</tbody></table>`;
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
  const pager = section.querySelector("[data-pager]");
  pager.innerHTML = "";
  let data;
  try {
    data = await api.get(`${path}${params.size ? `?${params}` : ""}`);
  } catch (err) {
    body.innerHTML = `<p class="notice">${escapeHtml(err.message)}</p>`;
    return;
  }
  body.innerHTML = table(data.results, board);
  if (data.par) {
    body.insertAdjacentHTML("afterbegin", `<p class="muted" data-par>Par: ${escapeHtml(data.par)} moves,
      the length of the solver's winning line (not necessarily the fewest).</p>`);
  }
  if (data.previous) pager.insertAdjacentHTML("beforeend", `<button class="button small ghost" data-page="${page - 1}">Previous</button>`);
  if (data.next) pager.insertAdjacentHTML("beforeend", `<button class="button small ghost" data-page="${page + 1}">Next</button>`);
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
  api.get(`/api/players/${encodeURIComponent(player.dataset.player)}/`).then((data) => {
    const stats = Object.entries(data).filter(([, v]) => v === null || typeof v !== "object");
    const games = data.games;
    body.innerHTML = `<dl class="stats-list">${stats.map(([k, v]) => `<dt>${escapeHtml(k.replaceAll("_", " "))}</dt><dd>${escapeHtml(v ?? "–")}</dd>`).join("")}</dl>`
      + (games.length ? `<h2>Daily games</h2>${history(games)}` : "");
  }).catch((err) => {
    body.innerHTML = `<p class="notice">${escapeHtml(err.message)}</p>`;
  });
}
