"""No usable secret in the repository: a development install makes its own on first start.

The attack: with a DAILY_SECRET built into the code anyone could derive every daily
deal of an instance run with the defaults. Now each checkout generates its secrets into a
git-ignored file, so two fresh checkouts pick different deals.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from datetime import date
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from games.daily import candidate_number
from yukon_site import dev_secrets

ROOT = Path(__file__).resolve().parent.parent.parent
DAY = date(2026, 12, 1)
# The values the repository once held for DEBUG mode: anyone can read them.
OLD_BUILT_IN = {
    "SECRET_KEY": "dev-only-insecure-secret-key-do-not-use-in-production",
    "DAILY_SECRET": "dev-only-daily-secret",
}

DERIVE = f"""
import json
import django
django.setup()
from datetime import date
from django.conf import settings
from games.daily import candidate_number
print(json.dumps({{
    "SECRET_KEY": settings.SECRET_KEY,
    "DAILY_SECRET": settings.DAILY_SECRET,
    "deal": candidate_number(settings.DAILY_SECRET, date.fromisoformat("{DAY}"), "easy", 0),
}}))
"""


def start_env(**extra: str) -> dict[str, str]:
    """The environment of a development install with no secrets set."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {"SECRET_KEY", "DAILY_SECRET", "RECEIPT_SIGNING_KEY", "DEV_SECRETS_FILE", "DEBUG"}
    }
    env.update({"DJANGO_SETTINGS_MODULE": "yukon_site.settings", "DEBUG": "true", **extra})
    return env


def start(secrets_file: Path | None, **extra: str) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter reading the settings as a development install would."""
    env = start_env(**extra)
    if secrets_file is not None:
        env["DEV_SECRETS_FILE"] = str(secrets_file)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(DERIVE)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def derived(secrets_file: Path) -> dict[str, object]:
    result = start(secrets_file)
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


@pytest.mark.slow
def test_two_fresh_checkouts_pick_different_daily_deals(tmp_path: Path) -> None:
    first = derived(tmp_path / "a" / dev_secrets.FILE_NAME)
    second = derived(tmp_path / "b" / dev_secrets.FILE_NAME)
    assert first["deal"] != second["deal"]
    assert first["DAILY_SECRET"] != second["DAILY_SECRET"]
    assert first["SECRET_KEY"] != second["SECRET_KEY"]


@pytest.mark.slow
def test_the_built_in_secret_attack_no_longer_finds_the_deal(tmp_path: Path) -> None:
    """The script of the report: the repository's secret, the date and the tier."""
    fresh = derived(tmp_path / dev_secrets.FILE_NAME)
    guesses = {
        candidate_number(OLD_BUILT_IN["DAILY_SECRET"], DAY, "easy", attempt)
        for attempt in range(60)
    }
    assert fresh["deal"] not in guesses
    assert fresh["DAILY_SECRET"] not in OLD_BUILT_IN.values()
    assert fresh["SECRET_KEY"] not in OLD_BUILT_IN.values()


@pytest.mark.slow
def test_no_secret_in_the_code_or_in_any_tracked_file(tmp_path: Path) -> None:
    fresh = derived(tmp_path / dev_secrets.FILE_NAME)
    tracked = (
        subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        .stdout.decode()
        .split("\0")
    )
    settings_source = (ROOT / "yukon_site" / "settings.py").read_text()
    for value in OLD_BUILT_IN.values():
        assert value not in settings_source
    for name in filter(None, tracked):
        path = ROOT / name
        if path.is_file():
            content = path.read_bytes()
            assert str(fresh["DAILY_SECRET"]).encode() not in content, name
            assert str(fresh["SECRET_KEY"]).encode() not in content, name


@pytest.mark.slow
def test_the_file_is_reused_on_a_second_start_and_logged_once(tmp_path: Path) -> None:
    path = tmp_path / dev_secrets.FILE_NAME
    first = start(path)
    assert first.returncode == 0, first.stderr
    values = json.loads(first.stdout.strip().splitlines()[-1])
    assert str(path) in first.stderr  # the warning names the file ...
    assert values["SECRET_KEY"] not in first.stderr  # ... never the values
    assert values["DAILY_SECRET"] not in first.stderr
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

    second = start(path)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout.strip().splitlines()[-1]) == values
    assert str(path) not in second.stderr  # said once, on the start that made it
    assert sorted(p.name for p in tmp_path.iterdir()) == [dev_secrets.FILE_NAME]


@pytest.mark.slow
def test_concurrent_first_starts_agree_on_one_value(tmp_path: Path) -> None:
    path = tmp_path / dev_secrets.FILE_NAME
    env = start_env(DEV_SECRETS_FILE=str(path))
    starts = [
        subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(DERIVE)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    outputs = [process.communicate(timeout=60) for process in starts]
    assert all(process.returncode == 0 for process in starts), outputs
    values = {out.strip().splitlines()[-1] for out, _ in outputs}
    assert len(values) == 1
    assert sum(str(path) in err for _, err in outputs) == 1  # one of them made it
    assert sorted(p.name for p in tmp_path.iterdir()) == [dev_secrets.FILE_NAME]


@pytest.mark.slow
def test_secrets_set_in_the_environment_win_and_no_file_is_made(tmp_path: Path) -> None:
    path = tmp_path / dev_secrets.FILE_NAME
    result = start(path, SECRET_KEY="k" * 50, DAILY_SECRET="from-the-environment")
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.strip().splitlines()[-1])
    assert values["DAILY_SECRET"] == "from-the-environment"
    assert not path.exists()


def test_debug_off_still_requires_both_secrets(tmp_path: Path) -> None:
    path = tmp_path / dev_secrets.FILE_NAME
    result = start(path, DEBUG="false", SECRET_KEY="k" * 50)
    assert result.returncode != 0
    assert "DAILY_SECRET must be set when DEBUG is off" in result.stderr
    assert not path.exists()


def test_the_default_file_is_in_the_checkout_and_git_ignored() -> None:
    path = dev_secrets.secrets_path(ROOT)
    assert path == ROOT / ".dev-secrets.json"
    ignored = subprocess.run(
        ["git", "check-ignore", "--quiet", "--no-index", str(path)], cwd=ROOT, check=False
    )
    assert ignored.returncode == 0


def test_an_installed_package_is_told_where_to_keep_them(tmp_path: Path) -> None:
    """BASE_DIR of a wheel is site-packages: no manage.py there, and no guessing."""
    with pytest.raises(ImproperlyConfigured, match="DEV_SECRETS_FILE"):
        dev_secrets.secrets_path(tmp_path)
    assert dev_secrets.secrets_path(tmp_path, str(tmp_path / "s.json")) == tmp_path / "s.json"


def test_a_damaged_file_stops_the_start_instead_of_being_replaced(tmp_path: Path) -> None:
    path = tmp_path / dev_secrets.FILE_NAME
    path.write_text('{"SECRET_KEY": "only one"}')
    result = start(path)
    assert result.returncode != 0
    assert "not a development secrets file" in result.stderr
    assert path.read_text() == '{"SECRET_KEY": "only one"}'


def test_a_place_it_cannot_use_stops_the_start_with_one_clear_line(tmp_path: Path) -> None:
    not_a_directory = tmp_path / "a-file"
    not_a_directory.write_text("")
    path = not_a_directory / dev_secrets.FILE_NAME
    with pytest.raises(ImproperlyConfigured, match="cannot keep development secrets"):
        dev_secrets.load_or_create(path)
    refused_at_start(start_env(DEV_SECRETS_FILE=str(path)), "cannot keep development secrets")


def refused_at_start(env: dict[str, str], error: str) -> None:
    """`manage.py check` in ``env`` stops with the one line of ``error``, no traceback."""
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )
    assert result.returncode != 0
    assert f"yukon: configuration error: {error}" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("value", ["3", "0"])
def test_a_daily_solve_jobs_other_than_one_or_two_stops_the_start(
    tmp_path: Path, value: str
) -> None:
    """An operator's typo must fail at start, not at the first candidate of the night."""
    result = start(tmp_path / dev_secrets.FILE_NAME, DAILY_SOLVE_JOBS=value)
    assert result.returncode != 0
    assert "DAILY_SOLVE_JOBS must be 1 or 2" in result.stderr


@pytest.mark.parametrize(
    ("extra", "error"),
    [
        ({"REDIS_SENTINELS": "sentinel-1"}, "REDIS_SENTINELS: 'sentinel-1' is not host:port"),
        ({"REDIS_SENTINELS": "a:26379,b:x"}, "REDIS_SENTINELS: 'b:x' is not host:port"),
        ({"REDIS_SENTINELS": "a:26379", "REDIS_URL": ""}, "REDIS_SENTINELS needs REDIS_URL"),
    ],
)
def test_sentinels_that_cannot_be_reached_stop_the_start(
    tmp_path: Path, extra: dict[str, str], error: str
) -> None:
    """A typo in the Sentinels' list fails at start, not as "no master" at the first
    request (docs/operations.md, "Redis that fails over")."""
    refused_at_start(
        start_env(DEV_SECRETS_FILE=str(tmp_path / dev_secrets.FILE_NAME), **extra), error
    )


# ----- the receipt signing key (docs/operations.md, "The receipt signing key") ---------

SIGNING_KEY = """
import django
django.setup()
from django.conf import settings
from games import signing
print(signing.current_key_id())
"""


def signing_key_id(secrets_file: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {**start_env(**extra), "DEV_SECRETS_FILE": str(secrets_file)}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SIGNING_KEY)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.slow
def test_each_development_install_signs_with_a_key_of_its_own(tmp_path: Path) -> None:
    """A key in the repository would let anyone sign receipts in the site's name."""
    first = signing_key_id(tmp_path / "a" / dev_secrets.FILE_NAME)
    again = signing_key_id(tmp_path / "a" / dev_secrets.FILE_NAME)
    second = signing_key_id(tmp_path / "b" / dev_secrets.FILE_NAME)
    assert first.returncode == second.returncode == again.returncode == 0, first.stderr
    assert first.stdout == again.stdout != second.stdout
    assert first.stdout.startswith("ed25519:")


def test_debug_off_requires_the_receipt_signing_key(tmp_path: Path) -> None:
    path = tmp_path / dev_secrets.FILE_NAME
    result = start(path, DEBUG="false", SECRET_KEY="k" * 50, DAILY_SECRET="d")
    assert result.returncode != 0
    assert "RECEIPT_SIGNING_KEY must be set when DEBUG is off" in result.stderr
    assert not path.exists()


@pytest.mark.parametrize("value", ["not-base64!", "c2hvcnQ=", "QUFB" * 12])
def test_a_signing_key_that_is_not_32_bytes_of_base64_stops_the_start(
    tmp_path: Path, value: str
) -> None:
    result = signing_key_id(
        tmp_path / dev_secrets.FILE_NAME,
        DEBUG="false",
        SECRET_KEY="k" * 50,
        DAILY_SECRET="d",
        RECEIPT_SIGNING_KEY=value,
    )
    assert result.returncode != 0
    assert "RECEIPT_SIGNING_KEY must be base64 of a raw 32-byte Ed25519 key" in result.stderr
    assert value not in result.stderr
