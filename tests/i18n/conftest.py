"""The catalogues as `make messages` leaves them, in a temporary copy, and the
pseudo-locale made from them (tests/i18n/pseudo.py)."""

from tests.i18n.pseudo import extracted, in_pseudo_locale, pseudo_locale

__all__ = ["extracted", "in_pseudo_locale", "pseudo_locale"]
