"""What the solver knows of each deal: solve once, store the verdict and the line."""

from __future__ import annotations

from django.db import transaction

from games.models import Deal
from yukon.solver import solve


def solve_deal(
    deal_id: int, seconds: float, nodes: int | None = None, jobs: int = 1
) -> Deal | None:
    """Solve a deal once and store its verdict and winning line; None if the deal is gone.

    Idempotent: a deal that already has a verdict is returned as it is. The search runs
    outside any transaction; the result is stored only if no one stored one meanwhile.
    """
    deal = Deal.objects.filter(pk=deal_id).first()
    if deal is None or deal.verdict is not None:
        return deal
    result = solve(deal.number, variant=deal.variant, seconds=seconds, nodes=nodes, jobs=jobs)
    with transaction.atomic():
        deal = Deal.objects.select_for_update().get(pk=deal_id)
        if deal.verdict is None:
            deal.verdict = result.verdict
            deal.solution = result.moves or None
            deal.solve_nodes = result.nodes
            deal.solve_seconds = result.seconds
            deal.save(update_fields=["verdict", "solution", "solve_nodes", "solve_seconds"])
    return deal
