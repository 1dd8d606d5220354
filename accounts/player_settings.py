"""The shape of a player's settings of the site, as the browser keeps them (docs/frontend.md,
"Settings"; frontend/static/frontend/js/shared/settings.js): the keys, their types and
values, checked before the account stores them.

The account stores only the keys the player chose; a key left out takes the browser's
default (``DEFAULTS``, the same as settings.js's). Types are strict: ``"true"`` is not a
boolean and ``"0.5"`` not a volume, because the stored object is written into every page
as it is and read there by plain JavaScript.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from apikit.fields import StrictBooleanField

THEMES = ("system", "light", "dark", "contrast")
SUITS = ("two", "four")
ANIMATIONS = ("system", "on", "off")

DEFAULTS: dict[str, Any] = {
    "theme": "system",
    "suits": "two",
    "largeIndices": False,
    "animations": "system",
    "sound": False,
    "volume": 0.6,
    "confirmResign": True,
    "hints": True,
}


class VolumeField(serializers.FloatField):
    """A JSON number from 0 to 1 (not a string of one, not a boolean)."""

    default_error_messages = {"invalid": gettext_lazy("Must be a number from 0 to 1.")}

    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return float(super().to_internal_value(data))


def _must_be_one_of(values: tuple[str, ...]) -> str:
    """The refusal of a value not in ``values``, in the language of the request that fails."""
    listed = ", ".join(values)
    return lazy(lambda: gettext("Must be one of: %(values)s.") % {"values": listed}, str)()


def _choice(values: tuple[str, ...], help_text: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=values,
        required=False,
        help_text=help_text,
        error_messages={"invalid_choice": _must_be_one_of(values)},
    )


class PlayerSettingsSerializer(serializers.Serializer):
    """Every key is optional (left out: the default); an unknown key is refused, so a typo
    never passes for a setting that then never applies."""

    theme = _choice(THEMES, '"system" follows the device\'s light or dark mode.')
    suits = _choice(SUITS, 'Card faces: "four" gives each suit its own colour.')
    largeIndices = StrictBooleanField(required=False, help_text="Larger rank and suit corners.")
    animations = _choice(ANIMATIONS, '"system" follows the device\'s reduced-motion setting.')
    sound = StrictBooleanField(required=False, help_text="Sounds of the cards.")
    volume = VolumeField(required=False, min_value=0, max_value=1, help_text="0 to 1.")
    confirmResign = StrictBooleanField(required=False, help_text="Ask before resigning.")
    hints = StrictBooleanField(required=False, help_text="Show the Hint button in practice.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(self.initial_data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError(
                gettext("Unknown settings: %(unknown)s. Known: %(known)s.")
                % {"unknown": ", ".join(map(str, unknown)), "known": ", ".join(self.fields)}
            )
        return attrs


class PlayerSettingsSchema(OpenApiSerializerExtension):
    """The schema says what the serializer refuses: no key but the contract's."""

    target_class = PlayerSettingsSerializer

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer(
            self.target, direction, bypass_extensions=True
        )
        schema["additionalProperties"] = False
        return schema
