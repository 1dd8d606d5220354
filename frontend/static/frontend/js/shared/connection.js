// Whether the site answers, for the pages the service worker opens without a network (the
// offline page, offline practice): the browser's word for it is not enough.

/** Whether the site answers. `navigator.onLine` can say yes with no way through (a Wi-Fi
 * with no internet behind it; a page reloaded offline, in some Chromiums), so a yes is
 * checked with a HEAD of /healthz, which the service worker leaves to the network. */
export async function reachable() {
  if (!navigator.onLine) return false;
  try {
    await fetch("/healthz", { method: "HEAD", cache: "no-store", signal: AbortSignal.timeout(5000) });
    return true;
  } catch {
    return false;
  }
}

// While the site is out of reach it is asked again this often: a browser does not always
// say when the network is back (no "online" event when `navigator.onLine` never said no).
export const RECHECK_MS = 3000;
