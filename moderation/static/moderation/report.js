// The replay page's "Report this game" form: POST /api/games/<id>/report/ with a reason.

import { api, fieldErrorText } from "../frontend/js/shared/api.js";
import { tellWhenCut } from "../frontend/js/shared/dom.js";
import { gettext } from "../frontend/js/shared/i18n.js";

const root = document.querySelector("[data-report]");
if (root) {
  const form = root.querySelector("[data-report-form]");
  // a refusal, or a text cut at the field's maxlength, is the form's error, as on the site's
  // other forms; the thanks are a status
  const status = root.querySelector("[data-report-status]");
  const error = root.querySelector("[data-report-error]");
  tellWhenCut(form.elements.reason, error, gettext("A report has at most %(max)s characters: yours was cut to fit."));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const reason = form.elements.reason.value.trim(); // only spaces: the server says what to do
    error.textContent = "";
    try {
      await api.post(`/api/games/${root.dataset.gameId}/report/`, { reason });
    } catch (err) {
      error.textContent = fieldErrorText(err.body, err.message);
      return;
    }
    status.textContent = gettext("Thank you: the moderators will look at this game.");
    form.elements.reason.disabled = true;
    form.querySelector("button").disabled = true;
  });
}
