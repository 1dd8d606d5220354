// Leaderboard and player pages: they draw the leaderboard API's answers
// (leaderboards/serializers.py: DailyBoard, StreakBoard, AllTimeBoard, PlayerPage).

import { api, errorText } from "./api.js";
import { poll, pollEvery } from "./poll.js";
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
    const provisional = row.provisional
      ? ` <span class="provisional" title="A new account's result: confirmed after the day closes">provisional</span>`
      : "";
    return `<tr${row.me ? " class=me" : ""}><td class=num>${escapeHtml(row.rank)}</td>
      <td><a href="/players/${encodeURIComponent(row.display_name)}/">${escapeHtml(row.display_name)}</a>${provisional}${replay}</td>${CELLS[board](row)}</tr>`;
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

let stopPolling = () => {};

function boardPath(section, page) {
  const { board, day, tier } = section.dataset;
  const query = new URLSearchParams(window.location.search);
  const params = new URLSearchParams();
  if (page > 1) params.set("page", page);
  const archive = board === "daily" && query.get("archive") === "1";
  const circle = section.querySelector("[data-circle]")?.value || "";
  if (!archive && section.querySelector("[data-around]").checked) params.set("around", "me");
  if (circle === "following") params.set("following", "true");
  else if (circle) params.set("league", circle);
  let path = board === "daily" ? `/api/leaderboards/daily/${day}/${tier}/` : `/api/leaderboards/${board}/`;
  if (archive) path = `/api/leaderboards/archive/${day}/${tier}/`;
  return `${path}${params.size ? `?${params}` : ""}`;
}

function drawBoard(section, data, page) {
  const { board } = section.dataset;
  const body = section.querySelector("[data-board-body]");
  const pager = section.querySelector("[data-pager]");
  pager.innerHTML = "";
  body.innerHTML = table(data.results, board);
  if (data.board === "archive") {
    body.insertAdjacentHTML("afterbegin", `<p class="muted" data-archive-note>The archive board: games of this closed day played again, unranked.</p>`);
  }
  if (data.par) {
    body.insertAdjacentHTML("afterbegin", `<p class="muted" data-par>Par: ${escapeHtml(data.par)} moves,
      the length of the solver's winning line (not necessarily the fewest).</p>`);
  }
  if (data.previous) pager.insertAdjacentHTML("beforeend", `<button class="button small ghost" data-page="${page - 1}">Previous</button>`);
  if (data.next) pager.insertAdjacentHTML("beforeend", `<button class="button small ghost" data-page="${page + 1}">Next</button>`);
}

/** Show a page of the board and keep it fresh while it is open (a 304 when unchanged). */
function loadBoard(section, page) {
  stopPolling();
  const body = section.querySelector("[data-board-body]");
  stopPolling = poll(boardPath(section, page), (data) => drawBoard(section, data, page), {
    every: pollEvery(section),
    onError: (status, error) => {
      body.innerHTML = `<p class="notice">${escapeHtml(errorText(error, `the server answered ${status}`))}</p>`;
    },
  });
}

async function fillCircles(section) {
  const select = section.querySelector("[data-circle]");
  if (!select) return;
  const wanted = new URLSearchParams(window.location.search);
  try {
    const leagues = await api.get("/api/leagues/");
    for (const league of leagues) {
      select.insertAdjacentHTML("beforeend", `<option value="${escapeHtml(league.id)}">League: ${escapeHtml(league.name)}</option>`);
    }
  } catch {
    // a guest: everyone only
  }
  const chosen = wanted.get("league") || wanted.get("circle") || "";
  if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
}

const section = document.querySelector("[data-boards]");
if (section) {
  section.querySelector("[data-around]").addEventListener("change", () => loadBoard(section, 1));
  section.querySelector("[data-circle]")?.addEventListener("change", () => loadBoard(section, 1));
  section.querySelector("[data-pager]").addEventListener("click", (e) => {
    const button = e.target.closest("[data-page]");
    if (button) loadBoard(section, Number(button.dataset.page));
  });
  fillCircles(section).then(() => loadBoard(section, 1));
}

// ----- the player's record: per tier, the archive, the last 30 days, badges -----------

const STATE_COLOURS = { won: "#4ade80", lost: "#ff8a80", playing: "#ffd34d" };

/** An SVG chart of the last 30 days: one column a day, a square per tier (easy at the
 * bottom), green won, red lost, yellow in progress, outlined not played. */
export function recentChart(days, tiers = ["easy", "medium", "hard"]) {
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
    ${num(`${Math.round(r.win_rate * 100)}%`)}<td class=num>${r.best_time_ms == null ? "–" : formatTime(r.best_time_ms / 1000)}</td></tr>`).join("");
  const badges = record.badges.length
    ? `<ul class="badges">${record.badges.map((b) => `<li class="badge ${escapeHtml(b.tier)}" title="${escapeHtml(b.title)}">${escapeHtml(b.name)} <span class="muted">${escapeHtml(b.month)}</span></li>`).join("")}</ul>`
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
    const stats = Object.entries(data).filter(([, v]) => v === null || typeof v !== "object");
    const games = data.games;
    body.innerHTML = `<div data-record></div><dl class="stats-list">${stats.map(([k, v]) => `<dt>${escapeHtml(k.replaceAll("_", " "))}</dt><dd>${escapeHtml(v ?? "–")}</dd>`).join("")}</dl>`
      + (games.length ? `<h2>Daily games</h2>${history(games)}` : "");
    return api.get(`/api/players/${encodeURIComponent(player.dataset.player)}/record/`).then((record) => {
      body.querySelector("[data-record]").innerHTML = recordHtml(record);
    });
  }).catch((err) => {
    body.innerHTML = `<p class="notice">${escapeHtml(err.message)}</p>`;
  });
}
