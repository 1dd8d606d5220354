// The account page's reminders (docs/reminders.md): the player's choices
// (GET/PUT /api/reminders/preferences/) and this browser's push subscription
// (POST /api/reminders/push-subscriptions/, DELETE ...?endpoint=). The browser asks for
// permission to show notifications only when the player turns push on, never on page load.

import { ApiError, fieldErrorText, request } from "./api.js";
import { toast } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";

const PREFERENCES = "/api/reminders/preferences/";
const SUBSCRIPTIONS = "/api/reminders/push-subscriptions/";

/** Whether this browser can take Web Push at all. */
export function pushSupported(scope = globalThis) {
  return Boolean(scope.navigator && "serviceWorker" in scope.navigator && "PushManager" in scope && "Notification" in scope);
}

/** The VAPID key as PushManager.subscribe takes it (base64url text to bytes). */
export function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** The scope of the push worker: its own folder, so it controls no page. */
function scopeOf(workerUrl) {
  return new URL(".", new URL(workerUrl, location.href)).pathname;
}

async function currentSubscription(workerUrl) {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration(scopeOf(workerUrl));
  return registration ? registration.pushManager.getSubscription() : null;
}

async function subscribe(workerUrl) {
  const { public_key: key } = await request("GET", "/api/reminders/vapid-key/");
  const registration = await navigator.serviceWorker.register(workerUrl, { scope: scopeOf(workerUrl), type: "classic" });
  const worker = registration.installing || registration.waiting || registration.active;
  if (worker && worker.state !== "activated") {
    await new Promise((resolve) => {
      worker.addEventListener("statechange", () => { if (worker.state === "activated") resolve(); });
    });
  }
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  await request("POST", SUBSCRIPTIONS, subscription.toJSON());
}

async function unsubscribe(workerUrl) {
  const subscription = await currentSubscription(workerUrl);
  if (!subscription) return;
  await request("DELETE", `${SUBSCRIPTIONS}?endpoint=${encodeURIComponent(subscription.endpoint)}`);
  await subscription.unsubscribe();
}

/** What the page says when turning notifications on (`turningOn`) or off failed: the
 * server's refusal in its own words; any other failure is the browser's (Chrome in a
 * private window: "Registration failed - permission denied"), whose raw text means
 * nothing to a player, so it is said in the page's words. */
export function pushFailureText(err, turningOn) {
  if (err instanceof ApiError) return fieldErrorText(err.body, err.message);
  return turningOn
    ? gettext("This browser cannot receive notifications from this site here (a private window often cannot). Email reminders still work.")
    : gettext("Notifications could not be turned off in this browser: try again, or block them in its site settings.");
}

/** Whether reminders go out at all, in words: only by a way the player turned on (push on
 * some device of theirs, or email), and only of a kind ticked. */
function showState(form, prefs) {
  let state = gettext("Reminders are on.");
  if (!prefs.push && !prefs.email) state = gettext("Reminders are off: nothing is sent until you turn on notifications or email, below.");
  else if (!prefs.streak && !prefs.rival) state = gettext("Reminders are off: no kind of reminder is ticked.");
  form.querySelector("[data-reminders-state]").textContent = state;
}

function fill(form, prefs, subscribed) {
  showState(form, prefs);
  form.elements.streak.checked = prefs.streak;
  form.elements.rival.checked = prefs.rival;
  form.elements.time.value = prefs.time;
  // A first visit (nothing on yet): the browser's own zone rather than UTC.
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  form.elements.time_zone.value = !prefs.push && !prefs.email && browserZone ? browserZone : prefs.time_zone;
  form.elements.push.checked = prefs.push && subscribed;
  form.elements.email.checked = prefs.email;
  const emailNote = form.querySelector("[data-email-note]");
  form.elements.email.disabled = !prefs.email_verified && !prefs.email;
  emailNote.textContent = prefs.email_verified
    ? interpolate(gettext("Sent to %(address)s."), { address: prefs.email_address })
    : gettext("Email reminders go only to a verified address: add or confirm yours under Email address above.");
  const pushNote = form.querySelector("[data-push-note]");
  if (!prefs.push_available || !pushSupported()) {
    form.elements.push.disabled = true;
    pushNote.textContent = prefs.push_available
      ? gettext("This browser cannot show notifications from a site.")
      : gettext("This site sends no notifications yet; email reminders work.");
  }
}

/** The choices the form shows, as the API takes them (push is this browser's, apart). */
function choices(form) {
  const el = form.elements;
  return {
    streak: el.streak.checked,
    rival: el.rival.checked,
    time: el.time.value,
    time_zone: el.time_zone.value.trim(),
    email: el.email.checked,
  };
}

/** Fill the reminders form and wire it up. The ways (push, email) save at once, as they
 * are ticked, with everything else the form shows: push on asks for permission and
 * subscribes this browser, push off unsubscribes it. Save sends the rest; until then a
 * change is marked unsaved, and leaving the page asks first. */
export async function setUpReminders(form) {
  const workerUrl = form.dataset.pushWorker;
  const error = form.querySelector("[data-error]");
  const pushNote = form.querySelector("[data-push-note]");
  const unsavedNote = form.querySelector("[data-unsaved]");
  // The choices that wait for Save, as JSON: all but the email tick, which saves itself.
  const pending = () => {
    const { email, ...rest } = choices(form);
    return JSON.stringify(rest);
  };
  let saved = null; // pending() as last loaded or saved
  const unsaved = () => saved !== null && pending() !== saved;
  const markUnsaved = () => {
    unsavedNote.textContent = unsaved() ? gettext("You have unsaved changes.") : "";
  };
  const filled = (prefs, subscribed) => {
    fill(form, prefs, subscribed);
    saved = pending();
    markUnsaved();
  };
  // One save at a time, in the order made: a tick's save and a Save pressed at once must
  // answer in order, or the older answer filled the form over the newer one.
  let saving = Promise.resolve();
  const put = (changes) => {
    const answer = saving.catch(() => {}).then(() => request("PUT", PREFERENCES, changes));
    saving = answer;
    return answer;
  };
  // Save ``changes`` and show the answer. A choice the player changed while the request was
  // out stays as they left it, marked unsaved: the answer says only what is on and how the
  // email box may be used (it used to fill the form, and undo a tick made meanwhile).
  const save = async (changes, subscribed) => {
    const sent = JSON.stringify(choices(form));
    const sentPending = pending();
    const prefs = await put(changes);
    if (JSON.stringify(choices(form)) === sent) {
      filled(prefs, subscribed);
      return;
    }
    showState(form, prefs);
    form.elements.email.disabled = !prefs.email_verified && !prefs.email;
    saved = sentPending; // what the server has now
    markUnsaved();
  };
  try {
    const [prefs, subscription] = await Promise.all([request("GET", PREFERENCES), currentSubscription(workerUrl).catch(() => null)]);
    filled(prefs, Boolean(subscription));
  } catch (err) {
    error.textContent = fieldErrorText(err.body, err.message);
    return;
  }
  form.addEventListener("input", markUnsaved);
  form.addEventListener("change", markUnsaved);
  window.addEventListener("beforeunload", (e) => {
    if (!unsaved()) return;
    e.preventDefault();
    e.returnValue = ""; // older browsers ask only with this set
  });

  form.elements.email.addEventListener("change", async () => {
    const box = form.elements.email;
    error.textContent = "";
    box.disabled = true;
    try {
      await save(choices(form), form.elements.push.checked); // the answer enables the box
      toast(box.checked ? gettext("Email reminders are on.") : gettext("Email reminders are off."));
    } catch (err) {
      box.checked = !box.checked;
      box.disabled = false;
      error.textContent = fieldErrorText(err.body, err.message);
    }
  });

  form.elements.push.addEventListener("change", async () => {
    const box = form.elements.push;
    error.textContent = pushNote.textContent = "";
    box.disabled = true;
    try {
      if (box.checked) {
        // Asked here, in the click's handler: the one moment the player chose notifications.
        const permission = await Notification.requestPermission();
        if (permission !== "granted") {
          box.checked = false;
          pushNote.textContent = gettext("Notifications are blocked for this site: allow them in your browser's site settings, then try again.");
          return;
        }
        await subscribe(workerUrl);
        await save({ ...choices(form), push: true }, true);
        toast(gettext("Notifications are on for this device."));
      } else {
        await unsubscribe(workerUrl);
        await save({ ...choices(form), push: false }, false);
        toast(gettext("Notifications are off."));
      }
    } catch (err) {
      box.checked = !box.checked;
      // beside the box, as the blocked permission is
      pushNote.textContent = pushFailureText(err, !box.checked);
    } finally {
      box.disabled = false;
    }
  });

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    try {
      await save(choices(form), form.elements.push.checked);
      toast(gettext("Reminders saved."));
    } catch (err) {
      error.textContent = fieldErrorText(err.body, err.message);
    }
  });
}
