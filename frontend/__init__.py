"""Frontend: the browser client (templates, ES modules, CSS)."""
