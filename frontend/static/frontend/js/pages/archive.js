// The archive's calendar: every day of a month, per tier won / lost / not played; a
// closed day's tier starts (or resumes) its archive game (POST /api/archive/<date>/<tier>/).

import { api } from "../shared/api.js";
import { postAndOpen } from "../shared/dom.js";
import { badgeList, escapeHtml } from "../shared/html.js";

const LABELS = { won: "won", lost: "lost", playing: "in progress", not_played: "not played", open: "today" };
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

function cell(day, tier, state) {
  if (state == null) return `<span class="state none" aria-hidden="true"></span>`;
  const label = `${day.date} ${tier}: ${LABELS[state] || state}`;
  if (state === "open") {
    return `<a class="state open" href="/" aria-label="${escapeHtml(label)} (play it as the daily)">${escapeHtml(tier[0])}</a>`;
  }
  return `<button type="button" class="state ${escapeHtml(state)}" data-play="${escapeHtml(day.date)}"
    data-tier="${escapeHtml(tier)}" aria-label="${escapeHtml(label)}">${escapeHtml(tier[0])}</button>`;
}

function grid(data, tiers) {
  const first = new Date(`${data.days[0].date}T00:00:00Z`);
  const lead = (first.getUTCDay() + 6) % 7; // Monday first
  const blanks = Array.from({ length: lead }, () => `<li class="day blank" aria-hidden="true"></li>`).join("");
  const days = data.days.map((day) => `<li class="day" data-day="${escapeHtml(day.date)}">
      <span class="date">${Number(day.date.slice(8))}</span>
      <span class="cells">${tiers.map((t) => cell(day, t, day.tiers[t])).join("")}</span></li>`).join("");
  return `<ol class="weekdays" aria-hidden="true">${WEEKDAYS.map((d) => `<li>${d}</li>`).join("")}</ol>
    <ol class="calendar">${blanks}${days}</ol>`;
}

async function load(root) {
  const month = root.dataset.month;
  const box = root.querySelector("[data-calendar]");
  const tiers = ["easy", "medium", "hard"];
  let data;
  try {
    data = await api.get(`/api/calendar/${month}/`);
  } catch (err) {
    box.innerHTML = `<p class="notice">${escapeHtml(err.message)}</p>`;
    return;
  }
  const title = new Date(`${month}-01T00:00:00Z`).toLocaleDateString("en", { month: "long", year: "numeric", timeZone: "UTC" });
  root.querySelector("[data-month-title]").textContent = title;
  box.innerHTML = grid(data, tiers);
  const prev = root.querySelector("[data-month-prev]");
  prev.href = `/archive/?month=${data.previous}`;
  const next = root.querySelector("[data-month-next]");
  next.hidden = !data.next;
  if (data.next) next.href = `/archive/?month=${data.next}`;
  root.querySelector("[data-badges]").innerHTML = data.badges.length
    ? `<h2>Badges this month</h2>${badgeList(data.badges)}`
    : "";
}

const root = document.querySelector("[data-archive]");
if (root && root.querySelector("[data-calendar]")) {
  root.addEventListener("click", async (e) => {
    const button = e.target.closest("[data-play]");
    if (!button) return;
    const url = `/api/archive/${button.dataset.play}/${button.dataset.tier}/`;
    await postAndOpen(button, url, undefined, (game) => `/play/${game.id}/`);
  });
  load(root);
}
