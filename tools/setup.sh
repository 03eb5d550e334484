#!/usr/bin/env bash
# Set up everything the book and the tests need, on a fresh machine or an existing one.
# Idempotent: each step runs only when its result is missing or out of date.
#   1. .venv with the pinned Python packages (requirements.txt, including `-e .`)
#   2. node_modules + _vendor/offline (MathJax, RequireJS, widget manager, shim)
#   3. Debian's chromium for the browser tests (only as root, only if missing)
# Usage: tools/setup.sh      (or: make setup)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }
PYTHON=${PYTHON:-python3}

# `pip check`, except for the requirements contextfs declares but we leave out on purpose
# (requirements-contextfs.txt is installed with --no-deps).
pip_check() {
  local out bad
  if ! out=$(.venv/bin/python -m pip check 2>&1); then
    bad=$(printf '%s\n' "$out" | grep -v -E '^contextfs 0\.2\.35 (requires|has requirement) ' || true)
    if [[ -n $bad ]]; then
      printf '%s\n' "$bad" >&2
      return 1
    fi
  fi
}

# --- 1. Python -------------------------------------------------------------------------
if [[ ! -x .venv/bin/python ]]; then
  say "creating .venv with $($PYTHON --version 2>&1)"
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.requirements.stamp
if [[ -f $stamp && $stamp -nt requirements.txt && $stamp -nt pyproject.toml ]]; then
  say "python packages up to date"
else
  say "installing python packages from requirements.txt (takes about half a minute)"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
  pip_check
  touch "$stamp"
fi

# --- 1a. No IRI grammar -------------------------------------------------------------------
# jsonschema compiles rfc3987-syntax's Lark grammar when it is importable: 0.8 s in every
# process that loads nbformat (each chapter's kernel, the book build, the notebook tests).
# It arrives only through the optional `format-nongpl` extra that jupyter-events asks for;
# nothing here checks the "iri" formats it serves, and without it jsonschema skips them.
if .venv/bin/python -c "import importlib.util as u, sys; sys.exit(u.find_spec('rfc3987_syntax') is None)"; then
  say "removing rfc3987-syntax and lark (a 0.8 s import in every notebook process)"
  .venv/bin/python -m pip uninstall --quiet --yes rfc3987-syntax lark
  pip_check
fi

# --- 1b. The released ContextFS, minimally (no chromadb/onnxruntime/fastembed) ----------
# --no-deps: requirements-contextfs.txt pins exactly what `import contextfs` and its SQLite
# schema need. Its other declared requirements stay missing on purpose (see that file).
cstamp=.venv/.contextfs.stamp
if [[ -f $cstamp && $cstamp -nt requirements-contextfs.txt && $cstamp -nt requirements.txt ]]; then
  say "contextfs 0.2.35 (minimal) up to date"
else
  say "installing contextfs 0.2.35 minimally (--no-deps, pinned pydantic/alembic; a few seconds)"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-contextfs.txt
  .venv/bin/python -c "import contextfs.memory_lineage, contextfs.migrations.runner" >/dev/null
  pip_check
  touch "$cstamp"
fi

# --- 2. JavaScript served by the book --------------------------------------------------
# Re-vendor when the lockfile, the copy script or the shim changed (content hash, so a
# fresh clone's timestamps do not matter).
want=$(cat package-lock.json tools/vendor_js.sh tools/widgets-offline.js | sha256sum | cut -d' ' -f1)
have=$(cat _vendor/.stamp 2>/dev/null || true)
if [[ -f _vendor/offline/VERSIONS.txt && "$want" == "$have" ]]; then
  say "_vendor/offline up to date"
else
  say "installing JavaScript packages (npm ci) and vendoring them into _vendor/offline"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  tools/vendor_js.sh
  printf '%s\n' "$want" > _vendor/.stamp
fi

# --- 3. Chromium for the browser tests -------------------------------------------------
if command -v chromium >/dev/null 2>&1; then
  say "chromium present ($(command -v chromium))"
elif [[ $(id -u) -eq 0 ]]; then
  say "installing Debian chromium (apt-get; about a minute)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
  say "chromium installed ($(command -v chromium))"
else
  say "WARNING: chromium not found and not root; the browser tests will be skipped." \
      "Install it with: sudo apt-get install chromium"
fi
say "done"
