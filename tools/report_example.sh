#!/usr/bin/env bash
# Remakes README's picture of a merged report: docs/report-example.html, the report that the
# fixtures of tools/tests/data/report (an H100 and a T4) merge into, and docs/report-example.png,
# what headless chromium shows of it. The commands run in a scratch folder laid out as the README's
# examples are (build/gpu/tools/warpconf, h100/report, t4/report, fleet), so that the paths the
# report shows are the README's, relative. ctest checks the committed .html holds no absolute path.
# Usage: tools/report_example.sh WARPCONF (a built warpconf, e.g. build/model/tools/warpconf)
set -euo pipefail
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: tools/report_example.sh WARPCONF (a built warpconf)" >&2; exit 2; }
warpconf=$(realpath "$1")
docs=$(realpath "$(dirname "$0")/../docs")
data=$(realpath "$(dirname "$0")/tests/data/report")
browser=""
for name in chromium chromium-browser chromium-headless-shell google-chrome; do
  if command -v "$name" >/dev/null 2>&1; then browser=$(command -v "$name"); break; fi
done
[ -n "$browser" ] || { echo "report_example.sh: no chromium: install it (apt-get install chromium)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/build/gpu/tools" "$work/h100" "$work/t4"
ln -s "$warpconf" "$work/build/gpu/tools/warpconf"
cp "$data"/h100/* "$work/h100/"
cp "$data"/t4/* "$work/t4/"
cd "$work"
build/gpu/tools/warpconf report h100 --out h100/report >/dev/null
build/gpu/tools/warpconf report t4 --out t4/report >/dev/null
build/gpu/tools/warpconf merge h100/report t4/report --out fleet >/dev/null
cp fleet/report.html "$docs/report-example.html"
# --no-sandbox: chromium refuses to run as root without it (CI containers).
timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1300,1700 \
  --screenshot="$docs/report-example.png" "file://$docs/report-example.html" >"$work/chromium.log" 2>&1 ||
  { cat "$work/chromium.log"; exit 1; }
echo "wrote $docs/report-example.html and $docs/report-example.png"
