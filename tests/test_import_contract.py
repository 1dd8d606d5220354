"""The import contracts: games/engine and games/solver never import the web stack, and
every dependency between the apps points down the layers of docs/architecture.md.

Checked for real: a probe file that imports Django, DRF and Celery is written into
games/engine and ruff, with the settings `make lint` uses for those folders, must reject
each import. The existing engine and solver code must pass the same rule. The layers are
import-linter's contracts (pyproject.toml): the tree keeps them, and a copy of it with a
wrong-way import written in breaks them.
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
PURE_DIRS = [ROOT / "games" / "engine", ROOT / "games" / "solver"]


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


def test_ruff_rejects_web_stack_imports_in_the_engine() -> None:
    engine = ROOT / "games" / "engine"
    made_dir = not engine.exists()
    engine.mkdir(parents=True, exist_ok=True)
    probe = engine / "_contract_probe_tmp.py"
    probe.write_text(
        '"""Probe."""\n\n'
        "import celery\n"
        "import django\n"
        "from rest_framework import serializers\n\n"
        "__all__ = ['celery', 'django', 'serializers']\n"
    )
    try:
        result = ruff("--select", "TID251", "--output-format", "json", str(probe))
    finally:
        probe.unlink(missing_ok=True)
        if made_dir:
            shutil.rmtree(engine, ignore_errors=True)
    assert result.returncode == 1, result.stdout + result.stderr
    findings = json.loads(result.stdout)
    banned = sorted(f["message"].split("`")[1] for f in findings if f["code"] == "TID251")
    assert banned == ["celery", "django", "rest_framework"], findings


def test_engine_and_solver_code_imports_no_web_stack() -> None:
    folders = [str(folder) for folder in PURE_DIRS if folder.exists()]
    assert folders, "games/engine is missing"
    result = ruff("--select", "TID251", *folders)
    assert result.returncode == 0, result.stdout + result.stderr


# ----- the layers (import-linter; docs/architecture.md) -----------------------------------


def lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    linter = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    linter = linter or shutil.which("lint-imports")
    assert linter, "import-linter is not installed (dev extras)"
    return subprocess.run(
        [linter, "--config", str(cwd / "pyproject.toml"), "--no-cache"],
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


def test_the_engine_may_not_import_the_site(tmp_path: Path) -> None:
    tree = layered_copy(tmp_path)
    (tree / "games" / "engine" / "_layers_probe.py").write_text(
        '"""Probe: the engine reaching for the models."""\n\nfrom games import models\n'
    )
    result = lint_imports(tree)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "games.engine._layers_probe -> games.models" in result.stdout, result.stdout
