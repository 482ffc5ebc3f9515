#!/usr/bin/env bash
# A stand-in for `cuobjdump -sass` over BINARY, a file that holds its SASS listing already: the
# tests of tools/sass/check_perf_chains.sh run it where the toolkit has no cuobjdump.
[ "$1" = "-sass" ] && cat "$2"
