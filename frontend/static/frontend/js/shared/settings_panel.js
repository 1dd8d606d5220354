// The settings panel, opened from the header's gear (base.html, every page): a modal
// <dialog> whose every control applies and saves its setting as it changes (settings.js),
// with no Save button to forget and no reload.

import { el } from "./html.js";
import { gettext, pgettext } from "./i18n.js";
import { CHOICES, currentSettings, saveSettings, SETTINGS_EVENT } from "./settings.js";

const WORDS = {
  theme: {
    system: gettext("Same as this device"),
    light: pgettext("theme", "Light"),
    dark: pgettext("theme", "Dark"),
    contrast: pgettext("theme", "High contrast"),
  },
  suits: { two: gettext("Two-colour suits"), four: gettext("Four-colour suits") },
  animations: { system: gettext("Same as this device"), on: pgettext("animations", "On"), off: pgettext("animations", "Off") },
};

/** A group of one choice among `CHOICES[key]`, and any `more` controls after it. */
function radios(key, legend, ...more) {
  return el("fieldset", "settings-group",
    el("legend", null, legend),
    CHOICES[key].map((value) => el("label", "settings-choice",
      el("input", { type: "radio", name: `settings-${key}`, value, "data-setting": key }),
      " ", WORDS[key][value])),
    more);
}

function checkbox(key, words, note = null) {
  return el("label", "settings-choice",
    el("input", { type: "checkbox", "data-setting": key }), " ", words,
    note && el("span", "settings-note", note));
}

/** The header's language picker (base.html) again: a change posts the header's form, which
 * keeps the choice (in the account too) and brings the page back in that language. */
function languageChoice() {
  const picker = document.querySelector("[data-language-picker]");
  if (!picker) return null;
  const header = picker.querySelector("select");
  const select = header.cloneNode(true);
  select.removeAttribute("aria-label"); // named by its label here
  select.value = header.value;
  select.addEventListener("change", () => {
    header.value = select.value;
    picker.requestSubmit();
  });
  return el("fieldset", "settings-group",
    el("legend", null, gettext("Language")),
    el("label", "settings-range", gettext("Language of the site and of its mail"), select));
}

function build(loggedIn) {
  return el("dialog", { class: "settings-panel", "aria-labelledby": "settings-title" },
    el("form", { method: "dialog" },
      el("h2", { id: "settings-title" }, gettext("Settings")),
      languageChoice(),
      radios("theme", gettext("Theme")),
      radios("suits", gettext("Card faces"),
        // the rules, the game's messages and the diagrams say red and black
        el("p", "settings-note", gettext("With four colours, clubs are green and diamonds blue: they still count as black and red.")),
        checkbox("largeIndices", gettext("Large indices"), gettext("Bigger rank and suit in the corner, for small screens"))),
      radios("animations", gettext("Animations")),
      el("fieldset", "settings-group",
        el("legend", null, gettext("Sounds")),
        checkbox("sound", gettext("Sounds")),
        el("label", "settings-range", gettext("Volume"),
          el("input", { type: "range", min: 0, max: 1, step: 0.05, "data-setting": "volume" }))),
      el("fieldset", "settings-group",
        el("legend", null, pgettext("settings group", "Play")),
        checkbox("confirmResign", gettext("Confirm before resigning")),
        checkbox("hints", gettext("Show the Hint button in practice"))),
      el("p", "settings-where",
        loggedIn ? gettext("Saved in your account and in this browser.") : gettext("Saved in this browser. Log in to keep them in your account.")),
      el("div", "settings-actions", el("button", { type: "submit", class: "button", value: "done" }, gettext("Done")))));
}

/** Set every control to `settings`. */
function show(dialog, settings) {
  for (const input of dialog.querySelectorAll("[data-setting]")) {
    const value = settings[input.dataset.setting];
    if (input.type === "radio") input.checked = input.value === value;
    else if (input.type === "checkbox") input.checked = value;
    else input.value = String(value);
  }
}

function valueOf(input) {
  if (input.type === "checkbox") return input.checked;
  if (input.type === "range") return Number(input.value);
  return input.value;
}

let dialog = null;

/** Open the panel (built on the first call). `onAccountError(err)`: the account did not
 * take a change (it still applies in this browser). */
export function openSettingsPanel({ loggedIn, onAccountError }) {
  if (!dialog) {
    dialog = build(loggedIn);
    dialog.addEventListener("input", (event) => {
      const input = event.target.closest("[data-setting]");
      if (input) saveSettings({ [input.dataset.setting]: valueOf(input) }, { onAccountError });
    });
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) dialog.close(); // a click on the backdrop
    });
    document.addEventListener(SETTINGS_EVENT, (event) => show(dialog, event.detail));
    document.body.append(dialog);
  }
  show(dialog, currentSettings());
  dialog.showModal();
}
