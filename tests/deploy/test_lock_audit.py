"""`make audit` (scripts/audit-dependencies) fails on a known-vulnerable pin, Python or npm.

The advisory services are not reachable from the development and CI machines, so a local
server answers as they do, through the APIs the real tools call: OSV's `POST /v1/query`
(pip-audit, by PIP_AUDIT_OSV_URL) and the npm registry's bulk advisory endpoint and
packuments (npm audit, by its registry setting). It knows two real advisories: requests
before 2.20.0 (GHSA-x84v-xcm2-53pg) and minimist before 0.2.4 (GHSA-xvch-5gv4-984h). What
is run is the script `make audit` runs, with pip-audit and npm themselves deciding.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "audit-dependencies"

REQUESTS_ADVISORY = {
    "id": "GHSA-x84v-xcm2-53pg",
    "aliases": ["CVE-2018-18074", "PYSEC-2018-28"],
    "summary": "Requests sends Authorization header to HTTP after redirect from HTTPS",
    "published": "2018-10-29T19:06:47Z",
    "affected": [
        {
            "package": {"name": "requests", "ecosystem": "PyPI"},
            "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"fixed": "2.20.0"}]}],
        }
    ],
}
MINIMIST_ADVISORY = {
    "id": 1097677,
    "url": "https://github.com/advisories/GHSA-xvch-5gv4-984h",
    "title": "Prototype Pollution in minimist",
    "severity": "critical",
    "vulnerable_versions": "<0.2.4",
    "cwe": ["CWE-1321"],
    "cvss": {"score": 9.8, "vectorString": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"},
}
REQUESTS_HASHES = {
    "2.19.0": "421cfc8d9dde7d6aff68196420afd86b88c65d77d8da9cf83f4ecad785d7b9d6",
    "2.34.2": "2a0d60c172f83ac6ab31e4554906c0f3b3588d37b5cb939b1c061f4907e278e0",
}
MINIMIST_INTEGRITY = {
    "0.0.8": "sha512-miQKw5Hv4NS1Psg2517mV4e4dYNaO3++hjAvLOAzKqZ61rH8NS1SK+vbfBWZ5PY/"
    "Me/bEWhUwqMghEW5Fb9T7Q==",
    "1.2.8": "sha512-2yyAR8qBkN3YuheJanUpWC5U3bb5osDywNB8RzDVlDwDHbocAJveqqj1u8+SVD7jkWT4y"
    "vsHCpWqqWqAxb0zCA==",
}


class AdvisoryService(BaseHTTPRequestHandler):
    """OSV's query API and the npm registry's, for the two advisories above."""

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers["Content-Length"]))
        if self.headers.get("Content-Encoding") == "gzip":  # npm's bulk request is
            raw = gzip.decompress(raw)
        body = json.loads(raw or b"{}")
        if self.path == "/v1/query":
            package, version = body["package"]["name"], Version(body["version"])
            vulnerable = package == "requests" and version < Version("2.20.0")
            self.answer({"vulns": [REQUESTS_ADVISORY]} if vulnerable else {})
        elif self.path == "/-/npm/v1/security/advisories/bulk":
            # The registry names every advisory of a package; npm matches the versions.
            self.answer({name: [MINIMIST_ADVISORY] for name in body if name == "minimist"})
        else:
            self.send_error(404)

    def do_GET(self) -> None:
        if self.path.strip("/") != "minimist":
            self.send_error(404)
            return
        versions = {v: {"name": "minimist", "version": v} for v in ("0.0.8", "0.2.4", "1.2.8")}
        self.answer({"name": "minimist", "dist-tags": {"latest": "1.2.8"}, "versions": versions})

    def answer(self, payload: object) -> None:
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def advisories() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), AdvisoryService)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def project(tmp_path: Path, *, requests: str, minimist: str) -> Path:
    """A requirements lock and an npm project that pin the two packages."""
    (tmp_path / "requirements.lock").write_text(
        f"requests=={requests} --hash=sha256:{REQUESTS_HASHES[requests]}\n"
    )
    npm = tmp_path / "npm"
    npm.mkdir()
    manifest = {"name": "audited", "version": "1.0.0", "devDependencies": {"minimist": minimist}}
    (npm / "package.json").write_text(json.dumps(manifest))
    lock = {
        "name": "audited",
        "version": "1.0.0",
        "lockfileVersion": 3,
        "requires": True,
        "packages": {
            "": manifest,
            "node_modules/minimist": {
                "version": minimist,
                "resolved": f"https://registry.npmjs.org/minimist/-/minimist-{minimist}.tgz",
                "integrity": MINIMIST_INTEGRITY[minimist],
                "dev": True,
            },
        },
    }
    (npm / "package-lock.json").write_text(json.dumps(lock))
    return tmp_path


def audit(directory: Path, service: str) -> tuple[int, str]:
    env = {
        **os.environ,
        "PIP_AUDIT_OSV_URL": f"{service}/v1/query",
        "npm_config_registry": f"{service}/",
        "npm_config_cache": str(directory / "npm-cache"),
        "NO_PROXY": "127.0.0.1",
    }
    result = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            *("--lock", str(directory / "requirements.lock")),
            *("--npm-dir", str(directory / "npm")),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return result.returncode, result.stdout + result.stderr


@pytest.mark.slow
def test_known_vulnerable_pins_fail_the_audit(advisories: str, tmp_path: Path) -> None:
    status, output = audit(project(tmp_path, requests="2.19.0", minimist="0.0.8"), advisories)
    assert status == 1, output
    # pip-audit names the advisory by its PyPI id, with the version that fixes it
    assert re.search(r"requests +2\.19\.0 +PYSEC-2018-28 +2\.20\.0", output), output
    assert "GHSA-xvch-5gv4-984h" in output and "critical" in output
    assert "audit: FAILED: pip-audit and npm audit: " in output


@pytest.mark.slow
def test_versions_past_the_fixes_pass_and_an_unreachable_service_is_not_a_pass(
    advisories: str, tmp_path: Path
) -> None:
    directory = project(tmp_path, requests="2.34.2", minimist="1.2.8")
    status, output = audit(directory, advisories)
    assert status == 0, output
    assert "audit: OK" in output

    closed = "http://127.0.0.1:9"  # discard: nothing listens there
    status, output = audit(directory, closed)
    assert status == 3, output
    assert "audit: NOT DONE: pip-audit: cannot reach its advisory service" in output
    assert "audit: NOT DONE: npm audit: cannot reach its advisory service" in output
    assert "audit: OK" not in output
