#!/usr/bin/env bash
# Checks in the machine code that every trap-shape probe kernel (trap_shape_kernel in
# fixtures/core/probe.cuh) holds what a trap needs. A probe that claims to test the trap path must
# contain the mask check: a kernel is kept by
#   - a WARPSYNC in it or in a function it calls (through a CALL named in the SASS or a call site
#     named in the cubin's relocations), or
#   - under nvcc -G, where no WARPSYNC appears and each call is `CALL.ABS.NOINC 0x0` whose target is in
#     the cubin's relocations: a call, beyond the mask's own __ballot_sync, that reaches the
#     intrinsic's wrapper function (__shfl*_sync, __ballot/__all/__any/__uni_sync, __match_*_sync,
#     __reduce_*_sync, __syncwarp), or a called function holding ELECT (elect.sync is inline asm).
# Kernels whose call the architecture lacks (a __trap() in its place, in it or a function it calls,
# or under -G a call to __trap: reduce below 8.0, elect below 9.0) are listed, not counted; the
# stack check that -G puts at each function's start (S2R SR_LMEMHIOFF, then BPT.TRAP) is not such a
# trap. The mask's own full-mask ballot can supply the WARPSYNC, so the check is necessary, not
# sufficient (docs/contracts.md).
# Usage: check_probe_warpsync.sh [--expect-none] [--cubins-from LIST] CUOBJDUMP BINARY TARGET
#   TARGET: the build target that makes BINARY, named where BINARY is not built.
#   --expect-none: succeed only if the check finds kernels without a WARPSYNC (the sass path's own
#   build, nvcc -O3, where ptxas drops it: to show the check catches them).
#   --cubins-from LIST: read the call sites from the cubins of the object files LIST names (a line
#   each) instead of BINARY's: cuobjdump -xelf all names a cubin after its source file, so the cubins
#   of the families' device.cu files, all alike, overwrite each other.
# Needs cuobjdump (-sass, -lelf, and -xelf all for the cubins) and binutils' readelf.
set -uo pipefail
expect_none=0 cubin_list=""
while [ $# -gt 0 ]; do
  case $1 in
    --expect-none) expect_none=1; shift ;;
    --cubins-from) [ $# -ge 2 ] || break; cubin_list=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -ne 3 ]; then
  echo "usage: check_probe_warpsync.sh [--expect-none] [--cubins-from LIST] CUOBJDUMP BINARY TARGET" >&2
  exit 2
fi
cuobjdump=$(realpath -m "$1") binary=$(realpath -m "$2") target=$3
if [ -n "$cubin_list" ] && { [ ! -f "$cubin_list" ] || [ ! -r "$cubin_list" ]; }; then
  echo "--cubins-from: $cubin_list is not a file that can be read" >&2
  exit 2
fi
. "$(dirname "$0")/skip.sh"
[ -x "$cuobjdump" ] || skip "cuobjdump not found ($cuobjdump); the CUDA toolkit ships it"
command -v readelf >/dev/null || skip "readelf not found; binutils ships it"
[ -e "$binary" ] || skip "$binary is not built: cmake --build <build> --target $target builds it"
demangle() { if command -v c++filt >/dev/null; then c++filt; else cat; fi; }

# "call-site ARCH CALLER CALLEE" for each call site (relocation type 0x4b) of every cubin in BINARY,
# or in the objects of --cubins-from, each extracted into a folder of its own; then "cubins N" and
# "overwritten N" (the cubins that cuobjdump -lelf lists in BINARY less those -xelf all left). The
# cubin's architecture is byte 1 of its ELF flags (CUDA 13's ELF ABI 8). A file that cuobjdump cannot
# read, an object of --cubins-from without a cubin and a cubin that readelf cannot read are bad input:
# exit status 2.
call_sites() {
  local cubins cubin flags source sources=() listed overwritten=0
  cubins=$(mktemp -d) || return 1
  if [ -n "$cubin_list" ]; then
    mapfile -t sources < <(grep . "$cubin_list")
    [ ${#sources[@]} -gt 0 ] || { echo "$cubin_list names no object file" >&2; rm -rf "$cubins"; return 2; }
  else
    sources=("$binary")
  fi
  local n=0
  for source in "${sources[@]}"; do
    n=$((n + 1))
    mkdir "$cubins/$n" || return 1
    if ! (cd "$cubins/$n" && "$cuobjdump" -xelf all "$source" >/dev/null 2>&1); then
      echo "cuobjdump -xelf all $source failed: not a file that holds device code" >&2
      rm -rf "$cubins"
      return 2
    fi
    if [ -n "$cubin_list" ] && [ -z "$(ls -A "$cubins/$n")" ]; then
      echo "$source, named in $cubin_list, holds no cubin" >&2
      rm -rf "$cubins"
      return 2
    fi
  done
  local count=0
  for cubin in "$cubins"/*/*; do
    [ -f "$cubin" ] || continue
    count=$((count + 1))
    flags=$(readelf -hW "$cubin" 2>/dev/null | awk '/^ *Flags:/ { print $2 }')
    case $flags in
      0x*) ;;
      *) echo "$(basename "$cubin") from ${sources[$(( $(basename "$(dirname "$cubin")") - 1 ))]} is not an ELF file that readelf can read" >&2; rm -rf "$cubins"; return 2 ;;
    esac
    readelf -rW "$cubin" | awk -v arch="sm_$(((flags >> 8) & 0xff))" '
      /^Relocation section/ {
        caller = $3
        gsub(/'\''/, "", caller)
        if (!sub(/^\.rela?\.text\./, "", caller)) caller = ""
        next
      }
      # The callee follows the third 16-digit word (offset, info, symbol value), whatever readelf
      # prints as the type and whether an addend follows (.rela) or not (.rel).
      caller != "" && substr($2, length($2) - 7) == "0000004b" {
        words = 0
        for (i = 1; i < NF; ++i)
          if (length($i) == 16 && $i ~ /^[0-9a-f]+$/ && ++words == 3) { print "call-site", arch, caller, $(i + 1); break }
      }'
  done
  if [ -z "$cubin_list" ]; then
    listed=$("$cuobjdump" -lelf "$binary" 2>/dev/null | grep -c '^ELF file')
    [ "$listed" -gt "$count" ] && overwritten=$((listed - count))
  fi
  echo "cubins $count"
  echo "overwritten $overwritten"
  rm -rf "$cubins"
}
sites=$(call_sites) || exit $?
cubin_count=$(sed -n 's/^cubins //p' <<<"$sites")
overwritten=$(sed -n 's/^overwritten //p' <<<"$sites")
sites=$(grep -v '^cubins \|^overwritten ' <<<"$sites" || true)
site_count=$(grep -c . <<<"$sites" || true)

# "<verdict> <arch> <mangled kernel> <evidence>" for every trap_shape_kernel: kept (evidence WARPSYNC
# or call-to-NAME), dropped, or no-call (a __trap() and neither).
verdicts=$({ [ -z "$sites" ] || printf '%s\n' "$sites"; "$cuobjdump" -sass "$binary"; } | awk '
  function add_call(caller, callee) {
    calls[caller] = calls[caller] SUBSEP callee
    names[caller] = names[callee] = 1
  }
  # The intrinsic wrapper a mangled name names, or "".
  function wrapper(name) {
    if (match(name, /[0-9](__shfl(_up|_down|_xor)?_sync|__(ballot|all|any|uni)_sync|__match_(any|all)_sync|__reduce_[a-z]+_sync|__syncwarp)[A-Za-z]/))
      return substr(name, RSTART + 1, RLENGTH - 2)
    return ""
  }
  $1 == "call-site" { add_call($2 " " $3, $2 " " $4); next }
  /arch = sm_/ { arch = $3; next }
  /Function : / { fn = arch " " $3; functions[fn] = names[fn] = 1; stack_check = 0; next }
  fn == "" { next }
  /[ \t}](@!?U?P[0-9T] )?WARPSYNC[. ]/ { warpsync[fn] = 1 }
  /[ \t}](@!?U?P[0-9T] )?ELECT[. ]/ { elect[fn] = 1 }
  /S2R R[0-9]+, SR_LMEMHIOFF/ { stack_check = 1 }
  /BPT\.TRAP/ { if (stack_check) stack_check = 0; else trap[fn] = 1 }
  /[ \t}](@!?U?P[0-9T] )?CALL\./ && match($0, /`\([^)]*\)/) { add_call(fn, arch " " substr($0, RSTART + 2, RLENGTH - 3)) }
  /[ \t}](@!?U?P[0-9T] )?CALL\.ABS\.NOINC 0x0 / { ++relocated_calls }
  END {
    print "relocated-calls", relocated_calls + 0
    for (f in names) {
      split(f, part, " ")
      if (wrapper(part[2]) != "") needed[f] = "call-to-" wrapper(part[2])
      if (part[2] == "__trap") trap[f] = 1  # -G makes __trap() a call to this function
    }
    do {  # a function that calls one holding a WARPSYNC, the call it needs or a trap holds it too
      changed = 0
      for (f in calls) {
        n = split(calls[f], callee, SUBSEP)
        for (i = 2; i <= n; ++i) {
          c = callee[i]
          if ((c in warpsync) && !(f in warpsync)) { warpsync[f] = 1; changed = 1 }
          if ((c in trap) && !(f in trap)) { trap[f] = 1; changed = 1 }
          if (!(f in needed) && ((c in needed) || (c in elect))) {
            needed[f] = (c in needed) ? needed[c] : "call-to-elect.sync"
            changed = 1
          }
        }
      }
    } while (changed)
    for (f in functions) {
      if (f !~ / [^ ]*trap_shape_kernel/) continue
      evidence = (f in warpsync) ? "WARPSYNC" : ""
      n = split(calls[f], callee, SUBSEP)
      mask_ballot = 0
      for (i = 2; i <= n && evidence == ""; ++i) {
        c = callee[i]
        split(c, part, " ")
        if (!mask_ballot && wrapper(part[2]) == "__ballot_sync") { mask_ballot = 1; continue }
        if (c in needed) evidence = needed[c]
        else if (c in elect) evidence = "call-to-elect.sync"
      }
      print (evidence != "" ? "kept" : (f in trap) ? "no-call" : "dropped"), f, evidence
    }
  }' | sort) || exit 1
relocated_calls=$(sed -n 's/^relocated-calls //p' <<<"$verdicts")
verdicts=$(grep -v '^relocated-calls ' <<<"$verdicts" || true)
# -G's calls name their targets only in the relocations: a listing with such calls and no call site read
# would pass no kernel for want of evidence, so it is an error of the check, named as one.
if [ "$relocated_calls" -gt 0 ] && [ "$site_count" -eq 0 ]; then
  echo "the SASS of $binary holds $relocated_calls calls whose targets only the relocations name, but no call site" \
       "was read from the $cubin_count cubins that cuobjdump -xelf all extracted (readelf -rW: $(readelf --version | head -1))" >&2
  exit 1
fi
# Nor may it read the call sites of some cubins alone, which would fail kernels for want of evidence.
if [ "$relocated_calls" -gt 0 ] && [ "$overwritten" -gt 0 ]; then
  echo "the SASS of $binary holds $relocated_calls calls whose targets only the relocations name, but $overwritten of its" \
       "cubins were overwritten by others of the same name when cuobjdump -xelf all extracted them: name their objects" \
       "with --cubins-from" >&2
  exit 1
fi
if [ -z "$verdicts" ]; then
  echo "no trap_shape_kernel found in $binary" >&2
  exit 1
fi
checked=0 dropped=0 listed=0
declare -A kept_by
while read -r verdict arch mangled evidence; do
  case $verdict in
    kept)
      checked=$((checked + 1))
      kept_by[${evidence//-/ }]=$((${kept_by[${evidence//-/ }]:-0} + 1))
      echo "kept ($arch) by ${evidence//-/ }: $(demangle <<<"$mangled")" ;;
    dropped)
      checked=$((checked + 1))
      dropped=$((dropped + 1))
      echo "no WARPSYNC ($arch), nor the call it needs: $(demangle <<<"$mangled")" ;;
    no-call)
      listed=$((listed + 1))
      echo "listed ($arch): $(demangle <<<"$mangled"): built for an architecture without its call (traps)" ;;
  esac
done <<<"$verdicts"
for evidence in "${!kept_by[@]}"; do echo "kept by $evidence: ${kept_by[$evidence]}"; done | sort
echo "trap-shape probe kernels in $binary: $checked checked, $dropped without a WARPSYNC or the call it needs, $listed listed without their call ($site_count call sites read from $cubin_count cubins)"
if [ "$expect_none" = 1 ]; then
  [ "$dropped" -gt 0 ]
else
  [ "$checked" -gt 0 ] && [ "$dropped" -eq 0 ]
fi
