"""The site's API kit, neutral ground every app's API stands on.

The base view (CSRF for everyone, bodies always read), who is asking (``Actor``), the
errors a service raises with their HTTP status, the exception handler that turns every
error into ``{"detail": ...}``, the bounded parsers, the rate limits and the OpenAPI
pieces; and what the apps share below the site's top: dates in paths (``dates``), the
``<id:...>`` converter (``converters``), the tasks' retry options (``retries``). It
imports no app of this site: accounts, games and the apps above them import
it (docs/architecture.md; the import contracts in pyproject.toml hold it there).
"""
