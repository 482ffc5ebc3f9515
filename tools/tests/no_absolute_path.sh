#!/usr/bin/env bash
# README's example report names paths as the README does, relative: fails on an absolute path (a
# '/' that starts a word, not a URL's) in any FILE, printing its lines, and on a missing or empty FILE.
# Usage: no_absolute_path.sh FILE...
set -uo pipefail
status=0
for file in "$@"; do
  if [ ! -s "$file" ]; then
    echo "$file: missing or empty"
    status=1
  elif grep -nE "(^|[[:space:]\"'\`(>=])/[A-Za-z0-9._~-]" "$file"; then
    echo "$file: the lines above name absolute paths"
    status=1
  fi
done
exit $status
