"""Yukon Daily Django project; loads the Celery app so shared tasks bind to it."""

from yukon_site.celery import app as celery_app

__all__ = ("celery_app",)
