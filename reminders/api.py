"""The reminders API (mounted at /api/reminders/): thin views over ``reminders.services``,
for logged-in players only. docs/api.md, "Reminders"."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.errors import ServiceError
from apikit.fields import StrictBooleanField
from apikit.parsers import JSONParser
from apikit.schema import ERROR
from apikit.views import BaseAPIView
from reminders import push, services

TAGS = ["reminders"]
FORBIDDEN = OpenApiResponse(ERROR, description="Not logged in, or a CSRF failure.")
BAD_INPUT = OpenApiResponse(ERROR, description="Invalid input, with a message saying why.")
NOT_VERIFIED = OpenApiResponse(
    ERROR, description="Email reminders asked for, but the account has no verified address."
)
# base64url without padding: what PushSubscription.toJSON() gives for the keys
BASE64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")
TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


def _me(request: Request) -> Any:
    return request.user  # IsAuthenticated: a real user


class VapidKeySerializer(serializers.Serializer):
    public_key = serializers.CharField(
        help_text="The VAPID public key (base64url, uncompressed P-256 point): "
        "PushManager.subscribe's applicationServerKey."
    )


class SubscriptionKeysSerializer(serializers.Serializer):
    p256dh = serializers.RegexField(BASE64URL, min_length=80, max_length=100)
    auth = serializers.RegexField(BASE64URL, min_length=16, max_length=32)


class SubscriptionSerializer(serializers.Serializer):
    """PushSubscription.toJSON(), as the browser gives it (expirationTime is ignored)."""

    endpoint = serializers.URLField(max_length=services.ENDPOINT_MAX_LENGTH)
    keys = SubscriptionKeysSerializer()
    expirationTime = serializers.IntegerField(required=False, allow_null=True, help_text="Ignored.")


class SubscriptionAnswerSerializer(serializers.Serializer):
    endpoint = serializers.CharField()
    created_at = serializers.DateTimeField()


class TimeZoneField(serializers.ChoiceField):
    """A ChoiceField that says an empty zone is empty ("blank"), not an unknown one."""

    def to_internal_value(self, data: Any) -> Any:
        if data == "":
            self.fail("blank")
        return super().to_internal_value(data)


class PreferencesInputSerializer(serializers.Serializer):
    """Fields left out keep their values."""

    push = StrictBooleanField(required=False, help_text="Reminders by Web Push.")
    email = StrictBooleanField(
        required=False, help_text="Reminders by email (a verified address is needed)."
    )
    time = serializers.RegexField(
        TIME,
        required=False,
        help_text="Local time, HH:MM (24 hours).",
        # the page's form shows the message alone (no field name): "blank" says which
        error_messages={
            "invalid": gettext_lazy("a time as HH:MM, from 00:00 to 23:59"),
            "blank": gettext_lazy("Choose the time your reminders come at."),
        },
    )
    time_zone = TimeZoneField(
        sorted(services.time_zones()),
        required=False,
        help_text="An IANA time zone, e.g. Europe/Paris.",
        error_messages={
            "invalid_choice": gettext_lazy(
                "unknown time zone {input!r}: an IANA name like Europe/Paris"
            ),
            "blank": gettext_lazy("Enter your time zone, an IANA name like Europe/Paris."),
        },
    )
    streak = StrictBooleanField(required=False, help_text='"Your streak ends soon."')
    rival = StrictBooleanField(required=False, help_text='"A league rival beat your time."')


class PreferencesSerializer(serializers.Serializer):
    push = serializers.BooleanField()
    email = serializers.BooleanField()
    time = serializers.CharField(help_text="Local time, HH:MM.")
    time_zone = serializers.CharField()
    streak = serializers.BooleanField()
    rival = serializers.BooleanField()
    email_address = serializers.CharField(
        allow_null=True, help_text="The verified address email reminders go to, if any."
    )
    email_verified = serializers.BooleanField(help_text="Whether there is such an address.")
    push_available = serializers.BooleanField(help_text="Whether this site sends Web Push.")
    push_subscriptions = serializers.IntegerField(help_text="Your browsers subscribed.")


def _preferences_answer(user: Any) -> dict[str, Any]:
    preferences = services.preferences_of(user)
    address = services.verified_address(user)
    return {
        "push": preferences.push,
        "email": preferences.email,
        "time": preferences.local_time.strftime("%H:%M"),
        "time_zone": preferences.time_zone,
        "streak": preferences.streak,
        "rival": preferences.rival,
        "email_address": address,
        "email_verified": address is not None,
        "push_available": push.configured(),
        "push_subscriptions": user.push_subscriptions.count(),
    }


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class RemindersView(BaseAPIView):
    """Logged-in players only; bodies are JSON (what the page and PushSubscription.toJSON()
    send), so that a field left out is left out, never a form's false."""

    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]


class VapidKeyView(RemindersView):
    @extend_schema(
        summary="The site's VAPID public key, to subscribe a browser to push reminders",
        responses={
            200: VapidKeySerializer,
            403: FORBIDDEN,
            503: OpenApiResponse(
                ERROR, description="The site sends no push reminders (no VAPID key)."
            ),
        },
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        if not push.configured():
            raise services.PushNotConfigured(_("this site sends no push reminders (no VAPID key)"))
        return Response({"public_key": settings.VAPID_PUBLIC_KEY})


class PushSubscriptionsView(RemindersView):
    @extend_schema(
        summary="Subscribe this browser to push reminders",
        request=SubscriptionSerializer,
        responses={201: SubscriptionAnswerSerializer, 400: BAD_INPUT, 403: FORBIDDEN},
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        data = _valid(SubscriptionSerializer, request)
        subscription = services.subscribe(
            _me(request), data["endpoint"], data["keys"]["p256dh"], data["keys"]["auth"]
        )
        return Response(
            {"endpoint": subscription.endpoint, "created_at": subscription.created_at},
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        summary="Unsubscribe a browser (no error if it was not subscribed)",
        parameters=[
            OpenApiParameter(
                "endpoint",
                {"type": "string", "minLength": 1},
                OpenApiParameter.QUERY,
                required=True,
                description="The subscription's endpoint, as it was posted.",
            )
        ],
        responses={204: None, 400: BAD_INPUT, 403: FORBIDDEN},
        tags=TAGS,
    )
    def delete(self, request: Request) -> Response:
        endpoint = request.query_params.get("endpoint", "")
        if not endpoint:
            raise ServiceError(
                _("name the subscription: ?endpoint=<its endpoint>"), field="endpoint"
            )
        services.unsubscribe(_me(request), endpoint)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PreferencesView(RemindersView):
    @extend_schema(
        summary="Your reminder preferences (all off until you turn them on)",
        responses={200: PreferencesSerializer, 403: FORBIDDEN},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        return Response(_preferences_answer(_me(request)))

    @extend_schema(
        summary="Change your reminder preferences",
        request=PreferencesInputSerializer,
        responses={200: PreferencesSerializer, 400: BAD_INPUT, 403: FORBIDDEN, 409: NOT_VERIFIED},
        tags=TAGS,
    )
    def put(self, request: Request) -> Response:
        data = _valid(PreferencesInputSerializer, request)
        if "time" in data:
            hours, minutes = data.pop("time").split(":")
            data["local_time"] = dt.time(int(hours), int(minutes))
        services.save_preferences(_me(request), **data)
        return Response(_preferences_answer(_me(request)))
