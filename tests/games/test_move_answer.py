"""The move answer has one builder (``move_answer``), held to the schema's serializer."""

from __future__ import annotations

import pytest

from games.api.serializers import MOVE_STATUSES, MoveResultSerializer, move_answer
from games.services import MoveResult


@pytest.mark.parametrize("turned", [None, "Ah", "Td"])
@pytest.mark.parametrize("status", MOVE_STATUSES)
def test_the_answer_is_what_the_serializer_would_write(turned: str | None, status: str) -> None:
    result = MoveResult(ply=12, turned=turned, score=85, status=status, moves=10)
    assert move_answer(result) == dict(MoveResultSerializer(result).data)


def test_the_answer_has_every_field_of_the_schema_and_no_other() -> None:
    answer = move_answer(MoveResult(ply=1, turned=None, score=0, status="playing", moves=1))
    assert list(answer) == list(MoveResultSerializer().fields)
