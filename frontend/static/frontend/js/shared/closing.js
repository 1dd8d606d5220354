// How long a daily game has left before its day closes (00:00 UTC): after that the
// server refuses every move and the game ends unfinished (docs/daily.md, "The close of
// day"). Pure functions of the game's `closes_at` and the server's clock (api.js); the
// close is said on the reader's clock (local_time.js).

import { gettext, interpolate, ngettext } from "./i18n.js";
import { clockFrom } from "./local_time.js";

export const WARN_FROM_MS = 60 * 60_000; // a start in the day's last hour is told at once
export const COUNTDOWN_FROM_MS = 10 * 60_000; // the last ten minutes count down

/** "m:ss" of a positive span, rounded up: 0:01 shows until the very last millisecond. */
export function formatLeft(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * What the page says about the close, or null when nothing needs saying.
 * `closesAt` is the game's `closes_at` (null in practice); `now` the server's time in ms.
 * Returns {text, urgent, closed}: `urgent` in the countdown, `closed` once the day is over.
 * `options` ({locale, timeZone}: the browser's by default) only for the tests.
 */
export function closingNotice(closesAt, now, status, options = {}) {
  if (!closesAt || status !== "playing") return null;
  const left = Date.parse(closesAt) - now;
  if (Number.isNaN(left)) return null;
  if (left <= 0) {
    return { text: gettext("This day has closed: the game can no longer change."), urgent: true, closed: true };
  }
  if (left <= COUNTDOWN_FROM_MS) {
    return { text: interpolate(gettext("The day closes in %(left)s"), { left: formatLeft(left) }), urgent: true, closed: false };
  }
  if (left <= WARN_FROM_MS) {
    const minutes = Math.ceil(left / 60_000);
    return {
      text: interpolate(ngettext(
        "The day closes at %(time)s your time, in %(minutes)s min: a game unfinished then counts as not finished.",
        "The day closes at %(time)s your time, in %(minutes)s min: a game unfinished then counts as not finished.",
        minutes,
      ), { time: clockFrom(closesAt, now, options), minutes }),
      urgent: false,
      closed: false,
    };
  }
  return null;
}
