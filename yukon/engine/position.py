"""A Yukon position: the tableau, the foundations, the score, legal moves, play and undo.

Cards and moves are small integers (see ``cards`` and ``moves``). The position indexes
where every card lies (column, height, face up or not), so finding the legal moves looks
at the seven exposed cards and the few cards that fit on them instead of scanning every
face-up card.

Scoring: 5 points for each card turned face up, 10 for each card sent home (625 at most
with one deck; ``Variant.max_score``). With the ``foundation_takeback`` option a card taken
back from a foundation costs its 10.

Multi-deck variants use the same code: cards are physical (``deck * 52 + face``), there
are ``variant.columns`` columns and ``4 * decks`` foundations (foundation ``p`` builds suit
``p % 4``), and a move is ``card << variant.shift | dest`` with ``variant.home`` for home.
"""

from __future__ import annotations

from typing import Any, Final

from .cards import CARD_TEXT, RANKS, SUIT_NAMES, SUITS, Card, card_text, parse_card
from .deal import deal_columns
from .errors import EngineError, IllegalMoveError, NotationError, shorten
from .moves import Move, move_text, parse_move, parse_sourced_move
from .variants import Variant, get_variant

COLUMNS: Final = 7  # Yukon's; a variant's own count is ``variant.columns``
HOME: Final = 16  # col_of value of a card on its foundation (beyond every board)
POINTS_TURN: Final = 5
POINTS_HOME: Final = 10
MAX_SCORE: Final = 21 * POINTS_TURN + 52 * POINTS_HOME
_MAX_TEXT: Final = 400  # per 52 cards


class Position:
    """A mutable position. ``play``/``play_text`` check a move; ``push`` trusts its caller."""

    __slots__ = (
        "_history",
        "col_of",
        "cols",
        "down",
        "found",
        "movable",
        "moves",
        "pos_of",
        "score",
        "variant",
    )

    variant: Variant
    cols: list[list[Card]]  # bottom card first
    down: list[int]  # how many cards at the bottom of each column are face down
    found: list[int]  # cards home per foundation (clubs, diamonds, hearts, spades, per deck)
    col_of: list[int]  # column of each card, HOME for a card on its foundation
    pos_of: list[int]  # height of each card in its column
    movable: list[bool]  # face up in the tableau
    score: int
    moves: int
    # (move, source column, card turned or -1, foundation the card went to or -1)
    _history: list[tuple[Move, int, Card, int]]

    def __init__(
        self,
        variant: Variant | str,
        columns: list[list[Card]],
        face_down: list[int],
        foundations: list[int],
        *,
        score: int = 0,
        moves: int = 0,
    ) -> None:
        """Build a position from its parts, checking that they make the variant's whole pack.

        Multi-deck columns hold physical cards (``deck * 52 + face``).
        """
        # Anything but a Variant goes through get_variant, which rejects non-names clearly.
        self.variant = variant if isinstance(variant, Variant) else get_variant(variant)
        _check_parts(self.variant, columns, face_down, foundations, score=score, moves=moves)
        self.cols = [list(col) for col in columns]
        self.down = list(face_down)
        self.found = list(foundations)
        self.score = score
        self.moves = moves
        self._history = []
        self._index()

    def _index(self) -> None:
        cards = self.variant.cards
        self.col_of = [HOME] * cards
        self.pos_of = [0] * cards
        self.movable = [False] * cards
        for k, col in enumerate(self.cols):
            for i, card in enumerate(col):
                self.col_of[card] = k
                self.pos_of[card] = i
                self.movable[card] = i >= self.down[k]

    # ----- construction -------------------------------------------------------------

    @classmethod
    def deal(cls, number: int, variant: Variant | str = "yukon") -> Position:
        """The starting position of deal ``number``."""
        v = variant if isinstance(variant, Variant) else get_variant(variant)
        columns = deal_columns(number, v.column_sizes, v.decks)
        return cls(v, columns, list(v.face_down), [0] * v.foundations)

    def copy(self) -> Position:
        """An independent copy (without the undo history)."""
        other = Position.__new__(Position)
        other.variant = self.variant
        other.cols = [col[:] for col in self.cols]
        other.down = self.down[:]
        other.found = self.found[:]
        other.col_of = self.col_of[:]
        other.pos_of = self.pos_of[:]
        other.movable = self.movable[:]
        other.score = self.score
        other.moves = self.moves
        other._history = []
        return other

    # ----- rules --------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move: cards home, piles onto exposed cards, Kings into empty columns.

        A King that already lies at the bottom of its column is not offered an empty
        column: moving a whole column to another place changes nothing.
        """
        cols = self.cols
        col_of = self.col_of
        movable = self.movable
        found = self.found
        variant = self.variant
        children = variant.children
        home_piles = variant.home_piles
        shift = variant.shift
        home = variant.home
        moves: list[Move] = []
        empty: list[int] = []
        for k in range(len(cols)):
            col = cols[k]
            if col:
                top = col[-1]
                rank0 = top % 13
                for pile in home_piles[top]:
                    if found[pile] == rank0:
                        moves.append(top << shift | home)
                        break
                for child in children[top]:
                    if movable[child] and col_of[child] != k:
                        moves.append(child << shift | k)
            else:
                empty.append(k)
        if empty:
            pos_of = self.pos_of
            for king in variant.kings:
                if movable[king] and pos_of[king]:
                    moves.extend(king << shift | k for k in empty)
        if self.variant.runs_only:
            moves = [m for m in moves if self._moves_a_run(m)]
        if self.variant.foundation_takeback:
            moves.extend(self._takeback_moves())
        return moves

    def _moves_a_run(self, move: Move) -> bool:
        card = move >> self.variant.shift
        k = self.col_of[card]
        return k == HOME or self.variant.is_run(self.cols[k][self.pos_of[card] :])

    def _takeback_moves(self) -> list[Move]:
        moves = []
        parents = self.variant.parents
        for suit, count in enumerate(self.found):
            if not count:
                continue
            card = suit * 13 + count - 1
            for k, col in enumerate(self.cols):
                if (col[-1] in parents[card]) if col else count == 13:
                    moves.append(card << 3 | k)
        return moves

    # ----- moves of any variant -----------------------------------------------------

    def move_card(self, move: Move) -> Card:
        """The (physical) card ``move`` picks up."""
        return move >> self.variant.shift

    def move_dest(self, move: Move) -> int | None:
        """The column ``move`` goes to (0-based), or None when it sends the card home."""
        dest = move & ((1 << self.variant.shift) - 1)
        return None if dest == self.variant.home else dest

    def make_move(self, card: Card, dest: int | None) -> Move:
        """The move of ``card`` to column ``dest`` (0-based), or home for None."""
        variant = self.variant
        return card << variant.shift | (variant.home if dest is None else dest)

    def home_pile(self, card: Card) -> int:
        """The foundation ``card`` would go to: the first of its suit that takes it, or -1."""
        rank0 = card % 13
        for pile in self.variant.home_piles[card]:
            if self.found[pile] == rank0:
                return pile
        return -1

    def move_text(self, move: Move) -> str:
        """The text of ``move``, to be played in this position (before it is played).

        One-deck games: the short form ``9h>4``. Multi-deck games name the source column,
        ``3:9h>4``, and the copy's deck (``3:9h#2>4``) when the column shows two copies.
        """
        variant = self.variant
        if not variant.multi_deck:
            return move_text(move)
        card = move >> variant.shift
        dest = move & ((1 << variant.shift) - 1)
        k = self.col_of[card]
        copy = ""
        if k != HOME and self._face_up_copies(card % 52, k) > 1:
            copy = f"#{card // 52 + 1}"
        to = "F" if dest == variant.home else str(dest + 1)
        return f"{k + 1}:{CARD_TEXT[card]}{copy}>{to}"

    def _face_up_copies(self, face: Card, k: int) -> int:
        return sum(
            1
            for d in range(self.variant.decks)
            if self.col_of[d * 52 + face] == k and self.movable[d * 52 + face]
        )

    def copy_label(self, card: Card) -> int | None:
        """The deck (1..4) to name with ``card`` when its column shows another copy, else None."""
        if not self.variant.multi_deck:
            return None
        k = self.col_of[card]
        if k == HOME or self._face_up_copies(card % 52, k) < 2:
            return None
        return card // 52 + 1

    def illegal_reason(self, move: Move) -> str | None:
        """Why ``move`` is illegal here, or None when it is legal."""
        refusal = self.refusal(move)
        return None if refusal is None else str(refusal)

    def refusal(self, move: Move) -> IllegalMoveError | None:
        """The error ``play`` raises for ``move`` (its reason's kind and fields), or None."""
        variant = self.variant
        shift = variant.shift
        if (
            isinstance(move, bool)
            or not isinstance(move, int)
            or not 0 <= move < variant.cards << shift
        ):
            return IllegalMoveError(kind="not_a_move", move=repr(move))
        card, dest = move >> shift, move & ((1 << shift) - 1)
        to_home = dest == variant.home
        if not to_home and dest >= variant.columns:
            return IllegalMoveError(kind="not_a_move", move=repr(move))
        name = CARD_TEXT[card]
        suit, rank = card % 52 // 13, card % 13 + 1
        k = self.col_of[card]
        if k == HOME:
            if not variant.foundation_takeback:
                return IllegalMoveError(kind="foundation_keeps", card=name)
            if self.found[suit] != rank:
                return IllegalMoveError(kind="not_foundation_top", card=name)
            if to_home:
                return IllegalMoveError(kind="already_home", card=name)
        elif not self.movable[card]:
            return IllegalMoveError(kind="face_down", card=name)
        if to_home:
            above = len(self.cols[k]) - 1 - self.pos_of[card]
            if above:
                return IllegalMoveError(kind="covered", card=name, count=above)
            if self.home_pile(card) < 0:
                needed = CARD_TEXT[suit * 13 + rank - 2]
                return IllegalMoveError(
                    kind="no_home_has" if variant.multi_deck else "home_needs",
                    card=name,
                    suit=SUIT_NAMES[suit],
                    needed=needed,
                )
            return None
        if dest == k:
            return IllegalMoveError(kind="same_column", card=name, column=k + 1)
        target = self.cols[dest]
        if not target:
            if rank != 13:
                return IllegalMoveError(kind="king_only", card=name)
            if k != HOME and self.pos_of[card] == 0:
                return IllegalMoveError(kind="whole_column", card=name, column=k + 1)
        elif target[-1] not in variant.parents[card]:
            # ``variant`` names the rule for a caller that words it in another language
            return IllegalMoveError(
                kind="does_not_fit",
                card=name,
                onto=CARD_TEXT[target[-1]],
                rule=variant.build_rule,
                variant=variant.name,
            )
        if k != HOME and variant.runs_only and not self._moves_a_run(move):
            return IllegalMoveError(
                kind="runs_only", card=name, title=variant.title, variant=variant.name
            )
        return None

    def is_legal(self, move: Move) -> bool:
        return self.illegal_reason(move) is None

    def parse_move(self, text: str) -> Move:
        """Read a move's text for this position.

        A ``3:`` source prefix must name the card's column. Multi-deck games need it
        (``3:9h>4``), and the copy's deck (``3:9h#2>4``) when the column shows two copies.
        """
        if self.variant.multi_deck:
            return self._parse_sourced(text)
        move, source = parse_move(text)
        if source is not None and self.col_of[move >> 3] != source:
            raise IllegalMoveError(
                kind="not_in_column", card=CARD_TEXT[move >> 3], column=source + 1
            )
        return move

    def _parse_sourced(self, text: str) -> Move:
        variant = self.variant
        source, face, deck, dest = parse_sourced_move(text, variant)
        name = CARD_TEXT[face]
        if deck is not None:
            card = deck * 52 + face
            if self.col_of[card] != source or not self.movable[card]:
                raise IllegalMoveError(
                    kind="not_in_column", card=f"{name}#{deck + 1}", column=source + 1
                )
        else:
            here = [
                d * 52 + face
                for d in range(variant.decks)
                if self.col_of[d * 52 + face] == source and self.movable[d * 52 + face]
            ]
            if not here:
                raise IllegalMoveError(kind="not_in_column", card=name, column=source + 1)
            if len(here) > 1:
                options = tuple(
                    f"'{source + 1}:{name}#{c // 52 + 1}>{'F' if dest is None else dest + 1}'"
                    for c in here
                )
                raise IllegalMoveError(
                    kind="which_copy",
                    column=source + 1,
                    count=len(here),
                    card=name,
                    options=options,
                )
            card = here[0]
        return self.make_move(card, dest)

    def play(self, move: Move) -> Card | None:
        """Check and make ``move``; return the card it turned face up, if any.

        An illegal move raises IllegalMoveError and leaves the position unchanged.
        """
        refusal = self.refusal(move)
        if refusal is not None:
            raise refusal
        turned = self.push(move)
        return None if turned < 0 else turned

    def play_text(self, text: str) -> tuple[Move, Card | None]:
        """Parse, check and make a move given as text; return it and the card it turned."""
        move = self.parse_move(text)
        return move, self.play(move)

    def push(self, move: Move) -> Card:
        """Make a move known to be legal (from ``legal_moves``); return the turned card or -1."""
        variant = self.variant
        card = move >> variant.shift
        dest = move & ((1 << variant.shift) - 1)
        col_of = self.col_of
        pos_of = self.pos_of
        k = col_of[card]
        if k == HOME:  # a takeback, only with the foundation_takeback option
            self.found[card // 13] -= 1
            target = self.cols[dest]
            pos_of[card] = len(target)
            target.append(card)
            col_of[card] = dest
            self.movable[card] = True
            self.score -= POINTS_HOME
            self.moves += 1
            self._history.append((move, HOME, -1, -1))
            return -1
        src = self.cols[k]
        pile = -1
        if dest == variant.home:
            src.pop()
            pile = self.home_pile(card)
            self.found[pile] += 1
            col_of[card] = HOME
            self.movable[card] = False
            self.score += POINTS_HOME
        else:
            target = self.cols[dest]
            height = pos_of[card]
            base = len(target)
            if height == len(src) - 1:
                src.pop()
                target.append(card)
                col_of[card] = dest
                pos_of[card] = base
            else:
                group = src[height:]
                del src[height:]
                for c in group:
                    col_of[c] = dest
                    pos_of[c] = base
                    base += 1
                target += group
        turned = -1
        if src and len(src) == self.down[k]:
            self.down[k] -= 1
            turned = src[-1]
            self.movable[turned] = True
            self.score += POINTS_TURN
        self.moves += 1
        self._history.append((move, k, turned, pile))
        return turned

    @property
    def last_turned(self) -> Card:
        """The card the last move made on this object turned face up, or -1 (none, or no move)."""
        return self._history[-1][2] if self._history else -1

    def undo(self) -> Move:
        """Take back the last move made on this object (practice mode); return it."""
        if not self._history:
            raise EngineError(kind="nothing_to_undo")
        move, k, turned, pile = self._history.pop()
        shift = self.variant.shift
        card, dest = move >> shift, move & ((1 << shift) - 1)
        col_of = self.col_of
        pos_of = self.pos_of
        if k == HOME:
            self.cols[dest].pop()
            self.found[card // 13] += 1
            col_of[card] = HOME
            self.movable[card] = False
            self.score += POINTS_HOME
            self.moves -= 1
            return move
        if turned >= 0:
            self.down[k] += 1
            self.movable[turned] = False
            self.score -= POINTS_TURN
        src = self.cols[k]
        if pile >= 0:
            self.found[pile] -= 1
            pos_of[card] = len(src)
            src.append(card)
            col_of[card] = k
            self.movable[card] = True
            self.score -= POINTS_HOME
        else:
            target = self.cols[dest]
            height = pos_of[card]
            group = target[height:]
            del target[height:]
            base = len(src)
            for c in group:
                col_of[c] = k
                pos_of[c] = base
                base += 1
            src += group
        self.moves -= 1
        return move

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    # ----- state --------------------------------------------------------------------

    def is_won(self) -> bool:
        return sum(self.found) == self.variant.cards

    def is_stuck(self) -> bool:
        """Not won, and no legal move is left."""
        return not self.is_won() and not self.legal_moves()

    @property
    def status(self) -> str:
        """``won``, ``stuck`` (no legal move left) or ``playing``."""
        if self.is_won():
            return "won"
        return "playing" if self.legal_moves() else "stuck"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.to_text() == other.to_text()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Position.from_text({self.to_text()!r})"

    # ----- views --------------------------------------------------------------------

    def _foundations_view(self) -> dict[str, Any]:
        if not self.variant.multi_deck:
            return dict(zip(SUITS, self.found, strict=True))
        # One list per suit, a count per foundation of that suit (deck order).
        return {suit: self.found[i::4] for i, suit in enumerate(SUITS)}

    def masked(self) -> dict[str, Any]:
        """The only view of a position ever sent to a client: face-down cards are counts.

        Multi-deck games add ``copies`` to each column: the deck (1..4) of each face-up
        card, so that a move can name one of two identical cards.
        """
        columns: list[dict[str, Any]] = []
        for col, down in zip(self.cols, self.down, strict=True):
            column: dict[str, Any] = {"down": down, "up": [CARD_TEXT[c] for c in col[down:]]}
            if self.variant.multi_deck:
                column["copies"] = [c // 52 + 1 for c in col[down:]]
            columns.append(column)
        return {
            "variant": self.variant.key,
            "columns": columns,
            "foundations": self._foundations_view(),
            "score": self.score,
            "moves": self.moves,
        }

    def to_dict(self) -> dict[str, Any]:
        """Every card, face-down ones included: for the CLI, staff and the solver, never players."""
        view: dict[str, Any] = {
            "variant": self.variant.key,
            "columns": [[CARD_TEXT[c] for c in col] for col in self.cols],
            "face_down": list(self.down),
            "foundations": self._foundations_view(),
            "score": self.score,
            "moves": self.moves,
        }
        if self.variant.multi_deck:
            view["copies"] = [[c // 52 + 1 for c in col] for col in self.cols]
        return view

    def to_text(self) -> str:
        """The exact, compact text form: ``variant columns foundations score moves``.

        Columns are separated by ``/``; in each, the face-down cards (bottom first), a
        ``.``, then the face-up cards. Foundations are four characters per deck, the top
        rank of clubs, diamonds, hearts and spades (then the second deck's four...), ``-``
        where none is home. For example ``yukon .4d/2c.9h8sKs/... -A-- 15 3``.

        Multi-deck texts add a sixth field, the deck (1..4) of every card in the columns
        in the order written: moves name copies by deck (``3:9h#2>4``), so a stored game
        must keep which copy is which.
        """
        columns = "/".join(
            "".join(CARD_TEXT[c] for c in col[:down])
            + "."
            + "".join(CARD_TEXT[c] for c in col[down:])
            for col, down in zip(self.cols, self.down, strict=True)
        )
        foundations = "".join(RANKS[n - 1] if n else "-" for n in self.found)
        text = f"{self.variant.key} {columns} {foundations} {self.score} {self.moves}"
        if self.variant.multi_deck:
            text += " " + "".join(str(c // 52 + 1) for col in self.cols for c in col)
        return text

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Read the text form written by ``to_text``; raise NotationError on anything else.

        A multi-deck text may leave out its sixth field (the decks of the cards in the
        columns); the copies of a card then get decks in order: those home first, then the
        ones in the columns from column 1, bottom card first.
        """
        if not isinstance(text, str):
            raise NotationError(f"a position is text, not {type(text).__name__}")
        if len(text) > _MAX_TEXT * 4:
            raise NotationError(f"position text is too long ({len(text)} characters)")
        fields = text.split()
        decks_text = None
        if len(fields) == 6:  # the decks field of a multi-deck text (checked below)
            decks_text = fields.pop()
        if len(fields) != 5:
            raise NotationError(
                f"position {shorten(text)} has {len(fields)} fields; "
                "expected 5: variant columns foundations score moves (and decks if multi-deck)"
            )
        variant_name, columns_text, found_text, score_text, moves_text = fields
        variant = get_variant(variant_name)
        if decks_text is not None and not variant.multi_deck:
            raise NotationError(f"a {variant.title} position has 5 fields, not 6")
        if len(text) > _MAX_TEXT * variant.decks:
            raise NotationError(f"position text is too long ({len(text)} characters)")
        column_texts = columns_text.split("/")
        if len(column_texts) != variant.columns:
            raise NotationError(
                f"a position has {variant.columns} columns separated by '/', "
                f"not {len(column_texts)}"
            )
        columns: list[list[Card]] = []
        face_down: list[int] = []
        for k, col_text in enumerate(column_texts):
            hidden, dot, shown = col_text.partition(".")
            if not dot:
                raise NotationError(
                    f"column {k + 1} {shorten(col_text)} has no '.' "
                    "between face-down and face-up cards"
                )
            hidden_cards = _read_cards(hidden, k)
            columns.append(hidden_cards + _read_cards(shown, k))
            face_down.append(len(hidden_cards))
        if len(found_text) != variant.foundations:
            what = "(clubs, diamonds, hearts, spades)"
            if variant.multi_deck:
                what = f"(clubs, diamonds, hearts, spades, once per deck: {variant.decks} decks)"
            raise NotationError(
                f"foundations {shorten(found_text)} must be {variant.foundations} characters {what}"
            )
        foundations = _read_foundations(found_text)
        for name, value in (("score", score_text), ("moves", moves_text)):
            if not value.isdigit() or not value.isascii() or (value[0] == "0" and value != "0"):
                raise NotationError(f"{name} {shorten(value)} is not a plain whole number")
        try:
            if decks_text is not None:
                columns = _read_copies(variant, columns, decks_text)
            elif variant.multi_deck:
                columns = _assign_copies(variant, columns, foundations)
            return cls(
                variant,
                columns,
                face_down,
                foundations,
                score=int(score_text),
                moves=int(moves_text),
            )
        except NotationError:
            raise
        except EngineError as exc:  # well-formed text that is not a position (a card twice...)
            raise NotationError(f"not a valid position: {exc}") from exc


def _read_foundations(text: str) -> list[int]:
    foundations = []
    for ch in text:
        if ch == "-":
            foundations.append(0)
        elif ch in RANKS:
            foundations.append(RANKS.index(ch) + 1)
        else:
            raise NotationError(f"foundations {shorten(text)}: {ch!r} is not a rank or '-'")
    return foundations


def _read_cards(text: str, column: int) -> list[Card]:
    if len(text) % 2:
        raise NotationError(
            f"column {column + 1}: {shorten(text)} is not a list of two-character cards"
        )
    return [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]


def _read_copies(variant: Variant, columns: list[list[Card]], text: str) -> list[list[Card]]:
    count = sum(len(col) for col in columns)
    if len(text) != count or not (text.isascii() and text.isdigit()):
        raise NotationError(
            f"decks {shorten(text)}: expected one digit per card in the columns ({count})"
        )
    digits = iter(text)
    out = []
    for col in columns:
        physical = []
        for face in col:
            deck = int(next(digits))
            if not 1 <= deck <= variant.decks:
                raise NotationError(
                    f"{CARD_TEXT[face]}#{deck} is a card of a deck that does not exist: "
                    f"{variant.title} plays {variant.decks} decks"
                )
            physical.append((deck - 1) * 52 + face)
        out.append(physical)
    return out


def _home_copies(variant: Variant, foundations: list[int], face: Card) -> int:
    """How many copies of ``face`` the foundations hold."""
    return sum(1 for pile in variant.home_piles[face] if foundations[pile] > face % 13)


def _assign_copies(
    variant: Variant, columns: list[list[Card]], foundations: list[int]
) -> list[list[Card]]:
    """Give the faces read from a multi-deck text their physical cards (see ``from_text``)."""
    if len(foundations) != variant.foundations or any(not 0 <= n <= 13 for n in foundations):
        raise EngineError(
            f"a position has {variant.foundations} foundations holding 0 to 13 cards each"
        )
    used = [_home_copies(variant, foundations, face) for face in range(52)]
    out: list[list[Card]] = []
    for col in columns:
        physical = []
        for face in col:
            if used[face] >= variant.decks:
                raise EngineError(_too_many(variant, face))
            physical.append(used[face] * 52 + face)
            used[face] += 1
        out.append(physical)
    return out


def _too_many(variant: Variant, face: Card) -> str:
    return (
        f"{CARD_TEXT[face]} appears more than {variant.decks} times: "
        f"a copy from a deck that does not exist ({variant.title} plays {variant.decks} decks)"
    )


def _check_parts(
    variant: Variant,
    columns: list[list[Card]],
    face_down: list[int],
    foundations: list[int],
    *,
    score: int,
    moves: int,
) -> None:
    n = variant.columns
    if len(columns) != n or len(face_down) != n:
        raise EngineError(f"a position of {variant.title} has exactly {n} columns")
    if len(foundations) != variant.foundations or any(
        not isinstance(n, int) or not 0 <= n <= 13 for n in foundations
    ):
        raise EngineError(
            f"a position has {variant.foundations} foundations holding 0 to 13 cards each"
        )
    cards = variant.cards
    seen = [False] * cards
    if not variant.multi_deck:
        for suit, count in enumerate(foundations):
            for card in range(suit * 13, suit * 13 + count):
                seen[card] = True
    for k, (col, down) in enumerate(zip(columns, face_down, strict=True)):
        if not isinstance(down, int) or not 0 <= down <= len(col):
            raise EngineError(f"column {k + 1} cannot have {down} face-down cards")
        if col and down == len(col):
            raise EngineError(
                f"column {k + 1} has a face-down card with nothing on it; it would have turned"
            )
        for card in col:
            if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < cards:
                if variant.multi_deck and isinstance(card, int) and not isinstance(card, bool):
                    raise EngineError(
                        f"column {k + 1} holds {card!r}, not a card of {variant.decks} decks"
                    )
                raise EngineError(f"column {k + 1} holds {card!r}, which is not a card")
            if seen[card]:
                copy = f"#{card // 52 + 1}" if variant.multi_deck else ""
                raise EngineError(f"{card_text(card)}{copy} appears twice")
            seen[card] = True
    if not variant.multi_deck:
        if not all(seen):
            missing = ", ".join(CARD_TEXT[c] for c in range(52) if not seen[c])
            raise EngineError(f"a position holds all 52 cards; missing: {missing}")
    else:
        for face in range(52):
            out = sum(1 for d in range(variant.decks) if seen[d * 52 + face])
            home = _home_copies(variant, foundations, face)
            if out + home > variant.decks:
                raise EngineError(_too_many(variant, face))
            if out + home < variant.decks:
                raise EngineError(
                    f"a position of {variant.title} holds {variant.decks} copies of every "
                    f"card; {CARD_TEXT[face]} is missing"
                )
    for name, value in (("score", score), ("moves", moves)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise EngineError(f"{name} must be a whole number >= 0")


def deal_position(number: int, variant: Variant | str = "yukon") -> Position:
    """The starting position of deal ``number`` in ``variant``."""
    return Position.deal(number, variant)


__all__ = ["MAX_SCORE", "Position", "deal_position", "move_text", "parse_card"]
