"""WSGI entry point (gunicorn yukon_site.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

application = get_wsgi_application()
