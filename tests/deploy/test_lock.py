"""The locks (requirements/*.lock) say what pyproject.toml says, and everything installs
from them: a dependency added, removed or re-ranged in pyproject.toml without `make lock`
fails here, naming it (docs/operations.md, "Dependencies")."""

from __future__ import annotations

import copy
import dataclasses
import importlib.metadata
import re
import tomllib
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.deploy.test_apps import rehearsal

ROOT = Path(__file__).resolve().parents[2]
LOCKS = ROOT / "requirements"
# What uv writes for a requirement of pyproject.toml itself, in a pin's "# via" lines.
FROM_PYPROJECT = "yukon-daily (pyproject.toml)"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


@dataclasses.dataclass
class Lock:
    name: str
    pins: dict[str, str]  # canonical name -> version
    direct: set[str]  # pinned because pyproject.toml names them
    unhashed: list[str]


def read_lock(path: Path) -> Lock:
    pins: dict[str, str] = {}
    direct: set[str] = set()
    hashed: set[str] = set()
    current = ""
    for line in path.read_text().splitlines():
        if match := PIN.match(line):
            current = canonicalize_name(match.group(1))
            pins[current] = match.group(2)
        elif "--hash=sha256:" in line and current:
            hashed.add(current)
        elif line.lstrip("# ").rstrip() == FROM_PYPROJECT or line.endswith(f"via {FROM_PYPROJECT}"):
            direct.add(current)
    return Lock(path.name, pins, direct, sorted(set(pins) - hashed))


def extra_requirements(requirement: Requirement) -> list[Requirement]:
    """What the extras asked for in ``requirement`` add, on this platform (the installed
    distribution's metadata: .venv is installed from the lock)."""
    try:
        declared = importlib.metadata.requires(requirement.name) or []
    except importlib.metadata.PackageNotFoundError:
        return []  # not installed: its own missing pin is reported first
    added = []
    for line in declared:
        needed = Requirement(line)
        for extra in requirement.extras:
            # evaluate() takes this process's environment, with the extra named
            if needed.marker and needed.marker.evaluate({"extra": extra}):
                added.append(needed)
                break
    return added


def check(lock: Lock, declared: list[str]) -> list[str]:
    """Where ``lock`` disagrees with the requirements ``declared`` in pyproject.toml."""
    problems = []
    wanted = {canonicalize_name(Requirement(r).name): Requirement(r) for r in declared}
    for name, requirement in wanted.items():
        version = lock.pins.get(name)
        if version is None:
            problems.append(f"{requirement} is not in {lock.name}")
        elif not requirement.specifier.contains(version, prereleases=True):
            problems.append(f"{lock.name} pins {name}=={version}, outside {requirement}")
        for needed in extra_requirements(requirement):
            if canonicalize_name(needed.name) not in lock.pins:
                problems.append(f"{requirement} needs {needed.name}, not in {lock.name}")
    problems += [
        f"{lock.name} pins {name} as a requirement of pyproject.toml, which no longer names it"
        for name in sorted(lock.direct - set(wanted))
    ]
    problems += [f"{lock.name} has no hash for {name}" for name in lock.unhashed]
    return problems


def disagreements(pyproject: dict[str, Any], locks: dict[str, Lock]) -> list[str]:
    """Every way the three locks disagree with pyproject.toml or with each other."""
    project = pyproject["project"]
    runtime = project["dependencies"]
    base, dev, build = locks["base"], locks["dev"], locks["build"]
    problems = check(base, runtime)
    problems += check(dev, runtime + project["optional-dependencies"]["dev"])
    # build.lock's requirements come from [build-system], none from the project's lists
    build_requires = ["pip", *pyproject["build-system"]["requires"]]
    problems += check(dataclasses.replace(build, direct=set()), build_requires)
    # The image (base.lock) runs what CI tested (dev.lock); build.lock's pip is .venv's.
    for lock in (base, build):
        problems += [
            f"{lock.name} pins {name}=={version} but dev.lock {name}=={dev.pins[name]}"
            for name, version in lock.pins.items()
            if name in dev.pins and dev.pins[name] != version
        ]
    problems += [
        f"base.lock pins {name}, which dev.lock lacks"
        for name in base.pins.keys() - dev.pins.keys()
    ]
    return [f"{problem}: run `make lock`" for problem in problems]


def shipped_locks() -> dict[str, Lock]:
    return {name: read_lock(LOCKS / f"{name}.lock") for name in ("base", "dev", "build")}


def shipped_pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_locks_agree_with_pyproject_toml() -> None:
    locks = shipped_locks()
    problems = disagreements(shipped_pyproject(), locks)
    assert not problems, "\n".join(problems)
    assert {"django", "celery", "gunicorn", "psycopg-binary", "redis"} <= set(locks["base"].pins)
    # The image carries no test tool; the developers' venv has the lock's own tool.
    assert "pytest" not in locks["base"].pins and "uv" in locks["dev"].pins


def test_a_change_to_pyproject_toml_without_a_new_lock_is_named() -> None:
    locks = shipped_locks()
    pyproject = shipped_pyproject()
    runtime = pyproject["project"]["dependencies"]
    dev = pyproject["project"]["optional-dependencies"]["dev"]
    django = next(r for r in runtime if r.startswith("Django"))
    already = set(disagreements(pyproject, shipped_locks()))  # the test above shows them

    def new_problems(changed: dict[str, Any]) -> list[str]:
        return [p for p in disagreements(changed, shipped_locks()) if p not in already]

    added = copy.deepcopy(pyproject)
    added["project"]["dependencies"].append("unlocked-package>=1")
    assert new_problems(added) == [
        "unlocked-package>=1 is not in base.lock: run `make lock`",
        "unlocked-package>=1 is not in dev.lock: run `make lock`",
    ]

    moved = copy.deepcopy(pyproject)
    moved["project"]["dependencies"] = [r.replace(django, "Django>=6") for r in runtime]
    version = locks["base"].pins["django"]
    assert f"base.lock pins django=={version}, outside Django>=6: run `make lock`" in new_problems(
        moved
    )

    extra = copy.deepcopy(pyproject)
    extra["project"]["dependencies"] = [r.replace("Django", "Django[argon2]") for r in runtime]
    assert "Django[argon2]" in next(p for p in new_problems(extra) if "argon2-cffi" in p)
    assert any("needs argon2-cffi, not in base.lock" in p for p in new_problems(extra))

    removed = copy.deepcopy(pyproject)
    removed["project"]["optional-dependencies"]["dev"] = [r for r in dev if "aiosmtpd" not in r]
    assert new_problems(removed) == [
        "dev.lock pins aiosmtpd as a requirement of pyproject.toml, which no longer names it: "
        "run `make lock`"
    ]


def test_the_image_and_make_install_install_from_the_locks() -> None:
    """Hash-checked, and the project itself with no dependency of its own choosing."""
    stages = rehearsal().parse_dockerfile((ROOT / "Dockerfile").read_text())
    runs = [[i.args for i in stage.instructions if i.keyword == "RUN"] for stage in stages]
    build, image = (" && ".join(commands) for commands in runs)
    assert "pip install --no-cache-dir --require-hashes -r requirements/build.lock" in build
    assert "pip wheel --no-cache-dir --no-deps --no-build-isolation" in build
    assert re.search(r"pip install --no-cache-dir --require-hashes -r \S+/base\.lock", image)
    assert "pip install --no-cache-dir --no-deps /wheels/" in image
    assert "pip check" in image
    makefile = (ROOT / "Makefile").read_text()
    stamp = makefile[makefile.index("$(STAMP):") : makefile.index("install: $(STAMP)")]
    installs = re.findall(r"\$\(PIP\) install ([^;&]+)", stamp)
    assert installs == [
        "--require-hashes -r requirements/build.lock ",
        "--require-hashes -r requirements/dev.lock ",
        "--no-deps --no-build-isolation -e .",
    ]
