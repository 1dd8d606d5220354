"""Fixtures of the account tests: a real SMTP server (tests/accounts/mailbox.py)."""

from tests.accounts.mailbox import mailbox  # noqa: F401 (fixture)
