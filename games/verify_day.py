"""Check a closed day of a running Yukon Daily site from its public endpoints alone.

    python -m games.verify_day --site https://yukon.example 2026-12-01 easy
                               [--commitment HEX] [--timeout SECONDS]

It needs no Django and no settings: the standard library (urllib) and the public engine.
It checks that the published deal and salt match the day's commitment (and the value you
recorded during the day, with ``--commitment``), that every ranked game's move log replays
from that deal to its published status, score, moves and time, that the games are in the
board's order with the right ranks (docs/leaderboards.md), and that every row of the
site's board is one of those games. docs/fair-play.md explains each step.

Exit status: 0 and a summary when everything matches; 1 and one line when something does
not (the proof fails); 2 and one line when the check could not be made (a network error,
a day not yet closed, an answer that is not what the API documents).
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from games.engine import LogError, Position, card_text, replay_log
from games.proof import Opening

# The ranking's caps (docs/leaderboards.md): beyond them results count as equal.
SCORE_CAP = (1 << 11) - 1
TIME_CAP_MS = (1 << 27) - 1
MOVES_CAP = (1 << 14) - 1
BOARD_PAGES_MAX = 100_000


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


def _games_file(site: Site, date: str, tier: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
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
    return header, games


def _board_rows(site: Site, date: str, tier: str) -> Iterator[dict[str, Any]]:
    page, pages = 1, 1
    while page <= min(pages, BOARD_PAGES_MAX):
        board = site.json(f"/api/leaderboards/daily/{date}/{tier}/?page={page}")
        pages = int(board.get("pages") or 0)
        yield from board.get("results", [])
        page += 1


def verify(site: Site, date: str, tier: str, expected: str | None = None) -> str:
    """Every check in turn; the summary line, or Mismatch / Unavailable."""
    entry = _day_entry(site, date, tier)
    opening = check_opening(entry, expected)
    header, games = _games_file(site, date, tier)
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
    won = sum(1 for game in games if game.get("status") == "won")
    return (
        f"OK {date} {tier}: deal {opening.deal} and salt {opening.salt} match commitment "
        f"{entry['commitment']}; {len(games)} ranked games ({won} won) replay to their "
        f"scores and times; the board's {rows} rows match them in order"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.verify_day",
        description="Check a closed day's commitment, games and board from a site's public API.",
    )
    parser.add_argument("--site", required=True, help="the site's address, e.g. https://...")
    parser.add_argument("--commitment", help="the commitment you recorded during the day")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per request")
    parser.add_argument("date", help="the day, YYYY-MM-DD (UTC)")
    parser.add_argument("tier", choices=["easy", "medium", "hard", "weekly"])
    args = parser.parse_args(argv)
    try:
        dt.date.fromisoformat(args.date)
    except ValueError:
        parser.error(f"{args.date!r} is not a date (YYYY-MM-DD)")
    if urllib.parse.urlsplit(args.site).scheme not in ("http", "https"):
        parser.error(f"--site {args.site!r} is not an http:// or https:// address")
    try:
        print(verify(Site(args.site, args.timeout), args.date, args.tier, args.commitment))
    except Mismatch as exc:
        print(f"FAIL {args.date} {args.tier}: {exc}", file=sys.stderr)
        return 1
    except Unavailable as exc:
        print(f"CANNOT CHECK {args.date} {args.tier}: {exc}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        print(
            f"CANNOT CHECK {args.date} {args.tier}: an answer is not shaped as docs/api.md "
            f"says ({type(exc).__name__}: {exc})",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
