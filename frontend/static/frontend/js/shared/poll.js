// Keep an open page's data fresh: ask again every few seconds, sending back the ETag of
// the last answer, so a board that did not change costs an empty 304. Paused while the
// page is hidden. The boards' answers carry ETags (docs/leaderboards.md, "Polling").

/** Call `onData(body)` now and whenever the answer at `url` changes; returns a stop
 * function, after which neither callback runs (not even for a request already sent). */
export function poll(url, onData, { every = 10000, onError = () => {} } = {}) {
  let etag = "";
  let timer = 0;
  let stopped = false;
  async function tick() {
    if (stopped) return;
    if (document.visibilityState !== "hidden") {
      try {
        const headers = { Accept: "application/json" };
        if (etag) headers["If-None-Match"] = etag;
        // no-store: our own If-None-Match, so the 304 reaches us instead of the cache
        const response = await fetch(url, { credentials: "same-origin", headers, cache: "no-store" });
        // An answer that arrives after stop() is dropped: the page has moved on (another
        // page of a table), and drawing it would put back what the player left.
        if (response.status === 200) {
          const body = await response.json();
          if (stopped) return;
          etag = response.headers.get("ETag") || "";
          onData(body);
        } else if (response.status !== 304) {
          const body = await response.json().catch(() => null);
          if (!stopped) onError(response.status, body);
        }
      } catch {
        // offline for a moment: the next tick tries again
      }
    }
    if (!stopped) timer = setTimeout(tick, every);
  }
  tick();
  return () => { stopped = true; clearTimeout(timer); };
}

/** How often a page polls: `data-poll-ms` on the page's root (tests set it short). */
export function pollEvery(root, fallback = 10000) {
  const ms = Number(root?.dataset?.pollMs || document.body.dataset.pollMs);
  return ms > 0 ? ms : fallback;
}
