// The offline page (offline.html), which the service worker also shows in place of a page it
// could not fetch: the address is then that page's, so reloading retries the page itself.

import { watchConnection } from "../shared/connection.js";

const retry = () => window.location.reload();

document.querySelector("[data-retry]")?.addEventListener("click", retry);

// The page reloads itself once the site answers again, as offline practice notices it
// (shared/connection.js): the site is asked every few seconds while it is out of reach, as
// the browser does not always say "online" (navigator.onLine may never have said no), and
// "online" alone may come with no route to the site yet. Only after the site was seen out of
// reach: the page opened at its own address with the network up stays as it is.
let cutOff = false;
watchConnection((answers) => {
  if (!answers) cutOff = true;
  else if (cutOff) retry();
});
