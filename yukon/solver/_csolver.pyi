"""Type stub of the C core (yukon/solver/_csolver.c)."""

from collections.abc import Sequence
from typing import Final

F_AUTO: Final[int]
F_ONE_EMPTY: Final[int]
F_CANON: Final[int]
F_STUCK: Final[int]
F_TWIN: Final[int]
F_MERGE: Final[int]
F_ALL: Final[int]

def solve(
    variant: int,
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
    takeback: bool = ...,
) -> tuple[int, list[int], int, str]: ...
def exhaust_by_levels(
    variant: int,
    columns: Sequence[Sequence[int]],
    down: Sequence[int],
    found: Sequence[int],
    memory_mb: int = ...,
    max_nodes: int = ...,
    threads: int = ...,
    verbose: bool = ...,
    directory: str | None = ...,
) -> tuple[int, int, int, str]: ...
def legal_moves(
    variant: int,
    columns: Sequence[Sequence[int]],
    down: Sequence[int],
    found: Sequence[int],
    takeback: bool = ...,
    /,
) -> list[int]: ...

class Search:
    def __init__(
        self,
        variant: int,
        columns: Sequence[Sequence[int]],
        down: Sequence[int],
        found: Sequence[int],
        flags: int = ...,
        memory_mb: int = ...,
        seed: int = ...,
        randomize: bool = ...,
        expect_nodes: int = ...,
        takeback: bool = ...,
        narrow: int = ...,
        narrow_bits: int = ...,
    ) -> None: ...
    def run(
        self, max_nodes: int = ..., seconds: float = ..., wall_seconds: float = ...
    ) -> tuple[int, list[int], int, str]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def members(self) -> int: ...
    @property
    def narrowed(self) -> bool: ...
    @property
    def flags(self) -> int: ...
