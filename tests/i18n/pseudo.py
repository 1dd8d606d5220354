"""A pseudo-locale for tests: every message "translated" into accented, longer text.

``Ŝţåŕţ å ñéŵ ĝåɱé`` in brackets with a third more text, ``[Ŝţåŕţ å ñéŵ ĝåɱé ōñé ţŵō]``:
every ASCII letter of a translated text becomes another letter, so any word of plain
ASCII letters left on a page in this language was never translated; the brackets and the
longer text show clipping, as German and Spanish (about 30 % longer) would. Placeholders
(``%(name)s``, ``%s``, ``{field}``), HTML tags and entities, and URLs are kept as they are.

It is made from the extracted messages (scripts/messages --into) and from the German
catalogues of Django and the installed apps (allauth, DRF): what they translate for a real
language they translate here too. Only for tests: it is never in settings.LANGUAGES.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.apps import apps
from django.conf import global_settings

from tests.i18n import po
from tests.scripts import script

ROOT = Path(__file__).resolve().parents[2]

CODE = "en-xa"  # the pseudo-locale tag browsers and Android use; Django's "en" info
LOCALE = "en_XA"
LETTERS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
PADDING = "ōñé ţŵō ţĥŕéé ƒōûŕ ƒîṽé šîẋ šéṽéñ éîĝĥţ ñîñé ţéñ éļéṽéñ ţŵéļṽé ţĥîŕţééñ"
# What comes through untouched: the brand, a placeholder, an HTML tag or entity, a URL,
# an email address.
KEPT = re.compile(
    r"Yukon Daily|%\(\w+\)[sdfr]|%[sdfr%]|\{[^{}\s]*\}|<[^>]*>|&#?\w+;|https?://\S+|[\w.+-]+@[\w-]+\.[\w.]+"
)
# A letter of the source text (a message may also hold symbols and digits)
ASCII_LETTER = re.compile(r"[A-Za-z]")


def pseudo(text: str) -> str:
    """``text`` in the pseudo-locale (blank stays blank)."""
    if not text.strip():
        return text
    pieces: list[str] = []
    letters = 0
    end = 0
    for kept in KEPT.finditer(text):
        plain = text[end : kept.start()]
        letters += len(ASCII_LETTER.findall(plain))
        pieces += [plain.translate(LETTERS), kept.group(0)]
        end = kept.end()
    plain = text[end:]
    letters += len(ASCII_LETTER.findall(plain))
    pieces.append(plain.translate(LETTERS))
    body = "".join(pieces)
    if not letters:
        return text  # only symbols and placeholders: nothing to translate
    padding = ""
    for word in PADDING.split():
        if len(padding.replace(" ", "")) >= math.ceil(letters * 0.3):
            break
        padding += " " + word
    # Leading and trailing whitespace stays outside the brackets (it may be layout).
    lead = body[: len(body) - len(body.lstrip())]
    trail = body[len(body.rstrip()) :]
    return f"{lead}[{body.strip()}{padding}]{trail}"


def third_party_messages(domain: str) -> list[po.Entry]:
    """Django's and every installed app's messages with a German translation."""
    folders = [Path(global_settings.__file__).parent / "locale"]
    folders += [Path(config.path) / "locale" for config in apps.get_app_configs()]
    found: list[po.Entry] = []
    for folder in folders:
        catalogue = folder / "de" / "LC_MESSAGES" / f"{domain}.po"
        if catalogue.exists():
            _header, entries = po.read(catalogue)
            found += [entry for entry in entries if entry.translated and not entry.fuzzy]
    return found


def build(extracted: Path, into: Path, from_language: str = "de") -> Path:
    """The pseudo-locale's catalogues, compiled, in ``into``/<en_XA>/LC_MESSAGES/, from the
    messages extracted into ``extracted`` (a locale/ folder of scripts/messages --into,
    read through ``from_language``'s catalogues, which hold every message). Returns ``into``,
    for LOCALE_PATHS."""
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "msgfmt not found: install gettext"
    header = (
        f"Language: {LOCALE}\\nMIME-Version: 1.0\\nContent-Type: text/plain; charset=UTF-8\\n"
        "Content-Transfer-Encoding: 8bit\\nPlural-Forms: nplurals=2; plural=(n != 1);\\n"
    ).replace("\\n", "\n")
    for domain in ("django", "djangojs"):
        source = extracted / from_language / "LC_MESSAGES" / f"{domain}.po"
        ours = po.read(source)[1] if source.exists() else []
        seen: set[tuple[str | None, str]] = set()
        entries: list[po.Entry] = []
        for entry in [*ours, *third_party_messages(domain)]:
            key = (entry.msgctxt, entry.msgid)
            if key in seen:
                continue
            seen.add(key)
            translations = {0: pseudo(entry.msgid)}
            if entry.msgid_plural is not None:
                translations[1] = pseudo(entry.msgid_plural)
            entries.append(
                po.Entry(
                    msgid=entry.msgid,
                    msgid_plural=entry.msgid_plural,
                    msgctxt=entry.msgctxt,
                    translations=translations,
                    flags=entry.flags - {"fuzzy"},
                )
            )
        target = into / LOCALE / "LC_MESSAGES" / f"{domain}.po"
        po.write(target, header, entries)
        subprocess.run(
            [msgfmt, "--check-format", "-o", str(target.with_suffix(".mo")), str(target)],
            check=True,
            capture_output=True,
        )
    return into


# ----- what is left in English ----------------------------------------------------------

# Never translated: the brand and the time zone's name; and what a page shows of a URL or
# an address.
BRAND = {"Yukon", "Daily", "UTC"}
NOT_WORDS = re.compile(
    r"https?://\S+|mailto:\S+|[\w.+-]+@[\w-]+(\.[\w-]+)+|/[\w./?=&%-]*/"
    r"|\b(?:10|[2-9AJQK])[CDHS]\b"  # a card's code: "7H", "10S", "KS"
)
# Two ASCII letters or more in a row: a pseudo-translated text has none (a rank alone,
# "A" or "K", is one letter).
ENGLISH_WORD = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z'\u2019]*[A-Za-z](?![\w-])")


def english_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` left in plain ASCII letters (untranslated), less the brand,
    URLs, addresses and the ``allowed`` words (player names)."""
    allow = BRAND | {word for name in allowed for word in re.findall(r"\w+", name)}
    cleaned = NOT_WORDS.sub(" ", text)
    return [word for word in ENGLISH_WORD.findall(cleaned) if word not in allow]


# ----- fixtures ---------------------------------------------------------------------------


def messages_script() -> ModuleType:
    return script("messages")


@pytest.fixture(scope="session")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The catalogues as `make messages` would leave them, in a copy: a locale/ folder
    (the checkout's is not touched)."""
    folder = tmp_path_factory.mktemp("messages")
    messages_script().extract(folder)
    return folder / "locale"


@pytest.fixture(scope="session")
def pseudo_locale(extracted: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for LOCALE_PATHS with the pseudo-locale's compiled catalogues."""
    return build(extracted, tmp_path_factory.mktemp("pseudo-locale"))


@pytest.fixture
def in_pseudo_locale(settings: Any, pseudo_locale: Path) -> str:
    """The site offers the pseudo-locale too (Django drops its cached catalogues when
    LANGUAGES or LOCALE_PATHS change); its code, for Accept-Language."""
    settings.LANGUAGES = [*settings.LANGUAGES, (CODE, "Pseudo")]
    settings.LOCALE_PATHS = [str(pseudo_locale), *settings.LOCALE_PATHS]
    return CODE
