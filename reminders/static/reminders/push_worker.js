// The service worker of push reminders (docs/reminders.md). Registered by the account page
// when the player turns push reminders on, with a scope of its own (/static/reminders/): it
// controls no page, so it never meets the app's own worker (/sw.js); it only shows what the
// site pushes. The payload, decrypted by the browser (RFC 8291): {title, body, tag, url}.

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : "" };
  }
  const title = message.title || "Yukon Daily";
  event.waitUntil(self.registration.showNotification(title, {
    body: message.body || "",
    tag: message.tag || "reminder", // a newer reminder of a kind replaces the older one
    icon: "/static/frontend/favicon.svg",
    data: { url: message.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const same = open.find((client) => client.url === url);
    if (same) return same.focus();
    return self.clients.openWindow(url);
  })());
});
