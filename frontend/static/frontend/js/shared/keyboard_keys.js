// The keyboard help's trigger, on every page (pages/base.js): `?`, and a "Keyboard
// shortcuts" button in the footer. The list itself (shared/keyboard_help.js) loads on first
// use: most visits never open it.

const openHelp = (doc) => import("./keyboard_help.js").then(({ openKeyboardHelp }) => openKeyboardHelp(doc));

const TEXT_INPUTS = new Set(["", "text", "search", "email", "url", "tel", "password", "number", "date",
  "datetime-local", "month", "week", "time"]);

/** Is `node` a place where `?` is a character being typed (or chosen, in a select)? */
export function isTypingTarget(node) {
  if (!node || !node.tagName) return false;
  if (node.isContentEditable) return true;
  const tag = node.tagName.toLowerCase();
  if (tag === "textarea" || tag === "select") return true;
  return tag === "input" && TEXT_INPUTS.has((node.getAttribute("type") || "").toLowerCase());
}

/** Does this keydown ask for the help? `?` alone (Shift is how most layouts type it),
 * not typed into a field, not already taken by the page (a win's cascade stops on it). */
export function asksForHelp(event) {
  return event.key === "?" && !event.ctrlKey && !event.metaKey && !event.altKey && !event.repeat
    && !event.defaultPrevented && !isTypingTarget(event.target);
}

/** Every page (pages/base.js): `?` opens the list, and the footer's "Keyboard shortcuts"
 * button (base.html draws it) does too, for whoever does not know the key. */
export function installKeyboardHelp(doc = document) {
  doc.addEventListener("keydown", (event) => {
    if (!asksForHelp(event)) return;
    event.preventDefault();
    openHelp(doc);
  });
  doc.querySelector("[data-keyboard-help-open]")?.addEventListener("click", () => openHelp(doc));
}
