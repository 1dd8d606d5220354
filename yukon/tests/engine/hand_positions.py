"""Positions whose legal moves were counted by hand, to pin the rules (like chess perft).

Each entry is a position in the engine's text form and the exact sorted list of its legal
moves, with the reasoning written out. Nobody copied these lists from the engine: when
the engine disagrees, one of the two is wrong and has to be argued out. They are also
exported to ``vectors/positions.json`` by ``make_vectors.py``.

Text form reminder: ``variant col1/col2/.../col7 FOUNDATIONS score moves``; a column is
its face-down cards, a ``.``, then its face-up cards, bottom card first; the foundations
are the top rank of clubs, diamonds, hearts, spades (``-`` for none home). Scores below
follow 5 per turned card (21 minus the face-down ones) + 10 per card home.

Four layouts are reused across variants:

Y1, foundations ``TT88``: Ac..Tc, Ad..Td, Ah..8h, As..8s home; 16 cards out::

    1: (empty)
    2: [Jd] Kh 9s Qc        <- a King buried under two unrelated cards
    3: Ks                   <- a King already at the bottom of its column
    4: [Qd] Th
    5: [Kd] Jc Qh
    6: Ts 9h
    7: [Kc] Qs Jh Js

Y2, foundations ``KK-9``: all clubs and diamonds and As..9s home; all 13 hearts and
Ts Js Qs Ks out::

    1: [2h] Ah              <- an Ace on top: nothing may land on it
    2: [3h] Ks
    3: (empty)
    4: [4h 5h] Qh Js 9h
    5: [6h] Ts
    6: [7h 8h] Jh Th
    7: [Kh] Qs

A1, foundations ``KK-9``, same 17 cards::

    1: Ah
    2: [3h] Kh 2h
    3: (empty)
    4: [4h 5h] Js 9h Qs
    5: [6h] Ts
    6: [7h 8h] Qh Th
    7: Ks Jh

M2, foundations ``KK-9``, same 17 cards::

    1: (empty)
    2: [3h] Kh Qs Jh        <- an ordered alternating run under a King
    3: [2h] Ah
    4: [4h 5h] Qh Js        <- an ordered run
    5: [6h] Ts Th           <- NOT a run (two tens)
    6: [7h 8h] 9h
    7: Ks
"""

from __future__ import annotations

from typing import NamedTuple


class HandPosition(NamedTuple):
    name: str
    text: str
    legal: list[str]  # sorted move texts, counted by hand
    why: str  # one line; the full reasoning is in the comment above each entry


Y1 = "./Jd.Kh9sQc/.Ks/Qd.Th/Kd.JcQh/.Ts9h/Kc.QsJhJs TT88 445 80"
Y2 = "2h.Ah/3h.Ks/./4h5h.QhJs9h/6h.Ts/7h8h.JhTh/Kh.Qs KK-9 415 80"
A1 = ".Ah/3h.Kh2h/./4h5h.Js9hQs/6h.Ts/7h8h.QhTh/.KsJh KK-9 425 80"
M2 = "./3h.KhQsJh/2h.Ah/4h5h.QhJs/6h.TsTh/7h8h.9h/.Ks KK-9 420 80"
DEAL0 = (
    ".8s/Jh.9c2s2dQd6s/Tc3d.AcJc7c9h8c/QsKh5h.2c3h5cAh6c/4sTd5d8h.8dAdQhTsQc"
    "/Jd3s4d2h9d.3cKdAs7s9s/7dJs6hKs4c7h.5s6d4hKcTh ---- 0 0"
)

HAND_POSITIONS: list[HandPosition] = [
    # Deal 0, Yukon, as dealt. Tops: 8s 6s 8c 6c Qc 9s Th; no Ace on top, so nothing
    # goes home. A red 7 for 8s or 8c: 7d and 7h are both face down. A red 5 for 6s or
    # 6c: 5h, 5d face down. A red J for Qc: Jh, Jd face down. A red 8 for 9s: 8h is
    # face down, 8d is face up in column 5 -> 8d>6 (Qh Ts Qc ride along). A black 9
    # for Th: 9c face up in column 2 -> 9c>7, 9s on top of column 6 -> 9s>7. No empty
    # column. Total 3.
    HandPosition(
        "yukon-deal-0-start",
        "yukon " + DEAL0,
        ["8d>6", "9c>7", "9s>7"],
        "deal 0 as dealt: three moves",
    ),
    # Y1 in Yukon. Tops: Qc(2) Ks(3) Th(4) Qh(5) 9h(6) Js(7), column 1 empty.
    # Home: clubs need Jc (under Qh), diamonds Jd (face down), hearts 9h (top of 6)
    # -> 9h>F; spades need 9s, face up but under Qc: a group never goes home, so no.
    # On Qc, a red J: Jd face down, Jh face up in 7 -> Jh>2 (Js rides along).
    # On Ks, a red Q: Qd face down, Qh top of 5 -> Qh>3.
    # On Th, a black 9: 9c home, 9s face up in 2 -> 9s>4 (Qc rides: no order needed).
    # On Qh, a black J: Jc is in column 5 itself; Js top of 7 -> Js>5.
    # On 9h, a black 8: both home. On Js, a red T: Td home, Th top of 4 -> Th>7.
    # Empty column 1 takes a face-up King that is not already at the bottom of its
    # column: Kh (on face-down Jd, carrying 9s Qc) -> Kh>1; Ks lies at the bottom of
    # column 3 (moving it would change nothing); Kd, Kc are face down.
    # Ts (under 9h), Jc (under Qh), Qs (under Jh) have no exposed parent. Total 7.
    HandPosition(
        "yukon-buried-king-unordered-group",
        "yukon " + Y1,
        ["9h>F", "9s>4", "Jh>2", "Js>5", "Kh>1", "Qh>3", "Th>7"],
        "buried King to empty column, unordered passengers, no group home",
    ),
    # Y1 with foundation takeback: the seven above, plus the top card of each
    # foundation onto an exposed card: Tc onto a red J (none exposed), Td onto a black
    # J -> Td>7 (on Js), 8h onto a black 9 (9s not exposed), 8s onto a red 9 -> 8s>6
    # (on 9h). No foundation holds a King, so none goes to column 1. Total 9.
    HandPosition(
        "yukon-takeback",
        "yukon+takeback " + Y1,
        ["8s>6", "9h>F", "9s>4", "Jh>2", "Js>5", "Kh>1", "Qh>3", "Td>7", "Th>7"],
        "foundation takeback adds Td>7 and 8s>6",
    ),
    # Y1 in Russian (same suit, down). Home: 9h>F as in Yukon.
    # On Qc: Jc (column 5, under Qh) -> Jc>2. On Ks: Qs (column 7) -> Qs>3.
    # On Th: 9h (top of 6) -> 9h>4. On Qh: Jh (column 7) -> Jh>5.
    # On 9h: 8h is home. On Js: Ts (bottom of 6, carrying 9h) -> Ts>7.
    # Column 1: Kh -> Kh>1 (Ks at the bottom of 3 is not offered). Total 7.
    HandPosition(
        "russian-y1",
        "russian " + Y1,
        ["9h>4", "9h>F", "Jc>2", "Jh>5", "Kh>1", "Qs>3", "Ts>7"],
        "Russian builds in suit",
    ),
    # Y1 in Alaska (same suit, up or down). Home: 9h>F.
    # On Qc (J or K of clubs): Jc -> Jc>2; Kc face down.
    # On Ks (Q of spades): Qs -> Qs>3.
    # On Th (9 or J of hearts): 9h -> 9h>4, Jh -> Jh>4.
    # On Qh (J or K of hearts): Jh -> Jh>5, Kh (with 9s Qc) -> Kh>5.
    # On 9h (8 or T of hearts): 8h home, Th (top of 4) -> Th>6.
    # On Js (T or Q of spades): Ts -> Ts>7; Qs is in column 7 itself.
    # Column 1: Kh>1. Total 1+1+1+2+2+1+1+1 = 10.
    HandPosition(
        "alaska-y1",
        "alaska " + Y1,
        ["9h>4", "9h>F", "Jc>2", "Jh>4", "Jh>5", "Kh>1", "Kh>5", "Qs>3", "Th>6", "Ts>7"],
        "Alaska builds in suit, up or down",
    ),
    # Y1 in moosehide-runs: of Yukon's seven, only moves whose pile is an ordered
    # alternating run survive. Jh>2 carries Js (J on J): no. 9s>4 carries Qc: no.
    # Kh>1 carries 9s Qc: no. Qh>3, Js>5, Th>7 move one card, 9h>F goes home: yes.
    # Total 4.
    HandPosition(
        "moosehide-runs-rejects-unordered-piles",
        "moosehide-runs " + Y1,
        ["9h>F", "Js>5", "Qh>3", "Th>7"],
        "only ordered runs move",
    ),
    # moosehide-runs with takeback: the 4 above + Td>7 and 8s>6 (single cards). Total 6.
    HandPosition(
        "moosehide-runs-takeback",
        "moosehide-runs+takeback " + Y1,
        ["8s>6", "9h>F", "Js>5", "Qh>3", "Td>7", "Th>7"],
        "takeback in moosehide-runs",
    ),
    # Y1 in Moosehide: build down in any suit but the card's own; any face-up card moves
    # with what is on it. Home: 9h>F, as in Yukon.
    # On Qc, a J but no club: Jd face down; Jh (column 7, carrying Js) -> Jh>2; Js (top of
    # 7) -> Js>2 (black on black: Yukon would refuse it).
    # On Ks, a Q but no spade: Qc (top of 2) -> Qc>3 (black on black); Qh (top of 5) ->
    # Qh>3; Qd face down; Qs is a spade.
    # On Th, a 9 but no heart: 9c, 9d home; 9s (column 2, carrying Qc) -> 9s>4.
    # On Qh, a J but no heart: Jc is in column 5 itself; Js -> Js>5; Jd face down.
    # On 9h, an 8 but no heart: 8c, 8d, 8s all home.
    # On Js, a T but no spade: Tc, Td home; Th (top of 4) -> Th>7; Ts is a spade.
    # Column 1: Kh -> Kh>1 (Ks at the bottom of 3 is not offered). Total 9.
    HandPosition(
        "moosehide-y1",
        "moosehide " + Y1,
        ["9h>F", "9s>4", "Jh>2", "Js>2", "Js>5", "Kh>1", "Qc>3", "Qh>3", "Th>7"],
        "Moosehide builds on any other suit, black on black too",
    ),
    # Y1 in Moosehide with takeback: the 9 above, plus each foundation's top card onto
    # an exposed card of any other suit one rank higher: Tc onto Js (top of 7) -> Tc>7;
    # Td onto Js -> Td>7; 8h onto a 9 but no heart: 9s is covered, 9h is a heart: none;
    # 8s onto 9h (top of 6) -> 8s>6. No King is home. Total 12.
    HandPosition(
        "moosehide-takeback",
        "moosehide+takeback " + Y1,
        [
            "8s>6",
            "9h>F",
            "9s>4",
            "Jh>2",
            "Js>2",
            "Js>5",
            "Kh>1",
            "Qc>3",
            "Qh>3",
            "Tc>7",
            "Td>7",
            "Th>7",
        ],
        "takeback in Moosehide: a club onto a black J",
    ),
    # Y2 in Yukon. Tops: Ah(1) Ks(2) 9h(4) Ts(5) Th(6) Qs(7), column 3 empty.
    # Home: hearts need Ah -> Ah>F; spades need Ts -> Ts>F. Nothing else on top fits.
    # On Ah: nothing, ever (nothing ranks below an Ace; Ks does not wrap around).
    # On Ks: a red Q: Qh (column 4, carrying Js 9h) -> Qh>2.
    # On 9h: black 8s are home. On Ts: red 9: 9h -> 9h>5. On Th: black 9s are home.
    # On Qs: red J: Jh (column 6, carrying Th) -> Jh>7.
    # Column 3: Ks (on face-down 3h) -> Ks>3; Kh is face down. Total 6.
    HandPosition(
        "yukon-nothing-on-an-ace",
        "yukon " + Y2,
        ["9h>5", "Ah>F", "Jh>7", "Ks>3", "Qh>2", "Ts>F"],
        "nothing goes on an Ace; every move that uncovers a card turns it",
    ),
    # Y2 with takeback: + Kc>3 and Kd>3 (a King from a foundation into the empty
    # column), 9s onto a red T: Th on top of 6 -> 9s>6. Hearts foundation is empty.
    # Total 9.
    HandPosition(
        "yukon-takeback-kings",
        "yukon+takeback " + Y2,
        ["9h>5", "9s>6", "Ah>F", "Jh>7", "Kc>3", "Kd>3", "Ks>3", "Qh>2", "Ts>F"],
        "a King taken back may enter an empty column",
    ),
    # Y2 in moosehide-runs: Qh>2 carries Js 9h (9 on J is no run): no. Jh>7 carries Th
    # (two reds, T on J same colour): no. Ah>F, Ts>F, 9h>5, Ks>3 (single cards): yes.
    # Total 4.
    HandPosition(
        "moosehide-runs-y2",
        "moosehide-runs " + Y2,
        ["9h>5", "Ah>F", "Ks>3", "Ts>F"],
        "unordered piles stay put",
    ),
    # A1 in Alaska. Tops: Ah(1) 2h(2) Qs(4) Ts(5) Th(6) Jh(7), column 3 empty.
    # Home: Ah>F, Ts>F (2h waits for Ah).
    # On Ah: the 2h (building up) -> 2h>1; Kh never (no wrap-around).
    # On 2h: Ah (building down) -> Ah>2; 3h is face down.
    # On Qs: Js is in column 4 itself; Ks (bottom of 7, carrying Jh) -> Ks>4 (up).
    # On Ts: 9s home; Js (carrying 9h Qs) -> Js>5 (up).
    # On Th: 9h (carrying Qs) -> 9h>6; Jh -> Jh>6.
    # On Jh: Th -> Th>7; Qh (carrying Th) -> Qh>7.
    # Column 3: Kh (on face-down 3h, carrying 2h) -> Kh>3; Ks is at the bottom of 7.
    # Total 2+1+1+1+1+2+2+1 = 11.
    HandPosition(
        "alaska-up-and-down",
        "alaska " + A1,
        ["2h>1", "9h>6", "Ah>2", "Ah>F", "Jh>6", "Js>5", "Kh>3", "Ks>4", "Qh>7", "Th>7", "Ts>F"],
        "Alaska: a 2 on its Ace, a King on its Queen, no wrap-around",
    ),
    # A1 in Yukon: Ah>F, Ts>F. Nothing on Ah (2h is face up but a 2 never goes on an
    # Ace in Yukon, and neither does Kh). On 2h: black Aces are home. On Qs: red J:
    # Jh (top of 7) -> Jh>4. On Ts: red 9: 9h (with Qs) -> 9h>5. On Th: black 9s home.
    # On Jh: black T: Ts (top of 5, on face-down 6h) -> Ts>7. Column 3: Kh -> Kh>3.
    # Total 6.
    HandPosition(
        "yukon-a1",
        "yukon " + A1,
        ["9h>5", "Ah>F", "Jh>4", "Kh>3", "Ts>7", "Ts>F"],
        "in Yukon nothing goes on an Ace",
    ),
    # M2 in moosehide-runs. Tops: Jh(2) Ah(3) Js(4) Th(5) 9h(6) Ks(7), column 1 empty.
    # Home: Ah>F; Ts is under Th. Yukon would allow Ts>2 (on Jh), Th>4 (on Js),
    # Qh>7 (on Ks) and Kh>1. moosehide-runs: Ts>2 carries Th (T on T): no. Th>4: one card.
    # Qh>7 carries Js (black J on red Q): an ordered run, yes. Kh>1 carries Qs Jh
    # (K, Q, J alternating): yes. Total 4.
    HandPosition(
        "moosehide-runs-ordered-runs",
        "moosehide-runs " + M2,
        ["Ah>F", "Kh>1", "Qh>7", "Th>4"],
        "ordered runs move, a King run takes the empty column",
    ),
    # M2 in Yukon: the same plus Ts>2 (Th rides along unordered). Total 5.
    HandPosition(
        "yukon-m2",
        "yukon " + M2,
        ["Ah>F", "Kh>1", "Qh>7", "Th>4", "Ts>2"],
        "Yukon moves the unordered pile too",
    ),
    # M2 in Moosehide. Tops: Jh(2) Ah(3) Js(4) Th(5) 9h(6) Ks(7), column 1 empty.
    # Home: Ah>F. On Jh, a T but no heart: Tc, Td home; Ts (column 5, carrying Th) ->
    # Ts>2. On Js, a T but no spade: Th -> Th>4. On Th and 9h: the 9s and 8s of the
    # other suits are home. On Ks, a Q but no spade: Qh (column 4, carrying Js) -> Qh>7.
    # Column 1: Kh (carrying Qs Jh) -> Kh>1. Total 5, Yukon's five: with the other suits
    # home, "any other suit" and "the other colour" allow the same cards here.
    HandPosition(
        "moosehide-m2",
        "moosehide " + M2,
        ["Ah>F", "Kh>1", "Qh>7", "Th>4", "Ts>2"],
        "any face-up card moves with what is on it",
    ),
]


# Multi-deck positions (exported to vectors/multi-deck.json, not positions.json: the
# browser's rules mirror reads that one and plays one deck). Foundations are four
# characters per deck: clubs, diamonds, hearts, spades of deck 1, then of deck 2, ...
# Copies read from a text get decks in order: those home first, then the columns' from
# column 1, bottom card first (so ``#2`` below is the upper of two copies in a column).
MULTI_DECK_HAND_POSITIONS: list[HandPosition] = [
    # Double Yukon, foundations KK99KK99: both hearts and both spades piles hold A..9, so
    # Th Jh Qh Kh Ts Js Qs Ks are out twice each (16 cards).
    #   1: Kh Qs Jh   2: [Ks] Qh Js   3: Th Th   4: (empty)   5: Ts   6: Kh
    #   7: [Qs] Jh    8: Ks Qh        9: Js      10: Ts
    # Home: hearts piles are at 9: the top Th of column 3 (the upper copy, #2) -> 3:Th#2>F;
    # spades at 9: Ts on 5 and 10 -> 5:Ts>F, 10:Ts>F. Jh, Js, Qh, Kh wait for a ten.
    # On Jh (1 and 7) a black ten: Ts of 5 and 10 -> 5:Ts>1 5:Ts>7 10:Ts>1 10:Ts>7.
    # On Js (2 and 9) a red ten: both Th of column 3, the lower one carrying the upper ->
    # 3:Th#1>2 3:Th#2>2 3:Th#1>9 3:Th#2>9. On Th and Ts a nine: all home.
    # On Kh (6) a black queen: Qs of column 1 (under Jh) -> 1:Qs>6; the Qs of 7 is face
    # down. On Qh (8) a black jack: Js of 2 and 9 -> 2:Js>8 9:Js>8.
    # Column 4 is empty: Kh of 1 and 6 and Ks of 8 lie at the bottom of their columns,
    # the Ks of 2 is face down: no King to move. Total 14.
    HandPosition(
        "double-yukon-two-copies",
        "double-yukon .KhQsJh/Ks.QhJs/.ThTh/./.Ts/.Kh/Qs.Jh/.KsQh/.Js/.Ts KK99KK99 1090 100",
        [
            "10:Ts>1",
            "10:Ts>7",
            "10:Ts>F",
            "1:Qs>6",
            "2:Js>8",
            "3:Th#1>2",
            "3:Th#1>9",
            "3:Th#2>2",
            "3:Th#2>9",
            "3:Th#2>F",
            "5:Ts>1",
            "5:Ts>7",
            "5:Ts>F",
            "9:Js>8",
        ],
        "two face-up copies in one column are named by deck",
    ),
    # Triple Yukon, foundations KKKQ KKKQ KKKJ: the spades piles hold A..Q, A..Q, A..J,
    # so Ks is out three times and Qs once.
    #   1: Qs   2: [Ks] Ks   3: (empty)   4: Ks   5..13: (empty)
    # Home: Qs on the pile at J -> 1:Qs>F; each exposed Ks on a pile at Q (two take it;
    # it goes to the first) -> 2:Ks>F, 4:Ks>F. Qs on a black King: no (same colour).
    # Empty columns 3, 5..13 (10 of them): the Ks of 2 lies on a face-down card -> 10
    # moves; the Ks of 4 is at its column's bottom. Total 13.
    HandPosition(
        "triple-yukon-kings",
        "triple-yukon .Qs/Ks.Ks/./.Ks/././././././././. KKKQKKKQKKKJ 1905 200",
        [
            "1:Qs>F",
            "2:Ks>10",
            "2:Ks>11",
            "2:Ks>12",
            "2:Ks>13",
            "2:Ks>3",
            "2:Ks>5",
            "2:Ks>6",
            "2:Ks>7",
            "2:Ks>8",
            "2:Ks>9",
            "2:Ks>F",
            "4:Ks>F",
        ],
        "a King with a face-down card under it takes any of ten empty columns",
    ),
    # Quadruple Yukon, foundations KKQK KKJK KKTK KK9K: the hearts piles hold A..Q, A..J,
    # A..T, A..9, so Kh is out 4 times, Qh 3, Jh 2, Th 1. Copies home come first, so
    # the Qh home is #1 and the three in column 1 are #2 #3 #4; the Kh are #1 (face down
    # in 2), #2 #3 (column 3), #4 (column 6).
    #   1: Qh Qh Qh   2: [Kh] Jh   3: Kh Kh   4: (empty)   5: [Jh] Th   6: Kh   7..16: (empty)
    # Home: top Qh of 1 on the pile at J -> 1:Qh#4>F; Jh on the pile at T -> 2:Jh>F;
    # Th on the pile at 9 -> 5:Th>F; the top Kh of 3 and the Kh of 6 on the pile at Q ->
    # 3:Kh#3>F, 6:Kh>F. All hearts: nothing builds (colours must alternate).
    # Empty columns 4, 7..16 (11): the upper Kh of 3 lies on the other one -> 11 moves;
    # the lower Kh of 3 and the Kh of 6 are at the bottom. Total 16.
    HandPosition(
        "quadruple-yukon-four-copies",
        "quadruple-yukon .QhQhQh/Kh.Jh/.KhKh/./Jh.Th/.Kh/./././././././././. "
        "KKQKKKJKKKTKKK9K 2570 300",
        [
            "1:Qh#4>F",
            "2:Jh>F",
            "3:Kh#3>10",
            "3:Kh#3>11",
            "3:Kh#3>12",
            "3:Kh#3>13",
            "3:Kh#3>14",
            "3:Kh#3>15",
            "3:Kh#3>16",
            "3:Kh#3>4",
            "3:Kh#3>7",
            "3:Kh#3>8",
            "3:Kh#3>9",
            "3:Kh#3>F",
            "5:Th>F",
            "6:Kh>F",
        ],
        "three copies in one column, four foundations per suit",
    ),
]
