#!/usr/bin/env bash
# A stand-in for cuobjdump where the toolkit has none. BINARY is a SASS listing, or a folder that
# holds one (listing.sass) and the cubins that `-xelf all` extracts (*.cubin, built by the tests);
# `-lelf` lists them, and the names in its file `overwritten`, as cubins that -xelf all lost.
set -euo pipefail
case $1 in
  -sass) if [ -d "$2" ]; then cat "$2/listing.sass"; else cat "$2"; fi ;;
  -xelf) if [ -d "$3" ]; then find "$3" -maxdepth 1 -name '*.cubin' -exec cp {} . \; ; fi ;;
  -lelf) if [ -d "$2" ]; then
           { find "$2" -maxdepth 1 -name '*.cubin' -printf '%f\n'; cat "$2/overwritten" 2>/dev/null || true; } |
             awk '{ printf "ELF file %4d: %s\n", NR, $0 }'
         fi ;;
  *) echo "fake cuobjdump: no option $1" >&2; exit 2 ;;
esac
