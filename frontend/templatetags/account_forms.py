"""allauth's form fields in the site's words: ``{{ field|sentence_label }}``,
``{{ field|our_help }}`` and ``{{ field|plain_widget }}``
(frontend/templates/allauth/elements/fields.html).

allauth's forms name their fields in Title Case ("Current Password", "New Password
(again)") and repeat the label as a placeholder; the site writes sentence case, and a
placeholder that only repeats the label shown above it is noise (and goes away as soon
as one types), so it is left out.
"""

from __future__ import annotations

from django import template
from django.forms import BoundField
from django.utils.safestring import SafeString

register = template.Library()

# Field labels of allauth's forms reworded, not only recased: the site says "log in".
REWORDED = {
    "login": "Username",
    "remember me": "Stay logged in",
    "passwordless": "Passwordless: log in with this key alone",
}
# Help texts of allauth's fields (by field name) in the site's words.
HELP = {
    "passwordless": "The key then asks for your fingerprint, face or PIN each time it is used.",
}


def sentence_case(text: str) -> str:
    """ "New Password (again)" -> "New password (again)"; words in capitals (TOTP) stay."""
    words = str(text).split(" ")
    kept = [words[0]] + [w if w.isupper() and len(w) > 1 else w.lower() for w in words[1:]]
    return " ".join(kept)


@register.filter
def sentence_label(field: BoundField) -> str:
    label = str(field.label or "")
    return REWORDED.get(label.lower(), sentence_case(label))


@register.filter
def our_help(field: BoundField) -> str:
    """The field's help (HTML: Django's password rules are a list), reworded where needed."""
    return HELP.get(field.name, str(field.help_text or ""))


@register.filter
def plain_widget(field: BoundField) -> SafeString:
    placeholder = field.field.widget.attrs.get("placeholder")
    if placeholder is None:
        return field.as_widget()
    same = str(placeholder).lower() == str(field.label or "").lower()
    # False drops the attribute (Django's widget attrs template skips it).
    return field.as_widget(attrs={"placeholder": False if same else sentence_case(placeholder)})
