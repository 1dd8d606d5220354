// The page around a page module: the toast, spoken announcements, the site's constants,
// whether someone is logged in, the clipboard, buttons that open what they create, and
// fields that say when the browser cuts what goes into them.

import { api } from "./api.js";
import { asSentence } from "./format.js";
import { interpolate, pageLanguage } from "./i18n.js";

/** One selector's first match, in the whole page or under `root`. */
export function $(selector, root = document) {
  return root.querySelector(selector);
}

/** Put `text` in a live region so a screen reader speaks it, even when the same words were
 * the last ones there: emptied first, filled on the next frame. */
export function speak(region, text) {
  region.textContent = "";
  requestAnimationFrame(() => { region.textContent = text; });
}

let toastTimer = 0;

/** A short message at the bottom of the screen; `warn` paints it red. It is also spoken
 * (politely) unless `silent`: for a message the page announces in its own words, so that
 * each event is spoken once. */
export function toast(message, { warn = false, ms = 2600, silent = false } = {}) {
  const el = document.querySelector(".toast");
  if (!el) return;
  const status = document.querySelector("[data-site-status]");
  if (status && !silent) speak(status, message);
  el.textContent = asSentence(message);
  el.classList.toggle("warn", warn);
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, ms);
}

/** The game's constants from the server (base.html's JSON script tag): variants, tiers,
 * the largest deal number (a string: too big for a JavaScript number). */
export function siteConstants() {
  const tag = document.getElementById("site-constants");
  return tag ? JSON.parse(tag.textContent) : null;
}

/** The header shows a log-out button to a logged-in player only. */
export function isLoggedIn() {
  return Boolean(document.querySelector("[data-logout]"));
}

/** Copy `text` and say so; where the browser refuses, show the text long enough to copy by hand. */
export async function copyText(text, copiedMessage) {
  try {
    await navigator.clipboard.writeText(text);
    toast(copiedMessage);
  } catch {
    toast(text, { ms: 8000 });
  }
}

/** A button that creates something (a game, a league membership) and opens it: the button
 * waits while the request is on its way; a refusal is told in a toast and frees the button. */
export async function postAndOpen(button, url, data, addressOf) {
  button.disabled = true;
  try {
    const created = await api.post(url, data);
    window.location.href = addressOf(created);
  } catch (err) {
    toast(err.message, { warn: true });
    button.disabled = false;
  }
}

// What a text box's Enter puts in: a line break, with no `data` to say so.
const LINE_BREAKS = new Set(["insertLineBreak", "insertParagraph"]);

/** Say so when the browser cuts what goes into `field` at its maxlength, which it does
 * without a word: typed past it (a text box's line break too), or pasted or dropped longer.
 * `say(true)` then, and `say(false)` on any other change to the field. */
export function sayWhenCut(field, say) {
  field.addEventListener("beforeinput", (e) => {
    const kept = field.value.length - ((field.selectionEnd ?? 0) - (field.selectionStart ?? 0));
    const adding = e.data ?? e.dataTransfer?.getData("text/plain") ?? (LINE_BREAKS.has(e.inputType) ? "\n" : "");
    say(field.maxLength >= 0 && kept + adding.length > field.maxLength);
  });
}

/** `sayWhenCut` in words: `sentence` (translated; its `%(max)s` the field's maxlength, as the
 * page's language writes numbers) in `line`, where the field's form shows its errors. The
 * field's next change takes it away, and only it: the line may say something else by then
 * (the server's answer, another field's sentence). */
export function tellWhenCut(field, line, sentence) {
  const words = () => interpolate(sentence, { max: new Intl.NumberFormat(pageLanguage()).format(field.maxLength) });
  sayWhenCut(field, (cut) => {
    if (cut) line.textContent = words();
    else if (line.textContent === words()) line.textContent = "";
  });
}
