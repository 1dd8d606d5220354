"""The multi-deck search (Double, Triple and Quadruple Yukon), in pure Python on the engine.

The C search indexes 52 distinct cards; with two or more decks two identical cards can
both be in play, so these variants get this depth-first search instead: a graph search
with a visited set, the safe auto-foundation rule, one empty column tried, and a table
keyed by faces (identical copies merged). docs/solver.md argues each rule sound with
duplicate cards; yukon/tests/solver/test_multi_deck.py checks each against a plain exhaustive
search on small multi-deck endgames. It is slower than the C search (a first landing):
``solve`` picks it for multi-deck positions and replays every line it returns.
"""

from __future__ import annotations

import time
from typing import Final, NamedTuple

from yukon.engine import Move, Position
from yukon.engine.position import HOME

R_AUTO: Final = 1  # the same bits as the C search's F_AUTO, F_ONE_EMPTY, F_CANON
R_ONE_EMPTY: Final = 2
R_FACES: Final = 4
R_ALL: Final = R_AUTO | R_ONE_EMPTY | R_FACES
BYTES_PER_ENTRY: Final = 600  # a table key (a tuple of tuples) costs about this much


class SearchResult(NamedTuple):
    verdict: int  # 0 solved, 1 unwinnable (exhausted), 2 unknown
    line: list[str]  # the winning line's move texts, when solved
    nodes: int
    reason: str  # for unknown: "nodes", "seconds", "wall" or "memory"


Key = tuple[object, ...]


def table_key(position: Position, rules: int) -> Key:
    """The position as the visited set sees it.

    With R_FACES: cards by face (which deck a copy comes from is not part of the game),
    columns sorted (columns are interchangeable) and each suit's foundations sorted (they
    are interchangeable too). Without: the physical cards, columns in place, foundations
    in order: positions merge only when they are the same position.
    """
    if not rules & R_FACES:
        return (
            tuple(tuple(col) for col in position.cols),
            tuple(position.down),
            tuple(position.found),
        )
    columns = sorted(
        (down, tuple(card % 52 for card in col))
        for col, down in zip(position.cols, position.down, strict=True)
    )
    found = position.found
    piles = tuple(tuple(sorted(found[suit::4])) for suit in range(4))
    return (tuple(columns), piles)


def _safe_home(position: Position, card: int) -> bool:
    """``card`` is exposed and may go home; every copy of every card that could be placed
    on it is home (nothing can need it in the tableau again); and its suit has a
    foundation ready (at the rank below) for each copy of its face still out, so sending
    this copy home first takes no place another copy needs (docs/solver.md)."""
    if position.home_pile(card) < 0:
        return False
    col_of = position.col_of
    if not all(col_of[child] == HOME for child in position.variant.children[card]):
        return False
    face = card % 52
    out = sum(1 for d in range(position.variant.decks) if col_of[d * 52 + face] != HOME)
    below = card % 13
    ready = sum(1 for pile in position.variant.home_piles[card] if position.found[pile] == below)
    return ready >= out


def _play_autos(position: Position) -> tuple[list[Move], list[str]]:
    """Play safe foundation moves until none is left; return them and their texts."""
    played: list[Move] = []
    texts: list[str] = []
    progress = True
    while progress:
        progress = False
        for col in position.cols:
            if col and _safe_home(position, col[-1]):
                move = position.make_move(col[-1], None)
                texts.append(position.move_text(move))
                played.append(move)
                position.push(move)
                progress = True
                break
    return played, texts


def _ordered_moves(position: Position, rules: int) -> list[Move]:
    """Legal moves, foundation moves first, then those that turn a card, then the rest.

    With R_ONE_EMPTY a King pile is offered only the first empty column.
    """
    moves = position.legal_moves()
    first_empty = -1
    if rules & R_ONE_EMPTY:
        for k, col in enumerate(position.cols):
            if not col:
                first_empty = k
                break
    home: list[Move] = []
    turning: list[Move] = []
    rest: list[Move] = []
    cols = position.cols
    for move in moves:
        dest = position.move_dest(move)
        if dest is None:
            home.append(move)
            continue
        if first_empty >= 0 and not cols[dest] and dest != first_empty:
            continue
        card = position.move_card(move)
        k = position.col_of[card]
        height = position.pos_of[card]
        if height and height == position.down[k]:
            turning.append(move)
        else:
            rest.append(move)
    return home + turning + rest


class _Frame(NamedTuple):
    moves: list[Move]
    texts: list[str]  # the texts of the moves, written before they were played
    autos: list[Move]  # auto-foundation moves played on arrival (undone on leaving)
    auto_texts: list[str]


def search(
    start: Position,
    *,
    rules: int = R_ALL,
    max_nodes: int = 0,
    seconds: float = 0.0,
    wall_seconds: float = 0.0,
    memory_mb: int = 768,
) -> SearchResult:
    """Depth-first graph search from ``start`` (not changed) for a won position.

    Budgets: ``max_nodes`` moves tried, ``seconds`` of this thread's CPU time,
    ``wall_seconds`` of wall-clock time (0 = no limit), and a visited set of about
    ``memory_mb``; any of them spent gives ``unknown``. An exhausted search is a proof.
    """
    position = start.copy()
    max_entries = max(1, memory_mb * 1_000_000 // BYTES_PER_ENTRY)
    cpu0 = time.thread_time()
    wall0 = time.monotonic()
    nodes = 0
    seen: set[Key] = set()
    path: list[str] = []

    def arrive() -> _Frame | None:
        """Enter the current position: autos, then None if it was seen, else its frame."""
        autos, auto_texts = _play_autos(position) if rules & R_AUTO else ([], [])
        key = table_key(position, rules)
        if key in seen:
            for _ in autos:
                position.undo()
            return None
        seen.add(key)
        moves = _ordered_moves(position, rules)
        return _Frame(moves, [position.move_text(m) for m in moves], autos, auto_texts)

    first = arrive()
    if first is None:  # cannot happen: the set starts empty
        raise RuntimeError("the start position was already seen")
    stack: list[tuple[_Frame, int]] = [(first, 0)]
    path.extend(first.auto_texts)
    while stack:
        frame, i = stack[-1]
        if i == 0 and position.is_won():
            return SearchResult(0, list(path), nodes, "")
        if i >= len(frame.moves):
            stack.pop()
            for _ in frame.autos:
                position.undo()
            del path[len(path) - len(frame.auto_texts) :]
            if stack:
                position.undo()  # the move that led here
                path.pop()
            continue
        stack[-1] = (frame, i + 1)
        nodes += 1
        if max_nodes and nodes >= max_nodes:
            return SearchResult(2, [], nodes, "nodes")
        if len(seen) >= max_entries:
            return SearchResult(2, [], nodes, "memory")
        if nodes & 255 == 0:
            if seconds and time.thread_time() - cpu0 >= seconds:
                return SearchResult(2, [], nodes, "seconds")
            if wall_seconds and time.monotonic() - wall0 >= wall_seconds:
                return SearchResult(2, [], nodes, "wall")
        position.push(frame.moves[i])
        path.append(frame.texts[i])
        child = arrive()
        if child is None:
            position.undo()
            path.pop()
            continue
        path.extend(child.auto_texts)
        stack.append((child, 0))
    return SearchResult(1, [], nodes, "")
