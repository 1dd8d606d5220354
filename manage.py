#!/usr/bin/env python
"""Django's command-line utility for Yukon Daily."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.INSTALLED_APPS  # noqa: B018 load the settings: a missing secret stops here
    except ImproperlyConfigured as exc:
        # One line, no traceback: the operator needs the variable's name, nothing else.
        sys.exit(f"yukon: configuration error: {exc}")
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
