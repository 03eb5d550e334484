#!/usr/bin/env bash
# Copy the JavaScript the web book needs (MathJax, RequireJS, the Jupyter widget
# manager, and our shim) from node_modules/ into the git-ignored _vendor/offline/.
# _config.yml lists _vendor in html_static_path, so the build publishes these files
# under _build/html/_static/offline/ and no page needs a CDN.
#
# Never vendor into a folder named _static/: Jupyter Book 1 would then inject every
# .js/.css file found there into every page.
#
# Needs `npm ci` first. Usage: tools/vendor_js.sh
set -euo pipefail
cd "$(dirname "$0")/.."

nm=node_modules
out=_vendor/offline
for pkg in mathjax requirejs @jupyter-widgets/html-manager; do
  if [[ ! -f "$nm/$pkg/package.json" ]]; then
    echo "vendor_js: $nm/$pkg is missing; run 'npm ci' first" >&2
    exit 1
  fi
done

rm -rf "$out"
mkdir -p "$out/mathjax" "$out/html-manager"

# MathJax 3: the combined TeX+MathML→CommonHTML component, plus everything it loads
# lazily relative to its own URL (TeX extensions, fonts, menu, accessibility, speech maps).
mj=$nm/mathjax/es5
cp "$mj/tex-mml-chtml.js" "$out/mathjax/"
for d in input/tex/extensions input/mml/extensions output/chtml/fonts ui a11y sre; do
  mkdir -p "$out/mathjax/$d"
  cp -R "$mj/$d/." "$out/mathjax/$d/"
done

# RequireJS (the widget manager is an AMD bundle).
cp "$nm/requirejs/require.js" "$out/require.js"

# Widget manager: the AMD embed bundle and the icon fonts it references.
hm=$nm/@jupyter-widgets/html-manager/dist
cp "$hm/embed-amd.js" "$out/html-manager/"
find "$hm" -maxdepth 1 -type f \( -name '*.woff2' -o -name '*.woff' -o -name '*.ttf' \
  -o -name '*.eot' -o -name '*.svg' \) -exec cp {} "$out/html-manager/" \;

# Our shim: fixes the widget font path and maps MathJax 2's Hub.Queue onto MathJax 3.
cp tools/widgets-offline.js "$out/widgets-offline.js"

# Record what was vendored (also published with the book, which is harmless).
node -e '
  const v = p => require(`./node_modules/${p}/package.json`).version;
  for (const p of ["mathjax", "requirejs", "@jupyter-widgets/html-manager"]) console.log(`${p}@${v(p)}`);
' > "$out/VERSIONS.txt"

echo "vendor_js: $(du -sh "$out" | cut -f1) in $out ($(paste -sd' ' "$out/VERSIONS.txt"))"
