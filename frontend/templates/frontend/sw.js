// Yukon Daily's service worker (frontend/installable.py serves it at /sw.js; docs/frontend.md,
// "Installable app"). It keeps the pages' static files and three page shells, so that without
// a network the site still opens, practice deals can be played, and any other page says
// "you are offline" instead of failing. It never stores an API answer or a player's page.
"use strict";

// Written by the server: the cache's name (a hash of what it holds), the page shells, the
// static files by their served names, and whether those names are hashed.
const PLAN = {{ plan }};

const CACHE_PREFIX = "yukon-";
// A numbered practice deal (frontend/urls.py, "frontend:practice"): offline, the offline
// practice shell plays it, reading the deal from the address.
const PRACTICE_DEAL = /^\/practice\/[0-9]{1,20}\/$/;
const STATIC_FILES = new Set(PLAN.static);
// The languages' JavaScript catalogues (frontend/catalogue.py): their addresses name their
// content, hashed or not, so the copy kept at install is the file.
const CATALOGUES = new Set(PLAN.catalogues);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(PLAN.cache);
      // Shells without cookies: the cached home page is a guest's, nobody's name in it.
      const shells = PLAN.shells.map((url) => new Request(url, { credentials: "omit", cache: "reload" }));
      const files = PLAN.static.map((url) => new Request(url, { cache: PLAN.hashed ? "default" : "reload" }));
      const catalogues = PLAN.catalogues.map((url) => new Request(url));
      await cache.addAll([...shells, ...files, ...catalogues]);
      // A deploy's worker takes over at once: the old cache's files are gone after activate,
      // and pages keep working from the network meanwhile.
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith(CACHE_PREFIX) && name !== PLAN.cache)
          .map((name) => caches.delete(name)),
      );
      await self.clients.claim(); // the page that installed it works offline without a reload
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(request, url));
  } else if (STATIC_FILES.has(url.pathname)) {
    event.respondWith(PLAN.hashed ? cacheFirst(request) : networkFirst(request));
  } else if (CATALOGUES.has(url.pathname)) {
    event.respondWith(cacheFirst(request));
  }
  // Anything else (the API above all: a daily's data, a player's games) is the network's.
});

async function navigate(request, url) {
  try {
    return await fetch(request);
  } catch (offline) {
    const cache = await caches.open(PLAN.cache);
    const practice = PRACTICE_DEAL.test(url.pathname);
    const kept =
      (practice && (await cache.match(PLAN.offline_practice, { ignoreVary: true }))) ||
      (await cache.match(url.pathname, { ignoreVary: true })) ||
      (await cache.match(PLAN.offline, { ignoreVary: true }));
    if (kept) return markedKept(kept);
    throw offline;
  }
}

// A kept page is a guest's (fetched without cookies): marked on its <html> as the kept copy,
// so that its header says "Offline" where a guest's offers "Log in" (base.html, site.css), and
// a logged-in player does not think they were logged out. Otherwise the kept bytes, with the
// kept headers (the content security policy's nonce is its scripts').
async function markedKept(response) {
  const page = (await response.text()).replace(/<html(?=[\s>])/i, "<html data-kept-copy");
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return new Response(page, { status: response.status, statusText: response.statusText, headers });
}

// A hashed name never changes its content: the copy kept at install is the file.
async function cacheFirst(request) {
  const cache = await caches.open(PLAN.cache);
  const kept = await cache.match(request, { ignoreVary: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function networkFirst(request) {
  const cache = await caches.open(PLAN.cache);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (offline) {
    const kept = await cache.match(request, { ignoreVary: true });
    if (kept) return kept;
    throw offline;
  }
}
