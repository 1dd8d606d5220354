// Every page (base.html): the header's log-out button and settings panel, and the times
// the server wrote in UTC (`<time data-local>`) put on the reader's clock, and the keyboard
// help (`?`).

import { api } from "../shared/api.js";
import { watchConnection } from "../shared/connection.js";
import { toast } from "../shared/dom.js";
import { gettext, interpolate } from "../shared/i18n.js";
import { installKeyboardHelp } from "../shared/keyboard_keys.js";
import { fillLocalTimes } from "../shared/local_time.js";
import { countVisit } from "../shared/metrics.js";
import { currentSettings, followOtherTabs } from "../shared/settings.js";

countVisit(); // once a day per browser, a count and no id (docs/metrics.md)
installKeyboardHelp(document); // `?` and the footer's "Keyboard shortcuts" (docs/frontend.md)

if (document.querySelector("time[data-local]")) {
  fillLocalTimes(document);
  setInterval(() => fillLocalTimes(document), 30_000); // "in 3 h 12 min" keeps counting
}

// The service worker (/sw.js; docs/frontend.md, "Installable app"): browsers allow one only in
// a secure context (HTTPS, or localhost). Registered after the page has loaded, so that its
// precaching never competes with the page's own files.
if ("serviceWorker" in navigator && window.isSecureContext) {
  const register = () =>
    navigator.serviceWorker.register("/sw.js").catch((err) => console.warn("service worker:", err));
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

// A page the service worker answered from its cache (sw.js marks it data-kept-copy: a guest's
// page) says "Offline" in its header (site.css). Left open, it says so only while the site is
// out of reach, asked as the offline pages ask (shared/connection.js; no other page asks), and
// "Reload" once it answers: the kept copy's header is still a guest's, which would tell a
// logged-in player they were logged out. Nothing reloads by itself (offline practice's game
// stays on its page until the player leaves it).
const root = document.documentElement;
if (root.hasAttribute("data-kept-copy")) {
  watchConnection((answers) => root.setAttribute("data-kept-copy", answers ? "back" : ""));
}

const logout = document.querySelector("[data-logout]");
if (logout) {
  logout.addEventListener("click", async () => {
    try {
      await api.post("/api/auth/logout/");
    } catch (err) {
      toast(err.message, { warn: true });
      return;
    }
    window.location.href = "/";
  });
}

// The header's language picker (base.html): posted as soon as a language is chosen (without a
// script, by its button). The page comes back in the new language.
for (const picker of document.querySelectorAll("[data-language-picker]")) {
  picker.addEventListener("change", () => {
    picker.elements.next.value = window.location.pathname + window.location.search;
    picker.requestSubmit();
  });
}

// The header's gear: the settings panel (docs/frontend.md, "Settings").
const settingsOpen = document.querySelector("[data-settings-open]");
if (settingsOpen) {
  // The panel's module loads on the first click: most visits never open it.
  settingsOpen.addEventListener("click", async () => {
    const { openSettingsPanel } = await import("../shared/settings_panel.js");
    openSettingsPanel({
      loggedIn: Boolean(document.getElementById("account-settings")),
      onAccountError: (err) => toast(interpolate(gettext("Your account did not keep that setting: %(error)s"), { error: err.message }), { warn: true }),
    });
  });
}
currentSettings(); // logged in: this browser keeps the account's settings from now on
followOtherTabs();
