"""Type stub of the multi-deck C core (yukon/solver/_cmulti.c)."""

from collections.abc import Sequence
from typing import Final

F_AUTO: Final[int]
F_ONE_EMPTY: Final[int]
F_CANON: Final[int]
F_STUCK: Final[int]
F_ALL: Final[int]

def solve(
    decks: int,
    columns: Sequence[Sequence[int]],
    down: Sequence[int],
    found: Sequence[int],
    flags: int = ...,
    max_nodes: int = ...,
    seconds: float = ...,
    memory_mb: int = ...,
    seed: int = ...,
    randomize: bool = ...,
    wall_seconds: float = ...,
) -> tuple[int, list[int], int, str]: ...
def legal_moves(
    decks: int,
    columns: Sequence[Sequence[int]],
    down: Sequence[int],
    found: Sequence[int],
    /,
) -> list[int]: ...

class Search:
    def __init__(
        self,
        decks: int,
        columns: Sequence[Sequence[int]],
        down: Sequence[int],
        found: Sequence[int],
        flags: int = ...,
        memory_mb: int = ...,
        seed: int = ...,
        randomize: bool = ...,
        expect_nodes: int = ...,
    ) -> None: ...
    def run(
        self, max_nodes: int = ..., seconds: float = ..., wall_seconds: float = ...
    ) -> tuple[int, list[int], int, str]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def narrowed(self) -> bool: ...
