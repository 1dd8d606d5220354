// The player's own page: their recent practice games (GET /api/games/), each to resume
// while in play or to replay once over.

import { api } from "./api.js";
import { escapeHtml } from "./site.js";

const box = document.querySelector("[data-practice-games]");

function row(game) {
  const deal = `/practice/${encodeURIComponent(game.deal)}/?variant=${encodeURIComponent(game.variant)}`;
  const link = game.status === "playing"
    ? `<a class="button small" href="${deal}&game=${encodeURIComponent(game.id)}">Resume</a>`
    : `<a class="button small ghost" href="/replay/${encodeURIComponent(game.id)}/">Replay</a>`;
  const tier = game.tier ? ` · ${escapeHtml(game.tier)}` : "";
  return `<li data-practice-game="${escapeHtml(game.id)}">
    <span>${escapeHtml(game.variant)} #${escapeHtml(game.deal)}${tier}</span>
    <span class="muted">${escapeHtml(game.status)} · score ${escapeHtml(game.score)} · ${escapeHtml(game.moves)} moves</span>
    ${link}</li>`;
}

if (box) {
  api.get("/api/games/").then((games) => {
    box.innerHTML = games.length
      ? `<ul class="practice-games">${games.map(row).join("")}</ul>`
      : `<p class="muted">No practice games yet. <a href="/practice/">Practise</a>.</p>`;
  }).catch((err) => {
    box.innerHTML = `<p class="muted">Could not load your practice games: ${escapeHtml(err.message)}.</p>`;
  });
}
