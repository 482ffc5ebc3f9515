#!/bin/sh
# Opens report.html (the h100 and t4 fixtures merged: two devices) in headless chromium and requires
# the page as laid out to hold what the report is made of (render_report_probe.js: both devices, each
# family's matrix row, heading and grid, all shown, and the SM coverage heatmap) and a PNG that is not blank: many times the size of
# a screenshot of an empty page, which compresses to almost nothing. Exit status 77 (skipped) where
# no chromium is installed.
# Usage: render_report.sh WARPCONF DATA_DIR WORK_DIR
set -eu
warpconf=$1 data=$2 work=$3
probe=$(dirname "$0")/render_report_probe.js
browser=""
for name in chromium chromium-browser chromium-headless-shell google-chrome; do
  if command -v "$name" >/dev/null 2>&1; then browser=$(command -v "$name"); break; fi
done
if [ -z "$browser" ]; then
  echo "skipped: no chromium, chromium-browser, chromium-headless-shell or google-chrome on PATH"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)  # file:// takes an absolute path
"$warpconf" report "$data/h100" --out "$work/h100" >/dev/null
"$warpconf" report "$data/t4" --out "$work/t4" >/dev/null
"$warpconf" merge "$work/h100" "$work/t4" --out "$work/merged" >/dev/null
printf '<!DOCTYPE html>\n<html><body></body></html>\n' >"$work/blank.html"
# --no-sandbox: chromium refuses to run as root without it (CI containers).
open_page() {
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1800 "$@" || true
}
shot() {
  open_page --screenshot="$2" "file://$1" >"$2.log" 2>&1
}
{ cat "$work/merged/report.html"; printf '<script>\n'; cat "$probe"; printf '</script>\n'; } >"$work/probed.html"
open_page --dump-dom "file://$work/probed.html" >"$work/dom.html" 2>"$work/dom.log"
verdict=$(sed -n 's/.*<title>\(probe: [^<]*\)<\/title>.*/\1/p' "$work/dom.html")
case $verdict in
  "probe: ok: Tesla T4 | NVIDIA H100 80GB HBM3; "*) ;;
  "") echo "the probe did not run: chromium did not parse $work/probed.html to its end (its DOM: $work/dom.html)"
      tail -n 5 "$work/dom.log"
      exit 1 ;;
  *) echo "report.html as chromium laid it out: $verdict"
     exit 1 ;;
esac
shot "$work/merged/report.html" "$work/report.png"
shot "$work/blank.html" "$work/blank.png"
for png in report blank; do
  if [ "$(head -c 4 "$work/$png.png" 2>/dev/null | tail -c 3)" != "PNG" ]; then
    echo "$browser wrote no PNG for $png.html:"
    tail -n 5 "$work/$png.png.log"
    exit 1
  fi
done
report=$(wc -c <"$work/report.png")
blank=$(wc -c <"$work/blank.png")
if [ "$report" -lt $((blank * 10)) ]; then
  echo "report.png is $report bytes, an empty page's $blank: the report rendered blank"
  exit 1
fi
echo "$verdict; report.png: $report bytes (an empty page: $blank) in $work"
