"""The installable app's files without a browser (docs/frontend.md, "Installable app"): the
service worker's headers, and in production the hashed names it precaches, in a cache whose
name changes when a deploy changes a file. tests/e2e/test_installable.py installs it in
Chromium and goes offline."""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.conf import settings
from django.test import Client, override_settings

PRODUCTION_STORAGES = {
    **settings.STORAGES,
    "staticfiles": {"BACKEND": "yukon_site.storage.StaticFilesStorage"},
}


def precache_plan_of(client: Client) -> dict[str, object]:
    """The plan the server wrote into /sw.js, as the worker reads it."""
    response = client.get("/sw.js")
    assert response.status_code == 200
    found = re.search(r"^const PLAN = (\{.*?^\});$", response.content.decode(), re.M | re.S)
    assert found, "no PLAN in /sw.js"
    plan: dict[str, object] = json.loads(found[1])
    return plan


def write_manifest(root: Path, paths: dict[str, str]) -> None:
    """The manifest that collectstatic writes (staticfiles.json), as the storage reads it."""
    (root / "staticfiles.json").write_text(json.dumps({"paths": paths, "version": "1.1"}))


def test_the_worker_is_served_at_the_root_uncached_as_javascript(client: Client) -> None:
    response = client.get("/sw.js")
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"  # a deploy's worker is seen at once
    plan = precache_plan_of(client)
    assert plan["shells"] == ["/", "/offline/", "/practice/offline/"]
    assert "/static/frontend/js/pages/base.js" in plan["static"]  # type: ignore[operator]
    assert plan["hashed"] is False  # development: the apps' files by their plain names


def test_in_production_it_precaches_the_hashed_names_and_a_deploy_renames_the_cache(
    client: Client, tmp_path: Path
) -> None:
    deploy = {
        "frontend/site.css": "frontend/site.0123456789ab.css",
        "frontend/js/pages/base.js": "frontend/js/pages/base.ba5e0123abcd.js",
        "frontend/js/package.json": "frontend/js/package.aaaaaaaaaaaa.json",  # no page loads it
        "admin/css/base.css": "admin/css/base.bbbbbbbbbbbb.css",  # nor the admin's files
    }
    write_manifest(tmp_path, deploy)
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=PRODUCTION_STORAGES):
        first = precache_plan_of(client)
        write_manifest(tmp_path, {**deploy, "frontend/site.css": "frontend/site.cafecafecafe.css"})
        # collectstatic's new manifest is read when the storage starts, as in a new release
        with override_settings(STATIC_ROOT=tmp_path):
            second = precache_plan_of(client)
    assert first["hashed"] is True
    assert first["static"] == [
        "/static/frontend/js/pages/base.ba5e0123abcd.js",
        "/static/frontend/site.0123456789ab.css",
    ]
    assert second["static"] == [
        "/static/frontend/js/pages/base.ba5e0123abcd.js",
        "/static/frontend/site.cafecafecafe.css",
    ]
    assert first["cache"] != second["cache"]
    assert str(first["cache"]).startswith("yukon-") and str(second["cache"]).startswith("yukon-")
