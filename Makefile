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
# The Django code and the top-level tests: normal mypy with the django-stubs plugin.
TYPED_DJANGO = $(APPS) $(wildcard tests/*.py)
PYTEST_ARGS ?=
# pytest-xdist workers for `make test`: most of the suite waits on servers and the browser,
# so three workers keep two cores busy (docs/development.md has the figures).
PYTEST_WORKERS ?= 3
# The ten slowest tests are printed at the end of every run.
PYTEST_FLAGS = -n $(PYTEST_WORKERS) --dist worksteal --durations=10

.PHONY: help run test test-fast lint sanitize install clean

help:
	@echo "make run    - install into .venv if needed, migrate, serve http://localhost:8000/"
	@echo "make test   - lint (ruff, mypy) and the whole pytest suite with throwaway services"
	@echo "make test-fast - the quick loop: no service, browser, worker or slow test (under a minute)"
	@echo "make lint   - ruff (with the core's import ban), mypy, import contracts"
	@echo "make sanitize - the solver's tests on an ASan/UBSan build of its C extension"
	@echo "make clean  - remove .venv, caches, build output and the dev database"

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when pyproject.toml (or the C extension build) changed since the last install.
$(STAMP): pyproject.toml $(wildcard setup.py yukon/solver/*.c) | $(PY)
	@echo "Installing dependencies into $(VENV) ..."
	@{ $(PY) -m pip install --disable-pip-version-check --upgrade pip && \
	   $(PY) -m pip install --disable-pip-version-check -e '.[dev]'; } \
	   > $(VENV)/install.log 2>&1 || { tail -n 40 $(VENV)/install.log; echo "pip install failed (full log: $(VENV)/install.log)"; exit 1; }
	@touch $@

install: $(STAMP)

# At localhost, not 127.0.0.1: passkeys (WebAuthn) name the site by its host, and a
# browser refuses an IP address there ("This is an invalid domain").
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py prepare_daily
	$(PY) manage.py runserver localhost:8000

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check --config tools/ruff-engine.toml $(PURE_DIRS)
	$(VENV)/bin/mypy --strict $(PURE_DIRS)
	$(VENV)/bin/mypy $(TYPED_DJANGO)
	$(VENV)/bin/mypy --strict scripts/test-services
	$(VENV)/bin/mypy --strict scripts/rehearse-deploy
	$(VENV)/bin/lint-imports

# The npm test tools (axe-core for tests/e2e, Lighthouse for bench/), as package-lock.json pins them.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

test: lint node_modules/.package-lock.json
	@mkdir -p test-artifacts
	node --test tests/frontend/
	@$(PY) scripts/test-services -- $(PY) -m pytest $(PYTEST_FLAGS) $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "ERROR: pytest collected no tests (exit status 5)"; fi; \
	exit $$rc

# The inner loop: no PostgreSQL, Redis, Celery worker or browser, and nothing marked slow
# (SQLite and in-process tasks, as `make run`); no lint.
test-fast: $(STAMP)
	env -u DATABASE_URL -u REDIS_URL $(PY) -m pytest $(PYTEST_FLAGS) \
		-m "not (postgres or redis or celery or e2e or slow or heavy)" $(PYTEST_ARGS)

# The solver's C extension rebuilt with AddressSanitizer + UBSan, and yukon/tests/solver run on it.
sanitize: $(STAMP)
	scripts/solver-sanitize-test

clean:
	rm -rf $(VENV) node_modules build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache \
		staticfiles test-artifacts db.sqlite3
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
