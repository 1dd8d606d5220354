// Sign-up and log-in, through allauth's headless API (docs/accounts.md): a password, then
// the account's second factor if it has one (a code or a passkey), or a passkey alone.
// On success, back where the player came from (`?next=`, an invite say), also after an
// email address is confirmed: the page sends `next` along in the query of its requests,
// and the account adapter puts it in the mailed link.

import { ApiError, request } from "../shared/api.js";
import { tellWhenCut } from "../shared/dom.js";
import { gettext, interpolate } from "../shared/i18n.js";
import { safeNext } from "../shared/next_url.js";
import { passkeyFailure, passkeyNote, passkeyProblem } from "../shared/passkeys.js";

const AUTH = "/_allauth/browser/v1";

const form = document.querySelector("[data-account-form]");
const errorEl = document.querySelector("[data-form-error]");
const secondFactor = document.querySelector("[data-second-factor]");
const notice = document.querySelector("[data-form-notice]");

function nextUrl() {
  return safeNext(new URLSearchParams(window.location.search).get("next"), window.location.origin);
}

/** `?next=...` for a request or a link, when there is somewhere to come back to. */
function nextQuery() {
  const next = nextUrl();
  return next === "/" ? "" : `?${new URLSearchParams({ next })}`;
}

/** A form field as the page names it: its label's own words ("Log-in name" for
 * `username`), else a word for the headless API's `param`, or the param itself. */
function fieldName(param) {
  const input = document.querySelector(`[data-account-form] [name="${CSS.escape(param)}"]`);
  const label = input?.closest("label");
  const words = label && [...label.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)
    .map((n) => n.textContent).join(" ").replace(/\s*\(.*$/s, "").trim(); // "Email (optional: ...)"
  if (words) return words;
  const names = {
    username: gettext("username"),
    display_name: gettext("display name"),
    email: gettext("email"),
    password: gettext("password"),
    code: gettext("code"),
  };
  return names[param] || param.replace("_", " ");
}

/** The readable message of a headless error answer ({errors: [{message, param}]});
 * the message is in the page's language already (the server's). */
function headlessError(err) {
  const errors = err.body?.errors;
  if (Array.isArray(errors) && errors.length) {
    const first = errors[0];
    // a wrong name or password is about both fields: said without naming one
    if (!first.param || first.param === "__all__" || first.code === "username_password_mismatch") return first.message;
    return interpolate(gettext("%(field)s: %(message)s"), { field: fieldName(first.param), message: first.message });
  }
  if (err.status === 429) return gettext("Too many tries; wait a little and try again.");
  return err.message;
}

/** A pending log-in's next step, from a 401 answer (or null). */
function pendingFlow(err) {
  if (!(err instanceof ApiError) || err.status !== 401) return null;
  return (err.body?.data?.flows || []).find((flow) => flow.is_pending) || null;
}

function showError(err) {
  if (!err) errorEl.textContent = "";
  else if (err instanceof DOMException) errorEl.textContent = passkeyFailure(err);
  else errorEl.textContent = headlessError(err);
}

/** An account whose sign-up gave an email address logs in once the address is confirmed;
 * the server says the same whether or not the address already had an account. */
function askToConfirmEmail(email) {
  form.hidden = true;
  notice.hidden = false;
  // One sentence per case, its link a field: the words around it differ by language.
  const sentence = email
    ? interpolate(gettext("Check your mail: we sent a message to %(email)s. Follow its link, then %(log_in)s."), { email })
    : gettext("Confirm your email address first: follow the link in the mail we sent to it, then %(log_in)s.");
  const logIn = document.createElement("a");
  logIn.href = `/login/${nextQuery()}`;
  logIn.textContent = gettext("log in");
  const [before, after = ""] = sentence.split("%(log_in)s");
  notice.replaceChildren(before, logIn, after);
}

async function finish(call, email = "") {
  showError(null);
  try {
    await call();
    window.location.href = nextUrl();
  } catch (err) {
    const flow = pendingFlow(err);
    if (flow && flow.id === "verify_email" && notice) {
      askToConfirmEmail(email);
      return;
    }
    if (flow && flow.id === "mfa_authenticate" && secondFactor) {
      form.hidden = true;
      secondFactor.hidden = false;
      secondFactor.querySelector("[data-use-passkey]").hidden = !(flow.types || []).includes("webauthn");
      secondFactor.querySelector("input[name=code]").focus();
      return;
    }
    showError(err);
  }
}

/** Ask the browser for a passkey assertion with the server's options; the answer as JSON. */
async function assertion(options) {
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey);
  const credential = await navigator.credentials.get({ publicKey });
  return credential.toJSON();
}

// What the browser cuts at a field's maxlength is said where the form's errors are.
for (const [field, sentence] of [
  [form?.elements.username, gettext("A log-in name has at most %(max)s characters: yours was cut to fit.")],
  [form?.elements.display_name, gettext("A display name has at most %(max)s characters: yours was cut to fit.")], // sign-up
  [secondFactor?.elements.code, gettext("A code has at most %(max)s characters: this one was cut to fit.")], // log-in
]) {
  if (field) tellWhenCut(field, errorEl, sentence);
}

if (form) {
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(form));
    const action = form.dataset.action;
    if (action === "signup") {
      if (!data.display_name) data.display_name = data.username;
      if (!data.email) delete data.email;
    }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const send = () => request("POST", `${AUTH}/auth/${action}${nextQuery()}`, data);
    finish(send, data.email || "").finally(() => {
      button.disabled = false;
    });
  });
  // The button comes disabled: a click before this module has loaded (a slow phone) would
  // send the form by the browser itself, the password with it.
  form.querySelector("button[type=submit]").disabled = false;
}

// Where this address cannot use passkeys, the passkey buttons say why (and stay off)
// rather than fail in the console.
const passkeyBlocked = passkeyProblem(window.location, window);
if (passkeyBlocked) {
  const buttons = document.querySelectorAll("[data-passkey]");
  const shown = document.querySelector("[data-passkey-login]"); // the one in view from the start
  if (shown) shown.closest(".button-row").after(passkeyNote(passkeyBlocked, "passkey-note"));
  for (const button of buttons) {
    button.disabled = true;
    button.setAttribute("aria-describedby", "passkey-note");
  }
}

const passkeyLogin = document.querySelector("[data-passkey-login]");
if (passkeyLogin) {
  passkeyLogin.addEventListener("click", () =>
    finish(async () => {
      const options = await request("GET", `${AUTH}/auth/webauthn/login`);
      const credential = await assertion(options.data.request_options);
      await request("POST", `${AUTH}/auth/webauthn/login`, { credential });
    }),
  );
}

if (secondFactor) {
  secondFactor.addEventListener("submit", (e) => {
    e.preventDefault();
    const code = new FormData(secondFactor).get("code");
    finish(() => request("POST", `${AUTH}/auth/2fa/authenticate`, { code }));
  });
  secondFactor.querySelector("[data-use-passkey]").addEventListener("click", () =>
    finish(async () => {
      const options = await request("GET", `${AUTH}/auth/webauthn/authenticate`);
      const credential = await assertion(options.data.request_options);
      await request("POST", `${AUTH}/auth/webauthn/authenticate`, { credential });
    }),
  );
}
