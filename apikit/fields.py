"""Serializer fields that take JSON as the schema declares it, and nothing looser."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """A JSON string only: DRF's CharField would also take 5 as "5" and 2.5 as "2.5", which
    the schema's string does not."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """true or false only: DRF's BooleanField would also take "yes", "1" and 0, which the
    schema's boolean does not."""

    default_error_messages = {"invalid": gettext_lazy("Must be true or false.")}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data
