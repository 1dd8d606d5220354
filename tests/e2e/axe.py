"""The accessibility check of the e2e suite: axe-core (npm, ``npm ci``) run in a page.

``failures`` injects axe into a Playwright page, runs every rule (the experimental ones
too: ``label-content-name-mismatch``, a control's name holds what it shows, is one) and
returns the findings that fail the site: any of serious or critical impact, and any
moderate one not listed with its reason in docs/frontend.md ("axe: moderate findings
kept"). Minor ones are reported by axe but never fail. ``rules=[...]`` runs only those rules
(the themes' colour-contrast runs: a page already checked in full, looked at again in
another palette), with the same findings and the same lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
FRONTEND_DOC = ROOT / "docs" / "frontend.md"
KEPT_HEADING = "### axe: moderate findings kept"


@cache
def axe_source() -> str:
    if not AXE_JS.exists():
        pytest.fail(f"{AXE_JS} is missing: run `npm ci` at the repository root (package.json)")
    return AXE_JS.read_text()


@cache
def kept_moderate_rules() -> frozenset[str]:
    """The rule ids of docs/frontend.md's table of moderate findings kept, each with its reason."""
    text = FRONTEND_DOC.read_text()
    section = text.split(KEPT_HEADING, 1)[1].split("\n#", 1)[0]
    rules = set()
    for row in re.finditer(r"^\| `([a-z0-9-]+)` \| (.+?) \|$", section, re.M):
        assert row.group(2).strip(), f"{row.group(1)} is listed without a reason"
        rules.add(row.group(1))
    return frozenset(rules)


def violations(page: Any, rules: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Every axe violation on the page as it stands (id, impact, help, nodes' targets): of
    every rule, or of only ``rules`` when given."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found: list[dict[str, Any]] = page.evaluate(
        """async (only) => {
             const options = {resultTypes: ["violations"]};
             if (only.length) options.runOnly = {type: "rule", values: only};
             else options.rules = Object.fromEntries(
               axe.getRules(["experimental"]).map((r) => [r.ruleId, {enabled: true}]));
             const result = await axe.run(document, options);
             return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.map((n) => n.target.join(" ") + ": " + (n.failureSummary || ""))}));
           }""",
        list(rules),
    )
    return found


def failures(page: Any, rules: Sequence[str] = ()) -> list[str]:
    """The findings that fail the check, one readable line each (empty: the page passes):
    of every rule, or of only ``rules`` when given."""
    out = []
    for v in violations(page, rules):
        if v["impact"] in ("serious", "critical") or (
            v["impact"] == "moderate" and v["id"] not in kept_moderate_rules()
        ):
            first = v["nodes"][0].replace("\n", " ")[:300] if v["nodes"] else ""
            out.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])}x): {v['help']}; {first}")
    return out
