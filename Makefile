# Coalgebraic Memory, the executable textbook.
#   make book   build the web book into _build/html (open _build/html/index.html);
#               --all re-executes every chapter even if only coalg/ changed
#   make test   run the whole test suite (unit tests, doctests, book build + browser checks)
#   make lab    open the notebooks in JupyterLab (live widgets)
#   make explorers  serve the explorer notebooks as live apps with Voila (127.0.0.1 only);
#               a kernel with no browser for EXPLORERS_IDLE seconds (default 600) is culled
#   make setup  install everything the above need (run by each of them)

SHELL := /bin/bash
VENV  := .venv
PY    := $(VENV)/bin/python
JB    := $(VENV)/bin/jupyter-book
LAB_PORT ?= 8888
EXPLORERS_PORT ?= 8866
EXPLORERS_IDLE ?= 600

.PHONY: setup book test lab explorers clean

setup:
	@tools/setup.sh

book: setup
	rm -rf _build/html
	$(JB) build . -W -n --keep-going --all

test: setup
	$(PY) -m pytest

lab: setup
	$(VENV)/bin/jupyter lab --no-browser --ip=127.0.0.1 --port=$(LAB_PORT) \
	  $$( [ "$$(id -u)" = 0 ] && echo --allow-root ) --ServerApp.root_dir=notebooks

# Voila needs no --allow-root. tools/jupyter/serve_explorers.py runs Voila with the repository's
# `coalg` template (Voila's lab template without the Font Awesome stylesheets it would fetch from
# cdn.jsdelivr.net, so nothing leaves 127.0.0.1 -- tests/widgets/test_explorers_browser.py checks
# this), tools/jupyter/voila.py (the tab-close shutdown works; only the extensions the explorers
# need), and kernel culling: a kernel without a browser for EXPLORERS_IDLE seconds is shut down,
# one whose tab is open is kept (tests/widgets/test_voila.py holds 30 sessions and checks that
# kernels and memory come back to the baseline).
explorers: setup
	$(PY) tools/jupyter/serve_explorers.py notebooks --port=$(EXPLORERS_PORT) --idle=$(EXPLORERS_IDLE)

clean:
	rm -rf _build
