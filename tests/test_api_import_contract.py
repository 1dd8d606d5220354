"""The contracts that keep each app's API its own and the site's top out of the apps
(pyproject.toml: ``api`` and ``top``; docs/architecture.md).

What apps share (day parsing, the ``<id:...>`` converter, the tasks' retry options) is
the kit's, and a day's published challenges are games' services; an app that reaches
for another app's views, routes or serializers, or for yukon_site, breaks a contract.
Checked for real: a copy of the tree with such an import written in fails
``lint-imports``, naming the contract and the import.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_import_contract import ROOT, layered_copy


def lint_imports(tree: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    linter = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    linter = linter or shutil.which("lint-imports")
    assert linter, "import-linter is not installed (dev extras)"
    only = [arg for contract in contracts for arg in ("--contract", contract)]
    return subprocess.run(
        [linter, str(tree / "pyproject.toml"), "--no-cache", "--no-logo", *only],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def probe(tree: Path, module: str, line: str) -> None:
    path = tree.joinpath(*module.split(".")).with_suffix(".py")
    path.write_text(f'"""Probe: {line}."""\n\n{line}\n')


def test_the_tree_keeps_the_api_and_top_contracts() -> None:
    result = lint_imports(ROOT, "api", "top")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 2 kept, 0 broken." in result.stdout, result.stdout


@pytest.mark.parametrize(
    ("importer", "line", "chain"),
    [
        # the import this contract replaced: the boards read a day through games' API
        (
            "leaderboards._api_probe",
            "from games.api.commitments import DailyDayView",
            "leaderboards._api_probe -> games.api.commitments",
        ),
        # games routing the accounts' views, as games/api/urls.py once did
        ("games._api_probe", "from accounts import api", "games._api_probe -> accounts.api"),
        # the boards' API modules are not called "api", and are guarded all the same
        (
            "social._api_probe",
            "from leaderboards.serializers import DailyBoard",
            "social._api_probe -> leaderboards.serializers",
        ),
        (
            "moderation._api_probe",
            "from leaderboards import games_file",
            "moderation._api_probe -> leaderboards.games_file",
        ),
    ],
)
def test_an_app_importing_another_apps_api_breaks_the_contract(
    tmp_path: Path, importer: str, line: str, chain: str
) -> None:
    tree = layered_copy(tmp_path)
    probe(tree, importer, line)
    result = lint_imports(tree, "api")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Contracts: 0 kept, 1 broken." in result.stdout, result.stdout
    assert chain in result.stdout, result.stdout


def test_an_app_may_import_its_own_api(tmp_path: Path) -> None:
    tree = layered_copy(tmp_path)
    probe(tree, "leaderboards._api_probe", "from leaderboards.serializers import DailyBoard")
    probe(tree, "games._api_probe", "from games.api import serializers")
    result = lint_imports(tree, "api")
    assert result.returncode == 0, result.stdout + result.stderr


def test_an_app_importing_the_sites_top_breaks_the_contract(tmp_path: Path) -> None:
    tree = layered_copy(tmp_path)
    probe(tree, "games._top_probe", "from yukon_site.celery import app")
    result = lint_imports(tree, "top")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "games._top_probe -> yukon_site.celery" in result.stdout, result.stdout
