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
import { el, emptyState, fill, numberCell as num } from "../shared/html.js";
import { clockFrom, dayName, nextUtcMidnight, utcDay } from "../shared/local_time.js";
import { showModerationNotices } from "../shared/appeal.js";

// One's own page: the moderators' notices and the appeal form (player.html; none elsewhere).
showModerationNotices(document.querySelector("[data-moderation-notices]"));

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
  const list = items.map(([label, value]) => [el("dt", null, label), el("dd", null, value)]);
  return [el("h2", null, "Daily totals"), el("dl", "stats-list", list), streakNote(data)];
}

/** How streaks count, and on one's own page what today's close means for theirs. */
function streakNote(data) {
  const own = Boolean(document.querySelector("[data-own-practice]"));
  const today = utcDay(serverNow());
  let risk = "";
  if (own && data.current_streak && data.last_win === today) {
    risk = " Today is won: your streak is safe until tomorrow's deals close.";
  } else if (own && data.current_streak) {
    risk = ` Win one of today's deals before ${closesToday()} to keep yours going.`;
  }
  return el("p", "muted streak-note", "A streak counts days in a row with a daily won; a day is the UTC day, "
    + `one for the whole world, and this one closes at ${closesToday()}.${risk} `,
  el("a", { href: "/how-to-play/#streaks" }, "How streaks work"));
}

// ----- the record by tier --------------------------------------------------------------

function tierRows(record) {
  return TIERS.map((tier) => {
    const r = record.tiers[tier];
    const cells = r.played
      ? [num(r.wins), num(percent(r.win_rate)), num(formatElapsed(r.best_time_ms, "–"))]
      : el("td", { class: "unplayed", colspan: 3 }, "not played");
    return el("tr", null, el("th", { scope: "row" }, tierTitle(tier)), num(r.played), cells);
  });
}

function recordTable(record, data) {
  const all = data.played
    ? [num(data.wins), num(percent(data.win_rate)), el("td")]
    : el("td", { class: "unplayed", colspan: 3 }, "not played");
  const col = (label, numeric) => el("th", { scope: "col", class: numeric ? "num" : null }, label);
  return [el("h2", { id: "record-title" }, "Record by tier"),
    el("table", "table ranks record", el("caption", "sr-only", "Daily deals played and won, by tier"),
      el("thead", null, el("tr", null, col("Tier"), col("Played", 1), col("Won", 1), col("Win rate", 1), col("Best time", 1))),
      el("tbody", null, tierRows(record)),
      el("tfoot", null, el("tr", null, el("th", { scope: "row" }, "All tiers"), num(data.played), all))),
    el("p", "muted", `The archive (past days played again, unranked): ${plural(record.archive.played, "game")} played, `
      + `${record.archive.wins} won.`)];
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
  return el("td", null, el("span", { class: `heat heat-${level}${mark}`, title: label }, el("span", "sr-only", label)));
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
    const end = i >= weeks.length - 2 ? "end" : null;
    return el("th", { scope: "col", class: end }, el("span", { "aria-hidden": "true" }, month),
      el("span", "sr-only", `Week of ${dayName(firstDay(week))}`));
  });
  const rows = WEEKDAYS.map((name, row) => {
    const cells = weeks.map((week) => (week[row] ? dayCell(week[row], today) : el("td")));
    const shown = row % 2 === 0 && row < 6 ? name.slice(0, 3) : "";
    return el("tr", null, el("th", { scope: "row" }, el("span", { "aria-hidden": "true" }, shown), el("span", "sr-only", name)), cells);
  });
  const legend = LEVELS.map(([level, words]) => el("li", null, el("span", { class: `heat heat-${level}`, "aria-hidden": "true" }), words));
  const won = recent.filter((d) => Object.values(d.tiers).includes("won")).length;
  return [el("h2", { id: "calendar-title" }, "Calendar"),
    el("div", { class: "heatmap-box", role: "region", "aria-labelledby": "calendar-title", tabindex: 0 },
      el("table", "heatmap", el("caption", null, `The last ${CALENDAR_WEEKS} weeks: a daily won on `
        + `${plural(won, "day")} of ${recent.length}. Each square is a day (UTC), its shade how many of `
        + "its dailies were won (the archive counts)."),
      el("thead", null, el("tr", null, el("td"), heads)), el("tbody", null, rows))),
    el("ul", { class: "heat-legend", "aria-label": "Key to the calendar's shades" }, legend)];
}

function badges(record) {
  if (!record.badges.length) {
    return [el("h2", null, "Badges"),
      emptyState("No badge yet: win every day of a month in one tier (the archive counts).", "/archive/", "The archive")];
  }
  const items = record.badges.map((b) => el("li", null, el("span", `badge ${b.tier}`, b.name),
    ` ${monthOf(`${b.month}-01`, "long")} ${b.month.slice(0, 4)}: every ${b.tier} day won`));
  return [el("h2", null, "Badges"), el("ul", "badge-list", items)];
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
    const replay = row.replay_url && [" ", el("a", { href: row.replay_url, "aria-label": "replay" }, "▶")];
    const lost = !row.won;
    const mark = el("span", { class: "result-mark", "aria-hidden": "true" }, lost ? "✗" : "✓");
    const rank = rankText(row, today);
    return el("tr", `${lost ? "lost" : "won"}${row.guest ? " guest" : ""}`, el("td", "nowrap", row.date, replay),
      el("td", null, tierTitle(row.tier)), el("td", null, mark, ` ${historyResult(row)}`),
      num(row.score), num(formatElapsed(row.elapsed_ms, "–")),
      el("td", `num${typeof rank === "number" ? "" : " muted small"}`, rank));
  });
  const col = (label, numeric) => el("th", { scope: "col", class: numeric ? "num" : null }, label);
  return el("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-labelledby": "daily-games-title" },
    el("table", "table ranks games",
      el("thead", null, el("tr", null, col("Date"), col("Tier"), col("Result"), col("Score", 1), col("Time", 1), col("Rank", 1))),
      el("tbody", null, body)));
}

function gamesPager(data) {
  if (data.pages < 2) return null;
  const size = data.page === data.pages ? null : data.games.length;
  const from = size === null ? data.count - data.games.length + 1 : (data.page - 1) * size + 1;
  const to = from + data.games.length - 1;
  const pageButton = (page, label) => el("button", { type: "button", class: "button small ghost", "data-games-page": page }, label);
  return el("nav", { class: "pager", "aria-label": "Daily games" },
    data.page > 1 && pageButton(data.page - 1, "Newer games"),
    data.page < data.pages && pageButton(data.page + 1, "Older games"), " ",
    el("span", "muted", `Games ${from}–${to} of ${data.count}, newest first`));
}

function gamesSection(data) {
  const today = utcDay(serverNow());
  if (!data.games.length) {
    return document.querySelector("[data-own-practice]")
      ? emptyState("No daily game yet: today's three deals are waiting.", "/", "Play today's deals")
      : emptyState("No daily game yet.", "/leaderboards/daily/", "Today's board");
  }
  const open = data.games.some((row) => row.date === today)
    && el("p", "muted", `Today's ranks are final after the day closes, at ${closesToday()}.`);
  return [gamesTable(data.games, today), open, gamesPager(data)];
}

// ----- the page ------------------------------------------------------------------------

const player = document.querySelector("[data-player]");
if (player) {
  const body = player.querySelector("[data-player-body]");
  const base = `/api/players/${encodeURIComponent(player.dataset.player)}/`;
  api.get(base).then((data) => {
    fill(body, totals(data), el("div", { "data-record": true }),
      el("h2", { id: "daily-games-title" }, "Recent daily games"), el("div", { "data-games": true }, gamesSection(data)));
    const games = body.querySelector("[data-games]");
    games.addEventListener("click", async (e) => {
      const button = e.target.closest("[data-games-page]");
      if (!button) return;
      button.disabled = true;
      try {
        fill(games, gamesSection(await api.get(`${base}?page=${button.dataset.gamesPage}`)));
        games.querySelector("[data-games-page]")?.focus();
      } catch (err) {
        button.disabled = false;
        games.append(el("p", "notice", err.message));
      }
    });
    const today = utcDay(serverNow());
    return api.get(`${base}record/?days=${calendarDays(today)}`).then((record) => {
      fill(body.querySelector("[data-record]"), recordTable(record, data), heatMap(record.recent, today), badges(record));
    });
  }).catch((err) => {
    fill(body, el("p", "notice", err.message));
  }).finally(() => body.setAttribute("aria-busy", "false"));
}

// ----- one's own page: recent practice games, each to resume while in play or to replay once over

const practiceBox = document.querySelector("[data-practice-games]");

function practiceGameItem(game) {
  const deal = `/practice/${encodeURIComponent(game.deal)}/?variant=${encodeURIComponent(game.variant)}`;
  const link = game.status === "playing"
    ? el("a", { class: "button small", href: `${deal}&game=${encodeURIComponent(game.id)}` }, "Resume")
    : el("a", { class: "button small ghost", href: `/replay/${encodeURIComponent(game.id)}/` }, "Replay");
  const tier = game.tier ? ` · ${game.tier}` : "";
  const name = practiceName(game, siteConstants()?.variant_titles);
  return el("li", { "data-practice-game": game.id }, el("span", null, `${name}${tier}`), " ",
    el("span", "muted", `${endingWords(game.status)} · score ${game.score} · ${game.moves} moves`), " ", link);
}

if (practiceBox) {
  api.get("/api/games/").then((games) => {
    fill(practiceBox, games.length
      ? el("ul", "practice-games", games.map(practiceGameItem))
      : emptyState("No practice games yet: any numbered deal, with undo and hints.", "/practice/", "Practise a deal"));
  }).catch((err) => {
    fill(practiceBox, el("p", "muted", `Could not load your practice games: ${err.message}.`));
  });
}
