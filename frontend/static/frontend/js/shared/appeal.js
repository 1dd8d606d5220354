// One's own player page: what the moderators decided about you (GET /api/moderation/notices/,
// in plain words) and the one appeal of a disqualified game (POST /api/moderation/appeals/).
// The section and its form are in player.html, hidden until there is a notice. Every text
// from the server goes in as text (textContent), never as markup.

import { api, fieldErrorText } from "./api.js";
import { tellWhenCut } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";

const APPEAL_STATES = {
  open: gettext("Your appeal is waiting for a moderator."),
  upheld: gettext("Your appeal was heard: the decision stands."),
  reinstated: gettext("Your appeal was heard: the result is back on its board."),
};

/** A short line about a notice's appeal, or "" when there is none to mention. */
export function appealLine(notice) {
  if (notice.appeal) return APPEAL_STATES[notice.appeal.status] || "";
  return notice.can_appeal ? gettext("You can appeal this decision once.") : "";
}

/** The day a notice was sent, as a date (UTC, like every day on the site). */
export function noticeDay(notice) {
  return String(notice.created_at || "").slice(0, 10);
}

/** A notice's text, line by line (blank lines between its paragraphs left out). */
export function noticeLines(notice) {
  return String(notice.text || "").split("\n").filter((line) => line.trim());
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function noticeItem(notice, onAppeal) {
  const item = element("li", "notice-item");
  item.dataset.notice = String(notice.id);
  item.append(element("p", "muted small", noticeDay(notice)));
  // The text as it was mailed: a paragraph for each of its lines.
  for (const line of noticeLines(notice)) item.append(element("p", "", line));
  const line = appealLine(notice);
  if (line) item.append(element("p", "muted", line));
  if (notice.can_appeal) {
    const button = element("button", "button small", gettext("Appeal this decision"));
    button.type = "button";
    button.dataset.appealGame = String(notice.game);
    button.addEventListener("click", () => onAppeal(notice, button));
    item.append(button);
  }
  return item;
}

/** Fill the notices section `box` and wire its appeal form; resolves once drawn. */
export async function showModerationNotices(box) {
  if (!box) return;
  const list = box.querySelector("[data-notice-list]");
  const form = box.querySelector("[data-appeal-form]");
  const about = form.querySelector("[data-appeal-about]");
  // what went through is a status (it stays when the form closes); a refusal, or a text cut
  // at the field's maxlength, is the form's error, as on the site's other forms
  const status = box.querySelector("[data-appeal-status]");
  const error = form.querySelector("[data-appeal-error]");
  let opener = null;
  tellWhenCut(form.elements.reason, error, gettext("An appeal has at most %(max)s characters: yours was cut to fit."));

  const openForm = (notice, button) => {
    opener = button;
    form.elements.game.value = String(notice.game);
    about.textContent = interpolate(gettext("Your appeal of the decision about game %(game)s. A moderator reads it before any other work."),
      { game: notice.game });
    status.textContent = "";
    error.textContent = "";
    form.hidden = false;
    form.elements.reason.focus();
  };

  const draw = async () => {
    const notices = await api.get("/api/moderation/notices/");
    list.replaceChildren(...notices.map((notice) => noticeItem(notice, openForm)));
    box.hidden = notices.length === 0;
  };

  form.querySelector("[data-appeal-cancel]").addEventListener("click", () => {
    form.hidden = true;
    opener?.focus();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    error.textContent = "";
    try {
      await api.post("/api/moderation/appeals/", {
        game: Number(form.elements.game.value),
        reason: form.elements.reason.value,
      });
      form.reset();
      form.hidden = true;
      status.textContent = gettext("Your appeal was sent: a moderator will read it.");
      await draw();
    } catch (err) {
      error.textContent = fieldErrorText(err.body, err.message);
    } finally {
      submit.disabled = false;
    }
  });

  try {
    await draw();
  } catch {
    box.hidden = true; // not logged in any more, or the server is away: nothing to tell
  }
}
