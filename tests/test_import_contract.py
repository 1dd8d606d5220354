"""The import contracts: the core (yukon/: the engine, the solver, their tests) never
imports the web stack nor the site, and every dependency between the apps points down the
layers of docs/architecture.md.

Checked for real: a probe file that imports Django, DRF and Celery is written into
yukon/engine and ruff, with the settings `make lint` uses for the core, must reject each
import. The existing core must pass the same rule. The layers are import-linter's
contracts (pyproject.toml): the tree keeps them, and a copy of it with a wrong-way import
written in breaks them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_CONFIG = ROOT / "tools" / "ruff-engine.toml"
CORE = ROOT / "yukon"


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    ruff_bin = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff_bin, "ruff is not installed"
    return subprocess.run(
        [ruff_bin, "check", "--no-cache", "--config", str(ENGINE_CONFIG), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_ruff_rejects_web_stack_imports_in_the_engine(tmp_path: Path) -> None:
    # The probe lies outside the checkout: written into yukon/engine, it was read by
    # test_the_core_imports_no_web_stack whenever the two ran at once on two workers.
    probe = tmp_path / "yukon" / "engine" / "_contract_probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        '"""Probe."""\n\n'
        "import celery\n"
        "import django\n"
        "from rest_framework import serializers\n\n"
        "__all__ = ['celery', 'django', 'serializers']\n"
    )
    result = ruff("--select", "TID251", "--output-format", "json", str(probe))
    assert result.returncode == 1, result.stdout + result.stderr
    findings = json.loads(result.stdout)
    banned = sorted(f["message"].split("`")[1] for f in findings if f["code"] == "TID251")
    assert banned == ["celery", "django", "rest_framework"], findings


def test_the_core_imports_no_web_stack() -> None:
    assert (CORE / "engine" / "__init__.py").exists() and (CORE / "tests").is_dir()
    result = ruff("--select", "TID251", str(CORE))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_cores_tests_may_not_borrow_the_sites_tests(tmp_path: Path) -> None:
    """The core's tests keep their own data: the site's tests (factories, fixtures) are
    Django's. The ban holds in the core's own ruff.toml, which every ruff run reads."""
    probe = tmp_path / "yukon" / "tests" / "test_probe.py"
    probe.parent.mkdir(parents=True)
    (tmp_path / "tools").mkdir()
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copy(ENGINE_CONFIG, tmp_path / "tools" / "ruff-engine.toml")
    shutil.copy(CORE / "ruff.toml", tmp_path / "yukon" / "ruff.toml")
    probe.write_text('"""Probe."""\n\nfrom tests.factories import LINES\n\n__all__ = ["LINES"]\n')
    ruff_bin = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff_bin
    result = subprocess.run(
        [ruff_bin, "check", "--no-cache", "--select", "TID251", "--output-format", "json", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert [f["code"] for f in json.loads(result.stdout)] == ["TID251"], result.stdout


def test_the_core_loads_without_django() -> None:
    """Importing the whole core, as another project would, loads no Django and no app."""
    program = (
        "import sys, yukon, yukon.engine, yukon.solver, yukon.solver._cmulti, "
        "yukon.strategy_bot;"
        "site = {'django', 'rest_framework', 'celery', 'games', 'accounts', 'apikit'};"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in site))"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == "[]", done.stdout


# ----- the layers (import-linter; docs/architecture.md) -----------------------------------


def lint_imports(cwd: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    linter = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    linter = linter or shutil.which("lint-imports")
    assert linter, "import-linter is not installed (dev extras)"
    only = [arg for contract in contracts for arg in ("--contract", contract)]
    return subprocess.run(
        [linter, "--config", str(cwd / "pyproject.toml"), "--no-cache", *only],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def layered_copy(tmp_path: Path) -> Path:
    """The root packages' Python files and pyproject.toml, copied: a probe written there
    never lands in the shared work tree."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    for package in config["root_packages"]:
        shutil.copytree(
            ROOT / package,
            tmp_path / package,
            ignore=lambda folder, names: [
                n
                for n in names
                if (not n.endswith(".py") and not (Path(folder) / n).is_dir()) or n == "__pycache__"
            ],
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_layers_hold() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_wrong_way_import_breaks_the_layers(tmp_path: Path) -> None:
    tree = layered_copy(tmp_path)
    assert lint_imports(tree).returncode == 0  # the copy holds, like the tree
    (tree / "games" / "_layers_probe.py").write_text(
        '"""Probe: games reaching up to the boards."""\n\nfrom leaderboards import services\n'
    )
    (tree / "apikit" / "_layers_probe.py").write_text(
        '"""Probe: the kit reaching up to an app."""\n\nfrom accounts import models\n'
    )
    result = lint_imports(tree)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "games._layers_probe -> leaderboards.services" in result.stdout, result.stdout
    assert "apikit._layers_probe -> accounts.models" in result.stdout, result.stdout


def test_the_core_may_not_import_the_site(tmp_path: Path) -> None:
    """The apps import the core; the reverse breaks the layers and the core's contract."""
    tree = layered_copy(tmp_path)
    assert (tree / "yukon" / "engine" / "__init__.py").exists()  # the copy holds the core
    (tree / "yukon" / "engine" / "_layers_probe.py").write_text(
        '"""Probe: the engine reaching for the models."""\n\nfrom games import models\n'
    )
    (tree / "yukon" / "tests" / "_layers_probe.py").write_text(
        '"""Probe: the tests of the core reaching for an app."""\n\nfrom accounts import services\n'
    )
    (tree / "yukon" / "solver" / "_layers_probe.py").write_text(
        '"""Probe: the solver reaching for the web stack."""\n\nfrom django import conf\n'
    )
    layers = lint_imports(tree, "layers")
    assert layers.returncode == 1, layers.stdout + layers.stderr
    assert "yukon.engine._layers_probe -> games.models" in layers.stdout, layers.stdout
    assert "yukon.tests._layers_probe -> accounts.services" in layers.stdout, layers.stdout
    pure = lint_imports(tree, "pure")
    assert pure.returncode == 1, pure.stdout + pure.stderr
    for found in (
        "yukon.engine._layers_probe -> games.models",
        "yukon.tests._layers_probe -> accounts.services",
        "yukon.solver._layers_probe -> django (",
    ):
        assert found in pure.stdout, pure.stdout
