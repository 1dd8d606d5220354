"""The browser code's layout (docs/frontend.md, "Modules"): one page module per template,
named after it, in ``pages/``; everything they share in ``shared/``, which never imports a
page; and one naming style for every file."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

from frontend.templatetags.frontend_modules import IMPORT

JS = Path(settings.BASE_DIR) / "frontend" / "static" / "frontend" / "js"
TEMPLATES = Path(settings.BASE_DIR) / "frontend" / "templates"
SNAKE_CASE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*\.js")
MODULE_SCRIPT = re.compile(
    r"""<script type="module" (?:nonce="\{\{ request.csp_nonce \}\}" )?"""
    r"""src="\{% static '(frontend/js/[^']+)' %\}">"""
)


def modules(folder: str) -> set[str]:
    return {path.name for path in (JS / folder).glob("*.js")}


def imports_of(path: Path) -> set[Path]:
    return {(path.parent / target).resolve() for target in IMPORT.findall(path.read_text())}


def test_every_module_is_a_page_or_shared_and_named_in_snake_case() -> None:
    files = {path.relative_to(JS) for path in JS.rglob("*") if path.is_file()}
    files.discard(Path("package.json"))
    stray = {str(name) for name in files if name.parts[0] not in {"pages", "shared"}}
    assert not stray, f"modules outside pages/ and shared/: {sorted(stray)}"
    badly_named = {str(name) for name in files if not SNAKE_CASE.fullmatch(name.name)}
    assert not badly_named, f"file names not in snake_case: {sorted(badly_named)}"


def test_each_page_module_is_loaded_by_the_template_of_its_name() -> None:
    loaded: dict[str, set[str]] = {}
    for html in TEMPLATES.rglob("*.html"):
        for src in MODULE_SCRIPT.findall(html.read_text()):
            loaded.setdefault(src, set()).add(html.name)
    entries = {src for src in loaded if not src.startswith("frontend/js/pages/")}
    assert not entries, f"templates load modules that are not pages: {sorted(entries)}"
    pages = modules("pages")
    assert pages, "no page modules"
    for page in pages:
        template = page.removesuffix(".js") + ".html"
        loaded_by = loaded.get(f"frontend/js/pages/{page}")
        assert loaded_by == {template}, f"pages/{page}: loaded by {loaded_by}, not {template} alone"
    missing = {src for src in loaded if Path(src).name not in pages}
    assert not missing, f"templates load missing modules: {sorted(missing)}"


def test_modules_import_only_shared_ones() -> None:
    shared = (JS / "shared").resolve()
    for folder in ("pages", "shared"):
        paths = list((JS / folder).glob("*.js"))
        assert paths, f"no modules in {folder}/"
        for path in paths:
            wrong = {target for target in imports_of(path) if target.parent != shared}
            assert not wrong, f"{folder}/{path.name} imports {sorted(map(str, wrong))}"
            assert all(target.exists() for target in imports_of(path)), f"{folder}/{path.name}"
