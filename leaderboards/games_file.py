"""A closed day's ranked games with their full move logs, as JSON lines (docs/fair-play.md):
what anyone needs to replay a board with the public engine. Nothing before the day's close.
Streamed from PostgreSQL until the day is sealed; then the copy the worker stored
(leaderboards.stored_files) is sent instead, the same bytes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Count, Q
from django.http import (
    FileResponse,
    HttpResponse,
    HttpResponseNotModified,
    StreamingHttpResponse,
)
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request

from apikit.dates import parse_day
from apikit.errors import Conflict, NotFound
from apikit.replica import replica_iter, replica_reads
from apikit.schema import ERROR
from apikit.throttles import DailyGamesThrottle
from apikit.views import BaseAPIView
from games import receipts
from games import services as game_services
from games.commitment import FORMAT as COMMITMENT_FORMAT
from games.models import (
    ChallengeTier,
    DailyChallenge,
    Game,
    Mode,
    Status,
    Verification,
    utc_today,
)
from leaderboards import day_board, ranking
from leaderboards.models import GamesFile

GAMES_FORMAT = "yukon-daily-games-v1"
JSON_LINES = "application/x-ndjson"
CHUNK = 500  # games per query while streaming: memory stays flat on a board of 100,000


def _header(challenge: DailyChallenge, count: int, not_ranked: dict[str, int]) -> dict[str, Any]:
    deal = challenge.deal
    return {
        "format": GAMES_FORMAT,
        "date": challenge.date.isoformat(),
        "tier": challenge.tier,
        "variant": deal.variant,
        "algorithm_version": deal.algorithm_version,
        "deal": str(deal.number),
        "salt": challenge.salt,
        "commitment": challenge.commitment,
        "commitment_format": COMMITMENT_FORMAT,
        "closed_at": challenge.closes_at.isoformat().replace("+00:00", "Z"),
        "games": count,
        "not_ranked": not_ranked,
    }


def _not_ranked(challenge: DailyChallenge) -> dict[str, int]:
    """Games of the day that are not on the board, counted by why (no names). ``pending``
    takes in any game still in play too: it may yet join the board (at its last move)."""
    counts = (
        Game.objects.filter(challenge=challenge, mode=Mode.DAILY)  # not its archive replays
        .exclude(ranking.counts_q())
        .aggregate(
            pending=Count("id", filter=Q(verification=Verification.PENDING)),
            rejected=Count("id", filter=Q(verification=Verification.REJECTED)),
            removed=Count("id", filter=Q(verification=Verification.VERIFIED)),
        )
    )
    return {key: int(value) for key, value in counts.items()}


GAME_FIELDS = (
    "id",
    "player__display_name",
    "status",
    "score",
    "moves",
    "elapsed_ms",
    "started_at",
    "finished_at",
    "verification",
)


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def _game_lines(game_ids: list[int]) -> Iterator[dict[str, Any]]:
    """The games in the board's order, each with its log, a chunk of games per query."""
    rank, previous_key = 0, None
    for start in range(0, len(game_ids), CHUNK):
        chunk = game_ids[start : start + CHUNK]
        games = {row["id"]: row for row in Game.objects.filter(pk__in=chunk).values(*GAME_FIELDS)}
        logs = {
            game_id: [receipts.log_entry(*entry) for entry in log]
            for game_id, log in game_services.logs_of(chunk).items()
        }
        for place, game_id in enumerate(chunk, start=start + 1):
            game = games.get(game_id)
            if game is None:  # deleted while streaming: the count in the header tells
                continue
            won = game["status"] == Status.WON
            key = ranking.encode(won, game["score"], game["elapsed_ms"], game["moves"])
            if key != previous_key:
                rank, previous_key = place, key
            yield {
                "rank": rank,
                "game_id": game_id,
                "player": game["player__display_name"],
                "status": game["status"],
                "won": won,
                "score": game["score"],
                "moves": game["moves"],
                "elapsed_ms": game["elapsed_ms"],
                "started_at": _iso(game["started_at"]),
                "finished_at": _iso(game["finished_at"]),
                "verification": game["verification"],
                "log": logs[game_id],
            }


def _end_games_left_in_play(challenge: DailyChallenge) -> None:
    """A closed day's games still in play end now (abandoned, at their last move, before
    the close), so that the file lists them rather than a board that grows afterwards."""
    playing = Game.objects.filter(challenge=challenge, mode=Mode.DAILY, status=Status.PLAYING)
    for game_id in playing.values_list("pk", flat=True):
        game_services.end_if_day_closed(game_id)


def _ranked_ids(challenge: DailyChallenge) -> list[int]:
    return list(
        Game.objects.filter(ranking.counts_q(), challenge=challenge)
        .order_by(*ranking.list_order())
        .values_list("pk", flat=True)
    )


def _day_file(challenge: DailyChallenge) -> tuple[Iterator[bytes], bool]:
    """The file's lines, and whether any game of the day still waits for verification
    (the file may then change: no public caching)."""
    _end_games_left_in_play(challenge)  # on the primary: read, then written
    # The rest from the replica (docs/operations.md, "Read replica"): a closed day's file
    # changes only as its last games are verified, and while any is pending (as the
    # replica sees it, at least as many as the primary) nobody may cache it.
    with replica_reads():
        game_ids = _ranked_ids(challenge)
        not_ranked = _not_ranked(challenge)
    entries = replica_iter(_entries(_header(challenge, len(game_ids), not_ranked), game_ids))
    return (receipts.file_line(entry) for entry in entries), bool(not_ranked["pending"])


def games_digest(challenge: DailyChallenge) -> tuple[str, int, int]:
    """The games digest of a closed day's file (games/receipts.py: the file with its names
    left out), its ranked games, and its games still pending (the digest is final at 0)."""
    game_ids = _ranked_ids(challenge)
    not_ranked = _not_ranked(challenge)
    entries = _entries(_header(challenge, len(game_ids), not_ranked), game_ids)
    return receipts.games_sha256(entries), len(game_ids), not_ranked["pending"]


def _entries(header: dict[str, Any], game_ids: list[int]) -> Iterator[dict[str, Any]]:
    """The file's lines as data: the day, the games in board order, the end line. The
    same data gives the same bytes (ids, times and logs never change once verified), so
    the file is fixed once the day is final (docs/fair-play.md, section 5)."""
    yield header
    written = 0
    for game in _game_lines(game_ids):
        written += 1
        yield game
    yield {"end": True, "games": written}


class ErrorsInJSON(BaseContentNegotiation):
    """The file is always JSON lines; its errors always JSON, whatever the client accepts
    (a client asking for ``application/x-ndjson`` only gets a readable error, not a 406)."""

    def select_parser(self, request: Request, parsers: Iterable[BaseParser]) -> BaseParser | None:
        return next(iter(parsers), None)

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, renderer.media_type


GAME_LINE = {
    "type": "object",
    "description": (
        "One line of JSON each: first the day (format, date, tier, variant, algorithm_version, "
        "deal, salt, commitment, commitment_format, closed_at, games, not_ranked), then one "
        "line per ranked game in board order (rank, game_id, player, status, won, score, "
        "moves, elapsed_ms, started_at, finished_at, verification, log: [{ply, move, turned, "
        "at_ms}]), last {end: true, games}. docs/api.md."
    ),
}


class DailyGamesView(BaseAPIView):
    permission_classes = [AllowAny]
    throttle_classes = [DailyGamesThrottle]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = ErrorsInJSON

    @extend_schema(
        parameters=[
            OpenApiParameter("date", OpenApiTypes.DATE, OpenApiParameter.PATH),
            OpenApiParameter("tier", str, OpenApiParameter.PATH, enum=ChallengeTier.values),
            OpenApiParameter(
                "ETag",
                str,
                OpenApiParameter.HEADER,
                response=[200, 304],
                description='A sealed day\'s stored file only: `"<sha256>"`, the SHA-256 '
                'of the file\'s bytes (gzip: `"<sha256>-gzip"`).',
            ),
        ],
        responses={
            (200, JSON_LINES): OpenApiResponse(
                GAME_LINE,
                description="JSON lines, streamed. Once the day is sealed (its close record "
                "signed), the stored file: gzip (`Content-Encoding: gzip`) to a client whose "
                "`Accept-Encoding` takes it, with a strong `ETag`.",
            ),
            (304, JSON_LINES): OpenApiResponse(
                description="`If-None-Match` named the stored file's `ETag`: it has not changed."
            ),
            (400, "application/json"): OpenApiResponse(ERROR, description="Not a date."),
            (404, "application/json"): OpenApiResponse(
                ERROR, description="Unknown tier, a future date, or no challenge that day."
            ),
            (409, "application/json"): OpenApiResponse(
                ERROR, description="The day has not closed yet (`opens_at`)."
            ),
        },
        summary="A closed day's ranked games with their full move logs (JSON lines)",
        tags=["daily"],
    )
    def get(self, request: Request, date: str, tier: str) -> HttpResponse | StreamingHttpResponse:
        today = utc_today()
        day = parse_day(date)
        if tier not in ChallengeTier.values:
            raise NotFound(day_board.unknown_tier(tier))
        found = [c for c in game_services.public_challenges(day, today) if c.tier == tier]
        if not found:
            raise NotFound(day_board.no_challenge(tier, day))
        challenge = found[0]
        if not challenge.is_closed(today):
            closes = challenge.closes_at.isoformat().replace("+00:00", "Z")
            raise Conflict(
                _("this day is still open: its games are published when it closes at %(closes)s")
                % {"closes": closes},
                opens_at=closes,
            )
        from leaderboards import stored_files  # it writes the lines this module makes

        copy = stored_files.stored(challenge)
        sent = None if copy is None else _stored_file(request, copy)
        if sent is not None:
            return _file_headers(sent, day, tier, pending=False)
        lines, pending = _day_file(challenge)
        response = StreamingHttpResponse(lines, content_type=JSON_LINES)
        return _file_headers(response, day, tier, pending)


def _file_headers(
    response: HttpResponse | StreamingHttpResponse, day: dt.date, tier: str, pending: bool
) -> HttpResponse | StreamingHttpResponse:
    response["Content-Disposition"] = f'inline; filename="{day.isoformat()}-{tier}.jsonl"'
    if pending:  # the board may still grow: every reader asks again
        patch_cache_control(response, no_cache=True, max_age=0)
    else:
        patch_cache_control(response, public=True, max_age=game_services.CLOSED_DAY_MAX_AGE)
    return response


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip: named (or ``x-gzip``, or ``*``
    when gzip is not named) with a weight above 0 (RFC 9110, 12.5.3)."""
    weights: dict[str, float] = {}
    for part in accept_encoding.split(","):
        coding, _, parameters = part.partition(";")
        weight = 1.0
        name, _, value = parameters.partition("=")
        if name.strip().lower() == "q":
            try:
                weight = float(value.strip())
            except ValueError:
                weight = 0.0
        if coding.strip():
            weights[coding.strip().lower()] = weight
    for coding in ("gzip", "x-gzip", "*"):
        if coding in weights:
            return weights[coding] > 0
    return False


def _stored_file(request: Request, copy: GamesFile) -> HttpResponse | StreamingHttpResponse | None:
    """The sealed day's stored file (leaderboards.stored_files): its gzip bytes as they are
    (``FileResponse``: gunicorn sends the file with sendfile, no Python work a game), or
    inflated chunk by chunk for a client without gzip; None if the copy cannot be read
    (the caller streams the file from PostgreSQL instead)."""
    from leaderboards import stored_files

    gzipped = accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    # the two encodings are different bytes: a strong validator each (RFC 9110, 8.8.1)
    etag = f'"{copy.sha256}-gzip"' if gzipped else f'"{copy.sha256}"'
    response: HttpResponse | StreamingHttpResponse
    asked = parse_etags(request.META.get("HTTP_IF_NONE_MATCH", ""))
    if etag in asked or "*" in asked:
        response = HttpResponseNotModified()
    else:
        handle = stored_files.open_gzip(copy)
        if handle is None:
            return None
        if gzipped:
            response = FileResponse(handle, content_type=JSON_LINES)
            response["Content-Encoding"] = "gzip"
        else:
            chunks = stored_files.uncompressed(handle)
            if chunks is None:
                stored_files.forget(copy)
                return None
            response = StreamingHttpResponse(chunks, content_type=JSON_LINES)
            response["Content-Length"] = str(copy.length)
    response["ETag"] = etag
    patch_vary_headers(response, ("Accept-Encoding",))
    return response
