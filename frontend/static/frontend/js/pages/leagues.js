// The leagues page (/leagues/): your leagues, a new one, and the players you follow.
// Data: /api/leagues/, /api/follows/.

import { api, request } from "../shared/api.js";
import { $, tellWhenCut, toast } from "../shared/dom.js";
import { el, emptyState, fill, playerLink } from "../shared/html.js";
import { gettext, interpolate, ngettext } from "../shared/i18n.js";

/** "· 3 members · yours" */
function leagueSize(league) {
  const size = interpolate(ngettext("· %(count)s member", "· %(count)s members", league.member_count), { count: league.member_count });
  return league.is_owner ? `${size} ${gettext("· yours")}` : size;
}

async function showLeagues(box) {
  try {
    const leagues = await api.get("/api/leagues/");
    fill(box, leagues.length
      ? el("ul", "plain", leagues.map((l) => el("li", null, el("a", { href: l.url }, l.name), " ",
        el("span", "muted", leagueSize(l)))))
      : emptyState(gettext("You are in no league yet: make one and send its link to your friends."), "#league-name", gettext("Name a league")));
  } catch (err) {
    fill(box, el("p", "notice", err.message));
  }
}

async function showFollows(box) {
  try {
    const { following } = await api.get("/api/follows/");
    fill(box, following.length
      ? el("ul", "plain", following.map((name) => el("li", null, playerLink(name), " ",
        el("button", { type: "button", class: "linkish", "data-unfollow": name }, gettext("unfollow")))))
      : emptyState(gettext("You follow nobody yet: find players on today's board, or type a name below."), "/leaderboards/daily/", gettext("Today's board")));
  } catch (err) {
    fill(box, el("p", "notice", err.message));
  }
}

function leaguesPage(root) {
  const list = $("[data-league-list]", root);
  const follows = $("[data-follow-list]", root);
  if (!list) return;
  showLeagues(list);
  showFollows(follows);
  tellWhenCut($("#league-name", root), $("[data-create-error]", root), gettext("A league name has at most %(max)s characters: yours was cut to fit."));
  tellWhenCut($("#follow-name", root), $("[data-follow-error]", root), gettext("A player's name has at most %(max)s characters: this one was cut to fit."));
  $("[data-create-league]", root).addEventListener("submit", async (e) => {
    e.preventDefault();
    const error = $("[data-create-error]", root);
    error.textContent = "";
    try {
      const league = await api.post("/api/leagues/", { name: e.target.name.value });
      window.location.href = league.url;
    } catch (err) {
      error.textContent = err.message;
    }
  });
  $("[data-follow]", root).addEventListener("submit", async (e) => {
    e.preventDefault();
    const error = $("[data-follow-error]", root);
    error.textContent = "";
    try {
      await api.post("/api/follows/", { display_name: e.target.display_name.value });
      e.target.reset();
      showFollows(follows);
    } catch (err) {
      error.textContent = err.message;
    }
  });
  follows.addEventListener("click", async (e) => {
    const button = e.target.closest("[data-unfollow]");
    if (!button) return;
    try {
      await request("DELETE", `/api/follows/${encodeURIComponent(button.dataset.unfollow)}/`);
      showFollows(follows);
    } catch (err) {
      toast(err.message, { warn: true });
    }
  });
}

const listRoot = document.querySelector("[data-leagues]");
if (listRoot) leaguesPage(listRoot);
