// The player's settings (frontend/static/frontend/js/shared/settings.js): a hand-edited or
// broken store never breaks a page (every bad value takes its default), the account's copy
// wins over the browser's, and base.html's pre-paint script sets <html>'s attributes
// exactly as the module does.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const MODULE = new URL("../../frontend/static/frontend/js/shared/settings.js", import.meta.url);
const BASE_HTML = new URL("../../frontend/templates/frontend/base.html", import.meta.url);
const { DEFAULTS, htmlAttributes, validSettings } = await import(MODULE);
// base.html's <meta name="theme-color"> tags as the page has them before the pre-paint script.
const THEME_COLOR_METAS = [...readFileSync(BASE_HTML, "utf8").matchAll(/<meta name="theme-color" content="([^"]+)"(?: media="([^"]+)")?>/g)]
  .map(([, content, media]) => ({ content, media: media ?? "" }));

// Just enough of a page: <html>'s attributes, the account's JSON block, events.
function page({ stored, account = null, storageThrows = false } = {}) {
  const items = stored === undefined ? {} : { "yd-settings": stored };
  const storage = {
    items,
    getItem: (key) => { if (storageThrows) throw new Error("denied"); return items[key] ?? null; },
    setItem: (key, value) => { if (storageThrows) throw new Error("denied"); items[key] = String(value); },
  };
  const attributes = new Map();
  const events = [];
  const themeColors = THEME_COLOR_METAS.map((meta) => ({ ...meta }));
  const document = {
    documentElement: {
      attributes,
      setAttribute: (name, value) => attributes.set(name, String(value)),
      removeAttribute: (name) => attributes.delete(name),
      getAttribute: (name) => attributes.get(name) ?? null,
    },
    getElementById: (id) => (id === "account-settings" && account !== null ? { textContent: account } : null),
    dispatchEvent: (event) => events.push(event),
    querySelectorAll: (selector) => (selector === "meta[name=theme-color]" ? themeColors : []),
  };
  return { storage, document, attributes, events, themeColors };
}

let loads = 0;
/** settings.js afresh (it reads the store once a page) in `fake`'s page. */
async function settingsIn(fake) {
  globalThis.localStorage = fake.storage;
  globalThis.document = fake.document;
  loads += 1;
  return import(`${MODULE}?page=${loads}`);
}

test.afterEach(() => {
  delete globalThis.localStorage;
  delete globalThis.document;
});

const BROKEN_STORES = [
  "not json at all {",
  "null",
  "42",
  '"dark"',
  "[1, 2]",
  '{"theme": "pink", "suits": "five", "largeIndices": "yes", "animations": 1, "sound": "on",'
    + ' "volume": 7, "confirmResign": null, "hints": [], "extra": true}',
  '{"volume": -0.1}',
  '{"volume": "0.5"}',
  '{"__proto__": {"theme": "dark"}, "constructor": "x"}',
];

test("every broken or hand-edited store gives the defaults", async () => {
  for (const stored of BROKEN_STORES) {
    const fake = page({ stored });
    const { currentSettings } = await settingsIn(fake);
    assert.deepEqual(currentSettings(), { ...DEFAULTS }, stored);
  }
});

test("a store that cannot be read (private mode, a sandbox) gives the defaults and still saves for the page", async () => {
  const fake = page({ storageThrows: true });
  const { currentSettings, saveSettings } = await settingsIn(fake);
  assert.deepEqual(currentSettings(), { ...DEFAULTS });
  assert.equal(saveSettings({ theme: "dark" }).theme, "dark");
  assert.equal(currentSettings().theme, "dark");
  assert.equal(fake.attributes.get("data-theme"), "dark");
});

test("good keys are kept beside bad ones; missing keys take defaults", async () => {
  const fake = page({ stored: '{"theme": "contrast", "suits": "nine", "volume": 0, "hints": false}' });
  const { currentSettings } = await settingsIn(fake);
  assert.deepEqual(currentSettings(), { ...DEFAULTS, theme: "contrast", volume: 0, hints: false });
});

test("the account's settings win over this browser's, which then keeps them", async () => {
  const fake = page({ stored: '{"theme": "light", "sound": true}', account: '{"theme": "dark", "suits": "four"}' });
  const { currentSettings } = await settingsIn(fake);
  const expected = { ...DEFAULTS, theme: "dark", suits: "four", sound: true };
  assert.deepEqual(currentSettings(), expected);
  assert.deepEqual(JSON.parse(fake.storage.items["yd-settings"]), expected);
});

test("saving applies, stores and announces the whole object; invalid changes are ignored", async () => {
  const fake = page({ stored: '{"animations": "off"}' });
  const { saveSettings, reducedMotion } = await settingsIn(fake);
  const saved = saveSettings({ theme: "dark", suits: "four", volume: 3, bogus: 1 });
  const expected = { ...DEFAULTS, animations: "off", theme: "dark", suits: "four" };
  assert.deepEqual(saved, expected);
  assert.deepEqual(JSON.parse(fake.storage.items["yd-settings"]), expected);
  assert.deepEqual(Object.fromEntries(fake.attributes), { "data-theme": "dark", "data-suits": "four", "data-motion": "off" });
  assert.equal(fake.events.length, 1);
  assert.equal(fake.events[0].type, "yd-settings");
  assert.deepEqual(fake.events[0].detail, expected);
  assert.equal(reducedMotion(), true); // the player's "off" wins over the device
  saveSettings({ theme: "system", animations: "on" });
  assert.deepEqual(Object.fromEntries(fake.attributes), { "data-suits": "four", "data-motion": "on" });
  assert.equal(reducedMotion(), false);
});

test("validSettings keeps only known keys of the right type", () => {
  assert.deepEqual(validSettings({ theme: "dark", largeIndices: true, volume: 1, x: 1, hints: "no" }),
    { theme: "dark", largeIndices: true, volume: 1 });
  assert.deepEqual(validSettings(null), {});
  assert.deepEqual(validSettings("dark"), {});
});

// ----- base.html's pre-paint script sets what settings.js would ------------------------

const template = readFileSync(BASE_HTML, "utf8");
const prePaint = template.match(/<script nonce="\{\{ request\.csp_nonce \}\}" data-pre-paint>([\s\S]*?)<\/script>/)[1];

function runPrePaint(fake) {
  vm.runInNewContext(prePaint, { localStorage: fake.storage, document: fake.document, JSON });
  return Object.fromEntries(fake.attributes);
}

function expectedAttributes(settings) {
  return Object.fromEntries(Object.entries(htmlAttributes(settings)).filter(([, value]) => value !== null));
}

test("the pre-paint script gives <html> the attributes settings.js gives it", async () => {
  const cases = [
    ...BROKEN_STORES.map((stored) => ({ stored })),
    { stored: '{"theme": "dark", "suits": "four", "largeIndices": true, "animations": "off"}' },
    { stored: '{"theme": "contrast", "animations": "on", "largeIndices": 1}' },
    { stored: '{"theme": "light"}', account: '{"theme": "dark"}' },
    { stored: "{", account: '{"suits": "four", "animations": "system"}' },
    { storageThrows: true, account: '{"theme": "light"}' },
  ];
  for (const options of cases) {
    const { currentSettings } = await settingsIn(page(options));
    assert.deepEqual(runPrePaint(page(options)), expectedAttributes(currentSettings()), JSON.stringify(options));
  }
});

test("the browser's bar follows the device for system, and the chosen theme's header when chosen", () => {
  const light = THEME_COLOR_METAS.find((meta) => meta.media === "(prefers-color-scheme: light)");
  const dark = THEME_COLOR_METAS.find((meta) => meta.media === "");
  assert.ok(light && dark && THEME_COLOR_METAS.length === 2, JSON.stringify(THEME_COLOR_METAS));
  // in the page before the script, or it finds none to paint
  assert.ok(template.indexOf('name="theme-color"') < template.indexOf("data-pre-paint>"));
  const bar = (stored, account = null) => {
    const fake = page({ stored, account });
    runPrePaint(fake);
    return fake.themeColors.map((meta) => meta.content);
  };
  assert.deepEqual(bar('{"theme": "system"}'), [light.content, dark.content]);
  assert.deepEqual(bar("not json"), [light.content, dark.content]);
  assert.deepEqual(bar('{"theme": "light"}'), [light.content, light.content]);
  assert.deepEqual(bar('{"theme": "dark"}'), [dark.content, dark.content]);
  assert.deepEqual(bar('{"theme": "contrast"}'), ["#000", "#000"]);
  assert.deepEqual(bar('{"theme": "light"}', '{"theme": "dark"}'), [dark.content, dark.content]);
  assert.deepEqual(bar('{"theme": "toString"}'), [light.content, dark.content]);
});
