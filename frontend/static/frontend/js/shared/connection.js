// Whether the site answers, for the pages the service worker opens without a network (the
// offline page, offline practice, a kept page's header): the browser's word for it is not enough.

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

// One watch a page, however many want to know (a kept page's header, the offline page,
// offline practice): the site is asked when the first asks, when the browser says "online" or
// "offline", and every RECHECK_MS while it is out of reach; never on a timer while it answers.
const watchers = [];
let checking = false;
let recheck = 0;

async function check() {
  if (checking) return;
  checking = true;
  clearTimeout(recheck);
  const answers = await reachable();
  checking = false;
  if (!answers) recheck = setTimeout(check, RECHECK_MS);
  for (const watcher of watchers) watcher(answers);
}

/** `watcher(answers)` each time the site is asked, from now on: whether it answered. */
export function watchConnection(watcher) {
  watchers.push(watcher);
  if (watchers.length === 1) {
    window.addEventListener("online", check);
    window.addEventListener("offline", check);
  }
  check();
}
