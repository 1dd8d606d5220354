// The browser's side of translation (docs/development.md, "Translations"). English is the
// source text: a page in another language loads its catalogue (Django's JavaScriptCatalog,
// the djangojs domain of locale/<language>/) as a classic script before the modules, and
// the functions below read it; with none (English, or node's tests) they give the English.
// `manage.py makemessages -d djangojs` finds the strings by these names: call them with
// string literals, never with a variable or a template literal.

const catalogue = globalThis.django?.gettext ? globalThis.django : null;

/** `text` in the page's language. */
export function gettext(text) {
  return catalogue ? catalogue.gettext(text) : text;
}

/** `one` or `other` in the page's language, by `count` and the language's plural rule. */
export function ngettext(one, other, count) {
  return catalogue ? catalogue.ngettext(one, other, count) : count === 1 ? one : other;
}

/** `text` in `context` (the same English word translated two ways: "Home" a page, "home" a foundation). */
export function pgettext(context, text) {
  return catalogue ? catalogue.pgettext(context, text) : text;
}

/** `npgettext`: `ngettext` in a context. */
export function npgettext(context, one, other, count) {
  return catalogue ? catalogue.npgettext(context, one, other, count) : count === 1 ? one : other;
}

/** A translated text's `%(name)s` fields filled from `values` (the order of words differs
 * between languages, so fields are named, never positional). */
export function interpolate(text, values) {
  return text.replace(/%\((\w+)\)s/g, (field, name) => (name in values ? String(values[name]) : field));
}

/** The page's language (BCP 47, from <html lang>): what `Intl` formats dates, times and numbers
 * in. As the reader's browser names it when it names that language with a region ("en-GB",
 * "de-AT"): a British reader's English page keeps the 24-hour clock and the day before the
 * month, an American's the 12-hour one. */
export function pageLanguage() {
  const page = globalThis.document?.documentElement.lang || "en";
  const primary = (tag) => tag.split("-")[0].toLowerCase();
  const own = globalThis.navigator?.languages?.find((tag) => primary(tag) === primary(page));
  return own || page;
}
