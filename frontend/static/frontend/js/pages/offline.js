// The offline page (offline.html), which the service worker also shows in place of a page it
// could not fetch: the address is then that page's, so reloading retries the page itself.

const retry = () => window.location.reload();

document.querySelector("[data-retry]")?.addEventListener("click", retry);

// "online" also fires while nothing answers yet (a network joined, no route to the site):
// reload only once the site itself answers, or the page would flash back to itself.
window.addEventListener("online", async () => {
  try {
    await fetch(window.location.href, { method: "HEAD", cache: "no-store" });
  } catch {
    return; // still cut off: the next "online" tries again
  }
  retry();
});
