"""The core's own tests: they need no Django, no database and nothing of the site's tests."""
