// The archive's calendar: every day of a month, per tier won / lost / not played; a
// closed day's tier starts (or resumes) its archive game (POST /api/archive/<date>/<tier>/).
// Each tier is a button named in words ("Easy", ..., and on Sundays "Weekly"), in the
// order the API lists them; the state shows as a mark and a colour, and is read out.

import { api } from "../shared/api.js";
import { postAndOpen } from "../shared/dom.js";
import { tierTitle } from "../shared/format.js";
import { badgeList, el, emptyState, fill } from "../shared/html.js";
import { gettext, interpolate, pageLanguage } from "../shared/i18n.js";

const LABELS = {
  won: gettext("won"), lost: gettext("lost"), playing: gettext("in progress"), not_played: gettext("not played"), open: gettext("today"),
  held: gettext("held until a moderator has looked at it"),
};
// Colour is never the only cue: won, lost and held carry a mark too.
const MARKS = { won: "✓", lost: "✗", playing: "…", held: "?" };
// Short weekday names, Monday first, in the page's language (2024-01-01 was a Monday).
const WEEKDAYS = Array.from({ length: 7 }, (_, i) => new Intl.DateTimeFormat(pageLanguage(), { weekday: "short", timeZone: "UTC" })
  .format(Date.UTC(2024, 0, 1 + i)));

function spokenDate(iso) {
  return new Date(`${iso}T00:00:00Z`).toLocaleDateString(pageLanguage(), { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });
}

function cell(day, tier, state) {
  const name = tierTitle(tier);
  const when = spokenDate(day.date);
  const mark = MARKS[state] && el("span", { class: "mark", "aria-hidden": "true" }, MARKS[state]);
  // The name starts with what the button shows, so a voice-control user can say it.
  if (state === "open") {
    return el("a", { class: "state open", href: "/", "aria-label": interpolate(gettext("%(tier)s on %(date)s: today, play it as the daily"), { tier: name, date: when }) }, name);
  }
  return el("button", {
    type: "button", class: `state ${state}`, "data-play": day.date, "data-tier": tier, title: state === "held" ? LABELS.held : null,
    "aria-label": interpolate(gettext("%(tier)s on %(date)s: %(state)s"), { tier: name, date: when, state: LABELS[state] || state }),
  }, name, mark);
}

function dayItem(day) {
  const offered = Object.entries(day.tiers).filter(([, state]) => state != null);
  const weekday = WEEKDAYS[(new Date(`${day.date}T00:00:00Z`).getUTCDay() + 6) % 7];
  return el("li", { class: `day${offered.length ? "" : " empty"}`, "data-day": day.date },
    el("span", "date", el("span", "dow", `${weekday} `), Number(day.date.slice(8))), " ",
    el("span", "cells", offered.map(([tier, state]) => cell(day, tier, state))));
}

function grid(data) {
  const first = new Date(`${data.days[0].date}T00:00:00Z`);
  const lead = (first.getUTCDay() + 6) % 7; // Monday first
  const blanks = Array.from({ length: lead }, () => el("li", { class: "day blank", "aria-hidden": "true" }));
  return [el("ol", { class: "weekdays", "aria-hidden": "true" }, WEEKDAYS.map((d) => el("li", null, d))),
    el("ol", "calendar", blanks, data.days.map(dayItem))];
}

async function load(root) {
  const month = root.dataset.month;
  const box = root.querySelector("[data-calendar]");
  let data;
  try {
    data = await api.get(`/api/calendar/${month}/`);
  } catch (err) {
    fill(box, el("p", "notice", err.message));
    return;
  }
  const title = new Date(`${month}-01T00:00:00Z`).toLocaleDateString(pageLanguage(), { month: "long", year: "numeric", timeZone: "UTC" });
  root.querySelector("[data-month-title]").textContent = title;
  // A month before the first daily (or all still to come): say so above the empty calendar.
  const dealt = data.days.some((day) => Object.values(day.tiers).some((state) => state != null));
  fill(box, !dealt && emptyState(interpolate(gettext("No daily was dealt in %(month)s."), { month: title }), "/", gettext("Play today's deals")), grid(data));
  const prev = root.querySelector("[data-month-prev]");
  prev.hidden = !data.previous; // none before the first daily
  if (data.previous) prev.href = `/archive/?month=${data.previous}`;
  const next = root.querySelector("[data-month-next]");
  next.hidden = !data.next;
  if (data.next) next.href = `/archive/?month=${data.next}`;
  fill(root.querySelector("[data-badges]"), data.badges.length > 0
    && [el("h2", null, gettext("Badges this month")), badgeList(data.badges)]);
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
