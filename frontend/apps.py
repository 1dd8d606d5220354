"""App configuration for frontend."""

from django.apps import AppConfig


class FrontendConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "frontend"

    def ready(self) -> None:
        from django.core.servers import basehttp

        # Django's development server (`make run`'s runserver, and the tests' live server)
        # sends an answer's headers and its body in two writes. With Nagle's algorithm on,
        # the body waits for the client's delayed acknowledgement of the headers: 40 ms on
        # every request but a connection's first, as a browser or the API fuzzer keep
        # theirs open (tests/frontend/test_dev_server.py). gunicorn, which serves
        # production, sets TCP_NODELAY on its own sockets.
        basehttp.WSGIRequestHandler.disable_nagle_algorithm = True
