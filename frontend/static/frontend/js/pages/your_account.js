// Your account page: change the display name (POST /api/auth/display-name/), delete the
// account, and the reminders (shared/reminders.js).

import { api, fieldErrorText } from "../shared/api.js";
import { tellWhenCut, toast } from "../shared/dom.js";
import { gettext, interpolate } from "../shared/i18n.js";
import { setUpReminders } from "../shared/reminders.js";

const nameForm = document.querySelector("[data-display-name]");
tellWhenCut(nameForm.elements.display_name, nameForm.querySelector("[data-error]"),
  gettext("A display name has at most %(max)s characters: yours was cut to fit."));
nameForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  const error = nameForm.querySelector("[data-error]");
  error.textContent = "";
  try {
    const me = await api.post("/api/auth/display-name/", Object.fromEntries(new FormData(nameForm)));
    toast(interpolate(gettext("You are now %(name)s on the boards."), { name: me.player.display_name }));
    document.querySelectorAll(".who").forEach((el) => { el.textContent = me.player.display_name; });
  } catch (err) {
    error.textContent = fieldErrorText(err.body, err.message);
  }
});

// Delete the account: the password (or a recent re-authentication) and the typed phrase.
const deleteForm = document.querySelector("[data-delete-account]");
deleteForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  const error = deleteForm.querySelector("[data-error]");
  error.textContent = "";
  const data = Object.fromEntries(new FormData(deleteForm));
  if (!data.password) delete data.password;
  try {
    await api.post("/api/auth/delete/", data);
    // the home page, as a guest now, says the account is gone (frontend.views.home)
    window.location.replace("/?account=deleted");
  } catch (err) {
    if (err.body && err.body.reauthenticate) {
      window.location.href = err.body.reauthenticate;
      return;
    }
    // the message alone: "Type “delete my account” to confirm.", "Wrong password."
    error.textContent = fieldErrorText(err.body, err.message);
  }
});

// Reminders: push and email, at a time the player picks (shared/reminders.js).
const remindersForm = document.querySelector("[data-reminders]");
if (remindersForm) setUpReminders(remindersForm);
