"""Production static files: every ES module imports its neighbours by their hashed names,
and the play and replay pages preload their whole import graph."""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings

from frontend.templatetags.frontend_modules import module_graph

JS = Path(settings.BASE_DIR) / "frontend" / "static" / "frontend" / "js"
RELATIVE_IMPORT = re.compile(
    r"""\bfrom\s*["'](\.{1,2}/[^"']+)["']|\bimport\s*\(?\s*["'](\.{1,2}/[^"']+)["']"""
)
HASHED = re.compile(r"\.[0-9a-f]{12}\.js$")


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """collectstatic into a fresh folder with production's storage."""
    root = tmp_path_factory.mktemp("static")
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "yukon_site.storage.StaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=root, STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


def test_every_module_import_names_a_hashed_file(collected: Path) -> None:
    manifest = json.loads((collected / "staticfiles.json").read_text())["paths"]
    modules = [
        name for name in manifest if name.startswith("frontend/js/") and name.endswith(".js")
    ]
    assert "frontend/js/pages/play.js" in modules and len(modules) >= 10
    hashed_names = set(manifest.values())
    checked = 0
    for name in modules:
        hashed = collected / manifest[name]
        for match in RELATIVE_IMPORT.finditer(hashed.read_text()):
            target = match.group(1) or match.group(2)
            assert HASHED.search(target), f"{manifest[name]} imports {target} by its plain name"
            assert (hashed.parent / target).exists(), f"{manifest[name]} imports a missing {target}"
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(manifest[name]), target))
            assert resolved in hashed_names, f"{manifest[name]}: {target} is not in the manifest"
            checked += 1
    assert checked >= 15  # the play page alone imports nine modules


def test_the_graph_follows_imports_of_imports() -> None:
    graph = module_graph("frontend/js/pages/play.js")
    # The play page imports shared/board.js, which imports cards.js and rules.js beside it.
    assert {
        "frontend/js/shared/board.js",
        "frontend/js/shared/cards.js",
        "frontend/js/shared/rules.js",
        "frontend/js/shared/api.js",
    } <= set(graph)
    assert "frontend/js/pages/play.js" not in graph and len(graph) == len(set(graph))
    direct = set(RELATIVE_IMPORT.findall((JS / "pages" / "play.js").read_text()))
    assert {
        posixpath.normpath(posixpath.join("frontend/js/pages", a)) for a, _b in direct if a
    } <= set(graph)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "entry"),
    [
        ("/practice/7/", "pages/play.js"),
        ("/play/{game}/", "pages/play.js"),
        ("/replay/{game}/", "pages/replay.js"),
    ],
)
def test_board_pages_preload_their_modules(
    client: Client, public_game: int, path: str, entry: str
) -> None:
    page = client.get(path.format(game=public_game)).content.decode()
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/(frontend/js/[\w./]+)">', page)
    assert preloaded == module_graph(f"frontend/js/{entry}")
    assert f'src="/static/frontend/js/{entry}"' in page


@pytest.mark.django_db
def test_preloads_are_hashed_in_production(collected: Path, client: Client) -> None:
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "yukon_site.storage.StaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=collected, STORAGES=storages):
        page = client.get("/practice/7/").content.decode()
    links = re.findall(r'<link rel="modulepreload" href="/static/([^"]+)">', page)
    assert links and all(HASHED.search(link) and (collected / link).exists() for link in links), (
        links
    )
