// The leaderboard page: it draws the leaderboard API's answers
// (leaderboards/serializers.py: DailyBoard, StreakBoard, AllTimeBoard).

import { api, errorText, serverNow } from "../shared/api.js";
import { formatElapsed } from "../shared/format.js";
import { escapeHtml, numberCell as num, playerLink } from "../shared/html.js";
import { clockFrom, DAY_MS } from "../shared/local_time.js";
import { poll, pollEvery } from "../shared/poll.js";

const HEADS = {
  daily: "<th class=num>Score</th><th class=num>Moves</th><th class=num>Time</th>",
  streaks: "<th class=num>Streak</th><th class=num>Best</th>",
  alltime: "<th class=num>Wins</th><th class=num>Played</th><th class=num>Avg score</th>",
};

const CELLS = {
  daily: (row) => num(row.score) + num(row.moves)
    + `<td class=num>${formatElapsed(row.elapsed_ms)}</td>`,
  streaks: (row) => num(row.current_streak) + num(row.best_streak),
  alltime: (row) => num(row.wins) + num(row.played) + num(Math.round(row.average_score)),
};

// What the provisional tag means (docs/fair-play.md): said under the board in words, since
// a title shows only to a mouse, never on a phone or to a screen reader.
const PROVISIONAL_MEANS = "a new account's result: it counts like any other, and is checked again after the day closes";

function table(rows, board) {
  if (!rows.length) return `<p class="muted">No verified results here yet.</p>`;
  const body = rows.map((row) => {
    const replay = board === "daily"
      ? ` <a href="${escapeHtml(row.replay_url)}" aria-label="replay">▶</a>` : "";
    const provisional = row.provisional
      ? ` <span class="provisional" title="${escapeHtml(PROVISIONAL_MEANS)}">provisional</span>`
      : "";
    return `<tr${row.me ? " class=me" : ""}><td class=num>${escapeHtml(row.rank)}</td>
      <td class=player>${playerLink(row.display_name)}${provisional}${replay}</td>${CELLS[board](row)}</tr>`;
  }).join("");
  const note = rows.some((row) => row.provisional)
    ? `<p class="muted" data-provisional-note><strong>Provisional</strong>: ${escapeHtml(PROVISIONAL_MEANS)}.</p>` : "";
  return `<table class="ranks"><thead><tr><th class=num>#</th><th>Player</th>${HEADS[board]}</tr></thead><tbody>${body}</tbody></table>${note}`;
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
  if (data.board === "daily" && !data.closed) {
    // The board's day is the UTC day; when it ends is said on the reader's clock.
    const close = Date.parse(`${data.date}T00:00:00Z`) + DAY_MS;
    body.insertAdjacentHTML("afterbegin", `<p class="muted" data-closes>Results come in until
      ${escapeHtml(clockFrom(close, serverNow()))} your time, when the day closes.</p>`);
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
