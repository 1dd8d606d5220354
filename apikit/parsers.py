"""The API's request parsers: DRF's, with a bound on size and depth.

DRF's parsers read the request stream themselves, past Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` (only ``request.body`` checks it), and its JSON parser
lets a body nested a thousand levels deep raise ``RecursionError``: a 500. These read at
most the limit (413 beyond it, with the API's JSON error) and answer a body too deep for
the decoder with a 400, and so is a lone UTF-16 surrogate (``"\\ud800"``: valid JSON, not
text; a field that echoed it in its message made an answer no encoder can write).
``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]`` names them; the move endpoint's direct path
reads its body with the same ``parse_json``.
"""

from __future__ import annotations

import codecs
import io
import re
from typing import IO, Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import parsers, status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.utils import json
from rest_framework.utils.json import strict_constant


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("the request body is too large")
    default_code = "payload_too_large"


def too_large() -> PayloadTooLarge:
    return PayloadTooLarge(
        _("the request body is larger than %(limit)s bytes")
        % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    )


def check_declared_length(request: HttpRequest | None) -> None:
    """413 before reading anything when the declared Content-Length is over the limit."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if request is None or limit is None:
        return
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit:
        raise too_large()


def read_limited(stream: IO[bytes], parser_context: dict[str, Any] | None) -> bytes:
    """The whole body, refused (413) if it is longer than DATA_UPLOAD_MAX_MEMORY_SIZE."""
    request = (parser_context or {}).get("request")
    check_declared_length(getattr(request, "_request", request))
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is None:
        return stream.read()
    raw = stream.read(limit + 1)  # a body without a (true) Content-Length stops here too
    if len(raw) > limit:
        raise too_large()
    return raw


# a surrogate, or a JSON escape of one (a pair decodes to one character, a lone one stays
# a surrogate); a charset such as unicode_escape can give one without an escape
SURROGATE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")


def has_lone_surrogate(text: str, data: Any) -> bool:
    """True when the JSON ``text``, read as ``data``, holds a string or key with a lone
    surrogate (which no encoder can write)."""
    if not SURROGATE.search(text):
        return False
    try:
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return True
    return False


def lone_surrogate_message() -> str:
    return _("JSON parse error - a string holds a lone surrogate (\\ud800 to \\udfff), not text")


def parse_json(raw: bytes, encoding: str = "utf-8", *, strict: bool = True) -> Any:
    """``raw`` as DRF's JSONParser reads it (no BOM; with ``strict``, no NaN/Infinity);
    ParseError for anything that is not JSON, including nesting too deep to decode, and
    for a string (or key) holding a lone surrogate."""
    try:
        text = codecs.decode(raw, encoding)
        data = json.loads(text, parse_constant=strict_constant if strict else None)
    except RecursionError:
        raise ParseError(_("JSON parse error - the body is nested too deeply")) from None
    except ValueError as exc:  # not JSON, not in the encoding, an int of 4,300+ digits
        # the decoder's own words (English) say where: only the frame is translated
        raise ParseError(_("JSON parse error - %(error)s") % {"error": exc}) from None
    if has_lone_surrogate(text, data):
        raise ParseError(lone_surrogate_message())
    return data


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        encoding = parsers.get_encoding(parser_context or {})  # type: ignore[attr-defined]
        return parse_json(read_limited(stream, parser_context), encoding, strict=self.strict)


class FormParser(parsers.FormParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        raw = read_limited(stream, parser_context)
        return super().parse(io.BytesIO(raw), media_type, parser_context)


class MultiPartParser(parsers.MultiPartParser):
    """Django's multipart parser bounds the fields, not the files: a declared length over
    the limit is refused before anything is read (no endpoint takes a file)."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        request = (parser_context or {}).get("request")
        check_declared_length(getattr(request, "_request", request))
        return super().parse(stream, media_type, parser_context)
