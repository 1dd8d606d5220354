"""Lighthouse on the site's main pages under production settings: the four category scores
and the layout shift, at mobile and desktop.

    .venv/bin/python bench/bench_lighthouse.py [--pages home play practice board replay stats]
        [--forms mobile desktop] [--json-dir DIR]

Production as the image serves it: DEBUG off, `collectstatic` into a fresh folder with the
production storage (hashed, compressed, module imports rewritten), gunicorn with whitenoise,
PostgreSQL and Redis (without DATABASE_URL/REDIS_URL it runs itself under
scripts/test-services). The pages are seen by a logged-in player (a session cookie sent as
a header), who owns the daily game in play and the finished practice game whose replay is
shown. Lighthouse is npm's (`npm ci`, package.json), run by bench/lighthouse_run.mjs through
puppeteer-core on Debian's /usr/bin/chromium (a page with the session cookie set); the
mobile run is Lighthouse's default (a mid-range phone, simulated slow 4G and 4x CPU), the
desktop one its `--preset=desktop`. Each page is also asked whether Chromium would install
the app (Lighthouse 12 dropped its PWA category). Targets (issue 21, docs/frontend.md): 100
accessibility, best practices and SEO; performance >= 98 on mobile; layout shift < 0.02.

Not a test: the performance score follows the machine's load (two cores shared here).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
SECRET = "bench-lighthouse-" + "z8Qw2" * 10


def reexec_under_services() -> None:
    if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"):
        return
    os.execv(
        sys.executable,
        [sys.executable, str(ROOT / "scripts" / "test-services"), "--", sys.executable, *sys.argv],
    )


def production_env(static_root: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
        "DEBUG": "false",
        "SECRET_KEY": SECRET,
        "DAILY_SECRET": "bench-lighthouse-daily",
        "RECEIPT_SIGNING_KEY": "YmVuY2gtbGlnaHRob3VzZS1yZWNlaXB0LWtleS0wISE=",
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "SECURE_SSL_REDIRECT": "false",  # plain HTTP on loopback (a secure context)
        "SECURE_COOKIES": "false",
        "STATIC_ROOT": str(static_root),
        "LOG_LEVEL": "WARNING",
        "THROTTLE_MOVES": "1000/s",  # the setup plays 40 moves at once
    }


def make_rows() -> tuple[str, dict[str, str]]:
    """A player with a daily game in play and a finished practice game: (session, pages)."""
    import django

    django.setup()
    from django.test import Client

    from accounts.models import User
    from tests.factories import Api, e2e_fixture, make_challenges

    make_challenges(numbers={"easy": 0, "medium": 1, "hard": 68})
    user = User.objects.create_user(username="lighthouse", display_name="Lighthouse")
    client = Client()
    client.force_login(user)
    api = Api(client)
    _s, daily = api.post("/api/games/", {"daily": "easy"})
    _s, practice = api.post("/api/games/", {"deal": "0", "variant": "yukon"})
    for ply, move in enumerate(e2e_fixture("deal0.json")["moves"][:40]):
        status, body = api.post(f"/api/games/{practice['id']}/moves/", {"ply": ply, "move": move})
        assert status == 200, body
    status, body = api.post(f"/api/games/{practice['id']}/resign/")
    assert status == 200, body
    pages = {
        "home": "/",
        "play": f"/play/{daily['id']}/",
        "practice": "/practice/7/",
        "board": "/leaderboards/daily/",
        "replay": f"/replay/{practice['id']}/",
        "stats": "/stats/",
    }
    return client.cookies["sessionid"].value, pages


def lighthouse(url: str, form: str, session: str, out: Path, tries: int = 3) -> dict[str, Any]:
    """One Lighthouse run (bench/lighthouse_run.mjs: the Node API, with the session cookie).

    A run whose trace Lighthouse could not record (a ``runtimeError`` such as NO_NAVSTART,
    which scores the page 0 and asks to be run again) is run again, up to ``tries`` runs.
    """
    command = ["node", str(ROOT / "bench" / "lighthouse_run.mjs"), url, form, str(out), session]

    def run() -> dict[str, Any]:
        subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": CHROMIUM})
        report: dict[str, Any] = json.loads(out.read_text())
        return report

    for _ in range(tries - 1):
        report = run()
        if not report.get("runtimeError"):
            return report
        print(f"  {url} {form}: Lighthouse {report['runtimeError'].get('code')}, run again")
    return run()


def summary(report: dict[str, Any]) -> dict[str, Any]:
    scores = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    cls = report["audits"]["cumulative-layout-shift"].get("numericValue", 0.0)
    failed = [
        audit_id
        for c in CATEGORIES[1:]
        for ref in report["categories"][c]["auditRefs"]
        if ref["weight"] and (report["audits"][(audit_id := ref["id"])]["score"] or 0) < 1
    ]
    # bench/lighthouse_run.mjs asks Chromium (Lighthouse 12 has no installability audit)
    installable = report.get("installabilityErrors") == []
    return {**scores, "cls": cls, "failed": failed, "installable": installable}


def wait_for(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    import httpx

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn exited:\n" + log.read_text())
        try:
            if httpx.get(f"{base}/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not start:\n" + log.read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    names = ["home", "play", "practice", "board", "replay", "stats"]
    parser.add_argument("--pages", nargs="+", default=names, choices=names)
    parser.add_argument(
        "--forms", nargs="+", default=["mobile", "desktop"], choices=["mobile", "desktop"]
    )
    parser.add_argument("--port", type=int, default=8391)
    parser.add_argument("--json-dir", type=Path, help="keep each Lighthouse report here")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE} is missing: run `npm ci` at the repository root")
    reexec_under_services()
    with tempfile.TemporaryDirectory() as tmp:
        static_root = Path(tmp) / "static"
        env = production_env(static_root)
        os.environ.update(env)
        for step in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=env, check=True)
        session, pages = make_rows()
        log = Path(tmp) / "gunicorn.log"
        with open(log, "wb") as out:
            web = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "yukon_site.wsgi:application",
                    "--config",
                    "python:yukon_site.gunicorn",
                    "--bind",
                    f"127.0.0.1:{args.port}",
                    "--workers",
                    "2",
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        base = f"http://localhost:{args.port}"
        rows = []
        try:
            wait_for(base, web, log)
            for form in args.forms:
                for name in args.pages:
                    report_path = (args.json_dir or Path(tmp)) / f"lighthouse-{name}-{form}.json"
                    report_path.parent.mkdir(parents=True, exist_ok=True)
                    result = summary(lighthouse(base + pages[name], form, session, report_path))
                    rows.append((name, form, result))
                    print(f"  {name} {form}: {result}", flush=True)
        finally:
            os.killpg(web.pid, signal.SIGTERM)
            web.wait(30)
    print(
        f"\nLighthouse {lighthouse_version()}, Chromium {chromium_version()}, "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print("| page | form | performance | accessibility | best practices | SEO | layout shift |")
    print("|---|---|---|---|---|---|---|")
    for name, form, r in rows:
        where = "/play/<id>/ (a daily)" if name == "play" else pages[name]
        print(
            f"| {where} | {form} | {r['performance']} | {r['accessibility']} "
            f"| {r['best-practices']} | {r['seo']} | {r['cls']:.3f} |"
        )
    not_installable = [f"{name} {form}" for name, form, r in rows if not r["installable"]]
    print(
        "\nInstallable (Chromium's Page.getInstallabilityErrors): "
        + (f"no, on {', '.join(not_installable)}" if not_installable else "yes, on every page")
    )
    return 0


def lighthouse_version() -> str:
    return str(
        json.loads((ROOT / "node_modules" / "lighthouse" / "package.json").read_text())["version"]
    )


def chromium_version() -> str:
    done = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, check=True)
    return done.stdout.split()[1]


if __name__ == "__main__":
    sys.exit(main())
