"""The import contract: games/engine and games/solver never import the web stack.

Checked for real: a probe file that imports Django, DRF and Celery is written into
games/engine and ruff, with the settings `make lint` uses for those folders, must reject
each import. The existing engine and solver code must pass the same rule.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_CONFIG = ROOT / "tools" / "ruff-engine.toml"
PURE_DIRS = [ROOT / "games" / "engine", ROOT / "games" / "solver"]


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    ruff_bin = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff_bin, "ruff is not installed"
    return subprocess.run(
        [ruff_bin, "check", "--no-cache", "--config", str(ENGINE_CONFIG), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
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
