"""Every shipped language is complete (issue 43, item 5).

``makemessages`` runs as `make messages` runs it (scripts/messages), into a copy of
locale/ in a temporary folder: a string marked in the code but missing from a catalogue
is found there even when nobody ran `make messages`. Then, for each language of
settings.LANGUAGES but English and both domains: every message has a translation, none
is fuzzy (a guess gettext made when the English changed), and ``msgfmt --check`` passes
(each translation keeps its English's ``%(name)s`` fields, the header is whole).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

from tests.i18n import po
from tests.i18n.pseudo import ASCII_LETTER, CODE, KEPT, english_words, pseudo

SHIPPED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
DOMAINS = ("django", "djangojs")


@pytest.mark.slow
def test_every_message_is_translated_in_every_shipped_language(extracted: Path) -> None:
    missing: list[str] = []
    for code in SHIPPED:
        for domain in DOMAINS:
            catalogue = extracted / code / "LC_MESSAGES" / f"{domain}.po"
            assert catalogue.exists(), f"no {domain} catalogue for {code}"
            _header, entries = po.read(catalogue)
            assert entries, f"{catalogue}: no messages (did makemessages find the code?)"
            for entry in entries:
                if entry.fuzzy:
                    missing.append(f"{code} {domain} fuzzy: {entry.where()}")
                elif not entry.translated:
                    missing.append(f"{code} {domain} untranslated: {entry.where()}")
    shown = "\n".join(missing[:60]) + (
        f"\n... and {len(missing) - 60} more" if len(missing) > 60 else ""
    )
    assert not missing, (
        f"{len(missing)} messages lack a translation (make messages, then translate them; "
        f"docs/development.md, 'Translations'):\n{shown}"
    )


@pytest.mark.slow
def test_every_catalogue_passes_msgfmt_check(extracted: Path, tmp_path: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "msgfmt not found: install gettext"
    for code in SHIPPED:
        for domain in DOMAINS:
            catalogue = extracted / code / "LC_MESSAGES" / f"{domain}.po"
            checked = subprocess.run(
                [msgfmt, "--check", "-o", str(tmp_path / "out.mo"), str(catalogue)],
                capture_output=True,
                text=True,
                check=False,
            )
            assert checked.returncode == 0, f"{code} {domain}:\n{checked.stderr}"


def test_the_pseudo_locale_keeps_placeholders_and_tags_and_runs_longer() -> None:
    english = 'Deal %(number)s: <a href="/rules/">%(count)s moves</a> &amp; {0} left'
    text = pseudo(english)
    assert [m.group(0) for m in KEPT.finditer(text)] == [m.group(0) for m in KEPT.finditer(english)]
    assert text.startswith("[") and text.endswith("]")
    letters = len(ASCII_LETTER.findall(KEPT.sub("", english)))
    assert len(KEPT.sub("", text).replace(" ", "")) - len("[]:") >= 1.3 * letters
    assert english_words(KEPT.sub(" ", text)) == []
    assert english_words(KEPT.sub(" ", english)) == ["Deal", "moves", "left"]
    assert pseudo("  ") == "  " and pseudo("%(n)s / %(m)s") == "%(n)s / %(m)s"
    assert CODE not in SHIPPED  # for tests only: never offered to players


def test_english_words_allows_the_brand_names_urls_and_cards() -> None:
    text = "Yukon Daily · Ådå's ǫûéšţ: 7H → KS, 10D https://x.example/a/ bob@example.org Alice Bo"
    assert english_words(text + " and A", allowed=["Alice Bo"]) == ["and"]
