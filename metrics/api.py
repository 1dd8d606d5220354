"""The beacon's endpoint, ``POST /api/metrics/events/`` (js/shared/metrics.js): a visit,
with what the browser remembers of its last one, or a share, with the game's tier.

It reads no cookie and no session (the beacon sends none: ``credentials: "omit"``), so it
knows no one, and there is no session to forge a request for: it takes no CSRF token. What
it refuses instead is another site's page (an ``Origin`` header not the site's own: 403),
which could otherwise have its visitors' browsers add counts; a script can still add some,
and the address's budget (``metrics.throttles``) bounds that. A browser that sends
``Sec-GPC: 1`` or ``DNT: 1`` is answered alike and counted never.

An event past the budget is answered ``{"counted": false}`` with 202, not 429: nothing is
counted either way, but browsers write every 4xx answer to a fetch or a sendBeacon to the
console as an error (Chromium does, whatever the page does with the answer), and a visit
not counted because a school's players share one address is no fault of theirs. A script
learns the truth from the body, and its events add nothing past the budget all the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.errors import Forbidden
from apikit.schema import ERROR
from metrics import services
from metrics.throttles import MetricsEventThrottle


class MetricsVisitSerializer(serializers.Serializer):
    event = serializers.ChoiceField(choices=[services.VISIT], help_text="Once a day per browser.")
    returned = serializers.ChoiceField(
        choices=services.RETURNS,
        help_text="The browser's last visit was never (`first`), yesterday (`next_day`), "
        "2 to 7 days ago (`within_7_days`) or earlier (`later`).",
    )


class MetricsShareSerializer(serializers.Serializer):
    event = serializers.ChoiceField(choices=[services.SHARE])
    tier = serializers.ChoiceField(
        choices=services.TIERS, help_text="The daily's tier, or `practice` / `archive`."
    )


EVENT_SHAPES: dict[str, type[serializers.Serializer]] = {
    services.VISIT: MetricsVisitSerializer,
    services.SHARE: MetricsShareSerializer,
}


def read_event(data: Any) -> dict[str, Any]:
    """The event's fields, by the shape its ``event`` names; other fields are ignored."""
    kind = data.get("event") if isinstance(data, Mapping) else None
    shape = EVENT_SHAPES.get(kind) if isinstance(kind, str) else None
    if shape is None:
        raise serializers.ValidationError(
            {"event": [f"an event is one of: {', '.join(EVENT_SHAPES)}"]}
        )
    given = shape(data=data)
    given.is_valid(raise_exception=True)
    return dict(given.validated_data)


class MetricsCountedSerializer(serializers.Serializer):
    counted = serializers.BooleanField(
        help_text="False when the browser asked not to be tracked (Sec-GPC or DNT), or its "
        "address has sent its budget of events (`THROTTLE_METRICS_EVENTS`) this hour."
    )


class EventView(APIView):
    authentication_classes = ()  # no cookie is read: nobody is known, nothing to forge
    permission_classes = (AllowAny,)
    throttle_classes = ()  # the budget is spent in post(): past it, 202 and not counted

    @extend_schema(
        tags=["metrics"],
        summary="Count a visit or a share (first-party, aggregate only)",
        request={
            "application/json": PolymorphicProxySerializer(
                component_name="MetricsEvent",
                serializers=list(EVENT_SHAPES.values()),
                resource_type_field_name="event",
            )
        },
        responses={
            202: MetricsCountedSerializer,
            400: OpenApiResponse(ERROR, description="Not an event the funnel counts."),
            403: OpenApiResponse(ERROR, description="Sent from another site's page (Origin)."),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        if from_another_site(request._request):
            raise Forbidden("events are counted from this site's own pages only")
        # the event is checked before the budget is: a malformed one is a 400, always
        data = read_event(request.data)
        if services.declines_tracking(request._request) or not within_budget(request, self):
            return Response({"counted": False}, status=status.HTTP_202_ACCEPTED)
        if data["event"] == services.VISIT:
            services.count_visit(data["returned"])
        else:
            services.count(services.SHARE, data["tier"])
        return Response({"counted": True}, status=status.HTTP_202_ACCEPTED)


def within_budget(request: Request, view: APIView) -> bool:
    """Whether the address may still add a count this hour; if so, this event spends one."""
    return MetricsEventThrottle().allow_request(request, view)


def from_another_site(request: HttpRequest) -> bool:
    """A browser's request from a page of another origin than the site's (as Django's CSRF
    check reads ``Origin``). No ``Origin`` at all is no browser's cross-site request."""
    origin = request.headers.get("Origin")
    if origin is None:
        return False
    own = f"{request.scheme}://{request.get_host()}"
    return origin not in {own, *settings.CSRF_TRUSTED_ORIGINS}
