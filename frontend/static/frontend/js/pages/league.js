// A league's page (/leagues/<id>/, members only): the invite link with Copy (first on the
// owner's page), today per tier, the week's and month's points, streaks and members. Data:
// /api/leagues/<id>/ and /api/leaderboards/leagues/<id>/, both polled, so a new result
// shows without a reload.

import { api, request } from "../shared/api.js";
import { $, copyText, toast } from "../shared/dom.js";
import { formatElapsed } from "../shared/format.js";
import { scoreCell } from "../shared/game_names.js";
import { gettext, interpolate, ngettext, pgettext } from "../shared/i18n.js";
import { el, emptyState, fill, numberCell as num, playerLink, replayLink, rowPlayer } from "../shared/html.js";
import { shortDayName } from "../shared/local_time.js";
import { poll, pollEvery } from "../shared/poll.js";

// A tier's heading, in the lower case the API names it.
const TIER_WORDS = { easy: pgettext("tier", "easy"), medium: pgettext("tier", "medium"), hard: pgettext("tier", "hard"), weekly: pgettext("tier", "weekly") };
const heads = (...cells) => el("thead", null, el("tr", null, cells.map(([label, numeric]) => el("th", numeric ? "num" : null, label))));
// (today's rows link the viewer's own replay, as the daily board does)
const row = (r, ...cells) => el("tr", r.me ? "me" : null, num(r.rank), el("td", null, rowPlayer(r), replayLink(r)), cells);

function dayTable(rows) {
  if (!rows.length) return emptyState(gettext("No member has a verified result on this deal yet."), "/", gettext("Play today's deals"));
  return el("table", "table ranks", heads(["#", 1], [gettext("Player")], [gettext("Score"), 1], [gettext("Moves"), 1], [gettext("Time"), 1]),
    el("tbody", null, rows.map((r) => row(r, scoreCell(r), num(r.moves), num(formatElapsed(r.elapsed_ms))))));
}

function pointsTable(data) {
  // the period's first and last day by name ("7 Dec 2026"), not as the API's ISO dates
  const table = { ...data, start: shortDayName(data.start), end: shortDayName(data.end) };
  if (!table.results.length) {
    // A later page of a short table (the streaks, one row per member, run longer).
    if (table.count) {
      return el("p", "muted", interpolate(ngettext(
        "The %(count)s member who played from %(start)s to %(end)s is on an earlier page.",
        "All %(count)s members who played from %(start)s to %(end)s are on earlier pages.", table.count),
      { count: table.count, start: table.start, end: table.end }));
    }
    return emptyState(interpolate(gettext("No results from %(start)s to %(end)s yet."), { start: table.start, end: table.end }),
      "/", gettext("Play today's deals"));
  }
  return el("table", "table ranks",
    el("caption", "muted", interpolate(ngettext("%(start)s to %(end)s · %(count)s member played", "%(start)s to %(end)s · %(count)s members played",
      table.count), { start: table.start, end: table.end, count: table.count })),
    heads(["#", 1], [gettext("Player")], [gettext("Points"), 1], [gettext("Wins"), 1], [gettext("Played"), 1]),
    el("tbody", null, table.results.map((r) => row(r, num(r.points), num(r.wins), num(r.played)))));
}

function streakTable(rows) {
  return el("table", "table ranks", heads(["#", 1], [gettext("Player")], [gettext("Streak"), 1], [gettext("Best"), 1]),
    el("tbody", null, rows.map((r) => row(r, num(r.current_streak), num(r.best_streak)))));
}

function drawPager(root, data) {
  const pager = $("[data-league-pager]", root);
  const pageButton = (page, label) => el("button", { type: "button", class: "button small ghost", "data-page": page }, label);
  fill(pager, data.pages > 1 && [
    data.page > 1 && pageButton(data.page - 1, gettext("Previous")),
    el("span", "muted", interpolate(gettext("Page %(page)s of %(pages)s"), { page: data.page, pages: data.pages })),
    data.page < data.pages && pageButton(data.page + 1, gettext("Next")),
  ]);
}

function drawBoard(root, data) {
  fill($("[data-today]", root), data.today.length
    ? data.today.map((t) => el("section", { class: "tier-board", "data-tier-board": t.tier },
      el("h3", null, TIER_WORDS[t.tier] || t.tier), dayTable(t.results)))
    : el("p", "muted", gettext("Today's deals are not ready yet.")));
  fill($("[data-week]", root), pointsTable(data.week));
  fill($("[data-month]", root), pointsTable(data.month));
  $("[data-points-rule]", root).textContent = interpolate(
    gettext("Points per day and tier, by rank among the members: %(points)s, then %(played)s for any other result."),
    { points: data.points.join(", "), played: data.played_points });
  fill($("[data-streaks]", root), streakTable(data.streaks));
  drawPager(root, data);
}

function drawMembers(root, league) {
  $("[data-league-name]", root).textContent = league.name;
  document.title = `${league.name} · Yukon Daily`;
  $("[data-invite]", root).value = new URL(league.invite_url, window.location.origin).href;
  $("[data-replace-invite]", root).hidden = !league.is_owner;
  // The owner, who invites, finds the link first; the other members find it below.
  const invitePlace = $(league.is_owner ? "[data-invite-top]" : "[data-invite-bottom]", root);
  const inviteBox = $("[data-invite-box]", root);
  if (inviteBox.parentElement !== invitePlace) invitePlace.append(inviteBox);
  fill($("[data-members]", root), el("ul", "plain", league.members.map((m) => el("li", null, playerLink(m.display_name),
    m.owner && [" ", el("span", "muted", gettext("· owner"))],
    league.is_owner && !m.owner && [" ", el("button", { type: "button", class: "linkish", "data-remove": m.display_name }, gettext("remove"))]))));
}

function leaguePage(root) {
  const id = root.dataset.league;
  const status = $("[data-league-status]", root);
  const body = $("[data-league-body]", root);
  let stop = () => {};
  // Not (or no longer) a member, or no such league: said as a sentence, with the way to
  // one's own leagues (it was the API's words alone, "no such league (or you are not a
  // member)").
  const lost = (message) => {
    stop();
    body.hidden = true;
    const text = message.charAt(0).toUpperCase() + message.slice(1);
    fill(status, /[.!?]$/.test(text) ? text : `${text}.`, " ", el("a", { href: "/leagues/" }, gettext("Your leagues")));
  };
  const refreshMembers = () => api.get(`/api/leagues/${id}/`).then((league) => drawMembers(root, league));
  refreshMembers().then(() => {
    status.textContent = "";
    body.hidden = false;
    const onError = (code, error) => {
      if (code === 404 || code === 403) lost(error?.detail || gettext("This league is not yours to see."));
    };
    // Both kept fresh while the page is open: the boards (the tables' page shown), and
    // who is in the league.
    let stopBoard = () => {};
    const watchBoard = (page) => {
      stopBoard();
      const path = `/api/leaderboards/leagues/${id}/${page > 1 ? `?page=${page}` : ""}`;
      // A page that no longer exists (members left) falls back to the first.
      const onBoardError = (code, error) => (code === 404 && page > 1 ? watchBoard(1) : onError(code, error));
      stopBoard = poll(path, (data) => drawBoard(root, data), { every: pollEvery(root), onError: onBoardError });
    };
    watchBoard(1);
    const stopMembers = poll(`/api/leagues/${id}/`, (league) => drawMembers(root, league), { every: pollEvery(root), onError });
    stop = () => { stopBoard(); stopMembers(); };
    $("[data-league-pager]", root).addEventListener("click", (e) => {
      const button = e.target.closest("[data-page]");
      if (button) watchBoard(Number(button.dataset.page));
    });
  }).catch((err) => lost(err.message));

  $("[data-copy-invite]", root).addEventListener("click", () => copyText($("[data-invite]", root).value, gettext("Invite link copied.")));
  $("[data-replace-invite]", root).addEventListener("click", async () => {
    if (!window.confirm(gettext("Replace the link? The old one will join nobody."))) return;
    try {
      drawMembers(root, await api.post(`/api/leagues/${id}/invite/`));
      toast(gettext("A new invite link is ready."));
    } catch (err) {
      toast(err.message, { warn: true });
    }
  });
  $("[data-members]", root).addEventListener("click", async (e) => {
    const button = e.target.closest("[data-remove]");
    if (!button || !window.confirm(interpolate(gettext("Remove %(name)s from the league?"), { name: button.dataset.remove }))) return;
    try {
      await request("DELETE", `/api/leagues/${id}/members/${encodeURIComponent(button.dataset.remove)}/`);
      refreshMembers();
    } catch (err) {
      toast(err.message, { warn: true });
    }
  });
  $("[data-leave]", root).addEventListener("click", async () => {
    if (!window.confirm(gettext("Leave this league?"))) return;
    try {
      await api.post(`/api/leagues/${id}/leave/`);
      window.location.href = "/leagues/";
    } catch (err) {
      toast(err.message, { warn: true });
    }
  });
  $("[data-report]", root).addEventListener("click", async () => {
    const reason = window.prompt(gettext("What is wrong with this league's name?"));
    if (!reason) return;
    try {
      await api.post(`/api/leagues/${id}/report/`, { reason });
      toast(gettext("Thank you: a moderator will look at it."));
    } catch (err) {
      toast(err.message, { warn: true });
    }
  });
}

const leagueRoot = document.querySelector("[data-league]");
if (leagueRoot) leaguePage(leagueRoot);
