"""Answers with an ETag of their content, and 304 for a request that already holds it.

Open pages poll their data (frontend/static/frontend/js/shared/poll.js); a poll that sends back
the last ETag (If-None-Match) while nothing changed gets an empty 304 instead of the body.
The tag is a hash of the body the view sends, so it changes exactly when the answer does.
A JSON answer is rendered once: the bytes hashed for the tag are the bytes sent (a league
page of 1,000 members is some 280 kB: encoding it twice cost more than computing it,
bench/bench_leagues.py).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response


def etag_of(data: Any) -> str:
    body = json.dumps(data, cls=DjangoJSONEncoder, sort_keys=True).encode()
    return _tag(body)


def _tag(body: bytes) -> str:
    return f'"{hashlib.sha256(body).hexdigest()[:32]}"'


class RenderedResponse(Response):
    """A Response whose body its renderer already made: sent as made when the response
    is rendered by that same renderer (else rendered again as usual)."""

    def __init__(self, data: Any, body: bytes, renderer: Any) -> None:
        super().__init__(data)
        self.body = body
        self.body_renderer = renderer

    @property
    def rendered_content(self) -> Any:
        if getattr(self, "accepted_renderer", None) is not self.body_renderer:
            return super().rendered_content
        renderer = self.body_renderer
        charset = renderer.charset
        media = renderer.media_type
        self["Content-Type"] = f"{media}; charset={charset}" if charset else media
        return self.body


def conditional_response(request: Request, data: Any) -> Response:
    """``Response(data)`` with its ETag, or an empty 304 when the request names that tag."""
    renderer = getattr(request, "accepted_renderer", None)
    body = None
    if type(renderer) is JSONRenderer:
        body = renderer.render(data, request.accepted_media_type, {"request": request})
        etag = _tag(body)
    else:
        etag = etag_of(data)
    sent = request.META.get("HTTP_IF_NONE_MATCH", "")
    held = [tag.strip().removeprefix("W/") for tag in sent.split(",")]
    if etag in held:
        response = Response(status=304)
    elif body is not None:
        response = RenderedResponse(data, body, renderer)
    else:
        response = Response(data)
    response["ETag"] = etag
    return response
