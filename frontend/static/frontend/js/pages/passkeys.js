// allauth's passkey pages (add a passkey, use one to confirm it is you or as the second
// factor; frontend/templates/allauth/passkeys.html): where this address cannot use
// passkeys the buttons say why on the page, and a passkey that fails says what happened,
// instead of allauth's script leaving both in the console.

import { passkeyFailure, passkeyNote, passkeyProblem } from "../shared/passkeys.js";

const NOTE_ID = "passkey-note";

/** allauth's passkey buttons: the ids its scripts are given (`data-allauth-onload`). */
function passkeyButtons() {
  const buttons = [];
  for (const script of document.querySelectorAll('script[data-allauth-onload^="allauth.webauthn."]')) {
    const { ids = {} } = JSON.parse(script.textContent);
    for (const key of ["add", "authenticate", "signup", "login"]) {
      const button = ids[key] && document.getElementById(ids[key]);
      if (button) buttons.push(button);
    }
  }
  return buttons;
}

/** Where a message about these buttons goes: after the row that holds the first. */
function placeAfter(buttons, element) {
  const anchor = buttons[0].closest(".button-row") || buttons[0];
  anchor.after(element);
}

const buttons = passkeyButtons();
const problem = buttons.length ? passkeyProblem(window.location, window) : null;
if (problem) {
  placeAfter(buttons, passkeyNote(problem, NOTE_ID));
  for (const button of buttons) {
    button.disabled = true;
    button.setAttribute("aria-describedby", NOTE_ID);
  }
} else if (buttons.length) {
  const failure = document.createElement("p");
  failure.className = "form-error";
  failure.setAttribute("role", "alert");
  placeAfter(buttons, failure);
  document.addEventListener("allauth.error", (event) => {
    event.preventDefault(); // said on the page, not only in the console
    failure.textContent = passkeyFailure(event.detail?.exception);
  });
}
