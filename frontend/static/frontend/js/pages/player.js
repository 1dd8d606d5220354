// The player's page: totals and streaks, the record by tier, a calendar of the last 26
// weeks, badges and the daily games page by page (games the player played as a guest and
// kept among them, marked unranked); on one's own page the recent practice
// games. Data: leaderboards/serializers.py (PlayerPage, PlayerRecord) and GET /api/games/.
// Days are the game's UTC days, named as dates; the one time shown (when today closes) is
// on the reader's clock (shared/local_time.js).

import { api, serverNow } from "../shared/api.js";
import { siteConstants } from "../shared/dom.js";
import { formatElapsed, tierTitle } from "../shared/format.js";
import { endingWords, historyResult, practiceName } from "../shared/game_names.js";
import { escapeHtml, numberCell as num } from "../shared/html.js";
import { clockFrom, dayName, nextUtcMidnight, utcDay } from "../shared/local_time.js";

const TIERS = ["easy", "medium", "hard"];
const CALENDAR_WEEKS = 26;
const percent = (rate) => `${Math.round(rate * 100)}%`;
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const closesToday = () => `${clockFrom(nextUtcMidnight(serverNow()), serverNow())} your time`;

// ----- totals and streaks ------------------------------------------------------------

function totals(data) {
  const weekly = data.weekly_streak;
  const items = [
    ["Joined", dayName(data.joined)],
    ["Dailies played", data.played],
    ["Won", data.wins],
    ["Win rate", data.played ? percent(data.win_rate) : "not played yet"],
    ["Average score", data.played ? Math.round(data.average_score) : "–"],
    ["Current streak", plural(data.current_streak, "day")],
    ["Best streak", plural(data.best_streak, "day")],
    ["Last win", data.last_win ? dayName(data.last_win) : "none yet"],
  ];
  if (weekly.best) items.push(["Weekly streak", `${plural(weekly.current, "Sunday")} (best ${weekly.best})`]);
  const list = items.map(([label, value]) => `<dt>${label}</dt><dd>${escapeHtml(value)}</dd>`).join("");
  return `<h2>Daily totals</h2><dl class="stats-list">${list}</dl>${streakNote(data)}`;
}

/** How streaks count, and on one's own page what today's close means for theirs. */
function streakNote(data) {
  const own = Boolean(document.querySelector("[data-own-practice]"));
  const today = utcDay(serverNow());
  let risk = "";
  if (own && data.current_streak && data.last_win === today) {
    risk = " Today is won: your streak is safe until tomorrow's deals close.";
  } else if (own && data.current_streak) {
    risk = ` Win one of today's deals before ${escapeHtml(closesToday())} to keep yours going.`;
  }
  return `<p class="muted streak-note">A streak counts days in a row with a daily won; a day is
    the UTC day, one for the whole world, and this one closes at ${escapeHtml(closesToday())}.${risk}
    <a href="/how-to-play/#streaks">How streaks work</a></p>`;
}

// ----- the record by tier --------------------------------------------------------------

function tierRows(record) {
  return TIERS.map((tier) => {
    const r = record.tiers[tier];
    const cells = r.played
      ? `${num(r.wins)}${num(percent(r.win_rate))}<td class=num>${formatElapsed(r.best_time_ms, "–")}</td>`
      : `<td class="unplayed" colspan="3">not played</td>`;
    return `<tr><th scope="row">${escapeHtml(tierTitle(tier))}</th>${num(r.played)}${cells}</tr>`;
  }).join("");
}

function recordTable(record, data) {
  const all = data.played
    ? `${num(data.wins)}${num(percent(data.win_rate))}<td></td>`
    : `<td class="unplayed" colspan="3">not played</td>`;
  return `<h2 id="record-title">Record by tier</h2>
    <table class="ranks record"><caption class="sr-only">Daily deals played and won, by tier</caption>
    <thead><tr><th scope="col">Tier</th><th scope="col" class=num>Played</th><th scope="col" class=num>Won</th>
    <th scope="col" class=num>Win rate</th><th scope="col" class=num>Best time</th></tr></thead>
    <tbody>${tierRows(record)}</tbody>
    <tfoot><tr><th scope="row">All tiers</th>${num(data.played)}${all}</tr></tfoot></table>
    <p class="muted">The archive (past days played again, unranked):
      ${escapeHtml(plural(record.archive.played, "game"))} played, ${escapeHtml(record.archive.wins)} won.</p>`;
}

// ----- the calendar: a heat map of the last 26 weeks ----------------------------------

// A day's shade: how many of its three dailies were won, or played without a win.
const LEVELS = [
  ["none", "No daily played"],
  ["played", "Played, none won"],
  ["won-1", "1 won"],
  ["won-2", "2 won"],
  ["won-3", "All 3 won"],
];
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const weekdayOf = (isoDate) => (new Date(`${isoDate}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
const monthOf = (isoDate, style) => new Intl.DateTimeFormat(undefined, { month: style, timeZone: "UTC" })
  .format(Date.parse(`${isoDate}T00:00:00Z`));

/** Days to ask the record for: the 25 weeks before this one, and this one to today. */
function calendarDays(today) {
  return 7 * (CALENDAR_WEEKS - 1) + weekdayOf(today) + 1;
}

function dayCell(day, today) {
  const states = TIERS.map((tier) => [tier, day.tiers[tier]]).filter(([, state]) => state);
  const won = states.filter(([, state]) => state === "won").length;
  const level = won ? `won-${won}` : states.length ? "played" : "none";
  const what = states.length
    ? states.map(([tier, state]) => `${tier} ${state === "playing" ? "in play" : state}`).join(", ")
    : day.date === today ? "open, nothing played yet" : "no daily played";
  const label = `${dayName(day.date)}: ${what}`;
  const mark = day.date === today ? " today" : "";
  return `<td><span class="heat heat-${level}${mark}" title="${escapeHtml(label)}"><span class="sr-only">${escapeHtml(label)}</span></span></td>`;
}

function heatMap(recent, today) {
  // Weeks run Monday to Sunday: pad the first week before its first day, the last after today.
  const lead = weekdayOf(recent[0].date);
  const slots = [...Array(lead).fill(null), ...recent];
  while (slots.length % 7) slots.push(null);
  const weeks = [];
  for (let i = 0; i < slots.length; i += 7) weeks.push(slots.slice(i, i + 7));
  const firstDay = (week) => week.find(Boolean).date;
  // A month's name over the week its first day falls in (the first week's month too, when
  // the next month's name is not about to crowd it).
  const heads = weeks.map((week, i) => {
    const opens = week.find((d) => d && d.date.endsWith("-01"));
    const crowded = weeks.slice(1, 3).some((w) => w.some((d) => d && d.date.endsWith("-01")));
    const month = opens ? monthOf(opens.date, "short") : i === 0 && !crowded ? monthOf(firstDay(week), "short") : "";
    // A name near the right edge ends at its column instead of running past the table.
    const end = i >= weeks.length - 2 ? ' class="end"' : "";
    return `<th scope="col"${end}><span aria-hidden="true">${escapeHtml(month)}</span>`
      + `<span class="sr-only">Week of ${escapeHtml(dayName(firstDay(week)))}</span></th>`;
  }).join("");
  const rows = WEEKDAYS.map((name, row) => {
    const cells = weeks.map((week) => (week[row] ? dayCell(week[row], today) : "<td></td>")).join("");
    const shown = row % 2 === 0 && row < 6 ? name.slice(0, 3) : "";
    return `<tr><th scope="row"><span aria-hidden="true">${shown}</span><span class="sr-only">${name}</span></th>${cells}</tr>`;
  }).join("");
  const legend = LEVELS.map(([level, words]) => `<li><span class="heat heat-${level}" aria-hidden="true"></span>${words}</li>`).join("");
  const won = recent.filter((d) => Object.values(d.tiers).includes("won")).length;
  return `<h2 id="calendar-title">Calendar</h2>
    <div class="heatmap-box" role="region" aria-labelledby="calendar-title" tabindex="0">
    <table class="heatmap"><caption>The last ${CALENDAR_WEEKS} weeks: a daily won on
      ${plural(won, "day")} of ${recent.length}. Each square is a day (UTC), its shade how many of
      its dailies were won (the archive counts).</caption>
    <thead><tr><td></td>${heads}</tr></thead><tbody>${rows}</tbody></table></div>
    <ul class="heat-legend" aria-label="Key to the calendar's shades">${legend}</ul>`;
}

function badges(record) {
  if (!record.badges.length) {
    return `<h2>Badges</h2><p class="muted">No badge yet: win every day of a month in one tier (the archive counts).</p>`;
  }
  const items = record.badges.map((b) => `<li><span class="badge ${escapeHtml(b.tier)}">${escapeHtml(b.name)}</span>
    ${escapeHtml(monthOf(`${b.month}-01`, "long"))} ${escapeHtml(b.month.slice(0, 4))}: every ${escapeHtml(b.tier)} day won</li>`);
  return `<h2>Badges</h2><ul class="badge-list">${items.join("")}</ul>`;
}

// ----- the daily games, page by page ----------------------------------------------------

/** A game's rank: final once its day has closed; on the open day, so far, or after the close
 * when the day's board has not been counted yet (a rank missing on a closed day: Redis down).
 * A game played as a guest has none. */
function rankText(row, today) {
  if (row.guest) return "–";
  if (row.date === today) return row.rank == null ? "after the close" : `${row.rank} so far`;
  return row.rank ?? "–";
}

function gamesTable(rows, today) {
  const body = rows.map((row) => {
    const replay = row.replay_url ? ` <a href="${escapeHtml(row.replay_url)}" aria-label="replay">▶</a>` : "";
    const lost = !row.won;
    const mark = `<span class="result-mark" aria-hidden="true">${lost ? "✗" : "✓"}</span>`;
    const rank = rankText(row, today);
    return `<tr class="${lost ? "lost" : "won"}${row.guest ? " guest" : ""}"><td class=nowrap>${escapeHtml(row.date)}${replay}</td>
    <td>${escapeHtml(tierTitle(row.tier))}</td><td>${mark} ${escapeHtml(historyResult(row))}</td>
    <td class=num>${escapeHtml(row.score)}</td><td class=num>${formatElapsed(row.elapsed_ms, "–")}</td>
    <td class="num${typeof rank === "number" ? "" : " muted small"}">${escapeHtml(rank)}</td></tr>`;
  }).join("");
  return `<div class="table-scroll" tabindex="0" role="region" aria-labelledby="daily-games-title">
    <table class="ranks games"><thead><tr><th scope="col">Date</th><th scope="col">Tier</th><th scope="col">Result</th>
    <th scope="col" class=num>Score</th><th scope="col" class=num>Time</th><th scope="col" class=num>Rank</th></tr></thead>
    <tbody>${body}</tbody></table></div>`;
}

function gamesPager(data) {
  if (data.pages < 2) return "";
  const size = data.page === data.pages ? null : data.games.length;
  const from = size === null ? data.count - data.games.length + 1 : (data.page - 1) * size + 1;
  const to = from + data.games.length - 1;
  const newer = data.page > 1
    ? `<button type="button" class="button small ghost" data-games-page="${data.page - 1}">Newer games</button>` : "";
  const older = data.page < data.pages
    ? `<button type="button" class="button small ghost" data-games-page="${data.page + 1}">Older games</button>` : "";
  return `<nav class="pager" aria-label="Daily games">${newer}${older}
    <span class="muted">Games ${from}–${to} of ${data.count}, newest first</span></nav>`;
}

function gamesSection(data) {
  const today = utcDay(serverNow());
  if (!data.games.length) return `<p class="muted">No daily game yet.</p>`;
  const open = data.games.some((row) => row.date === today)
    ? `<p class="muted">Today's ranks are final after the day closes, at ${escapeHtml(closesToday())}.</p>` : "";
  return `${gamesTable(data.games, today)}${open}${gamesPager(data)}`;
}

// ----- the page ------------------------------------------------------------------------

const player = document.querySelector("[data-player]");
if (player) {
  const body = player.querySelector("[data-player-body]");
  const base = `/api/players/${encodeURIComponent(player.dataset.player)}/`;
  api.get(base).then((data) => {
    body.innerHTML = `${totals(data)}<div data-record></div>
      <h2 id="daily-games-title">Recent daily games</h2><div data-games>${gamesSection(data)}</div>`;
    const games = body.querySelector("[data-games]");
    games.addEventListener("click", async (e) => {
      const button = e.target.closest("[data-games-page]");
      if (!button) return;
      button.disabled = true;
      try {
        games.innerHTML = gamesSection(await api.get(`${base}?page=${button.dataset.gamesPage}`));
        games.querySelector("[data-games-page]")?.focus();
      } catch (err) {
        button.disabled = false;
        games.insertAdjacentHTML("beforeend", `<p class="notice">${escapeHtml(err.message)}</p>`);
      }
    });
    const today = utcDay(serverNow());
    return api.get(`${base}record/?days=${calendarDays(today)}`).then((record) => {
      body.querySelector("[data-record]").innerHTML = recordTable(record, data)
        + heatMap(record.recent, today) + badges(record);
    });
  }).catch((err) => {
    body.innerHTML = `<p class="notice">${escapeHtml(err.message)}</p>`;
  }).finally(() => body.setAttribute("aria-busy", "false"));
}

// ----- one's own page: recent practice games, each to resume while in play or to replay once over

const practiceBox = document.querySelector("[data-practice-games]");

function practiceGameItem(game) {
  const deal = `/practice/${encodeURIComponent(game.deal)}/?variant=${encodeURIComponent(game.variant)}`;
  const link = game.status === "playing"
    ? `<a class="button small" href="${deal}&game=${encodeURIComponent(game.id)}">Resume</a>`
    : `<a class="button small ghost" href="/replay/${encodeURIComponent(game.id)}/">Replay</a>`;
  const tier = game.tier ? ` · ${escapeHtml(game.tier)}` : "";
  const name = practiceName(game, siteConstants()?.variant_titles);
  return `<li data-practice-game="${escapeHtml(game.id)}">
    <span>${escapeHtml(name)}${tier}</span>
    <span class="muted">${escapeHtml(endingWords(game.status))} · score ${escapeHtml(game.score)} · ${escapeHtml(game.moves)} moves</span>
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
