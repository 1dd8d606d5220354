// An invite (/leagues/join/<token>/): the league's name and size, and a button to join.
// A guest is offered "Sign up to join" and "Log in to join"; both come back here
// (`?next=`, through the second factor and an emailed confirmation link too), and the
// invite the guest chose in this tab is then joined at once. Data: /api/leagues/join/<token>/.

import { api } from "../shared/api.js";
import { $, isLoggedIn, postAndOpen } from "../shared/dom.js";
import { el, fill } from "../shared/html.js";
import { gettext, interpolate, ngettext } from "../shared/i18n.js";

// The invite a guest chose to sign up or log in for, in this tab only: opening an invite
// link never joins by itself, only coming back from the click on one of those two does.
const CHOSEN = "league-invite-chosen";

function chosenBefore(token) {
  try {
    const chosen = sessionStorage.getItem(CHOSEN);
    sessionStorage.removeItem(CHOSEN);
    return chosen === token;
  } catch {
    return false; // storage refused: the page offers the button instead
  }
}

async function joinPage(root) {
  const token = root.dataset.join;
  const box = $("[data-join-body]", root);
  let invite;
  try {
    invite = await api.get(`/api/leagues/join/${encodeURIComponent(token)}/`);
  } catch (err) {
    fill(box, el("p", "notice", err.message));
    return;
  }
  const chosen = chosenBefore(token);
  const here = encodeURIComponent(window.location.pathname);
  let action;
  if (invite.is_member) action = el("a", { class: "button", href: `/leagues/${invite.id}/` }, gettext("Open the league"));
  else if (isLoggedIn()) action = el("button", { type: "button", class: "button", "data-join-now": true }, interpolate(gettext("Join %(name)s"), { name: invite.name }));
  else {
    action = [el("p", null, gettext("Sign up or log in to join; you come back here to play in it.")),
      el("div", "button-row", el("a", { class: "button", href: `/signup/?next=${here}`, "data-choose": true }, gettext("Sign up to join")),
        " ", el("a", { class: "button ghost", href: `/login/?next=${here}`, "data-choose": true }, gettext("Log in to join")))];
  }
  fill(box, el("p", null, el("strong", null, invite.name), interpolate(ngettext(", run by %(owner)s, has %(count)s member.",
    ", run by %(owner)s, has %(count)s members.", invite.member_count), { owner: invite.owner, count: invite.member_count })), action);
  for (const link of box.querySelectorAll("[data-choose]")) {
    link.addEventListener("click", () => {
      try {
        sessionStorage.setItem(CHOSEN, token);
      } catch {
        // no storage: the invite still comes back through ?next=, with a button to join
      }
    });
  }
  const button = $("[data-join-now]", box);
  if (button) {
    const url = `/api/leagues/join/${encodeURIComponent(token)}/`;
    const join = () => postAndOpen(button, url, undefined, (league) => league.url);
    button.addEventListener("click", join);
    if (chosen) join();
  }
}

const joinRoot = document.querySelector("[data-join]");
if (joinRoot) joinPage(joinRoot);
