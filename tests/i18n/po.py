"""A small reader and writer of gettext .po files (the subset makemessages writes).

Enough for the checks of tests/i18n: each message's context, English, plural, translations
and flags. Obsolete entries (``#~``) are left out, as msgfmt leaves them out.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")\s*$")


@dataclasses.dataclass
class Entry:
    msgid: str
    msgid_plural: str | None = None
    msgctxt: str | None = None
    # msgstr for a message without plural is translations[0]
    translations: dict[int, str] = dataclasses.field(default_factory=dict)
    flags: set[str] = dataclasses.field(default_factory=set)
    references: list[str] = dataclasses.field(default_factory=list)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return bool(self.translations) and all(self.translations.values())

    def where(self) -> str:
        context = f" ({self.msgctxt})" if self.msgctxt else ""
        return f"{' '.join(self.references) or '?'}: {self.msgid!r}{context}"


def _unquote(quoted: str) -> str:
    body = quoted.strip()[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    return '"' + escaped.replace("\n", "\\n") + '"'


def read(path: Path) -> tuple[str, list[Entry]]:
    """The header's msgstr and every live message of ``path``."""
    entries: list[Entry] = []
    current: Entry | None = None
    field: tuple[str, int] | None = None

    def finish() -> None:
        nonlocal current, field
        if current is not None:
            entries.append(current)
        current, field = None, None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#"):
            if current is not None and field is not None:
                finish()
            current = current or Entry(msgid="")
            if line.startswith("#,"):
                current.flags |= {flag.strip() for flag in line[2:].split(",") if flag.strip()}
            elif line.startswith("#:"):
                current.references += line[2:].split()
            continue
        if line.startswith('"'):
            if current is None or field is None:
                raise ValueError(f"{path}: a continued string outside a message: {raw!r}")
            name, index = field
            text = _unquote(line)
            if name == "msgstr":
                current.translations[index] += text
            else:
                setattr(current, name, (getattr(current, name) or "") + text)
            continue
        match = _KEYWORD.match(line)
        if not match:
            raise ValueError(f"{path}: cannot read {raw!r}")
        keyword, number, quoted = match.groups()
        if current is None or (keyword in {"msgctxt", "msgid"} and field is not None):
            if current is not None and field is not None and field[0] == "msgstr":
                finish()
            current = current or Entry(msgid="")
        text = _unquote(quoted)
        if keyword.startswith("msgstr"):
            position = int(number or 0)
            current.translations[position] = text
            field = ("msgstr", position)
        else:
            setattr(current, keyword, text)
            field = (keyword, 0)
    finish()
    header = next((e for e in entries if e.msgid == "" and e.msgctxt is None), None)
    messages = [e for e in entries if e is not header]
    return (header.translations.get(0, "") if header else ""), messages


def write(path: Path, header: str, entries: Iterable[Entry]) -> None:
    lines = ['msgid ""', f"msgstr {_quote(header)}", ""]
    for entry in entries:
        if entry.flags:
            lines.append("#, " + ", ".join(sorted(entry.flags)))
        if entry.msgctxt is not None:
            lines.append(f"msgctxt {_quote(entry.msgctxt)}")
        lines.append(f"msgid {_quote(entry.msgid)}")
        if entry.msgid_plural is not None:
            lines.append(f"msgid_plural {_quote(entry.msgid_plural)}")
            for index, text in sorted(entry.translations.items()):
                lines.append(f"msgstr[{index}] {_quote(text)}")
        else:
            lines.append(f"msgstr {_quote(entry.translations.get(0, ''))}")
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
