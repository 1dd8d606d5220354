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
import { gettext, interpolate, ngettext, pageLanguage, pgettext } from "../shared/i18n.js";
import { clockFrom, dayName as localDayName, nextUtcMidnight, shortDayName, utcDay } from "../shared/local_time.js";
import { showModerationNotices } from "../shared/appeal.js";

// One's own page: the moderators' notices and the appeal form (player.html; none elsewhere).
showModerationNotices(document.querySelector("[data-moderation-notices]"));

const TIERS = ["easy", "medium", "hard"];
const CALENDAR_WEEKS = 26;
const percent = (rate) => new Intl.NumberFormat(pageLanguage(), { style: "percent", maximumFractionDigits: 0 }).format(rate);
const days = (n) => interpolate(ngettext("%(count)s day", "%(count)s days", n), { count: n });
const closesToday = () => interpolate(gettext("%(time)s your time"), { time: clockFrom(nextUtcMidnight(serverNow()), serverNow()) });
const dayName = (isoDate) => localDayName(isoDate, { locale: pageLanguage() });
// Tiers and a day's states as the API names them, in lower case inside sentences.
const TIER_WORDS = { easy: pgettext("tier", "easy"), medium: pgettext("tier", "medium"), hard: pgettext("tier", "hard"), weekly: pgettext("tier", "weekly") };
const tierWord = (tier) => TIER_WORDS[tier] || tier;
const STATE_WORDS = { won: gettext("won"), lost: gettext("lost"), playing: gettext("in play") };

// ----- totals and streaks ------------------------------------------------------------

function totals(data) {
  const weekly = data.weekly_streak;
  const items = [
    [gettext("Joined"), dayName(data.joined)],
    [gettext("Dailies played"), data.played],
    [pgettext("a count of games", "Won"), data.wins],
    [gettext("Win rate"), data.played ? percent(data.win_rate) : gettext("not played yet")],
    [gettext("Average score"), data.played ? Math.round(data.average_score) : "–"],
    [gettext("Current streak"), days(data.current_streak)],
    [gettext("Best streak"), days(data.best_streak)],
    [gettext("Last win"), data.last_win ? dayName(data.last_win) : gettext("none yet")],
  ];
  if (weekly.best) {
    items.push([gettext("Weekly streak"), interpolate(ngettext("%(count)s Sunday (best %(best)s)", "%(count)s Sundays (best %(best)s)", weekly.current),
      { count: weekly.current, best: weekly.best })]);
  }
  const list = items.map(([label, value]) => [el("dt", null, label), el("dd", null, value)]);
  return [el("h2", null, gettext("Daily totals")), el("dl", "stats-list", list), streakNote(data)];
}

/** How streaks count, and on one's own page what today's close means for theirs. */
function streakNote(data) {
  const own = Boolean(document.querySelector("[data-own-practice]"));
  const today = utcDay(serverNow());
  let risk = "";
  if (own && data.current_streak && data.last_win === today) {
    risk = ` ${gettext("Today is won: your streak is safe until tomorrow's deals close.")}`;
  } else if (own && data.current_streak) {
    risk = ` ${interpolate(gettext("Win one of today's deals before %(time)s to keep yours going."), { time: closesToday() })}`;
  }
  const how = interpolate(gettext("A streak counts days in a row with a daily won; a day is the UTC day, "
    + "one for the whole world, and this one closes at %(time)s."), { time: closesToday() });
  return el("p", "muted streak-note", `${how}${risk} `, el("a", { href: "/how-to-play/#streaks" }, gettext("How streaks work")));
}

// ----- the record by tier --------------------------------------------------------------

function tierRows(record) {
  return TIERS.map((tier) => {
    const r = record.tiers[tier];
    const cells = r.played
      ? [num(r.wins), num(percent(r.win_rate)), num(formatElapsed(r.best_time_ms, "–"))]
      : el("td", { class: "unplayed", colspan: 3 }, gettext("not played"));
    return el("tr", null, el("th", { scope: "row" }, tierTitle(tier)), num(r.played), cells);
  });
}

function recordTable(record, data) {
  const all = data.played
    ? [num(data.wins), num(percent(data.win_rate)), el("td")]
    : el("td", { class: "unplayed", colspan: 3 }, gettext("not played"));
  const col = (label, numeric) => el("th", { scope: "col", class: numeric ? "num" : null }, label);
  return [el("h2", { id: "record-title" }, gettext("Record by tier")),
    el("table", "table ranks record", el("caption", "sr-only", gettext("Daily deals played and won, by tier")),
      el("thead", null, el("tr", null, col(gettext("Tier")), col(gettext("Played"), 1), col(pgettext("a count of games", "Won"), 1), col(gettext("Win rate"), 1),
        col(gettext("Best time"), 1))),
      el("tbody", null, tierRows(record)),
      el("tfoot", null, el("tr", null, el("th", { scope: "row" }, gettext("All tiers")), num(data.played), all))),
    el("p", "muted", interpolate(ngettext("The archive (past days played again, unranked): %(played)s game played, %(wins)s won.",
      "The archive (past days played again, unranked): %(played)s games played, %(wins)s won.", record.archive.played),
    { played: record.archive.played, wins: record.archive.wins }))];
}

// ----- the calendar: a heat map of the last 26 weeks ----------------------------------

// A day's shade: how many of its three dailies were won, or played without a win.
const LEVELS = [
  ["none", gettext("No daily played")],
  ["played", gettext("Played, none won")],
  ["won-1", gettext("1 won")],
  ["won-2", gettext("2 won")],
  ["won-3", gettext("All 3 won")],
];
// Weekday names, Monday first, in the page's language (2024-01-01 was a Monday).
const weekdayNames = (style) => Array.from({ length: 7 }, (_, i) => new Intl.DateTimeFormat(pageLanguage(), { weekday: style, timeZone: "UTC" })
  .format(Date.UTC(2024, 0, 1 + i)));
const WEEKDAYS = weekdayNames("long");
const WEEKDAYS_SHORT = weekdayNames("short");
const weekdayOf = (isoDate) => (new Date(`${isoDate}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
const monthOf = (isoDate, style) => new Intl.DateTimeFormat(pageLanguage(), { month: style, timeZone: "UTC" })
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
    ? states.map(([tier, state]) => interpolate(pgettext("a tier of a calendar day and how it went", "%(tier)s %(state)s"),
      { tier: tierWord(tier), state: STATE_WORDS[state] || state })).join(", ")
    : day.date === today ? gettext("open, nothing played yet") : gettext("no daily played");
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
      el("span", "sr-only", interpolate(gettext("Week of %(date)s"), { date: dayName(firstDay(week)) })));
  });
  const rows = WEEKDAYS.map((name, row) => {
    const cells = weeks.map((week) => (week[row] ? dayCell(week[row], today) : el("td")));
    const shown = row % 2 === 0 && row < 6 ? WEEKDAYS_SHORT[row] : "";
    return el("tr", null, el("th", { scope: "row" }, el("span", { "aria-hidden": "true" }, shown), el("span", "sr-only", name)), cells);
  });
  const legend = LEVELS.map(([level, words]) => el("li", null, el("span", { class: `heat heat-${level}`, "aria-hidden": "true" }), words));
  const won = recent.filter((d) => Object.values(d.tiers).includes("won")).length;
  const caption = interpolate(ngettext(
    "The last %(weeks)s weeks: a daily won on %(won)s day of %(days)s. Each square is a day (UTC), its shade how many of "
      + "its dailies were won (the archive counts).",
    "The last %(weeks)s weeks: a daily won on %(won)s days of %(days)s. Each square is a day (UTC), its shade how many of "
      + "its dailies were won (the archive counts).", won), { weeks: CALENDAR_WEEKS, won, days: recent.length });
  return [el("h2", { id: "calendar-title" }, gettext("Calendar")),
    el("div", { class: "heatmap-box", role: "region", "aria-labelledby": "calendar-title", tabindex: 0 },
      el("table", "heatmap", el("caption", null, caption),
      el("thead", null, el("tr", null, el("td"), heads)), el("tbody", null, rows))),
    el("ul", { class: "heat-legend", "aria-label": gettext("Key to the calendar's shades") }, legend)];
}

function badges(record) {
  if (!record.badges.length) {
    return [el("h2", null, gettext("Badges")),
      emptyState(gettext("No badge yet: win every day of a month in one tier (the archive counts)."), "/archive/", gettext("The archive"))];
  }
  const monthYear = (month) => new Intl.DateTimeFormat(pageLanguage(), { month: "long", year: "numeric", timeZone: "UTC" })
    .format(Date.parse(`${month}-01T00:00:00Z`));
  const items = record.badges.map((b) => el("li", null, el("span", `badge ${b.tier}`, b.name),
    ` ${interpolate(gettext("%(month)s: every %(tier)s day won"), { month: monthYear(b.month), tier: tierWord(b.tier) })}`));
  return [el("h2", null, gettext("Badges")), el("ul", "badge-list", items)];
}

// ----- the daily games, page by page ----------------------------------------------------

/** A game's rank: final once its day has closed; on the open day, so far, or after the close
 * when the day's board has not been counted yet (a rank missing on a closed day: Redis down).
 * A game played as a guest has none; a held one (its player's own page only) says so. */
function rankText(row, today) {
  if (row.guest) return "–";
  if (row.held) return gettext("held");
  if (row.date === today) return row.rank == null ? gettext("after the close") : interpolate(gettext("%(rank)s so far"), { rank: row.rank });
  return row.rank ?? "–";
}

function gamesTable(rows, today) {
  const body = rows.map((row) => {
    const replay = row.replay_url && [" ", el("a", { href: row.replay_url, "aria-label": gettext("replay") }, "▶")];
    const lost = !row.won;
    const mark = el("span", { class: "result-mark", "aria-hidden": "true" }, lost ? "✗" : "✓");
    const rank = rankText(row, today);
    return el("tr", `${lost ? "lost" : "won"}${row.guest ? " guest" : ""}`, el("td", "nowrap", el("time", { datetime: row.date }, shortDayName(row.date)), replay),
      el("td", null, tierTitle(row.tier)), el("td", null, mark, ` ${historyResult(row)}`),
      num(row.score), num(formatElapsed(row.elapsed_ms, "–")),
      el("td", `num${typeof rank === "number" ? "" : " muted small"}`, rank));
  });
  const col = (label, numeric) => el("th", { scope: "col", class: numeric ? "num" : null }, label);
  return el("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-labelledby": "daily-games-title" },
    el("table", "table ranks games",
      el("thead", null, el("tr", null, col(gettext("Date")), col(gettext("Tier")), col(gettext("Result")), col(gettext("Score"), 1),
        col(gettext("Time"), 1), col(gettext("Rank"), 1))),
      el("tbody", null, body)));
}

function gamesPager(data) {
  if (data.pages < 2) return null;
  const size = data.page === data.pages ? null : data.games.length;
  const from = size === null ? data.count - data.games.length + 1 : (data.page - 1) * size + 1;
  const to = from + data.games.length - 1;
  const pageButton = (page, label) => el("button", { type: "button", class: "button small ghost", "data-games-page": page }, label);
  return el("nav", { class: "pager", "aria-label": gettext("Daily games") },
    data.page > 1 && pageButton(data.page - 1, gettext("Newer games")),
    data.page < data.pages && pageButton(data.page + 1, gettext("Older games")), " ",
    el("span", "muted", interpolate(gettext("Games %(from)s–%(to)s of %(count)s, newest first"), { from, to, count: data.count })));
}

function gamesSection(data) {
  const today = utcDay(serverNow());
  if (!data.games.length) {
    return document.querySelector("[data-own-practice]")
      ? emptyState(gettext("No daily game yet: today's three deals are waiting."), "/", gettext("Play today's deals"))
      : emptyState(gettext("No daily game yet."), "/leaderboards/daily/", gettext("Today's board"));
  }
  const open = data.games.some((row) => row.date === today)
    && el("p", "muted", interpolate(gettext("Today's ranks are final after the day closes, at %(time)s."), { time: closesToday() }));
  // Only the player's own page lists a held result: why it has no rank and no streak day.
  const held = data.games.some((row) => row.held)
    && el("p", "muted", gettext("Held: off the boards, your totals and your streak until a moderator has looked at it."), " ",
      el("a", { href: "/faq/#held" }, gettext("Why?")));
  return [gamesTable(data.games, today), open, held, gamesPager(data)];
}

// ----- the page ------------------------------------------------------------------------

const player = document.querySelector("[data-player]");
if (player) {
  const body = player.querySelector("[data-player-body]");
  const base = `/api/players/${encodeURIComponent(player.dataset.player)}/`;
  api.get(base).then((data) => {
    fill(body, totals(data), el("div", { "data-record": true }),
      el("h2", { id: "daily-games-title" }, gettext("Recent daily games")), el("div", { "data-games": true }, gamesSection(data)));
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
    ? el("a", { class: "button small", href: `${deal}&game=${encodeURIComponent(game.id)}` }, gettext("Resume"))
    : el("a", { class: "button small ghost", href: `/replay/${encodeURIComponent(game.id)}/` }, gettext("Replay"));
  const tier = game.tier ? ` · ${tierWord(game.tier)}` : "";
  const name = practiceName(game, siteConstants()?.variant_titles);
  return el("li", { "data-practice-game": game.id }, el("span", null, `${name}${tier}`), " ",
    el("span", "muted", interpolate(ngettext("%(ending)s · score %(score)s · %(moves)s move", "%(ending)s · score %(score)s · %(moves)s moves", game.moves),
      { ending: endingWords(game.status), score: game.score, moves: game.moves })), " ", link);
}

if (practiceBox) {
  api.get("/api/games/").then((games) => {
    fill(practiceBox, games.length
      ? el("ul", "practice-games", games.map(practiceGameItem))
      : emptyState(gettext("No practice games yet: any numbered deal, with undo and hints."), "/practice/", gettext("Practise a deal")));
  }).catch((err) => {
    fill(practiceBox, el("p", "muted", interpolate(gettext("Could not load your practice games: %(error)s."), { error: err.message })));
  });
}
