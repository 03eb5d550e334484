# Coalgebraic Memory, the executable textbook.
#   make book   build the web book into _build/html (open _build/html/index.html);
#               --all re-executes every chapter even if only coalg/ changed
#   make quick  after editing a chapter: rebuild only the pages whose source changed
#               (CH=05-8 rebuilds that chapter even if unchanged, e.g. after editing coalg/)
#   make pdf    the whole book as one PDF, _build/pdf/book.pdf (installs TeX Live on first use)
#   make test   run the whole test suite on every core (unit tests, doctests, book build +
#               browser checks)
#   make verify the deep checks (about forty minutes on two cores: a quarter of an hour each for
#               the property tests and the length-4 searches; VERIFY_EXAMPLES=2000 shortens the
#               tests): the theorem and law tests, on both cores,
#               with COALG_EXAMPLES=5000 random examples per property (the seed is printed;
#               COALG_SEED=s replays it), then `coalg laws --length 4 --jobs 2` on both models
#               (a line as each search ends), then
#               every chapter top to bottom in a fresh kernel outside the book build, then
#               thirty sessions on one explorer server; a summary at the end
#               (VERIFY_EXAMPLES=N changes the count)
#   make lab    JupyterLab on the whole project: every chapter and explorer opens as a notebook;
#               your copies to play with live in scratch/ (git-ignored)
#   make explorers  serve the explorer notebooks as live apps with Voila, on 127.0.0.1; for a class
#               on its own laptops EXPLORERS_HOST=0.0.0.0 (prints the URLs and a token); a kernel
#               with no browser for EXPLORERS_IDLE seconds (default 120) is culled; see
#               `python tools/jupyter/serve_explorers.py --help` for the cap, pool and https
#   make setup  install everything the above need (run by each of them)
#   make mutation  mutation testing: law, model, conformance and ContextFS groups (hours;
#               installs mutmut on demand into .mutation/, writes bench/results/mutation.json)

SHELL := /bin/bash
VENV  := .venv
PY    := $(VENV)/bin/python
JB    := $(VENV)/bin/jupyter-book
LAB_PORT ?= 8888
EXPLORERS_PORT ?= 8866
EXPLORERS_IDLE ?= 120

VERIFY_EXAMPLES ?= 5000

.PHONY: setup book quick pdf test verify lab explorers clean mutation

setup:
	@tools/setup.sh

book: setup
	rm -rf _build/html
	$(JB) build . -W -n --keep-going --all

# Sphinx re-reads (and executes) only the sources changed since the last build; the rest of
# _build/html is kept. Use `make book` for a clean build of everything.
quick: setup
	@if [ -n "$(CH)" ]; then f=$$(ls book/$(CH)*.md notebooks/$(CH)*.ipynb 2>/dev/null | head -1); \
	  [ -n "$$f" ] || { echo "no chapter matches CH=$(CH)"; exit 1; }; touch "$$f"; echo "rebuilding $$f"; fi
	$(JB) build . -W -n --keep-going

# LaTeX via Jupyter Book 1's pdflatex builder (xelatex, see _config.yml); every chapter runs
# again. The PDF lands in _build/latex/book.pdf and is copied to _build/pdf/book.pdf.
pdf: setup
	@tools/pdf_setup.sh
	$(JB) build . --builder pdflatex -n --keep-going
	@! grep -h "Missing character" _build/latex/book.log || \
	  { echo "pdf: the characters above are missing from their fonts (see latex_elements in _config.yml)"; exit 1; }
	mkdir -p _build/pdf && cp _build/latex/book.pdf _build/pdf/book.pdf
	@echo "pdf: _build/pdf/book.pdf"

# On one process more than there are cores (pytest-xdist): the browser and server tests spend
# much of their time waiting on a page or a kernel, and the extra process uses that time (measured
# here: 594 s instead of 643 s on two cores). A test file's tests stay in one process, so the
# fixtures a file shares are made once, and the processes share one book build
# (tests/shared_build.py). The longest files are handed out first, in the order tests/conftest.py
# collects them.
TEST_PROCESSES ?= $(shell echo $$(( $$(nproc) + 1 )))
test: setup
	$(PY) -m pytest -n $(TEST_PROCESSES) --dist loadfile --no-loadscope-reorder --durations=30

# Each step's output goes to the terminal and to a log in $(VERIFY_LOG); the summary repeats the
# seed, the pytest tally and each model's law tally. Exit status 1 if any step failed.
VERIFY_LOG ?= _build/verify
verify: setup
	@mkdir -p $(VERIFY_LOG); status=0; \
	COALG_EXAMPLES=$(VERIFY_EXAMPLES) $(PY) -m pytest tests/theorems tests/laws -q -p no:randomly \
	  -m "not book" -n 2 --durations=15 2>&1 | tee $(VERIFY_LOG)/tests.txt; [ $${PIPESTATUS[0]} = 0 ] || status=1; \
	echo "coalg laws --length 4 on contextfs and repaired, side by side (logs in $(VERIFY_LOG))"; \
	for r in contextfs repaired; do \
	  ( $(PY) -m coalg laws --realisation $$r --length 4 --jobs 2 > $(VERIFY_LOG)/laws-$$r.txt \
	      2> >(tee $(VERIFY_LOG)/laws-$$r.progress >&2); \
	    echo $$? > $(VERIFY_LOG)/laws-$$r.status ) & done; wait; \
	for r in contextfs repaired; do cat $(VERIFY_LOG)/laws-$$r.txt; \
	  [ "$$(cat $(VERIFY_LOG)/laws-$$r.status)" = 0 ] || status=1; done; \
	COALG_LAB_ALL=1 $(PY) -m pytest tests/lab -q -k "fresh_kernel or from_its_copy" -n 2 2>&1 | tee $(VERIFY_LOG)/chapters.txt; \
	[ $${PIPESTATUS[0]} = 0 ] || status=1; \
	EXPLORERS_LOAD_SESSIONS=30 $(PY) -m pytest tests/widgets/test_voila_load.py -q -s 2>&1 | tee $(VERIFY_LOG)/class.txt; \
	[ $${PIPESTATUS[0]} = 0 ] || status=1; \
	echo; echo "make verify: summary"; \
	grep -h "^property tests:" $(VERIFY_LOG)/tests.txt | tail -n 1; \
	echo "  tests/theorems + tests/laws: $$(grep -E '(passed|failed|error)' $(VERIFY_LOG)/tests.txt | tail -n 1)"; \
	for r in contextfs repaired; do \
	  echo "  coalg laws --length 4, $$r: $$(grep -h 'clauses hold' $(VERIFY_LOG)/laws-$$r.txt | tail -n 1)"; done; \
	echo "  every chapter in a fresh kernel outside the build (and from its copy): $$(grep -E '(passed|failed|error)' $(VERIFY_LOG)/chapters.txt | tail -n 1)"; \
	echo "  a whole class (30 sessions) on one explorer server: $$(grep -E '(passed|failed|error)' $(VERIFY_LOG)/class.txt | tail -n 1)"; \
	[ $$status = 0 ] && echo "verify: every step passed" || echo "verify: a step FAILED (logs in $(VERIFY_LOG))"; \
	exit $$status

# tools/lab_prepare.py copies the chapters and explorers into scratch/ (never overwriting a
# copy) and writes scratch/START.ipynb; tools/lab/jupyter_lab_config.py serves the project root
# on 127.0.0.1, opens on that page, and makes the chapters open as notebooks.
lab: setup
	$(PY) tools/lab_prepare.py
	$(VENV)/bin/jupyter lab --config=tools/lab/jupyter_lab_config.py --port=$(LAB_PORT) \
	  $$( [ "$$(id -u)" = 0 ] && echo --allow-root )

# Voila needs no --allow-root. tools/jupyter/serve_explorers.py runs Voila with the repository's
# `coalg` template (Voila's lab template without the Font Awesome stylesheets it would fetch from
# cdn.jsdelivr.net, so nothing leaves 127.0.0.1 -- tests/widgets/test_explorers_browser.py checks
# this), tools/jupyter/voila.py (the tab-close shutdown works; only the extensions the explorers
# need), and kernel culling: a kernel without a browser for EXPLORERS_IDLE seconds is shut down,
# one whose tab is open is kept (tests/widgets/test_voila_load.py holds a dozen sessions, thirty in
# `make verify`, and checks that kernels and memory come back to the baseline).
explorers: setup
	$(PY) tools/jupyter/serve_explorers.py notebooks --port=$(EXPLORERS_PORT) --idle=$(EXPLORERS_IDLE)

mutation: setup
	$(PY) bench/mutation.py --out bench/results/mutation.json

clean:
	rm -rf _build
