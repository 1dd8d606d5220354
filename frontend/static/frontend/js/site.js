// Behaviour shared by every page: the log-out button and the toast.

import { api } from "./api.js";

let toastTimer = 0;

/** A short message at the bottom of the screen; `warn` paints it red. It is also spoken
 * (politely) unless `silent`: for a message the page announces in its own words, so that
 * each event is spoken once. */
export function toast(message, { warn = false, ms = 2600, silent = false } = {}) {
  const el = document.querySelector(".toast");
  if (!el) return;
  const status = document.querySelector("[data-site-status]");
  if (status && !silent) {
    status.textContent = "";
    requestAnimationFrame(() => { status.textContent = message; });
  }
  el.textContent = message;
  el.classList.toggle("warn", warn);
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, ms);
}

export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds || 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** The game's constants from the server (base.html's JSON script tag): variants, tiers,
 * the largest deal number (a string: too big for a JavaScript number). */
export function siteConstants() {
  const tag = document.getElementById("site-constants");
  return tag ? JSON.parse(tag.textContent) : null;
}

export function escapeHtml(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const logout = typeof document === "undefined" ? null : document.querySelector("[data-logout]");
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
