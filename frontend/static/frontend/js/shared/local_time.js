// Times on the reader's own clock. The game's day stays the UTC day (one board for the
// world, turning over at 00:00 UTC), but every time a page shows is the reader's: Intl with
// the browser's zone and the page's language (<html lang>: i18n.js's pageLanguage, so a
// German page writes German dates, 24-hour or 12-hour as that language does). Pure
// functions of a time and `now` (ms); each takes `{locale, timeZone}` so the node tests can
// pin both (tests/frontend/local_time.test.mjs).
// `fillLocalTimes` fills the server-rendered `<time data-local>` elements, whose own text
// (the time in UTC) is what a reader without JavaScript sees.

import { gettext, interpolate, pageLanguage } from "./i18n.js";

export const DAY_MS = 86_400_000;

function toMs(when) {
  if (typeof when === "number") return when;
  if (when instanceof Date) return when.getTime();
  return Date.parse(when);
}

/** When the UTC day of `now` ends: today's deals close and the next ones open. */
export function nextUtcMidnight(now) {
  return (Math.floor(toMs(now) / DAY_MS) + 1) * DAY_MS;
}

/** The game's day (the UTC day) of `now`, as the API names days: "2026-12-01". */
export function utcDay(now) {
  return new Date(toMs(now)).toISOString().slice(0, 10);
}

/** Days from `now`'s date to `when`'s, both on the reader's calendar (0 the same day). */
function localDaysBetween(now, when, timeZone) {
  const dayNumber = (ms) => {
    // "en": only read as numbers, never shown
    const parts = Object.fromEntries(new Intl.DateTimeFormat("en", {
      timeZone, year: "numeric", month: "numeric", day: "numeric",
    }).formatToParts(ms).map((part) => [part.type, part.value]));
    return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) / DAY_MS;
  };
  return dayNumber(toMs(when)) - dayNumber(toMs(now));
}

function isLocalMidnight(when, timeZone) {
  // "en-GB": compared with "00:00", never shown
  const clock = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return clock.format(toMs(when)) === "00:00";
}

/** The clock time of `when` as the reader writes it: "19:00", or "7:00 PM" in en-US. */
export function localClock(when, { locale = pageLanguage(), timeZone } = {}) {
  return new Intl.DateTimeFormat(locale, { timeStyle: "short", timeZone }).format(toMs(when));
}

/** `when` on the reader's clock, naming its day when that is not `now`'s: "19:00",
 * "09:00 tomorrow", "midnight" (the reader's next midnight). */
export function clockFrom(when, now, options = {}) {
  const days = localDaysBetween(now, when, options.timeZone);
  if (days === 1 && isLocalMidnight(when, options.timeZone)) return gettext("midnight");
  const clock = localClock(when, options);
  if (days === 0) return clock;
  if (days === 1) return interpolate(gettext("%(clock)s tomorrow"), { clock });
  if (days === -1) return interpolate(gettext("%(clock)s yesterday"), { clock });
  const date = new Intl.DateTimeFormat(options.locale ?? pageLanguage(), {
    timeZone: options.timeZone, weekday: "short", day: "numeric", month: "short",
  }).format(toMs(when));
  return interpolate(gettext("%(clock)s on %(date)s"), { clock, date });
}

/** "this day closes at 19:00 your time": the close of the day ending at `iso` (a game's or
 * a board's `closes_at`, or the next 00:00 UTC), on the reader's clock. */
export function closesAt(iso, now = Date.now(), options = {}) {
  return interpolate(gettext("this day closes at %(time)s your time"), { time: clockFrom(iso, now, options) });
}

/** When the game's day turns over, on the reader's clock: "19:00 your time". */
export function turnoverAt(now = Date.now(), options = {}) {
  return interpolate(gettext("%(time)s your time"), { time: clockFrom(nextUtcMidnight(now), now, options) });
}

/** A span as people say it: "3 h 12 min", "12 min", "45 s" (whole minutes down, the last
 * minute's seconds up, so it never shows 0 before the end). */
export function countdown(ms) {
  // The units' symbols (h, min, s) are the same in every language we ship; the order and
  // spacing may not be: each shape is a message.
  if (!(ms > 0)) return interpolate(gettext("%(s)s s"), { s: 0 });
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return interpolate(gettext("%(s)s s"), { s: seconds });
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  if (!hours) return interpolate(gettext("%(min)s min"), { min: minutes });
  return minutes % 60
    ? interpolate(gettext("%(h)s h %(min)s min"), { h: hours, min: minutes % 60 })
    : interpolate(gettext("%(h)s h"), { h: hours });
}

/** A moment with its date, on the reader's clock: "3 Dec 2026, 19:04". */
export function localDateTime(when, { locale = pageLanguage(), timeZone } = {}) {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone }).format(toMs(when));
}

/** A game's day by name: "Tue, 1 Dec 2026". A day is a date, not a moment, so it is
 * named as it is (in UTC), never moved into the reader's zone. */
export function dayName(isoDate, { locale = pageLanguage() } = {}) {
  return new Intl.DateTimeFormat(locale, {
    timeZone: "UTC", weekday: "short", day: "numeric", month: "short", year: "numeric",
  }).format(Date.parse(`${isoDate}T00:00:00Z`));
}

/** A game's day, short, for a table's column: "1 Dec 2026" (in UTC, as dayName). */
export function shortDayName(isoDate, { locale = pageLanguage() } = {}) {
  return new Intl.DateTimeFormat(locale, { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" })
    .format(Date.parse(`${isoDate}T00:00:00Z`));
}

/** The reader's zone and its offset from UTC at `now`: "America/New_York, UTC−5". */
export function zoneLabel(now = Date.now(), { locale = pageLanguage(), timeZone } = {}) {
  const format = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "shortOffset" });
  const offset = format.formatToParts(toMs(now)).find((part) => part.type === "timeZoneName")?.value || "";
  const utc = offset.replace(/^GMT/, "UTC").replace("-", "−");
  const name = format.resolvedOptions().timeZone;
  return name === "UTC" || !name ? "UTC" : `${name}, ${utc}`;
}

/** What a `<time data-local>` element shows, from its kind and `datetime`. */
export function localText(kind, datetime, now, options = {}) {
  switch (kind) {
    case "turnover": return turnoverAt(now, options);
    case "turnover-in": return countdown(nextUtcMidnight(now) - now);
    case "zone": return zoneLabel(now, options);
    case "clock": return interpolate(gettext("%(time)s your time"), { time: clockFrom(datetime, now, options) });
    case "datetime": return localDateTime(datetime, options);
    default: return null;
  }
}

/**
 * Fill every `<time data-local="kind">` under `root` with its time on the reader's clock:
 * `turnover` (the next 00:00 UTC), `turnover-in` (how long until then), `zone` (the
 * reader's zone), `clock` and `datetime` (the element's own `datetime`). The UTC time the
 * server wrote stays as the element's title. What only makes sense once filled (a
 * sentence about "where you are") waits `hidden` with `data-local-only`, and shows now.
 */
export function fillLocalTimes(root, now = Date.now(), options = {}) {
  for (const el of root.querySelectorAll("[data-local-only][hidden]")) el.hidden = false;
  for (const el of root.querySelectorAll("time[data-local]")) {
    const kind = el.dataset.local;
    if (kind.startsWith("turnover")) el.setAttribute("datetime", new Date(nextUtcMidnight(now)).toISOString());
    const text = localText(kind, el.getAttribute("datetime"), now, options);
    if (text == null) continue;
    if (!el.title && el.textContent.includes("UTC")) el.title = el.textContent.trim();
    if (el.textContent !== text) el.textContent = text;
  }
}
