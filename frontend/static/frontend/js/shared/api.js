// Talking to the API: JSON in and out, the session cookie, and the CSRF header.

import { gettext, interpolate } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, detail, body) {
    super(detail || interpolate(gettext("request failed (%(status)s)"), { status }));
    this.status = status;
    this.body = body;
  }
}

function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

/** The first readable message in a DRF error body. */
export function errorText(body, fallback) {
  if (!body) return fallback;
  if (typeof body === "string") return body;
  if (body.detail) return String(body.detail);
  for (const value of Object.values(body)) {
    if (Array.isArray(value) && value.length) return String(value[0]);
    if (typeof value === "string") return value;
  }
  return fallback;
}

/** A form's refusal as its page says it: the first message of a DRF validation error
 * (`errors`, by field), without the API's field name that `detail` puts before it
 * ("confirm: Type ... to confirm."): for a form whose messages say what they are about.
 * Any other answer: `errorText`. */
export function fieldErrorText(body, fallback) {
  const first = (value) => {
    if (typeof value === "string") return value;
    const items = Array.isArray(value) ? value : value && typeof value === "object" ? Object.values(value) : [];
    for (const item of items) {
      const message = first(item);
      if (message) return message;
    }
    return null;
  };
  return (body && typeof body === "object" && first(body.errors)) || errorText(body, fallback);
}

// ----- the server's clock ---------------------------------------------------------
// A game's times come from the server; the browser's own clock may be minutes off.
// Every fresh answer's Date header (whole seconds) gives the offset, best from the
// quickest round trip. When the page comes back from the background (a phone that
// slept, a clock that may have been set meanwhile), the next answer starts afresh.

const NO_CLOCK = { offset: 0, roundTrip: Infinity };
let clock = NO_CLOCK;

/** The better estimate of the server's clock: ``current``, or the one an answer gives
 * (sent and received on the browser's clock; Date stands for the middle of its second,
 * met halfway through the round trip). A slower answer, one a cache may have kept (it
 * carries an old Date), or a nonsensical one changes nothing. */
export function betterClock(current, sentAt, receivedAt, headers) {
  const server = Date.parse(headers.get("Date") || "");
  const roundTrip = receivedAt - sentAt;
  if ((headers.get("Cache-Control") || "").includes("max-age")) return current;
  if (Number.isNaN(server) || !(roundTrip >= 0) || roundTrip >= current.roundTrip) return current;
  return { offset: server + 500 - (sentAt + receivedAt) / 2, roundTrip };
}

/** The server's time now, as far as the answers so far tell (the browser's until one has). */
export function serverNow() {
  return Date.now() + clock.offset;
}

if (typeof document !== "undefined") {
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") clock = { ...clock, roundTrip: Infinity };
  });
}

export async function request(method, url, data) {
  const init = {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  };
  if (method !== "GET") init.headers["X-CSRFToken"] = csrfToken();
  if (data !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(data);
  }
  let response;
  const sentAt = Date.now();
  try {
    response = await fetch(url, init);
  } catch {
    throw new ApiError(0, gettext("the server cannot be reached; check your connection"));
  }
  clock = betterClock(clock, sentAt, Date.now(), response.headers);
  let body = null;
  const type = response.headers.get("Content-Type") || "";
  if (response.status !== 204 && type.includes("json")) body = await response.json().catch(() => null);
  if (!response.ok) {
    const fallback = interpolate(gettext("the server answered %(status)s"), { status: response.status });
    throw new ApiError(response.status, errorText(body, fallback), body);
  }
  return body;
}

export const api = {
  get: (url) => request("GET", url),
  post: (url, data = {}) => request("POST", url, data),
};

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** `call()`, asked again while the server says "not yet" (503 with `retry_after`, as the
 * practice pool does while the solver prepares a tier's deals): after that many seconds, up
 * to `tries` times, telling `waiting(seconds)` before each wait. Any other error, and the
 * last 503, is thrown. */
export async function whenReady(call, { tries = 20, waiting = () => {} } = {}) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (err) {
      const wait = err instanceof ApiError && err.status === 503 ? Number(err.body?.retry_after) : NaN;
      if (!(wait > 0) || attempt >= tries) throw err;
      waiting(wait);
      await sleep(wait * 1000);
    }
  }
}
