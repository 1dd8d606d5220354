"""The games' own error: a move the rules refuse. The rest come from the API kit
(``apikit.errors``: NotFound, Forbidden, Conflict...)."""

from __future__ import annotations

from apikit.errors import ServiceError


class IllegalMove(ServiceError):
    http_status = 400
