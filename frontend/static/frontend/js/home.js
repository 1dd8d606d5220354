// Today's page: the three tiers with their counts, and a button to start or resume each.

import { api } from "./api.js";
import { escapeHtml, formatTime, toast } from "./site.js";

const box = document.querySelector("[data-daily]");
const loggedIn = Boolean(document.querySelector("[data-logout]"));

const BLURB = {
  easy: "A gentle deal: most players who try it win.",
  medium: "Some digging needed; plan your Kings.",
  hard: "Proven winnable, but only just.",
};

function tierCard(challenge) {
  const { tier, played, won, game } = challenge;
  let action;
  if (game) {
    const done = game.status !== "playing";
    const label = done ? "See result" : "Resume";
    const detail = done
      ? `Your game: ${game.status}, ${game.score} points${game.elapsed_ms != null ? `, ${formatTime(game.elapsed_ms / 1000)}` : ""}`
      : `In progress: ${game.score} points`;
    action = `<p class="mine">${escapeHtml(detail)}</p><a class="button" href="/play/${game.id}/">${label}</a>`;
  } else if (loggedIn) {
    action = `<button type="button" class="button" data-start="${escapeHtml(tier)}">Play ${escapeHtml(tier)}</button>`;
  } else {
    action = `<a class="button" href="/signup/?next=/">Sign up to play</a>`;
  }
  return `<article class="tier" aria-label="${escapeHtml(tier)} challenge">
    <h2>${escapeHtml(tier)}</h2>
    <p>${BLURB[tier] || ""}</p>
    <p class="counts">${played} played · ${won} won</p>
    ${action}
  </article>`;
}

async function load() {
  let daily;
  try {
    daily = await api.get("/api/daily/");
  } catch (err) {
    box.innerHTML = `<p class="notice">Today's challenges could not be loaded: ${escapeHtml(err.message)}.</p>`;
    return;
  }
  const challenges = daily.challenges || [];
  if (!challenges.length) {
    box.innerHTML = `<p class="notice">Today's deals are still being prepared. Try <a href="/practice/">a practice deal</a> meanwhile.</p>`;
    return;
  }
  box.innerHTML = challenges.map(tierCard).join("");
}

box.addEventListener("click", async (e) => {
  const button = e.target.closest("[data-start]");
  if (!button) return;
  button.disabled = true;
  try {
    const game = await api.post("/api/games/", { daily: button.dataset.start });
    window.location.href = `/play/${game.id}/`;
  } catch (err) {
    toast(err.message, { warn: true });
    button.disabled = false;
  }
});

load();
