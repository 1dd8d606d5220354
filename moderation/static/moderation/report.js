// The replay page's "Report this game" form: POST /api/games/<id>/report/ with a reason.

import { api } from "../frontend/js/shared/api.js";
import { tellWhenCut } from "../frontend/js/shared/dom.js";
import { gettext } from "../frontend/js/shared/i18n.js";

const root = document.querySelector("[data-report]");
if (root) {
  const form = root.querySelector("[data-report-form]");
  const status = root.querySelector("[data-report-status]");
  tellWhenCut(form.elements.reason, status, gettext("A report has at most %(max)s characters: yours was cut to fit."));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const reason = form.elements.reason.value.trim();
    if (!reason) return;
    try {
      await api.post(`/api/games/${root.dataset.gameId}/report/`, { reason });
    } catch (err) {
      status.textContent = err.message;
      return;
    }
    status.textContent = gettext("Thank you: the moderators will look at this game.");
    form.elements.reason.disabled = true;
    form.querySelector("button").disabled = true;
  });
}
