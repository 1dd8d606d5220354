// A league's page (/leagues/<id>/, members only): the invite link with Copy (first on the
// owner's page), today per tier, the week's and month's points, streaks and members. Data:
// /api/leagues/<id>/ and /api/leaderboards/leagues/<id>/, both polled, so a new result
// shows without a reload.

import { api, request } from "../shared/api.js";
import { $, copyText, toast } from "../shared/dom.js";
import { formatElapsed } from "../shared/format.js";
import { escapeHtml, numberCell as num, playerLink } from "../shared/html.js";
import { poll, pollEvery } from "../shared/poll.js";

function dayTable(rows) {
  if (!rows.length) return `<p class="muted">No verified result yet.</p>`;
  return `<table class="ranks"><thead><tr><th class=num>#</th><th>Player</th><th class=num>Score</th>
    <th class=num>Moves</th><th class=num>Time</th></tr></thead><tbody>${rows.map((r) => `<tr${r.me ? " class=me" : ""}>
    ${num(r.rank)}<td>${playerLink(r.display_name)}</td>${num(r.score)}${num(r.moves)}
    <td class=num>${formatElapsed(r.elapsed_ms)}</td></tr>`).join("")}</tbody></table>`;
}

function pointsTable(table) {
  if (!table.results.length) {
    // A later page of a short table (the streaks, one row per member, run longer).
    if (table.count) return `<p class="muted">All ${escapeHtml(table.count)} members who played from ${escapeHtml(table.start)} to ${escapeHtml(table.end)} are on earlier pages.</p>`;
    return `<p class="muted">No results from ${escapeHtml(table.start)} to ${escapeHtml(table.end)} yet.</p>`;
  }
  return `<table class="ranks"><caption class="muted">${escapeHtml(table.start)} to ${escapeHtml(table.end)} · ${escapeHtml(table.count)} member${table.count === 1 ? "" : "s"} played</caption>
    <thead><tr><th class=num>#</th><th>Player</th><th class=num>Points</th><th class=num>Wins</th><th class=num>Played</th></tr></thead>
    <tbody>${table.results.map((r) => `<tr${r.me ? " class=me" : ""}>${num(r.rank)}<td>${playerLink(r.display_name)}</td>
    ${num(r.points)}${num(r.wins)}${num(r.played)}</tr>`).join("")}</tbody></table>`;
}

function streakTable(rows) {
  return `<table class="ranks"><thead><tr><th class=num>#</th><th>Player</th><th class=num>Streak</th><th class=num>Best</th></tr></thead>
    <tbody>${rows.map((r) => `<tr${r.me ? " class=me" : ""}>${num(r.rank)}<td>${playerLink(r.display_name)}</td>
    ${num(r.current_streak)}${num(r.best_streak)}</tr>`).join("")}</tbody></table>`;
}

function drawPager(root, data) {
  const pager = $("[data-league-pager]", root);
  pager.innerHTML = "";
  if (data.pages <= 1) return;
  if (data.page > 1) pager.insertAdjacentHTML("beforeend", `<button type="button" class="button small ghost" data-page="${data.page - 1}">Previous</button>`);
  pager.insertAdjacentHTML("beforeend", `<span class="muted">Page ${escapeHtml(data.page)} of ${escapeHtml(data.pages)}</span>`);
  if (data.page < data.pages) pager.insertAdjacentHTML("beforeend", `<button type="button" class="button small ghost" data-page="${data.page + 1}">Next</button>`);
}

function drawBoard(root, data) {
  $("[data-today]", root).innerHTML = data.today.length
    ? data.today.map((t) => `<section class="tier-board" data-tier-board="${escapeHtml(t.tier)}">
        <h3>${escapeHtml(t.tier)}</h3>${dayTable(t.results)}</section>`).join("")
    : `<p class="muted">Today's deals are not ready yet.</p>`;
  $("[data-week]", root).innerHTML = pointsTable(data.week);
  $("[data-month]", root).innerHTML = pointsTable(data.month);
  $("[data-points-rule]", root).textContent = `Points per day and tier, by rank among the members: ${data.points.join(", ")}, then ${data.played_points} for any other result.`;
  $("[data-streaks]", root).innerHTML = streakTable(data.streaks);
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
  $("[data-members]", root).innerHTML = `<ul class="plain">${league.members.map((m) => `<li>${playerLink(m.display_name)}
    ${m.owner ? `<span class="muted">· owner</span>` : ""}
    ${league.is_owner && !m.owner ? `<button type="button" class="linkish" data-remove="${escapeHtml(m.display_name)}">remove</button>` : ""}</li>`).join("")}</ul>`;
}

function leaguePage(root) {
  const id = root.dataset.league;
  const status = $("[data-league-status]", root);
  const body = $("[data-league-body]", root);
  let stop = () => {};
  const lost = (message) => {
    stop();
    body.hidden = true;
    status.textContent = message;
  };
  const refreshMembers = () => api.get(`/api/leagues/${id}/`).then((league) => drawMembers(root, league));
  refreshMembers().then(() => {
    status.textContent = "";
    body.hidden = false;
    const onError = (code, error) => {
      if (code === 404 || code === 403) lost(error?.detail || "This league is not yours to see.");
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

  $("[data-copy-invite]", root).addEventListener("click", () => copyText($("[data-invite]", root).value, "Invite link copied."));
  $("[data-replace-invite]", root).addEventListener("click", async () => {
    if (!window.confirm("Replace the link? The old one will join nobody.")) return;
    try {
      drawMembers(root, await api.post(`/api/leagues/${id}/invite/`));
      toast("A new invite link is ready.");
    } catch (err) {
      toast(err.message, { warn: true });
    }
  });
  $("[data-members]", root).addEventListener("click", async (e) => {
    const button = e.target.closest("[data-remove]");
    if (!button || !window.confirm(`Remove ${button.dataset.remove} from the league?`)) return;
    try {
      await request("DELETE", `/api/leagues/${id}/members/${encodeURIComponent(button.dataset.remove)}/`);
      refreshMembers();
    } catch (err) {
      toast(err.message, { warn: true });
    }
  });
  $("[data-leave]", root).addEventListener("click", async () => {
    if (!window.confirm("Leave this league?")) return;
    try {
      await api.post(`/api/leagues/${id}/leave/`);
      window.location.href = "/leagues/";
    } catch (err) {
      toast(err.message, { warn: true });
    }
  });
  $("[data-report]", root).addEventListener("click", async () => {
    const reason = window.prompt("What is wrong with this league's name?");
    if (!reason) return;
    try {
      await api.post(`/api/leagues/${id}/report/`, { reason });
      toast("Thank you: a moderator will look at it.");
    } catch (err) {
      toast(err.message, { warn: true });
    }
  });
}

const leagueRoot = document.querySelector("[data-league]");
if (leagueRoot) leaguePage(leagueRoot);
