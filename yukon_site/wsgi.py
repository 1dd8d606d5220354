"""WSGI entry point (gunicorn yukon_site.wsgi)."""

import os
import sys

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

try:
    application = get_wsgi_application()
except ImproperlyConfigured as exc:
    # One line, no traceback (gunicorn would print one per worker), and a non-zero exit.
    print(f"yukon: configuration error: {exc}", file=sys.stderr, flush=True)
    os._exit(3)  # gunicorn's "application could not start": the arbiter stops, not retries
