// The player's settings of the site (docs/frontend.md, "Settings"): kept in this browser
// (localStorage "yd-settings") and, for a logged-in player, in the account
// (/api/account/settings/), whose copy base.html writes into every page (#account-settings)
// and which wins over the browser's. Every change is applied at once to <html>'s
// attributes (the stylesheet's themes and card faces hang on them) and announced with a
// `yd-settings` event on `document`, its `detail` the whole new object.
//
// base.html's pre-paint script sets the same attributes before the first paint from the
// same two sources; tests/frontend/settings.test.mjs holds the two to one answer.

import { request } from "./api.js";

export const SETTINGS_KEY = "yd-settings";
export const SETTINGS_EVENT = "yd-settings";
const ACCOUNT_URL = "/api/account/settings/";

export const DEFAULTS = Object.freeze({
  theme: "system",
  suits: "two",
  largeIndices: false,
  animations: "system",
  sound: false,
  volume: 0.6,
  confirmResign: true,
  hints: true,
});

export const CHOICES = Object.freeze({
  theme: ["system", "light", "dark", "contrast"],
  suits: ["two", "four"],
  animations: ["system", "on", "off"],
});

function isValid(key, value) {
  if (CHOICES[key]) return CHOICES[key].includes(value);
  if (key === "volume") return typeof value === "number" && value >= 0 && value <= 1;
  return typeof value === "boolean";
}

/** The known keys of `raw` whose values are valid; anything else (a hand-edited store, an
 * older version's key, a wrong type) is left out, so it takes its default. */
export function validSettings(raw) {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return {};
  return Object.fromEntries(Object.keys(DEFAULTS)
    .filter((key) => Object.hasOwn(raw, key) && isValid(key, raw[key]))
    .map((key) => [key, raw[key]]));
}

function parsed(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function storage() {
  try {
    return typeof localStorage === "undefined" ? null : localStorage; // a sandboxed frame throws
  } catch {
    return null;
  }
}

function storedSettings() {
  try {
    return validSettings(parsed(storage()?.getItem(SETTINGS_KEY) ?? "null"));
  } catch {
    return {}; // a store that refuses to be read
  }
}

function accountElement() {
  return typeof document === "undefined" ? null : document.getElementById("account-settings");
}

let current = null; // this page's settings, once read
// The account is sent one change at a time: what changes meanwhile (a volume slider being
// dragged) waits and goes in the next request, all together.
let unsaved = {};
let sending = false;

/** The whole settings object: the defaults, under this browser's choices, under the
 * account's (logged in). The browser keeps what the account says, so a player who logs
 * out keeps the look they had. */
export function currentSettings() {
  if (!current) {
    const account = accountElement();
    current = { ...DEFAULTS, ...storedSettings(), ...(account ? validSettings(parsed(account.textContent)) : {}) };
    if (account) writeStore(current);
  }
  return { ...current };
}

function writeStore(settings) {
  try {
    storage()?.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // full or refused (private mode): the settings still apply to this page
  }
}

/** What <html> carries for `settings` (null: the attribute is absent), as the pre-paint
 * script sets it: the default of each is no attribute at all. */
export function htmlAttributes(settings) {
  return {
    "data-theme": settings.theme === "system" ? null : settings.theme,
    "data-suits": settings.suits === "four" ? "four" : null,
    "data-indices": settings.largeIndices ? "large" : null,
    "data-motion": settings.animations === "system" ? null : settings.animations,
  };
}

export function applySettings(settings, root = document.documentElement) {
  for (const [name, value] of Object.entries(htmlAttributes(settings))) {
    if (value === null) root.removeAttribute(name);
    else root.setAttribute(name, value);
  }
}

/**
 * Change some settings: the valid keys of `changes` are applied to the page at once, kept
 * in this browser and, logged in, sent to the account. Invalid keys are ignored.
 * `onAccountError(err)` hears of a save the account refused or missed. Returns the whole
 * new object.
 */
export function saveSettings(changes, { onAccountError = null } = {}) {
  const valid = validSettings(changes);
  const settings = { ...currentSettings(), ...valid };
  current = settings;
  writeStore(settings);
  if (typeof document !== "undefined") {
    applySettings(settings);
    document.dispatchEvent(new CustomEvent(SETTINGS_EVENT, { detail: { ...settings } }));
  }
  if (accountElement() && Object.keys(valid).length) {
    unsaved = { ...unsaved, ...valid };
    if (!sending) sendToAccount(onAccountError);
  }
  return { ...settings };
}

async function sendToAccount(onAccountError) {
  sending = true;
  while (Object.keys(unsaved).length) {
    const changes = unsaved;
    unsaved = {};
    try {
      await request("PATCH", ACCOUNT_URL, changes);
    } catch (err) {
      if (onAccountError) onAccountError(err);
    }
  }
  sending = false;
}

/** Another tab of this site changed the settings: take them here too. */
export function followOtherTabs() {
  window.addEventListener("storage", (event) => {
    if (event.key !== SETTINGS_KEY) return;
    current = { ...DEFAULTS, ...storedSettings() };
    applySettings(current);
    document.dispatchEvent(new CustomEvent(SETTINGS_EVENT, { detail: { ...current } }));
  });
}

/** Whether to keep things still: the player's choice, else the device's reduced motion. */
export function reducedMotion() {
  if (typeof document === "undefined") return false;
  const chosen = document.documentElement.getAttribute("data-motion");
  if (chosen === "off") return true;
  if (chosen === "on") return false;
  return typeof window !== "undefined" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
