// The leaderboard page: it draws the leaderboard API's answers
// (leaderboards/serializers.py: DailyBoard, StreakBoard, AllTimeBoard).

import { api, errorText, serverNow } from "../shared/api.js";
import { formatElapsed } from "../shared/format.js";
import { scoreCell } from "../shared/game_names.js";
import { gettext, interpolate } from "../shared/i18n.js";
import { el, emptyState, fill, numberCell as num, replayLink, rowPlayer } from "../shared/html.js";
import { clockFrom, DAY_MS } from "../shared/local_time.js";
import { poll, pollEvery } from "../shared/poll.js";

const HEADS = {
  daily: [gettext("Score"), gettext("Moves"), gettext("Time")],
  streaks: [gettext("Streak"), gettext("Best")],
  alltime: [gettext("Wins"), gettext("Played"), gettext("Avg score")],
};

const CELLS = {
  daily: (row) => [scoreCell(row), num(row.moves), num(formatElapsed(row.elapsed_ms))],
  streaks: (row) => [num(row.current_streak), num(row.best_streak)],
  alltime: (row) => [num(row.wins), num(row.played), num(Math.round(row.average_score))],
};

// What the provisional tag means (docs/fair-play.md): said under the board in words, since
// a title shows only to a mouse, never on a phone or to a screen reader.
const PROVISIONAL_MEANS = gettext("a new account's result: it counts like any other, and is checked again after the day closes");

/** What an empty board says, and the step that could put a row on it. */
function emptyBoard(data, circle) {
  if (circle) return emptyState(gettext("No one in this circle has a verified result here yet."), "/leagues/", gettext("Your leagues and follows"));
  if (data.closed || data.board === "archive") {
    return emptyState(gettext("No verified result on this day."), `/archive/?month=${data.date.slice(0, 7)}`, gettext("Play it in the archive"));
  }
  return emptyState(gettext("No verified results yet: yours could be the first."), "/", gettext("Play today's deals"));
}

function table(rows, board) {
  const body = rows.map((row) => {
    // an open day's board links the viewer's own replay alone (the others open at the close)
    const replay = board === "daily" && replayLink(row);
    const provisional = row.provisional && !row.deleted // an account gone is checked no more
      && [" ", el("span", { class: "provisional", title: PROVISIONAL_MEANS }, gettext("provisional"))];
    return el("tr", row.me ? "me" : null, num(row.rank),
      el("td", "player", rowPlayer(row), provisional, replay), CELLS[board](row));
  });
  const note = rows.some((row) => row.provisional)
    && el("p", { class: "muted", "data-provisional-note": true }, el("strong", null, gettext("Provisional")), `: ${PROVISIONAL_MEANS}.`);
  const heads = ["#", gettext("Player"), ...HEADS[board]].map((label, i) => el("th", i === 1 ? null : "num", label));
  return [el("table", "table ranks", el("thead", null, el("tr", null, heads)), el("tbody", null, body)), note];
}

let stopPolling = () => {};

function boardPath(section, page) {
  const { board, day, tier } = section.dataset;
  const query = new URLSearchParams(window.location.search);
  const params = new URLSearchParams();
  if (page > 1) params.set("page", page);
  const archive = board === "daily" && query.get("archive") === "1";
  const circle = section.querySelector("[data-circle]")?.value || "";
  if (!archive && section.querySelector("[data-around]")?.checked) params.set("around", "me");
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
  const notes = [
    Boolean(data.par) && el("p", { class: "muted", "data-par": true },
      interpolate(gettext("Par: %(moves)s moves, the length of the solver's winning line (not necessarily the fewest)."), { moves: data.par })),
    // The board's day is the UTC day; when it ends is said on the reader's clock.
    data.board === "daily" && !data.closed && el("p", { class: "muted", "data-closes": true },
      interpolate(gettext("Results come in until %(time)s your time, when the day closes."),
        { time: clockFrom(Date.parse(`${data.date}T00:00:00Z`) + DAY_MS, serverNow()) })),
    data.board === "archive" && el("p", { class: "muted", "data-archive-note": true },
      gettext("The archive board: games of this closed day played again, unranked.")),
  ];
  const circle = section.querySelector("[data-circle]")?.value || "";
  fill(body, notes, data.results.length ? table(data.results, board) : emptyBoard(data, circle));
  const pageButton = (to, label) => el("button", { class: "button small ghost", "data-page": to }, label);
  fill(pager, Boolean(data.previous) && pageButton(page - 1, gettext("Previous")), Boolean(data.next) && pageButton(page + 1, gettext("Next")));
}

/** Show a page of the board and keep it fresh while it is open (a 304 when unchanged). */
function loadBoard(section, page) {
  stopPolling();
  const body = section.querySelector("[data-board-body]");
  stopPolling = poll(boardPath(section, page), (data) => drawBoard(section, data, page), {
    every: pollEvery(section),
    onError: (status, error) => {
      fill(body, el("p", "notice", errorText(error, interpolate(gettext("the server answered %(status)s"), { status }))));
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
      select.append(el("option", { value: league.id }, interpolate(gettext("League: %(name)s"), { name: league.name })));
    }
  } catch {
    // a guest: everyone only
  }
  const chosen = wanted.get("league") || wanted.get("circle") || "";
  if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
}

const section = document.querySelector("[data-boards]");
if (section) {
  section.querySelector("[data-around]")?.addEventListener("change", () => loadBoard(section, 1));
  section.querySelector("[data-circle]")?.addEventListener("change", () => loadBoard(section, 1));
  section.querySelector("[data-pager]").addEventListener("click", (e) => {
    const button = e.target.closest("[data-page]");
    if (button) loadBoard(section, Number(button.dataset.page));
  });
  fillCircles(section).then(() => loadBoard(section, 1));
}
