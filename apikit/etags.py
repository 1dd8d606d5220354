"""Answers with an ETag of their content, and 304 for a request that already holds it.

Open pages poll their data (frontend/static/frontend/js/poll.js); a poll that sends back
the last ETag (If-None-Match) while nothing changed gets an empty 304 instead of the body.
The tag is a hash of the JSON the view would send, so it changes exactly when the answer does.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from rest_framework.request import Request
from rest_framework.response import Response


def etag_of(data: Any) -> str:
    body = json.dumps(data, cls=DjangoJSONEncoder, sort_keys=True).encode()
    return f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def conditional_response(request: Request, data: Any) -> Response:
    """``Response(data)`` with its ETag, or an empty 304 when the request names that tag."""
    etag = etag_of(data)
    sent = request.META.get("HTTP_IF_NONE_MATCH", "")
    held = [tag.strip().removeprefix("W/") for tag in sent.split(",")]
    response = Response(status=304) if etag in held else Response(data)
    response["ETag"] = etag
    return response
