// Times on the reader's own clock. The game's day stays the UTC day (one board for the
// world, turning over at 00:00 UTC), but every time a page shows is the reader's: Intl with
// the browser's zone and language. Pure functions of a time and `now` (ms); each takes
// `{locale, timeZone}` so the node tests can pin both (tests/frontend/local_time.test.mjs).
// `fillLocalTimes` fills the server-rendered `<time data-local>` elements, whose own text
// (the time in UTC) is what a reader without JavaScript sees.

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
    const parts = Object.fromEntries(new Intl.DateTimeFormat("en", {
      timeZone, year: "numeric", month: "numeric", day: "numeric",
    }).formatToParts(ms).map((part) => [part.type, part.value]));
    return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) / DAY_MS;
  };
  return dayNumber(toMs(when)) - dayNumber(toMs(now));
}

function isLocalMidnight(when, timeZone) {
  const clock = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return clock.format(toMs(when)) === "00:00";
}

/** The clock time of `when` as the reader writes it: "19:00", or "7:00 PM" in en-US. */
export function localClock(when, { locale, timeZone } = {}) {
  return new Intl.DateTimeFormat(locale, { timeStyle: "short", timeZone }).format(toMs(when));
}

/** `when` on the reader's clock, naming its day when that is not `now`'s: "19:00",
 * "09:00 tomorrow", "midnight" (the reader's next midnight). */
export function clockFrom(when, now, options = {}) {
  const days = localDaysBetween(now, when, options.timeZone);
  if (days === 1 && isLocalMidnight(when, options.timeZone)) return "midnight";
  const clock = localClock(when, options);
  if (days === 0) return clock;
  if (days === 1) return `${clock} tomorrow`;
  if (days === -1) return `${clock} yesterday`;
  const date = new Intl.DateTimeFormat(options.locale, {
    timeZone: options.timeZone, weekday: "short", day: "numeric", month: "short",
  }).format(toMs(when));
  return `${clock} on ${date}`;
}

/** "this day closes at 19:00 your time": the close of the day ending at `iso` (a game's or
 * a board's `closes_at`, or the next 00:00 UTC), on the reader's clock. */
export function closesAt(iso, now = Date.now(), options = {}) {
  return `this day closes at ${clockFrom(iso, now, options)} your time`;
}

/** When the game's day turns over, on the reader's clock: "19:00 your time". */
export function turnoverAt(now = Date.now(), options = {}) {
  return `${clockFrom(nextUtcMidnight(now), now, options)} your time`;
}

/** A span as people say it: "3 h 12 min", "12 min", "45 s" (whole minutes down, the last
 * minute's seconds up, so it never shows 0 before the end). */
export function countdown(ms) {
  if (!(ms > 0)) return "0 s";
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  if (!hours) return `${minutes} min`;
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** A moment with its date, on the reader's clock: "3 Dec 2026, 19:04". */
export function localDateTime(when, { locale, timeZone } = {}) {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone }).format(toMs(when));
}

/** A game's day by name: "Tue, 1 Dec 2026". A day is a date, not a moment, so it is
 * named as it is (in UTC), never moved into the reader's zone. */
export function dayName(isoDate, { locale } = {}) {
  return new Intl.DateTimeFormat(locale, {
    timeZone: "UTC", weekday: "short", day: "numeric", month: "short", year: "numeric",
  }).format(Date.parse(`${isoDate}T00:00:00Z`));
}

/** The reader's zone and its offset from UTC at `now`: "America/New_York, UTC−5". */
export function zoneLabel(now = Date.now(), { locale, timeZone } = {}) {
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
    case "clock": return `${clockFrom(datetime, now, options)} your time`;
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
