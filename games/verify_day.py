"""Check a closed day of a running Yukon Daily site from its public endpoints alone.

    python -m games.verify_day --site https://yukon.example 2026-12-01 easy
                               [--commitment HEX] [--close-record FILE] [--timeout SECONDS]
    python -m games.verify_day --site https://yukon.example --receipt FILE
                               [--close-record FILE] [--timeout SECONDS]

It needs no Django and no settings: the standard library (urllib), ``cryptography`` (for
the signatures: receipts and close records) and the public engine; the site serves it as
one file with the engine, ``/fair-play/yukon-verify.pyz`` (games/checker.py). It checks
that the published deal and salt match the day's commitment (and the value you recorded
during the day, with ``--commitment``), that every ranked game's move log replays from
that deal to its published status, score, moves and time, that the games are in the
board's order with the right ranks (docs/leaderboards.md), and that every row of the
site's board is one of those games.

With ``--receipt`` (one receipt, or the JSON lines of ``GET /api/auth/receipts/``) it also
checks, for each receipt's day: the receipt's signature against the site's published
keys; that the games file lists that game with that log, result, score and time; that
the file is the one the day's signed close record holds; that the record links to the
previous day's. With ``--close-record`` (a record you kept from a later day) it follows the
chain back to the day, so the site cannot show you a different file and record than it
showed everyone else. docs/fair-play.md explains each step.

Exit status: 0 and a summary when everything matches; 1 and one line when something does
not (the proof fails); 2 and one line when the check could not be made (a network error,
a day not yet closed, an answer that is not what the API documents).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import http.client
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games import receipts
from games.commitment import Opening
from yukon.engine import LogError, Position, card_text, replay_log

# The ranking's caps (docs/leaderboards.md): beyond them results count as equal.
SCORE_CAP = (1 << 11) - 1
TIME_CAP_MS = (1 << 27) - 1
MOVES_CAP = (1 << 14) - 1
BOARD_PAGES_MAX = 100_000
CHAIN_STEPS_MAX = 100_000  # close records followed back from one you kept
KEYS_PATH = "/.well-known/yukon-daily-keys.json"


class Mismatch(Exception):
    """The site's proof does not hold: exit 1."""


class Unavailable(Exception):
    """The check could not be made: exit 2."""


# ----- reading the site ------------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    base: str
    timeout: float = 30.0

    def open(self, path: str) -> Any:
        request = urllib.request.Request(
            self.base.rstrip("/") + path,
            headers={
                "Accept": "application/json, application/x-ndjson",
                "User-Agent": "yukon-verify-day/1",
            },
        )
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as exc:
            raise Unavailable(f"GET {path}: HTTP {exc.code}: {_detail(exc)}") from exc
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            reason = getattr(exc, "reason", exc)
            raise Unavailable(f"GET {path}: cannot reach {self.base}: {reason}") from exc

    def json(self, path: str) -> Any:
        with self.open(path) as answer:
            return _loads(answer.read(), path)

    def lines(self, path: str) -> Iterator[Any]:
        with self.open(path) as answer:
            try:
                for number, raw in enumerate(answer, start=1):
                    if raw.strip():
                        yield _loads(raw, f"{path} line {number}")
            except (OSError, http.client.HTTPException) as exc:
                raise Unavailable(f"GET {path}: the download broke off: {exc!r}") from exc


def _detail(exc: urllib.error.HTTPError) -> str:
    try:
        body = json.loads(exc.read() or b"{}")
    except (ValueError, OSError):
        body = {}
    detail = body.get("detail") if isinstance(body, dict) else None
    if exc.code == 429:
        return f"rate limited, retry after {exc.headers.get('Retry-After', '?')} s"
    return str(detail or exc.reason)


def _loads(raw: bytes, where: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise Unavailable(f"{where}: not JSON ({exc})") from exc


# ----- the checks (pure: tests feed them data) -----------------------------------------


def check_opening(entry: dict[str, Any], expected: str | None = None) -> Opening:
    """The day's published opening (from /api/daily/<date>/) against its commitment."""
    if not entry.get("closed") or entry.get("deal") is None or entry.get("salt") is None:
        raise Unavailable(
            f"{entry.get('date')} {entry.get('tier')} has not closed yet: the deal and salt "
            f"are published at {entry.get('closes_at')}"
        )
    try:
        opening = Opening(
            str(entry["date"]),
            str(entry["tier"]),
            str(entry["variant"]),
            int(entry["algorithm_version"]),
            int(entry["deal"]),
            str(entry["salt"]),
        )
        digest = opening.commitment()
    except (KeyError, ValueError, TypeError) as exc:
        raise Mismatch(f"the published opening cannot be committed to: {exc}") from exc
    published = entry.get("commitment")
    if digest != published:
        raise Mismatch(
            f"commitment mismatch: SHA-256 of deal {opening.deal} with salt {opening.salt} is "
            f"{digest}, the site published {published}"
        )
    if expected is not None and expected.lower() != published:
        raise Mismatch(
            f"commitment mismatch: the site shows {published}, you recorded {expected.lower()}"
        )
    return opening


def check_header(header: dict[str, Any], opening: Opening, commitment: str) -> None:
    same = {
        "date": opening.date,
        "tier": opening.tier,
        "variant": opening.variant,
        "algorithm_version": opening.algorithm_version,
        "deal": str(opening.deal),
        "salt": opening.salt,
        "commitment": commitment,
    }
    for key, value in same.items():
        if header.get(key) != value:
            raise Mismatch(f"the games file says {key} {header.get(key)!r}, the day says {value!r}")


def replay_game(opening: Opening, game: dict[str, Any]) -> None:
    """One ranked game's log from the deal to its published result; raise Mismatch."""
    name = f"game {game.get('game_id')} ({game.get('player')})"
    log = game.get("log")
    if not isinstance(log, list) or not log:
        raise Mismatch(f"{name}: the board counts it, but it has no move log")
    if game.get("verification") != "verified":
        raise Mismatch(f"{name}: ranked, but not verified ({game.get('verification')})")
    position = Position.deal(opening.deal, opening.variant)
    # a ranked log: "undo" is no move; each entry's ply and time are checked before it plays
    steps = replay_log(position, (str(entry.get("move")) for entry in log), undo=False)
    last_at = 0
    for expected_ply, entry in enumerate(log):
        ply, text, turned, at_ms = (entry.get(k) for k in ("ply", "move", "turned", "at_ms"))
        if ply != expected_ply:
            raise Mismatch(f"{name}: the log jumps from ply {expected_ply - 1} to {ply}")
        if not isinstance(at_ms, int) or at_ms < last_at:
            raise Mismatch(f"{name}: ply {ply}: time {at_ms} ms goes backwards")
        last_at = at_ms
        try:
            card = next(steps).turned
        except LogError as exc:
            raise Mismatch(
                f"{name}: ply {ply}: {text!r} is not a legal move: {exc.reason}"
            ) from exc
        shown = None if card is None else card_text(card)
        if shown != turned:
            raise Mismatch(
                f"{name}: ply {ply}: the log says {turned} turned up, the deal says {shown}"
            )
    _check_result(name, game, position, last_at)


def _check_result(name: str, game: dict[str, Any], position: Position, last_at: int) -> None:
    won = position.is_won()
    if game.get("score") != position.score:
        raise Mismatch(
            f"{name}: published score {game.get('score')}, its log replays to {position.score}"
        )
    if game.get("moves") != position.moves:
        raise Mismatch(f"{name}: published {game.get('moves')} moves, its log has {position.moves}")
    if (game.get("status") == "won") != won or game.get("won") is not won:
        raise Mismatch(
            f"{name}: published {game.get('status')}, but its log "
            f"{'wins' if won else 'does not win'}"
        )
    if game.get("status") == "stuck" and not position.is_stuck():
        raise Mismatch(f"{name}: published stuck, but a legal move is left")
    elapsed = game.get("elapsed_ms")
    if not isinstance(elapsed, int) or elapsed < last_at:
        raise Mismatch(f"{name}: time {elapsed} ms is shorter than its last move ({last_at} ms)")
    if game.get("status") in ("won", "stuck") and elapsed != last_at:
        raise Mismatch(f"{name}: time {elapsed} ms, but its last move came at {last_at} ms")


def ranking_key(game: dict[str, Any]) -> tuple[int, int, int, int]:
    """The board's four keys, best first (docs/leaderboards.md), with the same caps."""
    elapsed = game.get("elapsed_ms")
    time = TIME_CAP_MS if elapsed is None else max(0, min(int(elapsed), TIME_CAP_MS))
    return (
        0 if game.get("status") == "won" else 1,
        -max(0, min(int(game["score"]), SCORE_CAP)),
        time,
        max(0, min(int(game["moves"]), MOVES_CAP)),
    )


def _finish_order(game: dict[str, Any]) -> tuple[dt.datetime, int]:
    finished = game.get("finished_at")
    moment = (
        dt.datetime.fromisoformat(finished) if finished else dt.datetime.min.replace(tzinfo=dt.UTC)
    )
    return moment, int(game["game_id"])


def check_order(games: list[dict[str, Any]]) -> None:
    """The file lists the games in board order with competition ranks (1, 2, 2, 4)."""
    expected = sorted(games, key=lambda g: (ranking_key(g), _finish_order(g)))
    for place, (listed, due) in enumerate(zip(games, expected, strict=True), start=1):
        if listed["game_id"] != due["game_id"]:
            raise Mismatch(
                f"place {place}: the file lists game {listed['game_id']}, the ranking "
                f"rules put game {due['game_id']} there"
            )
    rank = 0
    for place, game in enumerate(games, start=1):
        if place == 1 or ranking_key(game) != ranking_key(games[place - 2]):
            rank = place
        if game.get("rank") != rank:
            raise Mismatch(
                f"game {game['game_id']}: rank {game.get('rank')}, the rules give {rank}"
            )


BOARD_FIELDS = ("rank", "status", "score", "moves", "elapsed_ms")


def check_board(rows: Iterable[dict[str, Any]], games: list[dict[str, Any]]) -> int:
    """Each board row, in order, is the game the file lists at that place, with its result."""
    count = 0
    for place, row in enumerate(rows, start=1):
        count = place
        if place > len(games):
            raise Mismatch(
                f"board row {place} (game {row.get('game_id')}, "
                f"{row.get('display_name')}) has no move log in the games file"
            )
        game = games[place - 1]
        if row.get("game_id") != game["game_id"]:
            known = any(g["game_id"] == row.get("game_id") for g in games)
            what = "is out of order" if known else "has no move log in the games file"
            raise Mismatch(f"board row {place} (game {row.get('game_id')}) {what}")
        for field in BOARD_FIELDS:
            if row.get(field) != game.get(field):
                raise Mismatch(
                    f"board row {place} (game {game['game_id']}): {field} "
                    f"{row.get(field)!r}, its log gives {game.get(field)!r}"
                )
    if count != len(games):
        raise Mismatch(f"the board has {count} rows, the games file {len(games)} ranked games")
    return count


# ----- the whole check -----------------------------------------------------------------


def _day_entry(site: Site, date: str, tier: str) -> dict[str, Any]:
    entries = site.json(f"/api/daily/{urllib.parse.quote(date)}/")
    if not isinstance(entries, list):
        raise Unavailable(f"/api/daily/{date}/ did not answer a list of challenges")
    for entry in entries:
        if isinstance(entry, dict) and entry.get("tier") == tier:
            return entry
    raise Unavailable(f"the site lists no {tier} challenge on {date}")


def _games_file(
    site: Site, date: str, tier: str
) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """The file's header and games, and its games digest (games/receipts.py)."""
    lines = list(site.lines(f"/api/daily/{date}/{tier}/games.jsonl"))
    if not lines or not isinstance(lines[0], dict) or "commitment" not in lines[0]:
        raise Unavailable("the games file does not start with the day's header line")
    header, games, end = lines[0], lines[1:-1], lines[-1] if len(lines) > 1 else {}
    if not isinstance(end, dict) or end.get("end") is not True:
        raise Unavailable("the games file is cut short (no end line)")
    if not (header.get("games") == end.get("games") == len(games)):
        raise Unavailable(
            f"the games file announces {header.get('games')} games and holds "
            f"{len(games)}: download again"
        )
    return header, games, receipts.games_sha256(lines)


def _board_rows(site: Site, date: str, tier: str) -> Iterator[dict[str, Any]]:
    page, pages = 1, 1
    while page <= min(pages, BOARD_PAGES_MAX):
        board = site.json(f"/api/leaderboards/daily/{date}/{tier}/?page={page}")
        pages = int(board.get("pages") or 0)
        yield from board.get("results", [])
        page += 1


@dataclass(frozen=True)
class Day:
    """A day and tier that passed every check of ``check_day``."""

    date: str
    tier: str
    opening: Opening
    commitment: str
    games: list[dict[str, Any]]
    digest: str  # the games digest the close record must hold
    rows: int


def check_day(site: Site, date: str, tier: str, expected: str | None = None) -> Day:
    """The day's opening, games file, replays, order and board; Mismatch / Unavailable."""
    entry = _day_entry(site, date, tier)
    opening = check_opening(entry, expected)
    header, games, digest = _games_file(site, date, tier)
    check_header(header, opening, str(entry["commitment"]))
    pending = int((header.get("not_ranked") or {}).get("pending") or 0)
    if pending:
        raise Unavailable(
            f"{pending} of the day's games still wait for verification: the "
            "board is not final yet; try again in a few minutes"
        )
    for game in games:
        replay_game(opening, game)
    check_order(games)
    rows = check_board(_board_rows(site, date, tier), games)
    return Day(date, tier, opening, str(entry["commitment"]), games, digest, rows)


def verify(
    site: Site,
    date: str,
    tier: str,
    expected: str | None = None,
    kept: dict[str, Any] | None = None,
) -> str:
    """Every check in turn; the summary line, or Mismatch / Unavailable. With ``kept`` (a
    later close record), the file must also be the one the chain from it holds."""
    day = check_day(site, date, tier, expected)
    won = sum(1 for game in day.games if game.get("status") == "won")
    line = (
        f"OK {date} {tier}: deal {day.opening.deal} and salt {day.opening.salt} match "
        f"commitment {day.commitment}; {len(day.games)} ranked games ({won} won) replay to "
        f"their scores and times; the board's {day.rows} rows match them in order"
    )
    if kept is not None:
        proof = Proof(site)
        record = proof.close_record(date)
        check_sealed(record, day)
        chained = proof.check_previous(record)
        line += (
            f"; the file is the one the signed close record holds ({chained}); "
            + proof.check_chain(record, kept)
        )
    return line


# ----- receipts and close records (docs/fair-play.md, section 5) ------------------------


def check_signature(document: dict[str, Any], keys: dict[str, bytes], what: str) -> None:
    """``document`` is signed by one of the site's published keys, and unchanged since."""
    key_id = document["key_id"]
    if key_id not in keys:
        raise Mismatch(f"{what} names key {key_id}, which the site does not publish ({KEYS_PATH})")
    if not receipts.signature_holds(document, keys[key_id]):
        raise Mismatch(
            f"{what}: the signature does not hold for the site's key {key_id}: the site did "
            "not sign this, or it was changed afterwards"
        )


RECEIPT_RESULT = ("status", "score", "moves", "elapsed_ms")


def check_receipt_in_file(
    receipt: dict[str, Any], games: list[dict[str, Any]], sealed: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The file's line of the receipt's game, with the same result and log; Mismatch if
    it is missing (``sealed``: the close record's tier, whose ``left_out`` may list it)."""
    game_id = receipt["game_id"]
    game = next((g for g in games if g.get("game_id") == game_id), None)
    if game is None:
        if sealed is not None and receipts.digest(receipt) in sealed.get("left_out", ()):
            raise Mismatch(
                f"game {game_id} is not on the board: the site's signed close record lists "
                "its receipt among the games it left out (rejected by the replay, removed "
                "by a moderator, or the player banned)"
            )
        raise Mismatch(
            f"game {game_id} ({receipt['player']}, {receipt['status']}, score "
            f"{receipt['score']}) is missing: the site signed its receipt, but the games file "
            "does not list it, nor does the close record say it was left out"
        )
    for name in RECEIPT_RESULT:
        if game.get(name) != receipt[name]:
            raise Mismatch(
                f"game {game_id}: the games file says {name} {game.get(name)!r}, "
                f"its receipt {receipt[name]!r}"
            )
    log = game.get("log")
    digest = receipts.log_sha256(log if isinstance(log, list) else [])
    if digest != receipt["log_sha256"]:
        raise Mismatch(
            f"game {game_id}: its log in the games file is not the one on its receipt "
            f"(SHA-256 {digest}, the receipt says {receipt['log_sha256']}): a move or a "
            "move's time was changed"
        )
    return game


def check_sealed(record: dict[str, Any], day: Day) -> dict[str, Any]:
    """The day's file is the one its close record holds; the record's tier."""
    sealed = record["tiers"].get(day.tier)
    if sealed is None:
        raise Mismatch(f"the close record of {day.date} holds no {day.tier} games file")
    if sealed["games_sha256"] != day.digest:
        raise Mismatch(
            f"the games file is not the one the site sealed at the close: its digest is "
            f"{day.digest}, the signed close record of {day.date} says "
            f"{sealed['games_sha256']} ({sealed['ranked']} ranked games; the file has "
            f"{len(day.games)})"
        )
    if sealed["ranked"] != len(day.games):
        raise Mismatch(
            f"the close record of {day.date} counts {sealed['ranked']} ranked games, "
            f"the file {len(day.games)}"
        )
    return dict(sealed)


def check_link(record: dict[str, Any], previous: dict[str, Any]) -> None:
    """``record`` links to ``previous`` by its digest."""
    link = record["previous"]
    found = receipts.digest(previous)
    if link is None or link["date"] != previous["date"] or link["sha256"] != found:
        raise Mismatch(
            f"the chain is broken: the close record of {record['date']} links to "
            f"{link and link['date']} with digest {link and link['sha256']}, the site's close "
            f"record of {previous['date']} has digest {found}"
        )


@dataclass
class Proof:
    """The site's keys and close records, each fetched once and checked as it comes."""

    site: Site
    records: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    _keys: dict[str, bytes] | None = None

    @property
    def keys(self) -> dict[str, bytes]:
        if self._keys is None:
            try:
                self._keys = receipts.check_keys(self.site.json(KEYS_PATH))
            except ValueError as exc:
                raise Unavailable(f"{KEYS_PATH}: {exc}") from exc
        return self._keys

    def signed(self, document: dict[str, Any], what: str) -> dict[str, Any]:
        check_signature(document, self.keys, what)
        return document

    def close_record(self, date: str) -> dict[str, Any]:
        if date not in self.records:
            data = self.site.json(f"/api/daily/{urllib.parse.quote(date)}/close/")
            try:
                record = receipts.check_close_record(data)
            except ValueError as exc:
                raise Unavailable(f"the close record of {date}: {exc}") from exc
            if record["date"] != date:
                raise Mismatch(f"asked for the close record of {date}, got {record['date']}'s")
            self.records[date] = self.signed(record, f"the close record of {date}")
        return self.records[date]

    def check_previous(self, record: dict[str, Any]) -> str:
        """The record links to the site's previous one; what that proves, in words."""
        link = record["previous"]
        if link is None:
            return "the first record of its chain"
        check_link(record, self.close_record(link["date"]))
        return f"chained to the record of {link['date']}"

    def check_chain(self, record: dict[str, Any], kept: dict[str, Any]) -> str:
        """The chain from ``kept`` (a record of this day or later) back to ``record``."""
        self.signed(kept, f"the close record you kept ({kept['date']})")
        date, current = record["date"], kept
        if current["date"] < date:
            raise Unavailable(
                f"the close record you kept is from {current['date']}, before {date}: keep "
                "one from a later day"
            )
        for _ in range(CHAIN_STEPS_MAX):
            if current["date"] == date:
                if receipts.digest(current) != receipts.digest(record):
                    raise Mismatch(self._split(date, kept, receipts.digest(current), record))
                return f"the chain from your close record of {kept['date']} holds it"
            link = current["previous"]
            if link is None or link["date"] < date:
                raise Mismatch(
                    f"the chain from your close record of {kept['date']} skips {date}: the "
                    f"site's close record of {date} is not in the chain everyone else sees"
                )
            if link["date"] == date:
                if link["sha256"] != receipts.digest(record):
                    raise Mismatch(self._split(date, kept, link["sha256"], record))
                return f"the chain from your close record of {kept['date']} holds it"
            earlier = self.close_record(link["date"])
            if receipts.digest(earlier) != link["sha256"]:
                raise Mismatch(self._split(link["date"], kept, link["sha256"], earlier))
            current = earlier
        raise Unavailable(f"more than {CHAIN_STEPS_MAX} close records between the two days")

    @staticmethod
    def _split(date: str, kept: dict[str, Any], held: str, shown: dict[str, Any]) -> str:
        return (
            f"split view: the close record of {date} the site shows you has digest "
            f"{receipts.digest(shown)}, the chain from your close record of {kept['date']} "
            f"holds {held}: the site has shown different records of {date}"
        )


def read_documents(path: str) -> list[Any]:
    """The JSON documents in a file: one object (pretty-printed or not), or JSON lines."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise Unavailable(f"cannot read {path}: {exc}") from exc
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict):
        return [whole]
    documents = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            documents.append(_loads(line.encode(), f"{path} line {number}"))
    if not documents:
        raise Unavailable(f"{path} holds no receipt")
    return documents


def verify_receipts(
    site: Site, documents: list[Any], kept: dict[str, Any] | None = None
) -> list[str]:
    """Each receipt checked in turn (each day downloaded once); one OK line each."""
    proof = Proof(site)
    days: dict[tuple[str, str], Day] = {}
    lines = []
    for number, data in enumerate(documents, start=1):
        try:
            receipt = receipts.check_receipt(data)
        except ValueError as exc:
            raise Unavailable(f"receipt {number} is not a receipt as documented: {exc}") from exc
        date, tier, game_id = receipt["date"], receipt["tier"], receipt["game_id"]
        what = f"the receipt of game {game_id} ({date} {tier})"
        proof.signed(receipt, what)
        try:
            record = proof.close_record(date)
            day = days.get((date, tier)) or check_day(site, date, tier)
            days[(date, tier)] = day
            sealed = record["tiers"].get(tier)
            check_receipt_in_file(receipt, day.games, sealed)
            check_sealed(record, day)
            chained = proof.check_previous(record)
            if kept is not None:
                chained += "; " + proof.check_chain(record, kept)
        except (Mismatch, Unavailable) as exc:
            raise type(exc)(f"game {game_id} ({date} {tier}): {exc}") from exc
        lines.append(
            f"OK {date} {tier} game {game_id} ({receipt['player']}): the receipt is signed by "
            f"the site ({receipt['key_id']}); the games file lists the game with that log, "
            f"result, score and time; the file is the one the signed close record of {date} "
            f"holds ({chained})"
        )
    return lines


def _kept_record(path: str | None) -> dict[str, Any] | None:
    if path is None:
        return None
    documents = read_documents(path)
    try:
        if len(documents) != 1:
            raise ValueError("the file holds more than one document")
        return receipts.check_close_record(documents[0])
    except ValueError as exc:
        raise Unavailable(f"{path} is not a close record as documented: {exc}") from exc


def main(argv: list[str] | None = None, prog: str = "python -m games.verify_day") -> int:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Check a closed day's commitment, games and board from a site's public "
        "API; or your receipts against it.",
    )
    parser.add_argument("--site", required=True, help="the site's address, e.g. https://...")
    parser.add_argument("--commitment", help="the commitment you recorded during the day")
    parser.add_argument(
        "--receipt", metavar="FILE", help="your receipt, or the receipts you downloaded"
    )
    parser.add_argument(
        "--close-record", metavar="FILE", help="a close record you kept from a later day"
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per request")
    parser.add_argument("date", nargs="?", help="the day, YYYY-MM-DD (UTC)")
    parser.add_argument("tier", nargs="?", choices=["easy", "medium", "hard", "weekly"])
    args = parser.parse_args(argv)
    if args.receipt is not None and (args.date or args.commitment):
        parser.error("with --receipt the day comes from the receipt: give no date or tier")
    if args.receipt is None and not (args.date and args.tier):
        parser.error("give a date and a tier, or --receipt FILE")
    if args.date is not None:
        try:
            dt.date.fromisoformat(args.date)
        except ValueError:
            parser.error(f"{args.date!r} is not a date (YYYY-MM-DD)")
    if urllib.parse.urlsplit(args.site).scheme not in ("http", "https"):
        parser.error(f"--site {args.site!r} is not an http:// or https:// address")
    what = "receipt" if args.receipt is not None else f"{args.date} {args.tier}"
    site = Site(args.site, args.timeout)
    try:
        kept = _kept_record(args.close_record)
        if args.receipt is not None:
            print("\n".join(verify_receipts(site, read_documents(args.receipt), kept)))
        else:
            print(verify(site, args.date, args.tier, args.commitment, kept))
    except Mismatch as exc:
        print(f"FAIL {what}: {exc}", file=sys.stderr)
        return 1
    except (Unavailable, receipts.NoCryptography) as exc:
        print(f"CANNOT CHECK {what}: {exc}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        print(
            f"CANNOT CHECK {what}: an answer is not shaped as docs/api.md "
            f"says ({type(exc).__name__}: {exc})",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
