"""The project's scripts (``scripts/<name>``, no ``.py`` suffix) as modules, each loaded
once, for the tests that call their functions."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def script(name: str) -> ModuleType:
    """``scripts/<name>`` as the module ``script_<name>`` (dashes as underscores)."""
    module_name = "script_" + name.replace("-", "_")
    if module_name not in sys.modules:
        loader = importlib.machinery.SourceFileLoader(module_name, str(SCRIPTS / name))
        spec = importlib.util.spec_from_loader(module_name, loader)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module  # dataclasses look their module up
        loader.exec_module(module)
    return sys.modules[module_name]
