// First-party product metrics (docs/metrics.md): counts of the whole site, never a person.
//
// Once a day a browser says it visited, and how long ago it last did: never, the day
// before, 2 to 7 days before, or earlier. For that it keeps one thing in its own local
// storage, the day (UTC) of its last visit, which never leaves it; the request carries no
// cookie (`credentials: "omit"`) and no id. The results screen's Copy and Share buttons
// say a game was shared, with its tier. A browser that asks not to be tracked (Do Not
// Track, Global Privacy Control) sends nothing and keeps nothing. Nothing runs on import:
// pages/base.js counts the visit, pages/play.js a share.

export const ENDPOINT = "/api/metrics/events/";
export const LAST_VISIT_KEY = "yukon-last-visit";
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** The UTC day of `ms` as YYYY-MM-DD. */
export function utcDay(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

/** What a visit on `today` says of the last one, on `lastDay` (YYYY-MM-DD, or null when
 * the browser remembers none): "first", "next_day", "within_7_days" (2 to 7 days before),
 * "later"; or null when the browser visited today already, which is not counted again
 * (nor is a day before it: a clock set back). */
export function visitBucket(lastDay, today) {
  if (typeof lastDay !== "string" || !DAY.test(lastDay)) return "first";
  const days = Math.round((Date.parse(today) - Date.parse(lastDay)) / DAY_MS);
  if (Number.isNaN(days)) return "first";
  if (days <= 0) return null;
  if (days === 1) return "next_day";
  if (days <= 7) return "within_7_days";
  return "later";
}

/** Whether the browser asks not to be tracked: Do Not Track or Global Privacy Control. */
export function declinesTracking(nav) {
  return Boolean(nav) && (nav.doNotTrack === "1" || nav.globalPrivacyControl === true);
}

/** The tier a share is counted in: the daily's, or "practice" / "archive" for those. */
export function shareTier(game) {
  if (game.mode === "practice" || game.mode === "archive") return game.mode;
  return game.tier;
}

function send(event, fetcher) {
  try {
    fetcher(ENDPOINT, {
      method: "POST",
      credentials: "omit", // no cookie: the count knows nobody
      keepalive: true, // it goes on if the page is left at once
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(event),
    }).catch(() => {});
  } catch {
    // counting never gets in a player's way
  }
}

function localStore() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage refused: the visit cannot be told from today's others, so none
  }
}

/** Count this browser's visit, at most once a day. Returns what was sent (for the tests). */
export function countVisit({ nav = globalThis.navigator, storage = localStore(), now = Date.now(), fetcher = globalThis.fetch } = {}) {
  if (declinesTracking(nav) || !storage || !fetcher) return null;
  const today = utcDay(now);
  try {
    const returned = visitBucket(storage.getItem(LAST_VISIT_KEY), today);
    if (returned === null) return null;
    storage.setItem(LAST_VISIT_KEY, today);
    const event = { event: "visit", returned };
    send(event, fetcher);
    return event;
  } catch {
    return null;
  }
}

/** Count a share of `game` (the play page's game JSON). */
export function countShare(game, { nav = globalThis.navigator, fetcher = globalThis.fetch } = {}) {
  if (declinesTracking(nav) || !fetcher || !game) return null;
  const event = { event: "share", tier: shareTier(game) };
  send(event, fetcher);
  return event;
}
