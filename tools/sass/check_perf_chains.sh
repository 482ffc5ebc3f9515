#!/usr/bin/env bash
# Checks in the SASS that no chain of the performance benchmarks (each family's device.cu, over
# fixtures/core/perf/chains.cuh) was folded: every chain_kernel instantiation must hold at least one
# SHFL, VOTE, MATCH, REDUX or ELECT per call of its unrolled loop, 31 calls x its chains x the
# instructions one call takes (two SHFL for a 64-bit shuffle, libcu++'s warp_shuffle_* too). __fns (a sequence, no instruction of
# its own) is listed, not counted (`warpconf perf record` counts its instructions); kernels built for an architecture without their instruction (a trap: reduce below 8.0,
# elect below 9.0) are listed as such. The empty-asm baselines (Opaque) must hold none.
# Usage: check_perf_chains.sh CUOBJDUMP BINARY
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: check_perf_chains.sh CUOBJDUMP BINARY" >&2
  exit 2
fi
cuobjdump=$1 binary=$2
. "$(dirname "$0")/skip.sh"
[ -x "$cuobjdump" ] || skip "cuobjdump not found ($cuobjdump); the CUDA toolkit ships it"
command -v c++filt >/dev/null || skip "c++filt not found; binutils ships it"
readonly calls_per_iteration=31
# "<mangled kernel> <collective instructions> <WARPSYNC> <traps>" for every chain_kernel.
counts=$("$cuobjdump" -sass "$binary" | awk '
  /Function : / { fn = $3; if (fn ~ /chain_kernel/) { c[fn] += 0; w[fn] += 0; t[fn] += 0 } next }
  fn !~ /chain_kernel/ { next }
  /[ \t}](@!?U?P[0-9T] )?(SHFL|VOTEU?|MATCH|REDUX|ELECT)[. ]/ { c[fn]++ }
  /[ \t}](@!?U?P[0-9T] )?WARPSYNC[. ]/ { w[fn]++ }
  /BPT\.TRAP/ { t[fn]++ }
  END { for (f in c) print f, c[f], w[f], t[f] }' | sort) || exit 1
if [ -z "$counts" ]; then
  echo "no chain_kernel found in $binary" >&2
  exit 1
fi
checked=0 folded=0 listed=0
while read -r mangled found warpsyncs traps; do
  name=$(c++filt <<<"$mangled")
  chains=$(sed -nE 's/.*, [0-9]+u, ([0-9]+), (true|false)>\(.*/\1/p' <<<"$name")
  words=1
  [[ $name == *"ShuffleChain<"*"unsigned long long>"* || $name == *"LibraryChain<"*"unsigned long long>"* ]] && words=2
  case $name in
    *"chain_kernel<"*"Opaque<"*)
      if [ "$found" -ne 0 ]; then echo "baseline with collective instructions: $name ($found)"; folded=$((folded + 1)); fi
      continue ;;
    *"chain_kernel<"*"FnsChain"*)
      echo "listed: $name: $found SHFL/VOTE/MATCH/REDUX/ELECT, $warpsyncs WARPSYNC"
      listed=$((listed + 1))
      continue ;;
  esac
  if [ "$found" -eq 0 ] && [ "$traps" -gt 0 ]; then
    echo "listed: $name: built for an architecture without its instruction (traps)"
    listed=$((listed + 1))
    continue
  fi
  if [ -z "$chains" ]; then
    echo "cannot read the chain count of $name" >&2
    exit 1
  fi
  want=$((calls_per_iteration * chains * words))
  checked=$((checked + 1))
  if [ "$found" -lt "$want" ]; then
    echo "folded: $name has $found SHFL/VOTE/MATCH/REDUX/ELECT, at least $want wanted"
    folded=$((folded + 1))
  fi
done <<<"$counts"
echo "perf chain kernels: $checked checked, $folded folded, $listed listed without a count"
[ "$checked" -gt 0 ] && [ "$folded" -eq 0 ]
