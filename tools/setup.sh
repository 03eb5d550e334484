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
  .venv/bin/python -m pip check
  touch "$stamp"
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
