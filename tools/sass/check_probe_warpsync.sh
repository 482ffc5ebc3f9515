#!/usr/bin/env bash
# Checks in the SASS that every trap-shape probe kernel (trap_shape_kernel in fixtures/core/probe.cuh)
# holds what a trap needs: a WARPSYNC, or a CALL to a function that holds one (nvcc -G makes each
# intrinsic a call to a helper). A probe that claims to test the trap path must contain the mask check.
# Kernels whose call the architecture lacks (a __trap() in its place: reduce below 8.0, elect below
# 9.0) are listed, not counted. The mask's own full-mask ballot can supply the WARPSYNC, so the check
# is necessary, not sufficient (docs/contracts.md).
# Usage: check_probe_warpsync.sh [--expect-none] CUOBJDUMP BINARY TARGET
#   TARGET: the build target that makes BINARY, named where BINARY is not built.
#   --expect-none: succeed only if the check finds kernels without a WARPSYNC (the sass path's own
#   build, nvcc -O3, where ptxas drops it: to show the check catches them).
set -uo pipefail
expect_none=0
if [ "${1:-}" = "--expect-none" ]; then expect_none=1; shift; fi
if [ $# -ne 3 ]; then
  echo "usage: check_probe_warpsync.sh [--expect-none] CUOBJDUMP BINARY TARGET" >&2
  exit 2
fi
cuobjdump=$1 binary=$2 target=$3
. "$(dirname "$0")/skip.sh"
[ -x "$cuobjdump" ] || skip "cuobjdump not found ($cuobjdump); the CUDA toolkit ships it"
[ -f "$binary" ] || skip "$binary is not built: cmake --build <build> --target $target builds it"
demangle() { if command -v c++filt >/dev/null; then c++filt; else cat; fi; }
# "<verdict> <arch> <mangled kernel>" for every trap_shape_kernel: kept (a WARPSYNC in it, or a CALL,
# directly or through other calls, to a function of the same cubin that holds one), dropped, or
# no-call (a __trap() and neither).
verdicts=$("$cuobjdump" -sass "$binary" | awk '
  /arch = sm_/ { arch = $3; next }
  /Function : / { fn = arch " " $3; functions[fn] = 1; next }
  fn == "" { next }
  /[ \t}](@!?U?P[0-9T] )?WARPSYNC[. ]/ { warpsync[fn] = 1 }
  /BPT\.TRAP/ { trap[fn] = 1 }
  /[ \t}](@!?U?P[0-9T] )?CALL\./ && match($0, /`\([^)]*\)/) {
    calls[fn] = calls[fn] " " arch " " substr($0, RSTART + 2, RLENGTH - 3)
  }
  END {
    do {  # a function that calls one holding a WARPSYNC holds one too
      changed = 0
      for (f in calls) {
        if (f in warpsync) continue
        n = split(calls[f], c, " ")
        for (i = 1; i < n; i += 2)
          if ((c[i] " " c[i + 1]) in warpsync) { warpsync[f] = 1; changed = 1; break }
      }
    } while (changed)
    for (f in functions) {
      if (f !~ / [^ ]*trap_shape_kernel/) continue
      print ((f in warpsync) ? "kept" : (f in trap) ? "no-call" : "dropped"), f
    }
  }' | sort) || exit 1
if [ -z "$verdicts" ]; then
  echo "no trap_shape_kernel found in $binary" >&2
  exit 1
fi
checked=0 dropped=0 listed=0
while read -r verdict arch mangled; do
  case $verdict in
    kept) checked=$((checked + 1)) ;;
    dropped)
      checked=$((checked + 1))
      dropped=$((dropped + 1))
      echo "no WARPSYNC ($arch): $(demangle <<<"$mangled")" ;;
    no-call)
      listed=$((listed + 1))
      echo "listed ($arch): $(demangle <<<"$mangled"): built for an architecture without its call (traps)" ;;
  esac
done <<<"$verdicts"
echo "trap-shape probe kernels in $binary: $checked checked, $dropped without a WARPSYNC, $listed listed without their call"
if [ "$expect_none" = 1 ]; then
  [ "$dropped" -gt 0 ]
else
  [ "$checked" -gt 0 ] && [ "$dropped" -eq 0 ]
fi
