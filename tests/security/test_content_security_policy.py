"""The content security policy and the other security headers (docs/operations.md,
"Security headers"), without a browser: the header of a page, its nonce on the page's
scripts, the hashes of the two inline styles of installed pages, no inline script (but the
settings' small pre-paint one, with the nonce), style or markup-from-data left in our
templates and modules, and names that refuse markup.

tests/e2e/test_no_script_from_players.py shows the same in Chromium, with markup in every
field a player writes; tests/deploy/test_compose.py runs `check --deploy` on the
production settings.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import csp
import drf_spectacular
import pytest
from django.contrib import admin
from django.test import Client

from tests.factories import Api, logged_in, make_player
from yukon_site import security_headers

ROOT = Path(__file__).resolve().parents[2]
MARKUP = "<img src=x onerror=alert(1)>"
# The longest names validation lets through, of the strangest characters it allows (30 and
# 40 characters): the browser test shows them on every page.
STRANGE_NAME = "0-_.-_ _.-_. .-_ -_._.- _.-_.-"
STRANGE_LEAGUE = "L-_.-_ _.-_. .-_ -_._.- _.-_.- -._.- _.-"


def directives(header: str) -> dict[str, list[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: sources for name, *sources in parts}


@pytest.mark.django_db
def test_a_page_carries_a_strict_policy_with_its_nonce_on_its_scripts() -> None:
    response = Client().get("/how-to-play/")
    header = response["Content-Security-Policy"]
    policy = directives(header)
    nonce = re.fullmatch(r"'nonce-([A-Za-z0-9+/=]{22,})'", policy["script-src"][1])
    assert nonce, header
    assert policy["script-src"] == ["'self'", f"'nonce-{nonce[1]}'"]
    assert policy["style-src"][:2] == ["'self'", f"'nonce-{nonce[1]}'"]
    assert all(s.startswith("'sha256-") for s in policy["style-src"][2:]), header
    assert "unsafe" not in header, header  # no 'unsafe-inline', 'unsafe-eval', 'unsafe-hashes'
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["connect-src"] == ["'self'"]
    assert policy["manifest-src"] == policy["worker-src"] == ["'self'"]  # the installable app
    assert policy["default-src"] == ["'self'"]
    # Every script of the page bears the nonce; none is inline but the settings' pre-paint
    # script (base.html: the theme before the first paint, see below).
    scripts = re.findall(r"<script\b[^>]*>", response.content.decode())
    code = [tag for tag in scripts if "application/json" not in tag]
    assert code and all(f'nonce="{nonce[1]}"' in tag for tag in code), scripts
    inline = [tag for tag in code if "src=" not in tag]
    assert inline == [f'<script nonce="{nonce[1]}" data-pre-paint>'], scripts
    # A nonce is used once.
    again = directives(Client().get("/how-to-play/")["Content-Security-Policy"])
    assert again["script-src"] != policy["script-src"]


@pytest.mark.django_db
def test_the_other_security_headers() -> None:
    response = Client().get("/")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert response["Cross-Origin-Resource-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert "camera=()" in response["Permissions-Policy"]
    assert "geolocation=()" in response["Permissions-Policy"]


def test_an_openid_connect_provider_may_receive_the_sign_in_form() -> None:
    """The sign-in button posts here and is redirected to the provider: form-action holds
    the redirect too, so the provider's origin is allowed when one is configured."""
    policy = security_headers.content_security_policy("https://id.example:8443/realms/yukon")
    assert policy["DIRECTIVES"]["form-action"] == ["'self'", "https://id.example:8443"]  # type: ignore[index]
    plain = security_headers.content_security_policy("")
    assert plain["DIRECTIVES"]["form-action"] == ["'self'"]  # type: ignore[index]


def style_hashes(template: Path) -> list[str]:
    blocks = re.findall(r"<style>(.*?)</style>", template.read_text(), re.S)
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(block.encode()).digest()).decode() + "'"
        for block in blocks
    ]


def test_the_allowed_inline_styles_are_the_installed_templates_own() -> None:
    """An upgrade of Django or drf-spectacular that changes either style fails here, not
    silently in a moderator's browser."""
    admin_templates = Path(admin.__file__).parent / "templates" / "admin"
    spectacular = Path(drf_spectacular.__file__).parent / "templates" / "drf_spectacular"
    assert style_hashes(admin_templates / "change_list.html") == [
        security_headers.ADMIN_CHANGE_LIST_STYLE
    ]
    assert style_hashes(spectacular / "swagger_ui.html") == [security_headers.SWAGGER_UI_STYLE]
    assert csp.__name__ == "csp"  # django-csp, the middleware the settings name


@pytest.mark.django_db
def test_the_api_docs_alone_may_load_swagger_ui_and_run_no_inline_script() -> None:
    docs = Client().get("/api/docs/")
    policy = directives(docs["Content-Security-Policy"])
    assert security_headers.SWAGGER_UI_ORIGIN in policy["script-src"]
    body = docs.content.decode()
    assert re.findall(r"<script>", body) == [], "Swagger UI's start-up script is a file"
    start_up = re.search(r'<script src="([^"]*script=[^"]*)"', body)
    assert start_up and Client().get(start_up[1].replace("&amp;", "&")).status_code == 200
    page = directives(Client().get("/")["Content-Security-Policy"])
    assert security_headers.SWAGGER_UI_ORIGIN not in page["script-src"]


# ----- no inline script or style, no markup built from data ----------------------------

TEMPLATE_DIRS = [ROOT / app / "templates" for app in ("frontend", "moderation", "metrics")]
JS_DIRS = [ROOT / "frontend" / "static" / "frontend" / "js", ROOT / "moderation" / "static"]
# The one inline script allowed: base.html's pre-paint settings (with the nonce), checked
# on its own below.
PRE_PAINT = '<script nonce="{{ request.csp_nonce }}" data-pre-paint>'
INLINE = [
    (
        re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)(?![^>]*data-pre-paint)[^>]*>"),
        "inline script",
    ),
    (re.compile(r"\son[a-z]+\s*=", re.I), "event handler attribute"),
    (re.compile(r"\sstyle\s*=", re.I), "style attribute"),
    (re.compile(r"<style\b"), "style element"),
]
FROM_TEXT = re.compile(
    r"\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|setAttribute\(\s*[\"']style"
)


def test_templates_have_no_inline_script_or_style() -> None:
    found = []
    for folder in TEMPLATE_DIRS:
        for template in folder.rglob("*.html"):
            text = template.read_text()
            found += [
                f"{template.relative_to(ROOT)}: {what}"
                for pattern, what in INLINE
                if pattern.search(text)
            ]
    assert found == []


def test_the_one_inline_script_is_base_htmls_small_pre_paint_with_the_nonce() -> None:
    """The settings' attributes on <html> must be set before the first paint (a dark theme
    never flashes light), which a module cannot do: one small inline script in base.html,
    with the page's nonce, that reads and sets nothing else (docs/frontend.md, "Settings")."""
    found = [
        template.relative_to(ROOT)
        for folder in TEMPLATE_DIRS
        for template in folder.rglob("*.html")
        if "data-pre-paint" in template.read_text()
    ]
    assert found == [Path("frontend/templates/frontend/base.html")]
    text = (ROOT / found[0]).read_text()
    assert text.count("data-pre-paint") == 1 and PRE_PAINT in text
    code = text.split(PRE_PAINT, 1)[1].split("</script>", 1)[0]
    assert len(code) < 1000, len(code)
    assert not re.search(r"fetch|XMLHttpRequest|import|eval|Function|innerHTML|write", code)


def test_modules_build_elements_never_markup_from_text() -> None:
    modules = [path for folder in JS_DIRS for path in folder.rglob("*.js")]
    assert len(modules) > 20
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in modules
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if FROM_TEXT.search(line) or re.search(r"style=", line)
    ]
    assert found == []


# ----- names refuse markup ---------------------------------------------------------------


@pytest.mark.django_db
def test_names_refuse_markup_but_take_strange_ones() -> None:
    """Display names and league names refuse markup (400, with the reason); the longest
    strange names they do take are the ones the browser test shows everywhere."""
    api = Api(logged_in(make_player("Marker")))
    status, body = api.post("/api/auth/display-name/", {"display_name": MARKUP})
    assert status == 400 and "letters, digits" in str(body), body
    status, body = api.post("/api/leagues/", {"name": MARKUP})
    assert status == 400 and "letters, digits" in str(body), body
    status, body = api.post("/api/auth/display-name/", {"display_name": STRANGE_NAME})
    assert status == 200, body
    status, body = api.post("/api/leagues/", {"name": STRANGE_LEAGUE})
    assert status == 201, body
    assert (len(STRANGE_NAME), len(STRANGE_LEAGUE)) == (30, 40)  # the longest allowed
    status, body = api.post("/api/leagues/", {"name": STRANGE_LEAGUE + "x"})
    assert status == 400, body
