# The two commands a newcomer types: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INDEX := index
HOST ?= 127.0.0.1
PORT ?= 5000
SOURCES := $(shell find lessons glossary 2>/dev/null)  # folders too: a file removed or renamed
CODE := $(shell find src -name "*.py" 2>/dev/null)

.PHONY: run test install install-test browser lint bench clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(VENV)/.installed $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

# Rebuilt when missing or older than a lesson, a glossary file, their folders (a file removed
# or renamed) or the code (incremental).
# The stamp, not the manifest: a build that finds nothing changed keeps the live version,
# manifest and all, which would stay older than a lesson merely touched.
$(INDEX)/.made: $(SOURCES) $(CODE) | $(VENV)/.installed
	$(BIN)/lessonsearch index --lessons lessons --glossary glossary --out $(INDEX)
	touch $@

run: $(VENV)/.installed $(INDEX)/.made
	$(BIN)/lessonsearch serve --index $(INDEX) --host $(HOST) --port $(PORT)

test: $(VENV)/.installed-test browser
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

# The browser tests drive Debian's chromium (never a downloaded browser build).
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "Installing chromium for the browser tests (apt)"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; }

# The figures in bench/README.md (several minutes; the 100k-section runs are separate).
bench: $(VENV)/.installed-test
	$(BIN)/python bench/questions_eval.py
	$(BIN)/python bench/definitions_quality.py
	$(BIN)/python bench/bench_search.py --sections 1000 10000 --queries 1000
	$(BIN)/python bench/bench_http.py --sections 10000

clean:
	rm -rf $(INDEX) $(VENV) .pytest_cache .ruff_cache
