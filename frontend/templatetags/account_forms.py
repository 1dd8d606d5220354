"""allauth's form fields in the site's words: ``{{ field|sentence_label }}``,
``{{ field|our_help }}`` and ``{{ field|plain_widget }}``
(frontend/templates/allauth/elements/fields.html).

allauth's forms name their fields in Title Case ("Current Password", "New Password
(again)") and repeat the label as a placeholder; the site writes sentence case, and a
placeholder that only repeats the label shown above it is noise (and goes away as soon
as one types), so it is left out. In another language the label is allauth's translation
(or ours, for the reworded ones), written as that language writes it: it is left as it is
(German capitalises its nouns).
"""

from __future__ import annotations

from django import template
from django.forms import BoundField
from django.utils import translation
from django.utils.functional import Promise
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy

register = template.Library()

# Field labels of allauth's forms reworded, not only recased: the site says "log in".
# Keyed by the English label.
REWORDED = {
    "login": gettext_lazy("Username"),
    "remember me": gettext_lazy("Stay logged in"),
    "passwordless": gettext_lazy("Passwordless: log in with this key alone"),
}
# Help texts of allauth's fields (by field name) in the site's words.
HELP = {
    "display_name": gettext_lazy("As shown on the boards; your username if left empty."),
    "passwordless": gettext_lazy(
        "The key then asks for your fingerprint, face or PIN each time it is used."
    ),
}


def sentence_case(text: str) -> str:
    """ "New Password (again)" -> "New password (again)"; words in capitals (TOTP) stay."""
    words = str(text).split(" ")
    kept = [words[0]] + [w if w.isupper() and len(w) > 1 else w.lower() for w in words[1:]]
    return " ".join(kept)


def in_english(text: object) -> str:
    """A (lazily translated) text of allauth's as written in English."""
    with translation.override("en"):
        return str(text)


def our_case(text: object) -> str:
    """English in sentence case; a translation as its language writes it (a plain string,
    translated already or not, is taken to be in the page's language)."""
    shown = str(text)
    if isinstance(text, Promise):
        untranslated = shown == in_english(text)
    else:
        untranslated = (translation.get_language() or "en").split("-")[0] == "en"
    return sentence_case(shown) if untranslated else shown


@register.filter
def sentence_label(field: BoundField) -> str:
    label = field.label or ""
    reworded = REWORDED.get(in_english(label).lower())
    return str(reworded) if reworded is not None else our_case(label)


@register.filter
def our_help(field: BoundField) -> str:
    """The field's help (HTML: Django's password rules are a list), reworded where needed."""
    return str(HELP.get(field.name, field.help_text or ""))


@register.filter
def plain_widget(field: BoundField) -> SafeString:
    placeholder = field.field.widget.attrs.get("placeholder")
    if placeholder is None:
        return field.as_widget()
    same = str(placeholder).lower() == str(field.label or "").lower()
    # False drops the attribute (Django's widget attrs template skips it).
    return field.as_widget(attrs={"placeholder": False if same else our_case(placeholder)})
