"""The Yukon family as data: each variant changes one parameter of the same rules.

Every variant deals like Yukon, lets only a King (with whatever is on it) into an empty
column, and builds foundations up in suit from the Ace, one card at a time. They differ in
what a card may land on (``build``, ``up_or_down``) and in which groups may move
(``runs_only``). ``foundation_takeback`` is an option some rule books allow; it is off in
every game this service ranks.
"""

from dataclasses import dataclass, field, replace
from typing import Final, Literal

from .cards import ALL_CARDS, Card, is_red, make_card, rank_of, suit_of
from .errors import UnknownVariantError, shorten

Build = Literal["alternate", "suit"]


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    build: Build
    up_or_down: bool
    runs_only: bool
    foundation_takeback: bool = False
    # parents[c]: the cards c may be placed on; children[p]: the cards that may go on p.
    parents: tuple[tuple[Card, ...], ...] = field(init=False, repr=False, compare=False)
    children: tuple[tuple[Card, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        parents = tuple(tuple(p for p in ALL_CARDS if self._fits(c, p)) for c in ALL_CARDS)
        children = tuple(tuple(c for c in ALL_CARDS if p in parents[c]) for p in ALL_CARDS)
        object.__setattr__(self, "parents", parents)
        object.__setattr__(self, "children", children)

    def _fits(self, card: Card, onto: Card) -> bool:
        if self.build == "alternate":
            colour_ok = is_red(card) != is_red(onto)
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
        kind = "in alternating colour" if self.build == "alternate" else "in suit"
        direction = "up or down" if self.up_or_down else "down"
        return f"{self.title} builds {direction} {kind}"


VARIANTS: Final = {
    v.name: v
    for v in (
        Variant("yukon", "Yukon", build="alternate", up_or_down=False, runs_only=False),
        Variant("russian", "Russian", build="suit", up_or_down=False, runs_only=False),
        Variant("alaska", "Alaska", build="suit", up_or_down=True, runs_only=False),
        Variant("moosehide", "Moosehide", build="alternate", up_or_down=False, runs_only=True),
    )
}
VARIANT_NAMES: Final = tuple(VARIANTS)


def get_variant(name: str, *, foundation_takeback: bool = False) -> Variant:
    """Look a variant up by name (``yukon``, ``russian``, ``alaska``, ``moosehide``).

    ``name`` may carry the ``+takeback`` suffix of the position text form.
    """
    if not isinstance(name, str):
        raise UnknownVariantError(f"a variant is a name, not {type(name).__name__}")
    base, plus, option = name.partition("+")
    if plus and option != "takeback":
        raise UnknownVariantError(
            f"unknown variant option {shorten(option)}: the only one is 'takeback'"
        )
    variant = VARIANTS.get(base)
    if variant is None:
        raise UnknownVariantError(
            f"unknown variant {shorten(name)}: choose one of {', '.join(VARIANT_NAMES)}"
        )
    if foundation_takeback or plus:
        return _with_takeback(variant)
    return variant


_TAKEBACK: dict[str, Variant] = {}


def _with_takeback(variant: Variant) -> Variant:
    cached = _TAKEBACK.get(variant.name)
    if cached is None:
        cached = _TAKEBACK[variant.name] = replace(variant, foundation_takeback=True)
    return cached


KINGS: Final = tuple(make_card(13, s) for s in range(4))
