# Yukon Daily: `make run` serves the site, `make test` runs every check.
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# The core, pure Python (the rules, the solver, the strategy bot and their tests): checked
# strictly, and under the import ban of tools/ruff-engine.toml.
PURE_DIRS := yukon
# The apps: the packages pyproject.toml ships (its one list; read once .venv exists).
APPS = $(shell $(PY) -c 'import tomllib; print(*(p.rstrip("*") for p in tomllib.load(open("pyproject.toml", "rb"))["tool"]["setuptools"]["packages"]["find"]["include"]))')
# The Django code, the top-level tests and the recovery drill (it drives the apps): normal
# mypy with the django-stubs plugin (the catalogues' script, strict, runs on its own; the
# benchmarks too, as the package `bench`: some import others as bench.<name>).
TYPED_DJANGO = $(APPS) $(wildcard tests/*.py) scripts/pitr-drill
PYTEST_ARGS ?=
# pytest-xdist workers for `make test`: most of the suite waits on servers and the browser,
# so three workers keep two cores busy (docs/development.md has the figures).
PYTEST_WORKERS ?= 3
# The tests' temporary files (PostgreSQL's data, wheels and virtualenvs, the solver's level
# files) in memory where /dev/shm is: the search by levels writes each level to TMPDIR and
# takes half the CPU there that it takes on a disk's /tmp.
TEST_TMPDIR ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo /tmp)
# The tests keep the bytecode of what they import, even where the environment says not to
# write it (PYTHONDONTWRITEBYTECODE, set on these machines): each server, command and
# Celery worker a test starts then loads the apps' modules compiled, and pytest's rewritten
# test modules are read back instead of being rewritten (collection: 8.5 CPU-s, 3.1 with
# them kept). .gitignore and .dockerignore leave __pycache__ out.
TEST_ENV = TMPDIR=$(TEST_TMPDIR) PYTHONDONTWRITEBYTECODE=
# Tests go out one at a time, longest first (tests/schedule.py orders them by
# tests/durations.json); the ten slowest are printed at the end of every run.
PYTEST_FLAGS = -n $(PYTEST_WORKERS) --dist load --maxschedchunk 1 --durations=10

.PHONY: help run test test-fast durations lint sanitize install lock audit clean messages

help:
	@echo "make run    - install into .venv if needed, migrate, serve http://localhost:8000/"
	@echo "make test   - lint (ruff, mypy) and the whole pytest suite with throwaway services"
	@echo "make test-fast - the quick loop: no service, browser, worker or slow test (under a minute)"
	@echo "make durations - the whole suite, timed: tests/durations.json, the workers' order"
	@echo "make lint   - ruff (with the core's import ban), mypy, import contracts"
	@echo "make sanitize - the solver's tests on an ASan/UBSan build of its C extension"
	@echo "make messages - the translation catalogues (locale/) updated from the code, then compiled"
	@echo "make lock   - re-lock requirements/*.lock from pyproject.toml (LOCK_ARGS=--upgrade to upgrade)"
	@echo "make audit  - pip-audit and npm audit: the locked packages against known advisories"
	@echo "make clean  - remove .venv, caches, build output and the dev database"

$(PY):
	$(PYTHON) -m venv $(VENV)

# The locks, every package pinned with its hashes (docs/operations.md, "Dependencies"):
# build.lock is pip and the build backend; base.lock what the site runs on (all the image
# installs); dev.lock the same versions plus the dev extra (.venv and CI). `make lock` makes
# them from pyproject.toml; tests/deploy/test_lock.py fails when they disagree with it.
LOCKS := requirements/build.lock requirements/base.lock requirements/dev.lock
PIP   := $(PY) -m pip --disable-pip-version-check

# Reinstall only when pyproject.toml, a lock (or the C extension build) changed since the last
# install. The project itself comes without dependencies: all of them are the lock's.
$(STAMP): pyproject.toml $(LOCKS) $(wildcard setup.py yukon/solver/*.c) | $(PY)
	@echo "Installing requirements/dev.lock into $(VENV) ..."
	@{ $(PIP) install --require-hashes -r requirements/build.lock && \
	   $(PIP) install --require-hashes -r requirements/dev.lock && \
	   $(PIP) install --no-deps --no-build-isolation -e .; } \
	   > $(VENV)/install.log 2>&1 || { tail -n 40 $(VENV)/install.log; echo "pip install failed (full log: $(VENV)/install.log)"; exit 1; }
	@touch $@

# The compiled catalogues Django reads (.mo files: not committed; docs/development.md,
# "Translations"), one per locale/<language>/LC_MESSAGES/<domain>.po; msgfmt (gettext)
# checks each translation's %(name)s fields against its English, as compilemessages does.
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/*.po))

locale/%.mo: locale/%.po
	@command -v msgfmt >/dev/null || { echo "msgfmt not found: install gettext (apt-get install gettext)"; exit 1; }
	msgfmt --check-format -o $@ $<

install: $(STAMP) $(CATALOGUES)

# New and changed strings of the code into every language's catalogues (scripts/messages),
# then compiled.
messages: $(STAMP)
	$(PY) scripts/messages

# Pins already in a lock are kept while pyproject.toml allows them, so a re-lock after adding
# a dependency moves nothing else; LOCK_ARGS=--upgrade moves every pin, --upgrade-package NAME
# one. Universal (any platform, Python 3.11 and later); base and build take dev's versions.
LOCK_ARGS ?=
UV_COMPILE = $(VENV)/bin/uv pip compile --quiet --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command "make lock" $(LOCK_ARGS)
BUILD_REQUIRES = $(PY) -c 'import tomllib; print("pip", *tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], sep="\n")'

# A lock that comes out the same keeps its time: no reinstall follows.
lock: $(STAMP)
	@for lock in $(LOCKS); do cp -p $$lock $$lock.before; done
	$(UV_COMPILE) pyproject.toml --extra dev --output-file requirements/dev.lock
	$(UV_COMPILE) pyproject.toml --constraint requirements/dev.lock --output-file requirements/base.lock
	$(BUILD_REQUIRES) | $(UV_COMPILE) - --constraint requirements/dev.lock --output-file requirements/build.lock
	@for lock in $(LOCKS); do \
		if cmp -s $$lock $$lock.before; then touch -r $$lock.before $$lock; fi; rm $$lock.before; done

# Every locked Python package (dev.lock holds base.lock) and package-lock.json against known
# advisories. "audit: NOT DONE" (the script's exit status 3): an advisory service could not be
# reached and that part was not audited; .ci/run reports it and goes on (docs/operations.md,
# "Dependencies").
AUDIT_ARGS ?=
audit: $(STAMP)
	$(PY) scripts/audit-dependencies $(AUDIT_ARGS)

# At localhost, not 127.0.0.1: passkeys (WebAuthn) name the site by its host, and a
# browser refuses an IP address there ("This is an invalid domain").
run: $(STAMP) $(CATALOGUES)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py prepare_daily
	$(PY) manage.py runserver localhost:8000

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check --config tools/ruff-engine.toml $(PURE_DIRS)
	$(VENV)/bin/mypy --strict $(PURE_DIRS)
	$(VENV)/bin/mypy $(TYPED_DJANGO)
	$(VENV)/bin/mypy -p bench
	$(VENV)/bin/mypy --strict --follow-imports=silent scripts/messages  # the apps it reaches are checked above
	$(VENV)/bin/mypy --strict scripts/test-services
	$(VENV)/bin/mypy --strict scripts/audit-dependencies
	$(VENV)/bin/mypy --strict scripts/rehearse-deploy
	$(VENV)/bin/lint-imports

# The npm test tools (axe-core for tests/e2e, Lighthouse for bench/), as package-lock.json pins them.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

# The lint and the node tests (about a minute of one core) run niced beside pytest, whose
# workers leave CPU idle while they wait on servers and browsers; their output comes after
# pytest's, and either failing fails the target.
test: $(STAMP) node_modules/.package-lock.json $(CATALOGUES)
	@mkdir -p test-artifacts
	@( nice -n 10 $(MAKE) --no-print-directory lint && nice -n 10 node --test tests/frontend/ ) \
		> test-artifacts/checks.log 2>&1 & checks=$$!; \
	$(TEST_ENV) $(PY) scripts/test-services -- $(PY) -m pytest $(PYTEST_FLAGS) $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "ERROR: pytest collected no tests (exit status 5)"; fi; \
	wait $$checks; checks_rc=$$?; \
	echo "----- lint and node tests (test-artifacts/checks.log) -----"; cat test-artifacts/checks.log; \
	if [ $$checks_rc -ne 0 ]; then echo "ERROR: the lint or the node tests failed (above)"; fi; \
	[ $$rc -eq 0 ] && [ $$checks_rc -eq 0 ]

# tests/durations.json, the seconds each test took, from a whole run of the suite: the
# order tests/schedule.py gives the workers. Worth redoing when tests are added or slowed.
durations: lint node_modules/.package-lock.json $(CATALOGUES)
	@mkdir -p test-artifacts
	@$(TEST_ENV) $(PY) scripts/test-services -- $(PY) -m pytest $(PYTEST_FLAGS) --durations=0 \
		--durations-min=0.3 $(PYTEST_ARGS) | tee test-artifacts/durations.log
	$(PY) -m tests.schedule < test-artifacts/durations.log

# The inner loop: no PostgreSQL, Redis, Celery worker or browser, and nothing marked slow
# (SQLite and in-process tasks, as `make run`); no lint.
test-fast: $(STAMP) $(CATALOGUES)
	env -u DATABASE_URL -u REDIS_URL $(TEST_ENV) $(PY) -m pytest $(PYTEST_FLAGS) \
		-m "not (postgres or redis or celery or e2e or slow or heavy)" $(PYTEST_ARGS)

# The solver's C extension rebuilt with AddressSanitizer + UBSan, and yukon/tests/solver run on it.
sanitize: $(STAMP)
	TMPDIR=$(TEST_TMPDIR) scripts/solver-sanitize-test

clean:
	rm -rf $(VENV) node_modules build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache \
		staticfiles test-artifacts db.sqlite3 $(CATALOGUES)
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
