// A question before something is lost: a modal <dialog> whose default answer keeps it.
//
// Not window.confirm: the page words and styles its own question, names the two choices
// ("Keep playing", "Deal a new game"), and a screen reader hears the dialog's title and
// text as it opens (aria-labelledby, aria-describedby). Escape, or Enter on the first
// button, which has the focus, keeps what the player has.

import { el } from "./html.js";
import { gettext } from "./i18n.js";

let dialog = null;

function build() {
  const question = el("dialog", { class: "confirm", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text" },
    el("form", { method: "dialog" },
      el("h2", { id: "confirm-title", "data-confirm-title": true }),
      el("p", { id: "confirm-text", "data-confirm-text": true }),
      el("div", "confirm-actions",
        el("button", { type: "submit", class: "button", value: "keep", "data-confirm-keep": true }), " ",
        el("button", { type: "submit", class: "button ghost", value: "go", "data-confirm-go": true }))));
  document.body.append(question);
  return question;
}

/**
 * Ask before an action that loses something; resolves true only when the player chose
 * `go` (the action's own words, "Deal a new game"). `keep` is the default and has the
 * focus. A second question while one is open is answered "keep" at once.
 */
export function confirmChoice({ title, text, go, keep = gettext("Keep playing") }) {
  dialog ||= build();
  if (dialog.open) return Promise.resolve(false);
  dialog.querySelector("[data-confirm-title]").textContent = title;
  dialog.querySelector("[data-confirm-text]").textContent = text;
  const keepButton = dialog.querySelector("[data-confirm-keep]");
  keepButton.textContent = keep;
  dialog.querySelector("[data-confirm-go]").textContent = go;
  dialog.returnValue = "keep"; // Escape closes without a button: the default
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "go"), { once: true });
    dialog.showModal();
    keepButton.focus();
  });
}
