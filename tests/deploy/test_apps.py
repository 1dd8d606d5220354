"""One list of apps: what ships must hold every local app in INSTALLED_APPS.

pyproject.toml's package list is the list; the Dockerfile's build stage must copy each of
its packages (read with scripts/rehearse-deploy's own parser), `make lint` type-checks each
(the Makefile reads the list), and ruff takes each as first-party. A new app left out of
any of them fails here, not in production (an image once shipped without `moderation`).
"""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from django.conf import settings

from tests.scripts import script

ROOT = Path(__file__).resolve().parents[2]


def rehearsal() -> ModuleType:
    return script("rehearse-deploy")


def local_apps() -> list[str]:
    """Top-level packages of INSTALLED_APPS entries that are directories of this repo
    (`moderation.admin_config.ModeratedAdminConfig` counts as `moderation`)."""
    apps: list[str] = []
    for entry in settings.INSTALLED_APPS:
        top = entry.split(".")[0]
        if (ROOT / top).is_dir() and top not in apps:
            apps.append(top)
    return apps


def package_list() -> list[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include: list[str] = data["tool"]["setuptools"]["packages"]["find"]["include"]
    return [pattern.removesuffix("*") for pattern in include]


def shipped() -> list[str]:
    """Every local app and every listed package: each check below holds all of them."""
    return list(dict.fromkeys([*local_apps(), *package_list()]))


def build_stage_copies() -> set[str]:
    sources: list[str] = rehearsal().build_stage_sources(ROOT / "Dockerfile")
    return {source.strip("/").removeprefix("./") for source in sources}


def mypy_targets() -> set[str]:
    """What `make lint` would hand to mypy (a dry run: nothing is executed)."""
    out = subprocess.run(
        ["make", "--no-print-directory", "-n", "lint"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    lines = [line.split() for line in out.splitlines()]
    django_runs = [  # not the strict runs, nor the benchmarks' (mypy -p bench)
        words
        for words in lines
        if words[:1] == [".venv/bin/mypy"] and "--strict" not in words and "-p" not in words
    ]
    assert len(django_runs) == 1, out
    return set(django_runs[0][1:])


def ruff_first_party(module: str) -> bool:
    """Does ruff's isort sort ``module`` after a third-party import, as first-party?"""
    source = f"import django\n\nimport {module}\n\nprint(django, {module})\n"
    result = subprocess.run(
        [
            str(ROOT / ".venv" / "bin" / "ruff"),
            "check",
            "--select",
            "I",
            "--no-cache",
            "--stdin-filename",
            "tests/deploy/probe.py",
            "-",
        ],
        cwd=ROOT,
        input=source,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return result.returncode == 0


def test_local_apps_are_found() -> None:
    apps = local_apps()
    assert apps[0] == "moderation"  # through its admin config, listed first
    assert {"accounts", "games", "leaderboards", "analysis", "frontend"} <= set(apps)


def test_every_app_is_in_the_package_list() -> None:
    packages = package_list()
    missing = [app for app in local_apps() if app not in packages]
    assert not missing, f"pyproject.toml [tool.setuptools.packages.find] lacks {missing}"
    # the project package (settings, urls, wsgi) is not an app but ships too
    assert "yukon_site" in packages


def test_the_build_stage_copies_exactly_the_packages() -> None:
    copied = build_stage_copies()
    missing = [package for package in shipped() if package not in copied]
    assert not missing, f"the Dockerfile's build stage does not COPY {missing}"
    assert {"pyproject.toml", "setup.py", "README.md"} <= copied
    # locale/ is no package: setup.py compiles its catalogues into yukon_site/locale/.
    assert "locale" in copied, "the build stage does not COPY the translations (locale)"
    extra = {c for c in copied if (ROOT / c).is_dir()} - {*package_list(), "locale"}
    assert not extra, f"the build stage copies directories that are no package: {extra}"


def test_make_lint_type_checks_every_package() -> None:
    targets = mypy_targets()
    missing = [package for package in shipped() if package not in targets]
    assert not missing, f"`make lint` runs mypy without {missing}"


@pytest.mark.parametrize("app", ["analysis", "moderation", "yukon_site"])
def test_ruff_takes_apps_as_first_party(app: str) -> None:
    assert ruff_first_party(app)


def test_ruff_takes_every_package_as_first_party_and_the_probe_can_fail() -> None:
    assert not ruff_first_party("certainly_not_a_local_package"), "the probe cannot fail"
    missing = [package for package in shipped() if not ruff_first_party(package)]
    assert not missing, f"ruff sorts {missing} as third-party"


def test_the_parser_reads_a_build_stage_missing_an_app(tmp_path: Path) -> None:
    """What the rehearsal and the tests above read is the Dockerfile itself."""
    text = (ROOT / "Dockerfile").read_text().replace("COPY moderation moderation\n", "")
    broken = tmp_path / "Dockerfile"
    broken.write_text(text)
    sources = rehearsal().build_stage_sources(broken)
    assert "moderation" not in sources and "analysis" in sources
