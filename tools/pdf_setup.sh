#!/usr/bin/env bash
# TeX for `make pdf`, installed on first use (never by `make setup` or the tests).
# Jupyter Book 1 writes LaTeX and runs xelatex through latexmk; its LaTeX class
# (sphinx-jupyterbook-latex) loads bbm, which is in texlive-fonts-extra, and the book's
# Unicode notation (θ, ≈, ⊎, …) is set in the DejaVu fonts.
# Usage: tools/pdf_setup.sh   (run by `make pdf`)
set -euo pipefail

PACKAGES=(texlive-xetex texlive-latex-extra latexmk texlive-fonts-recommended
          texlive-fonts-extra fonts-dejavu-core)

have_tex() {
  command -v xelatex >/dev/null && command -v latexmk >/dev/null &&
    kpsewhich bbm.sty >/dev/null 2>&1 && [[ -n $(fc-list 'DejaVu Serif') ]]
  # (not `fc-list | grep -q`: grep stops at the first match, fc-list then dies of SIGPIPE, and
  # pipefail turns that into a failure)
}

if have_tex; then
  echo "pdf: TeX Live with xelatex is installed"
  exit 0
fi
if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
  echo "pdf: xelatex, latexmk and the fonts are missing. On Debian or Ubuntu, as root:" >&2
  echo "  apt-get install -y --no-install-recommends ${PACKAGES[*]}" >&2
  exit 1
fi
echo "pdf: installing TeX Live for xelatex (${PACKAGES[*]}); this takes a few minutes, once"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null
have_tex || { echo "pdf: TeX Live installed but xelatex, latexmk, bbm or DejaVu still missing" >&2; exit 1; }
echo "pdf: TeX Live ready"
