#!/usr/bin/env bash
# Checks in the SASS that the else arm of every collective kernel kept its own call: each
# collective_kernel instantiation of TWO_ARMS must hold at least two SHFL, VOTE, MATCH or REDUX
# instructions, and at least twice as many as the same kernel built with the arms merged
# (ONE_ARM, compiled with WARPCONF_ONE_CALL_SITE=1). Kernels whose call makes no such instruction
# (__fns, thread_rank) are listed and not counted.
# Usage: check_call_sites.sh [--expect-merged] CUOBJDUMP TWO_ARMS ONE_ARM   (each a comma-separated list of libraries)
#   --expect-merged: succeed only if the check finds merged arms (to show it catches them).
set -uo pipefail
expect_merged=0
if [ "${1:-}" = "--expect-merged" ]; then expect_merged=1; shift; fi
if [ $# -ne 3 ]; then
  echo "usage: check_call_sites.sh [--expect-merged] CUOBJDUMP TWO_ARMS ONE_ARM" >&2
  exit 2
fi
cuobjdump=$1 two_arms=$2 one_arm=$3
. "$(dirname "$0")/skip.sh"
[ -x "$cuobjdump" ] || skip "cuobjdump not found ($cuobjdump); the CUDA toolkit ships it"
# "<kernel> <sites>" for every collective_kernel instantiation of the libraries.
sites() {
  local libraries
  IFS=, read -ra libraries <<<"$1"
  for library in "${libraries[@]}"; do "$cuobjdump" -sass "$library" || return 1; done | awk '
    /Function : / { fn = $3; if (fn ~ /collective_kernel/) n[fn] += 0; next }
    fn ~ /collective_kernel/ && /[ \t}](@!?U?P[0-9T] )?(SHFL|VOTEU?|MATCH|REDUX)[. ]/ { n[fn]++ }
    END { for (f in n) print f, n[f] }' | sort
}
demangle() { if command -v c++filt >/dev/null; then c++filt; else cat; fi; }
two=$(sites "$two_arms") || exit 1
one=$(sites "$one_arm") || exit 1
if [ -z "$two" ]; then
  echo "no collective_kernel found in $two_arms" >&2
  exit 1
fi
# One pass joins the two builds' counts: a line per kernel without a merged-arms build or with
# merged arms, then the totals.
report=$(awk 'NR == FNR { reference[$1] = $2; next }
  !($1 in reference) { print "missing", $1; next }
  reference[$1] == 0 { without++; next }
  { checked++; if ($2 < 2 || $2 < 2 * reference[$1]) { merged++; print "merged", $1, $2, reference[$1] } }
  END { print "totals", checked + 0, merged + 0, without + 0 }' <(echo "$one") <(echo "$two"))
while read -r what kernel count reference; do
  case $what in
    missing) echo "no merged-arms build of $(demangle <<<"$kernel")" >&2; exit 1 ;;
    merged) echo "one call site: $(demangle <<<"$kernel") has $count collective instructions, $reference with the arms merged" ;;
  esac
done <<<"$report"
read -r checked merged without < <(awk '$1 == "totals" { print $2, $3, $4 }' <<<"$report")
echo "collective kernels: $checked checked, $merged with merged arms, $without whose call has no SHFL/VOTE/MATCH/REDUX"
if [ "$expect_merged" = 1 ]; then
  [ "$merged" -gt 0 ] && [ "$merged" -eq "$checked" ]
else
  [ "$checked" -gt 0 ] && [ "$merged" -eq 0 ]
fi
