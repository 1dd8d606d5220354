"""What the solver knows of each deal: solve once, store the verdict and the line."""

from __future__ import annotations

from django.db import transaction

from games.models import Deal
from yukon.solver import solve
from yukon.solver.lines import shorten_line


def solve_deal(
    deal_id: int, seconds: float, nodes: int | None = None, jobs: int = 1
) -> Deal | None:
    """Solve a deal once and store its verdict and winning line; None if the deal is gone.

    Idempotent: a deal that already has a verdict is returned as it is. The search runs
    outside any transaction; the result is stored only if no one stored one meanwhile.
    The line stored is the search's without its detours (``shorten_line``): it is the
    day's par and the analyses' line from the deal, and a hard multi-deck deal's search
    can wander for thousands of moves (a Double Yukon weekly's par read 11,071 moves,
    whose line without them has 233).
    """
    deal = Deal.objects.filter(pk=deal_id).first()
    if deal is None or deal.verdict is not None:
        return deal
    result = solve(deal.number, variant=deal.variant, seconds=seconds, nodes=nodes, jobs=jobs)
    line = shorten_line(deal.start_position(), result.moves) if result.moves else None
    with transaction.atomic():
        deal = Deal.objects.select_for_update().get(pk=deal_id)
        if deal.verdict is None:
            deal.verdict = result.verdict
            deal.solution = line
            deal.solve_nodes = result.nodes
            deal.solve_seconds = result.seconds
            deal.save(update_fields=["verdict", "solution", "solve_nodes", "solve_seconds"])
    return deal
