"""Rules for display names, shared by the signup page and the API."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

from accounts.models import DELETED_NAME, DISPLAY_NAME_MAX_LENGTH, User
from accounts.skeleton import name_key

_DISPLAY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.\-]*$")
TOO_CLOSE = gettext_lazy(
    "That display name is too close to an existing display name (it looks like another "
    "player's). Pick one that reads differently."
)
DISPLAY_NAME_TAKEN = gettext_lazy("That display name is taken.")
# Each kind of public name's rules as whole sentences (the word order differs between
# languages), by the ``what`` its callers name it with.
_NAME_LENGTH = {
    "A display name": gettext_lazy("A display name has 2 to %(max)s characters."),
    "A league name": gettext_lazy("A league name has 2 to %(max)s characters."),
}
_NAME_LETTERS = {
    "A display name": gettext_lazy(
        "A display name uses letters, digits, spaces, '_', '.' and '-', "
        "and starts with a letter or digit."
    ),
    "A league name": gettext_lazy(
        "A league name uses letters, digits, spaces, '_', '.' and '-', "
        "and starts with a letter or digit."
    ),
}


def validate_display_name(name: str, *, exclude_user_id: int | None = None) -> str:
    """Return the cleaned name or raise ValidationError with a readable reason."""
    name = check_name_form(name, what="A display name", max_length=DISPLAY_NAME_MAX_LENGTH)
    error = look_alike_error(name, exclude_user_id=exclude_user_id)
    if error is not None:
        raise ValidationError(error)
    return name


def check_name_form(name: str, *, what: str, max_length: int) -> str:
    """The name with runs of spaces made one, or ValidationError: the form every public
    name takes (display names, league names)."""
    name = " ".join(name.split())
    if not 2 <= len(name) <= max_length:
        length_rule = _NAME_LENGTH.get(what)
        raise ValidationError(
            str(length_rule) % {"max": max_length}
            if length_rule is not None
            else f"{what} has 2 to {max_length} characters."
        )
    if not _DISPLAY_NAME.match(name):
        letters_rule = _NAME_LETTERS.get(what)
        raise ValidationError(
            str(letters_rule)
            if letters_rule is not None
            else f"{what} uses letters, digits, spaces, '_', '.' and '-', "
            "and starts with a letter or digit."
        )
    return name


def _letters(name: str) -> str:
    """A name's key with everything but its letters and digits left out."""
    return re.sub(r"[\W_]+", "", name_key(name))


def look_alike_error(name: str, *, exclude_user_id: int | None = None) -> str | None:
    """Why ``name`` cannot be used next to the other players' names, or None.

    Compared by key (accounts/skeleton.py): the same name in another case, or one that
    reads the same (``AIice``, ``A1ice`` for ``Alice``; ``rn`` for ``m``; ``0`` for ``O``).
    The deleted accounts' name is never anyone's, even before an account is deleted, nor a
    name that reads as it with its spaces and marks left out ("deleted_player", "Deleted
    Players"): the boards show it as a deleted account's, linked nowhere.
    """
    if _letters(name).startswith(_letters(DELETED_NAME)):
        return str(DISPLAY_NAME_TAKEN)
    others = (
        User.objects.all() if exclude_user_id is None else User.objects.exclude(pk=exclude_user_id)
    )
    if others.filter(display_name__iexact=name).exists():
        return str(DISPLAY_NAME_TAKEN)
    if others.filter(display_name_key=name_key(name)).exists():
        return str(TOO_CLOSE)
    return None
