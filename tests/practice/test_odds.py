"""The odds study (resumable, stored), the statistics page, and the OpenAPI entries."""

from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from analysis import odds, stats
from analysis.models import DealStudy
from games.models import DailyChallenge, Deal, Game, Mode, Status, Verification, utc_today
from tests.games.conftest import make_user
from yukon.engine import VARIANT_NAMES
from yukon.solver import SOLVER_VERSION

pytestmark = pytest.mark.django_db


def run_odds(*args: str) -> str:
    out, err = StringIO(), StringIO()
    call_command("odds", *args, stdout=out, stderr=err)
    return out.getvalue() + err.getvalue()


def test_odds_studies_stores_and_resumes(monkeypatch: Any) -> None:
    text = run_odds("--deals", "4", "--start", "23", "--variant", "yukon", "--seconds", "0.5")
    rows = {r.number: r for r in DealStudy.objects.filter(variant="yukon")}
    assert sorted(rows) == [23, 24, 25, 26]
    assert rows[24].verdict == "unwinnable" and rows[24].line_length is None
    assert rows[23].verdict == "solved" and rows[23].line_length
    assert rows[23].budget_seconds == 0.5
    assert "| yukon | 4 |" in text and "median s" in text and "0 of 4 deals already" in text

    def no_solving(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a resumed study solved a deal again")

    monkeypatch.setattr(odds, "solve", no_solving)
    again = run_odds("--deals", "4", "--start", "23", "--variant", "yukon", "--seconds", "0.5")
    assert "4 of 4 deals already studied, 0 to go" in again
    assert "| yukon | 4 | 3 (75.0 %) | 1 (25.0 %) | 0 (0.0 %)" in again
    assert DealStudy.objects.count() == 4


@pytest.mark.slow
def test_odds_extends_a_study_and_covers_every_variant() -> None:
    run_odds("--deals", "2", "--variant", "russian", "--seconds", "0.3")
    text = run_odds("--deals", "3", "--seconds", "0.3")
    assert "russian: 2 of 3 deals already studied, 1 to go" in text
    for variant in VARIANT_NAMES:  # the multi-deck variants too
        assert f"| {variant} | 3 |" in text
    assert "double-yukon" in VARIANT_NAMES
    assert DealStudy.objects.count() == 3 * len(VARIANT_NAMES)


@pytest.mark.parametrize(
    "args",
    [["--deals", "0"], ["--seconds", "0"], ["--variant", "spider"], ["--start", "-1"]],
)
def test_odds_refuses_bad_input(args: list[str]) -> None:
    with pytest.raises((CommandError, SystemExit)):
        call_command("odds", *args, stdout=StringIO(), stderr=StringIO())


def test_stats_page_shows_the_study_and_the_tiers(client: Client) -> None:
    fresh = client.get("/stats/").content.decode()
    # this server's own study: none yet, and nothing said of it to players
    assert "This server's own study" not in fresh and "manage.py odds" not in fresh
    assert "data-verdict-chart" not in fresh
    run_odds("--deals", "4", "--start", "23", "--variant", "yukon", "--seconds", "0.5")
    deal = Deal.objects.create(number=77, variant="yukon")
    challenge = DailyChallenge.objects.create(
        date=utc_today(), tier="medium", deal=deal, bot_win_rate=0.3
    )
    for name, status in (("ann", Status.WON), ("ben", Status.STUCK), ("cy", Status.PLAYING)):
        Game.objects.create(
            player=make_user(name),
            deal=deal,
            challenge=challenge,
            mode=Mode.DAILY,
            status=status,
            verification=Verification.VERIFIED,
            position="-",
        )
    response = client.get("/stats/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "<svg" in body and "data-verdict-chart" in body and "data-length-chart" in body
    assert 'class="seg-solved"' in body and 'class="seg-unwinnable"' in body
    assert "<td>Medium</td><td>2</td><td>1</td>" in body
    assert "50 %" in body and "30 %" in body
    assert "77" not in body.split("data-tiers")[1]  # no deal numbers of dailies


def test_a_fresh_install_shows_the_published_study(client: Client) -> None:
    # No DealStudy row at all: the page shows the study shipped with the code.
    assert not DealStudy.objects.exists()
    study = odds.load_published()
    assert study is not None
    body = client.get("/stats/").content.decode()
    for marker in (
        "data-published-summary",
        "data-published",
        "data-published-chart",
        "data-range-chart",
        "data-study-length-chart",
        "data-study-time-chart",
    ):
        assert marker in body, marker
    yukon = next(r for r in study.rows if r.variant == "yukon")
    share = f"{100 * yukon.solved_share.share:.1f}\u00a0%"  # a no-break space: never "%" alone
    low = f"{100 * yukon.solved_share.low:.1f}"
    # the share, and under it the count and the 95 % interval, each on a line of its own
    count = f'<small class="muted">{yukon.solved:,} deals</small>'
    assert f'{share}{count}<small class="muted">{low}' in body
    for row in study.rows:  # each variant's budget and solver under its deal numbers
        budget, solver = f"{row.budget_nodes:,} positions", f"solver {row.solver_version}"
        assert f'{budget}</small><small class="muted">{solver}</small>' in body
    assert "one in four" in body  # the quoted figures, beside the measured range
    for row in study.rows:  # both Moosehides among them
        assert f'data-range="{row.variant}"' in body, row.variant
    # the charts name a variant as the tables do, not by its code
    assert 'class="chart-label">Quadruple Yukon</text>' in body


def test_the_stats_page_writes_its_numbers_and_words_in_the_players_language(
    client: Client,
) -> None:
    study = odds.load_published()
    assert study is not None
    yukon = next(r for r in study.rows if r.variant == "yukon")
    body = client.get("/stats/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    solved = f"{yukon.solved:,}".replace(",", ".")  # 17.778: German groups with a point
    low = f"{100 * yukon.solved_share.low:.1f}".replace(".", ",")  # 88,4: and a comma
    assert f'{solved} Spiele</small><small class="muted">{low}' in body
    budget = f"{yukon.budget_nodes:,}".replace(",", ".")
    assert f'{budget} Stellungen</small><small class="muted">Solver {yukon.solver_version}' in body
    assert "jedes vierte" in body and "one in four" not in body
    # but the charts' coordinates are SVG numbers, never with a decimal comma (Chromium
    # drew no bar of them in German and Spanish)
    for language in ("de", "es"):
        page = client.get("/stats/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        svg = "".join(re.findall(r"<svg.*?</svg>", page, flags=re.S))
        assert svg.count("<rect") > 20, language
        numbers = re.findall(r'\b(?:x|y|x1|x2|y1|y2|width|height|viewBox)="([^"]*)"', svg)
        assert numbers and all(re.fullmatch(r"[-0-9. ]+", n) for n in numbers), (
            language,
            [n for n in numbers if not re.fullmatch(r"[-0-9. ]+", n)][:5],
        )


def test_a_share_never_reads_as_none_all_or_the_same_as_its_neighbour() -> None:
    # Alaska's 3 undecided deals in 20,000 once read "0.0 %" with a "0.0-0.0 %" interval,
    # Triple Yukon's 4,999 solved of 5,000 "100.0 %", and Alaska's range "85.7-85.7 %"
    assert stats._pcts(3 / 20000, *odds.wilson(3, 20000)) == ["0.015", "0.005", "0.044"]
    assert stats._pcts(4999 / 5000) == ["99.98"]
    assert stats._pcts(0.85715, 0.85730) == ["85.72", "85.73"]
    # one decimal wherever one tells the truth; 0 and 1 themselves stay "0.0" and "100.0"
    assert stats._pcts(0.889, 0.0, 1.0) == ["88.9", "0.0", "100.0"]
    study = odds.load_published()
    assert study is not None
    lines = {r.variant: r for r in stats.study_lines(study.rows)}
    alaska = lines["alaska"]
    assert alaska.undecided.count == "3 deals"
    # a median under half a millisecond is not "0 ms" (Russian's: the solver took no time?)
    russian = next(r for r in study.rows if r.variant == "russian")
    assert russian.median_cpu_ms is not None and russian.median_cpu_ms < 0.5
    assert lines["russian"].median_cpu == "<\u00a01 ms"
    assert lines["yukon"].median_cpu.endswith(" ms") and lines["yukon"].median_cpu[0].isdigit()
    assert alaska.undecided.share == "0.015\u00a0%"
    assert not alaska.undecided.interval.startswith("0.0\u20130.0")
    # and so does the table the command prints for docs/odds.md
    assert "| 3 (0.015 %, 0.005-0.044) |" in odds.format_published(study)
    # the summary's figures never leave their "%" alone at a line's end
    body = Client().get("/stats/").content.decode()
    summary = body[body.index("data-published-summary") :].split("</p>", 1)[0]
    assert " %" not in summary and "&nbsp;%" in summary


def test_the_published_study_is_whole_and_consistent() -> None:
    study = odds.load_published()
    assert study is not None
    assert all(r.budget_nodes > 0 and r.solver_version >= 1 for r in study.rows)
    assert {r.variant for r in study.rows} == set(VARIANT_NAMES)  # the multi-deck games too
    # With several decks nearly every deal is won (docs/odds.md).
    for name in ("double-yukon", "triple-yukon", "quadruple-yukon"):
        row = next(r for r in study.rows if r.variant == name)
        assert row.deals >= 1000 and row.solved_share.low > 0.99, name
    # Moosehide as players know it is nearly always won; the runs-only reading never.
    moosehide = {r.variant: r for r in study.rows}
    assert moosehide["moosehide"].deals >= 1000
    assert moosehide["moosehide"].solved_share.share > 0.95
    assert moosehide["moosehide-runs"].solved == 0
    assert moosehide["moosehide-runs"].unwinnable == moosehide["moosehide-runs"].deals
    for row in study.rows:
        assert row.solved + row.unwinnable + row.undecided == row.deals > 0
        assert len(row.lengths) == row.solved and len(row.cpu_ms) == row.deals
        assert row.winnable_low <= row.solved_share.share
        assert row.winnable_high >= (row.solved + row.undecided) / row.deals
    data = json.loads(odds.STUDY_FILE.read_text())
    for variant, part in data["variants"].items():
        assert len(part["nodes"]) == len(part["verdicts"])
        # nothing ran past the budget (a run may overshoot by one position, or by the
        # other members of the last twin class it entered: a few dozen)
        assert max(part["nodes"]) <= part["budget_nodes"] + 1000, variant


def test_the_published_study_ships_in_the_wheel() -> None:
    from importlib.resources import files

    assert (files("analysis") / "data" / "odds-study.json").is_file()
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert 'analysis = ["data/*.json"]' in pyproject


def test_wilson_intervals() -> None:
    assert odds.wilson(0, 0) == (0.0, 1.0)
    low, high = odds.wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = odds.wilson(0, 100)
    assert low == 0.0 and high == pytest.approx(0.0370, abs=1e-4)
    low, high = odds.wilson(100, 100)
    assert high == 1.0 and low == pytest.approx(0.9630, abs=1e-4)


def test_publish_runs_resumes_and_writes_the_compact_study(tmp_path: Path) -> None:
    output = tmp_path / "study.json"
    args = ["--publish", "--nodes", "20000", "--output", str(output), "--start", "22"]
    text = run_odds(*args, "--deals", "4", "--variant", "yukon")
    assert "yukon: 0 of 4 deals already" in text and "| yukon | 22..25 |" in text
    data = json.loads(output.read_text())
    yukon = data["variants"]["yukon"]
    assert yukon["budget_nodes"] == 20000 and yukon["first"] == 22
    assert yukon["solver_version"] == SOLVER_VERSION and yukon["memory_mb"] == odds.STUDY_MEMORY_MB
    assert data["variants"]["yukon"]["verdicts"][2] == "U"  # deal 24 is proven lost
    # Interrupted runs resume: a longer range studies only the new deals.
    more = run_odds(*args, "--deals", "6", "--variant", "yukon")
    assert "yukon: 4 of 6 deals already" in more
    work = tmp_path / "study.work.jsonl"
    assert len(work.read_text().splitlines()) == 1 + 6
    assert len(json.loads(output.read_text())["variants"]["yukon"]["verdicts"]) == 6
    assert not DealStudy.objects.exists()  # the published study never touches the database
    # A work file of another budget is refused, not mixed in.
    with pytest.raises(CommandError, match="another budget"):
        run_odds("--publish", "--nodes", "30000", "--output", str(output), "--deals", "2")


def test_publishing_one_variant_keeps_the_others_with_their_own_budgets(tmp_path: Path) -> None:
    output = tmp_path / "study.json"
    args = ["--publish", "--output", str(output), "--deals", "2"]
    run_odds(*args, "--nodes", "20000", "--variant", "russian")
    # Another variant, another budget: each variant of the file is a study of its own.
    run_odds(*args, "--nodes", "30000", "--variant", "moosehide", "--work", str(tmp_path / "b"))
    data = json.loads(output.read_text())
    assert list(data["variants"]) == ["russian", "moosehide"]  # the engine's order
    study = odds.load_published(output)
    assert study is not None
    assert [(r.variant, r.budget_nodes, r.deals) for r in study.rows] == [
        ("russian", 20000, 2),
        ("moosehide", 30000, 2),
    ]
    # A variant studied again is replaced whole; the others keep their rows and stamps.
    run_odds("--publish", "--output", str(output), "--deals", "1", "--nodes", "40000",
             "--variant", "russian", "--work", str(tmp_path / "c"))  # fmt: skip
    again = json.loads(output.read_text())
    assert again["variants"]["moosehide"] == data["variants"]["moosehide"]
    assert again["variants"]["russian"]["budget_nodes"] == 40000
    assert len(again["variants"]["russian"]["verdicts"]) == 1
    # A file of another format (or deal numbering) is refused, never rewritten.
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"format": 1, "deal_algorithm_version": 1, "variants": {}}))
    with pytest.raises(CommandError, match="another --output"):
        run_odds("--publish", "--nodes", "20000", "--output", str(old), "--deals", "1",
                 "--work", str(tmp_path / "d"))  # fmt: skip
    assert json.loads(old.read_text())["format"] == 1


def test_the_published_study_is_the_solvers_verdicts(tmp_path: Path) -> None:
    # Each shipped verdict is what solve() says within the recorded budget (a sample:
    # the first deals of each variant; node budgets make the check exact).
    data = json.loads(odds.STUDY_FILE.read_text())
    for variant, part in data["variants"].items():
        for i in range(3):
            number = part["first"] + i
            outcome = odds.study_one(variant, number, part["budget_nodes"])
            assert odds.VERDICT_CODES[outcome.verdict] == part["verdicts"][i], (variant, number)
            assert outcome.nodes == part["nodes"][i], (variant, number)


def test_the_schema_documents_the_coach_endpoints(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = json.loads(response.content)["paths"]
    for kind in ("hint", "winnable", "analysis"):
        operation = paths[f"/api/games/{{game_id}}/{kind}/"]["get"]
        assert {"200", "404"} <= set(operation["responses"]), kind
    assert "403" in paths["/api/games/{game_id}/hint/"]["get"]["responses"]
