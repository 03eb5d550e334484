# Coalgebraic Memory, the executable textbook.
#   make book   build the web book into _build/html (open _build/html/index.html);
#               --all re-executes every chapter even if only coalg/ changed
#   make test   run the whole test suite (unit tests, doctests, book build + browser checks)
#   make lab    open the notebooks in JupyterLab (live widgets)
#   make explorers  serve the explorer notebooks as live apps with Voila (127.0.0.1 only)
#   make setup  install everything the above need (run by each of them)

SHELL := /bin/bash
VENV  := .venv
PY    := $(VENV)/bin/python
JB    := $(VENV)/bin/jupyter-book
LAB_PORT ?= 8888
EXPLORERS_PORT ?= 8866

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

# Voila needs no --allow-root. JUPYTER_PATH adds tools/jupyter/voila/templates/coalg: Voila's lab
# template without the Font Awesome stylesheets it would fetch from cdn.jsdelivr.net, so nothing
# leaves 127.0.0.1 (tests/widgets/test_explorers_browser.py checks this).
explorers: setup
	JUPYTER_PATH=$(CURDIR)/tools/jupyter $(VENV)/bin/voila notebooks/ --no-browser \
	  --Voila.ip=127.0.0.1 --port=$(EXPLORERS_PORT) --template=coalg

clean:
	rm -rf _build
