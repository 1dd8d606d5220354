"""Fixtures of the account tests: a real SMTP server and the Celery worker that sends the
site's mail to it (tests/accounts/mailbox.py)."""

from tests.accounts.mailbox import mail_service, mailbox  # noqa: F401 (fixtures)
