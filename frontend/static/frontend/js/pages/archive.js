// The archive's calendar: every day of a month, per tier won / lost / not played; a
// closed day's tier starts (or resumes) its archive game (POST /api/archive/<date>/<tier>/).
// Each tier is a button named in words ("Easy", ..., and on Sundays "Weekly"), in the
// order the API lists them; the state shows as a mark and a colour, and is read out.

import { api } from "../shared/api.js";
import { postAndOpen } from "../shared/dom.js";
import { tierTitle } from "../shared/format.js";
import { badgeList, escapeHtml } from "../shared/html.js";

const LABELS = { won: "won", lost: "lost", playing: "in progress", not_played: "not played", open: "today" };
// Colour is never the only cue: won and lost carry a mark too.
const MARKS = { won: "✓", lost: "✗", playing: "…" };
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

function spokenDate(iso) {
  return new Date(`${iso}T00:00:00Z`).toLocaleDateString("en", { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });
}

function cell(day, tier, state) {
  const name = escapeHtml(tierTitle(tier));
  const when = escapeHtml(spokenDate(day.date));
  const mark = MARKS[state] ? `<span class="mark" aria-hidden="true">${MARKS[state]}</span>` : "";
  // The name starts with what the button shows, so a voice-control user can say it.
  if (state === "open") {
    return `<a class="state open" href="/" aria-label="${name} on ${when}: today, play it as the daily">${name}</a>`;
  }
  return `<button type="button" class="state ${escapeHtml(state)}" data-play="${escapeHtml(day.date)}"
    data-tier="${escapeHtml(tier)}" aria-label="${name} on ${when}: ${escapeHtml(LABELS[state] || state)}">${name}${mark}</button>`;
}

function dayItem(day) {
  const offered = Object.entries(day.tiers).filter(([, state]) => state != null);
  const weekday = WEEKDAYS[(new Date(`${day.date}T00:00:00Z`).getUTCDay() + 6) % 7];
  return `<li class="day${offered.length ? "" : " empty"}" data-day="${escapeHtml(day.date)}">
      <span class="date"><span class="dow">${weekday} </span>${Number(day.date.slice(8))}</span>
      <span class="cells">${offered.map(([tier, state]) => cell(day, tier, state)).join("")}</span></li>`;
}

function grid(data) {
  const first = new Date(`${data.days[0].date}T00:00:00Z`);
  const lead = (first.getUTCDay() + 6) % 7; // Monday first
  const blanks = Array.from({ length: lead }, () => `<li class="day blank" aria-hidden="true"></li>`).join("");
  return `<ol class="weekdays" aria-hidden="true">${WEEKDAYS.map((d) => `<li>${d}</li>`).join("")}</ol>
    <ol class="calendar">${blanks}${data.days.map(dayItem).join("")}</ol>`;
}

async function load(root) {
  const month = root.dataset.month;
  const box = root.querySelector("[data-calendar]");
  let data;
  try {
    data = await api.get(`/api/calendar/${month}/`);
  } catch (err) {
    box.innerHTML = `<p class="notice">${escapeHtml(err.message)}</p>`;
    return;
  }
  const title = new Date(`${month}-01T00:00:00Z`).toLocaleDateString("en", { month: "long", year: "numeric", timeZone: "UTC" });
  root.querySelector("[data-month-title]").textContent = title;
  box.innerHTML = grid(data);
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
