"""The Yukon family as data: each variant changes one parameter of the same rules.

Every variant deals like Yukon, lets only a King (with whatever is on it) into an empty
column, and builds foundations up in suit from the Ace, one card at a time. They differ in
what a card may land on (``build``, ``up_or_down``) and in which groups may move
(``runs_only``). ``foundation_takeback`` is an option some rule books allow; it is off in
every game this service ranks.

A variant's rules carry a version, as deals carry their algorithm's: when the rules behind
a name change, the name's version goes up and the old rules live on under a name of their
own (``RETIRED_RULES``), so a game stored under the old version replays as it was played.

The multi-deck variants (Double, Triple and Quadruple Yukon) play Yukon's rules with 2, 3
or 4 decks: more columns (``face_down``/``face_up`` give the layout, column 1 first) and
one foundation per suit and deck. Each layout carries a ``layout_version``: a change to a
layout is a new version, never a silent change to old deals and replays.
"""

from dataclasses import dataclass, field, replace
from typing import Final, Literal

from .cards import ALL_CARDS, Card, is_red, make_card, rank_of, suit_of
from .deal import FACE_DOWN, FACE_UP
from .errors import UnknownVariantError, shorten

Build = Literal["alternate", "suit", "other_suit"]


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    build: Build
    up_or_down: bool
    runs_only: bool
    rules_version: int = 1
    foundation_takeback: bool = False
    decks: int = 1
    face_down: tuple[int, ...] = FACE_DOWN  # face-down cards dealt to each column
    face_up: tuple[int, ...] = FACE_UP  # face-up cards dealt on top of them
    layout_version: int = 1
    # parents[c]: the cards c may be placed on; children[p]: the cards that may go on p
    # (physical cards: every deck's copies).
    parents: tuple[tuple[Card, ...], ...] = field(init=False, repr=False, compare=False)
    children: tuple[tuple[Card, ...], ...] = field(init=False, repr=False, compare=False)
    kings: tuple[Card, ...] = field(init=False, repr=False, compare=False)
    # home_piles[c]: the foundations that take c's suit; foundation p holds suit p % 4.
    home_piles: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    # A move is ``card << shift | dest``; dest ``home`` is a foundation.
    shift: int = field(init=False, repr=False, compare=False)
    home: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        copies = range(self.decks)
        cards = range(52 * self.decks)
        face_parents = [[p for p in ALL_CARDS if self._fits(c, p)] for c in ALL_CARDS]
        parents = tuple(
            tuple(d * 52 + p for d in copies for p in face_parents[c % 52]) for c in cards
        )
        face_children = [[c for c in ALL_CARDS if p in face_parents[c]] for p in ALL_CARDS]
        children = tuple(
            tuple(d * 52 + c for d in copies for c in face_children[p % 52]) for p in cards
        )
        set_ = object.__setattr__
        set_(self, "parents", parents)
        set_(self, "children", children)
        set_(self, "kings", tuple(d * 52 + make_card(13, s) for d in copies for s in range(4)))
        set_(
            self,
            "home_piles",
            tuple(tuple(suit_of(c) + 4 * d for d in copies) for c in cards),
        )
        set_(self, "shift", 3 if self.decks == 1 else 5)
        set_(self, "home", 7 if self.decks == 1 else 31)

    @property
    def columns(self) -> int:
        return len(self.face_down)

    @property
    def cards(self) -> int:
        return 52 * self.decks

    @property
    def foundations(self) -> int:
        return 4 * self.decks

    @property
    def column_sizes(self) -> tuple[int, ...]:
        return tuple(d + u for d, u in zip(self.face_down, self.face_up, strict=True))

    @property
    def max_score(self) -> int:
        """5 per card turned face up, 10 per card home."""
        return 5 * sum(self.face_down) + 10 * self.cards

    @property
    def multi_deck(self) -> bool:
        """Two identical cards exist: moves name their source column (``3:9h>4``)."""
        return self.decks > 1

    def _fits(self, card: Card, onto: Card) -> bool:
        if self.build == "alternate":
            colour_ok = is_red(card) != is_red(onto)
        elif self.build == "other_suit":
            colour_ok = suit_of(card) != suit_of(onto)
        else:
            colour_ok = suit_of(card) == suit_of(onto)
        gap = rank_of(onto) - rank_of(card)
        return colour_ok and (gap == 1 or (self.up_or_down and gap == -1))

    def fits(self, card: Card, onto: Card) -> bool:
        """May ``card`` be placed on ``onto`` in the tableau?"""
        return onto in self.parents[card]

    def is_run(self, cards: list[Card]) -> bool:
        """Does each card of the pile (bottom first) sit on one it may be placed on?"""
        parents = self.parents
        return all(cards[i] in parents[cards[i + 1]] for i in range(len(cards) - 1))

    @property
    def key(self) -> str:
        """The name with its options, as written in a position's text form."""
        return self.name + ("+takeback" if self.foundation_takeback else "")

    @property
    def build_rule(self) -> str:
        """How the tableau builds, in words, for error messages and the docs."""
        kind = _BUILD_WORDS[self.build]
        direction = "up or down" if self.up_or_down else "down"
        return f"{self.title} builds {direction} {kind}"


_BUILD_WORDS: Final[dict[str, str]] = {
    "alternate": "in alternating colour",
    "suit": "in suit",
    "other_suit": "in any suit but the card's own",
}

VARIANTS: Final = {
    v.name: v
    for v in (
        Variant("yukon", "Yukon", build="alternate", up_or_down=False, runs_only=False),
        Variant("russian", "Russian", build="suit", up_or_down=False, runs_only=False),
        Variant("alaska", "Alaska", build="suit", up_or_down=True, runs_only=False),
        # Moosehide as PySolFC and Pretty Good Solitaire play it: Yukon building down in
        # any suit but the moving card's own. Version 1 of the name was the rule below.
        Variant(
            "moosehide",
            "Moosehide",
            build="other_suit",
            up_or_down=False,
            runs_only=False,
            rules_version=2,
        ),
        # One reading of the rule texts, and this service's Moosehide until rules version
        # 2: a Yukon deal where only ordered alternating-colour runs move. Never won:
        # every deal of 1..200 is proven lost (docs/engine.md).
        Variant(
            "moosehide-runs",
            "Moosehide (runs only)",
            build="alternate",
            up_or_down=False,
            runs_only=True,
        ),
        # PySolFC's layouts: face-down 0, 1, ..., 8, 8 and 6 face up on every column.
        Variant(
            "double-yukon",
            "Double Yukon",
            build="alternate",
            up_or_down=False,
            runs_only=False,
            decks=2,
            face_down=(*range(9), 8),
            face_up=(6,) * 10,
        ),
        # Face-down 0, 1, ..., 12 and 6 face up on every column.
        Variant(
            "triple-yukon",
            "Triple Yukon",
            build="alternate",
            up_or_down=False,
            runs_only=False,
            decks=3,
            face_down=tuple(range(13)),
            face_up=(6,) * 13,
        ),
        # No source settles Quadruple Yukon's layout; ours (layout version 1) keeps Triple's
        # rule, one more face-down card per column (0 .. 15), and deals all 208 cards. Six
        # face up everywhere would need 216, so the eight deepest columns get 5 face up
        # (still at least five to work with) and the eight shallow ones 6.
        Variant(
            "quadruple-yukon",
            "Quadruple Yukon",
            build="alternate",
            up_or_down=False,
            runs_only=False,
            decks=4,
            face_down=tuple(range(16)),
            face_up=(6,) * 8 + (5,) * 8,
        ),
    )
}
VARIANT_NAMES: Final = tuple(VARIANTS)
# (name, rules version) -> the variant that now holds those rules, for each version of a
# name that is no longer its current one. Stored games were moved to the new name by a
# data migration (games 0004); this table lets code that meets an old version find them.
RETIRED_RULES: Final = {("moosehide", 1): "moosehide-runs"}


def get_variant(
    name: str, *, foundation_takeback: bool = False, rules_version: int | None = None
) -> Variant:
    """Look a variant up by name (``yukon``, ``russian``, ``alaska``, ``moosehide``, ...).

    ``name`` may carry the ``+takeback`` suffix of the position text form. With
    ``rules_version`` the rules that name had at that version (``RETIRED_RULES``).
    """
    if not isinstance(name, str):
        raise UnknownVariantError(kind="variant_not_text", type=type(name).__name__)
    base, plus, option = name.partition("+")
    if plus and option != "takeback":
        raise UnknownVariantError(kind="unknown_option", option=shorten(option))
    variant = VARIANTS.get(base)
    if variant is None:
        raise UnknownVariantError(
            kind="unknown_variant", text=shorten(name), names=", ".join(VARIANT_NAMES)
        )
    if rules_version is not None and rules_version != variant.rules_version:
        retired = RETIRED_RULES.get((base, rules_version))
        if retired is None:
            raise UnknownVariantError(
                kind="no_rules_version",
                variant=base,
                version=shorten(str(rules_version)),
                current=variant.rules_version,
            )
        variant = VARIANTS[retired]
    if foundation_takeback or plus:
        if variant.multi_deck:
            raise UnknownVariantError(kind="no_takeback", variant=variant.name)
        return _with_takeback(variant)
    return variant


_TAKEBACK: dict[str, Variant] = {}


def _with_takeback(variant: Variant) -> Variant:
    cached = _TAKEBACK.get(variant.name)
    if cached is None:
        cached = _TAKEBACK[variant.name] = replace(variant, foundation_takeback=True)
    return cached


KINGS: Final = tuple(make_card(13, s) for s in range(4))
