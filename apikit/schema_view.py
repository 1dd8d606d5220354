"""The OpenAPI document's view: one schema generation at a time in a process.

drf-spectacular loads its extensions lazily, during a process's first generation, and
a thread that starts generating meanwhile sees them half-loaded and fails: requests to
/api/schema/ arriving together at a threaded server (`make run`'s runserver) were 500s.
A generation takes well under a second and the schema is asked for rarely, so waiting
for the one before costs nothing that matters.
"""

from __future__ import annotations

import threading
from typing import Any

from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SCHEMA_KWARGS, SpectacularAPIView
from rest_framework.request import Request
from rest_framework.response import Response

_one_generation_at_a_time = threading.Lock()


class SchemaView(SpectacularAPIView):
    @extend_schema(**SCHEMA_KWARGS)  # as the view it extends: left out of the schema itself
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with _one_generation_at_a_time:
            return super().get(request, *args, **kwargs)
