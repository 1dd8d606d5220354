// An invite (/leagues/join/<token>/): the league's name and size, and a button to join.
// Data: /api/leagues/join/<token>/.

import { api } from "../shared/api.js";
import { $, isLoggedIn, postAndOpen } from "../shared/dom.js";
import { escapeHtml } from "../shared/html.js";

async function joinPage(root) {
  const token = root.dataset.join;
  const box = $("[data-join-body]", root);
  let invite;
  try {
    invite = await api.get(`/api/leagues/join/${encodeURIComponent(token)}/`);
  } catch (err) {
    box.innerHTML = `<p class="notice">${escapeHtml(err.message)}</p>`;
    return;
  }
  const here = encodeURIComponent(window.location.pathname);
  let action;
  if (invite.is_member) action = `<a class="button" href="/leagues/${invite.id}/">Open the league</a>`;
  else if (isLoggedIn()) action = `<button type="button" class="button" data-join-now>Join ${escapeHtml(invite.name)}</button>`;
  else action = `<a class="button" href="/login/?next=${here}">Log in to join</a>`;
  box.innerHTML = `<p><strong>${escapeHtml(invite.name)}</strong>, run by ${escapeHtml(invite.owner)},
    has ${escapeHtml(invite.member_count)} member${invite.member_count === 1 ? "" : "s"}.</p>${action}`;
  const button = $("[data-join-now]", box);
  if (button) {
    const url = `/api/leagues/join/${encodeURIComponent(token)}/`;
    button.addEventListener("click", () => postAndOpen(button, url, undefined, (league) => league.url));
  }
}

const joinRoot = document.querySelector("[data-join]");
if (joinRoot) joinPage(joinRoot);
