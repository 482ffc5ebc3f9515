#!/usr/bin/env bash
# Runs tools/sass/check_probe_warpsync.sh on one case of trap_shape_sample.cu built here with nvcc
# for sm_90 into cubins, with a hand-made SASS listing (no cuobjdump here: fake_cuobjdump.sh serves
# them), and checks its exit status and the lines it must print.
# Usage: probe_warpsync_samples.sh NVCC WORKDIR CASE
set -uo pipefail
if [ $# -ne 3 ]; then
  echo "usage: probe_warpsync_samples.sh NVCC WORKDIR CASE" >&2
  exit 2
fi
nvcc=$1 case_name=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$2/$case_name

# CASE: the builds (NVCC-OPTION:SAMPLE_CALL, "-" for nvcc's defaults), the listing, the check's flag,
# its exit status and the lines its output must hold.
case $case_name in
  debug_kept_or_listed)
    builds=("-G:kShfl" "-G:kElect" "-G:kTrap") listing=debug flag="" status=0
    lines=("kept (sm_90) by call to __shfl_sync: void wc::gpu::trap_shape_kernel<1>"
           "kept (sm_90) by call to elect.sync: void wc::gpu::trap_shape_kernel<2>"
           "listed (sm_90): void wc::gpu::trap_shape_kernel<4>"
           ": 2 checked, 0 without a WARPSYNC or the call it needs, 1 listed without their call") ;;
  debug_mask_ballot_alone)
    builds=("-G:kNone") listing=debug_mask_only flag="" status=1
    lines=("no WARPSYNC (sm_90), nor the call it needs: void wc::gpu::trap_shape_kernel<3>") ;;
  debug_cubins_overwritten)
    builds=("-G:kShfl" "-G:kElect") listing=debug flag="" status=1 overwritten=device.sm_90.cubin
    lines=("but 1 of its cubins were overwritten by others of the same name") ;;
  debug_cubins_from_objects)
    builds=("-G:kShfl" "-G:kElect" "-G:kTrap") listing=debug flag=--cubins-from status=0 overwritten=device.sm_90.cubin
    lines=("kept (sm_90) by call to __shfl_sync: void wc::gpu::trap_shape_kernel<1>"
           "kept (sm_90) by call to elect.sync: void wc::gpu::trap_shape_kernel<2>"
           ": 2 checked, 0 without a WARPSYNC or the call it needs, 1 listed without their call (8 call sites read from 3 cubins)") ;;
  cubins_from_an_object_without_one)
    builds=("-G:kShfl") listing=debug flag=--cubins-from status=2 empty_object=1
    lines=("named in $work/objects.txt, holds no cubin") ;;
  debug_without_relocations)
    builds=() listing=debug flag="" status=1
    lines=("holds 8 calls whose targets only the relocations name, but no call site was read from the 0 cubins") ;;
  o3_dropped)
    builds=("-:kShfl") listing=o3 flag=--expect-none status=0
    lines=("no WARPSYNC (sm_90), nor the call it needs: void wc::gpu::trap_shape_kernel<1>") ;;
  o3_fails_the_check)
    builds=("-:kShfl") listing=o3 flag="" status=1
    lines=(": 1 checked, 1 without a WARPSYNC or the call it needs") ;;
  ptxas_o0_kept)
    builds=("-Xptxas=-O0:kShfl") listing=o0 flag="" status=0
    lines=("kept (sm_90) by WARPSYNC: void wc::gpu::trap_shape_kernel<1>") ;;
  unreadable_cubin)
    builds=("garbage") listing=debug flag="" status=2
    lines=("garbage.cubin from $work is not an ELF file that readelf can read") ;;
  *) echo "probe_warpsync_samples.sh: no case $case_name" >&2; exit 2 ;;
esac

rm -rf "$work" && mkdir -p "$work" || exit 1
cp "$here/probe_warpsync_$listing.sass" "$work/listing.sass" || exit 1
[ -n "${overwritten:-}" ] && echo "$overwritten" >"$work/overwritten"
for build in "${builds[@]}"; do
  if [ "$build" = garbage ]; then
    echo "not a cubin" >"$work/garbage.cubin"
    continue
  fi
  option=${build%%:*} call=${build#*:}
  [ "$option" = - ] && option=""
  "$nvcc" -arch=sm_90 -cubin ${option:+"$option"} -DSAMPLE_CALL="wc::gpu::$call" -o "$work/sample_$call.cubin" \
    "$here/trap_shape_sample.cu" || { echo "nvcc could not build the $build sample" >&2; exit 1; }
done
# --cubins-from: each cubin in a folder of its own, as each object file holds its own, and their list.
check_flags=(${flag:+"$flag"})
if [ "$flag" = --cubins-from ]; then
  for cubin in "$work"/*.cubin; do
    mkdir "${cubin%.cubin}" && mv "$cubin" "${cubin%.cubin}/" && echo "${cubin%.cubin}" >>"$work/objects.txt" || exit 1
  done
  if [ -n "${empty_object:-}" ]; then mkdir "$work/host_only" && echo "$work/host_only" >>"$work/objects.txt" || exit 1; fi
  check_flags=(--cubins-from "$work/objects.txt")
fi

output=$("$here/../../sass/check_probe_warpsync.sh" "${check_flags[@]}" "$here/fake_cuobjdump.sh" "$work" none 2>&1)
got=$?
echo "$output"
[ "$got" -eq 77 ] && exit 77  # the check's skip (no readelf) stays a skip
verdict=0
if [ "$got" -ne "$status" ]; then
  echo "FAIL: the check exited $got, not $status"
  verdict=1
fi
for line in "${lines[@]}"; do
  if ! grep -qF -- "$line" <<<"$output"; then
    echo "FAIL: the check did not print: $line"
    verdict=1
  fi
done
exit $verdict
