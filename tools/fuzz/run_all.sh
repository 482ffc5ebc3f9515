#!/usr/bin/env bash
# Runs each libFuzzer binary of a build for a while, as the fuzz.<target>.libfuzzer tests do for a
# few seconds: under ASan and UBSan, with its dictionary, on a scratch copy of its seed corpus. Prints
# one line per target (the inputs it executed and the seconds it took) and exits 1 if any target
# found a defect or fuzzed nothing (no input past its seeds); the input that shows a defect stays under
# <build>/tools/fuzz/<target>_run/. An option without its value is status 2.
#   usage: tools/fuzz/run_all.sh [--seconds N] [--jobs N] [--build DIR] [TARGET...] [-- LIBFUZZER_FLAG...]
#   defaults: 600 seconds, 1 job at a time, build/model, every <target>_libfuzzer binary of the build
#   (the on-demand ones, which no test runs, built first)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=600 jobs=1 build=build/model
targets=() extra=()
# The value of option $1, the next word: one line and status 2 where there is none.
value_of() {
  (($# >= 2)) && [[ -n $2 ]] || { echo "run_all.sh: $1 needs a value" >&2; exit 2; }
  value=$2
}
while (($#)); do
  case $1 in
    --seconds) value_of "$@"; seconds=$value; shift 2 ;;
    --jobs) value_of "$@"; jobs=$value; shift 2 ;;
    --build) value_of "$@"; build=$value; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '2,9p' "$0"; exit 0 ;;
    -*) echo "run_all.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[[ $seconds =~ ^[1-9][0-9]*$ && $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run_all.sh: --seconds and --jobs take a positive number" >&2; exit 2; }
fuzz_dir=$build/tools/fuzz
# The libFuzzer binaries no test runs (ON_DEMAND in tools/fuzz/CMakeLists.txt) are built first:
# every one when no target is named, else those named.
on_demand=()
list=$fuzz_dir/libfuzzer_on_demand.txt
[[ -f $list ]] || { echo "run_all.sh: no $list: $build is not configured with the fuzz targets (WARPCONF_FUZZ)" >&2; exit 2; }
while read -r name; do
  if [[ -n $name ]] && { ((${#targets[@]} == 0)) || [[ " ${targets[*]} " == *" $name "* ]]; }; then
    on_demand+=("${name}_libfuzzer_binary")
  fi
done <"$list"
if ((${#on_demand[@]})) && ! cmake --build "$build" --target "${on_demand[@]}" >"$fuzz_dir/on_demand_build.log" 2>&1; then
  echo "run_all.sh: building ${on_demand[*]} failed; see $fuzz_dir/on_demand_build.log" >&2
  exit 1
fi
if ((${#targets[@]} == 0)); then
  for binary in "$fuzz_dir"/*_libfuzzer; do
    [[ -x $binary ]] && targets+=("$(basename "$binary" _libfuzzer)")
  done
fi
if ((${#targets[@]} == 0)); then
  echo "run_all.sh: no libFuzzer binary in $fuzz_dir (build it where clang++ is installed)" >&2
  exit 2
fi
for target in "${targets[@]}"; do
  [[ -x $fuzz_dir/${target}_libfuzzer ]] || { echo "run_all.sh: no $fuzz_dir/${target}_libfuzzer" >&2; exit 2; }
done

extra_list=$(IFS=';'; echo "${extra[*]-}")
# Writes the target's log and, last, its exit status.
run() {
  local target=$1 status=0
  cmake -DFUZZER="$fuzz_dir/${target}_libfuzzer" -DCORPUS="tools/fuzz/corpus/$target" -DDICTIONARY="tools/fuzz/$target.dict" \
        -DWORK="$fuzz_dir/${target}_run" -DSECONDS="$seconds" "-DEXTRA=$extra_list" -P tools/fuzz/run_fuzzer.cmake \
        > "$fuzz_dir/${target}_run.log" 2>&1 || status=$?
  echo "$status" > "$fuzz_dir/${target}_run.status"
}
for target in "${targets[@]}"; do
  rm -f "$fuzz_dir/${target}_run.status"
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  run "$target" &
done
wait
failed=0
for target in "${targets[@]}"; do
  if [[ $(cat "$fuzz_dir/${target}_run.status" 2>/dev/null) == 0 ]]; then
    sed -n 's/^.*_libfuzzer: /'"$target"': /p' "$fuzz_dir/${target}_run.log"
  else
    failed=1
    echo "$target: FOUND A DEFECT, or fuzzed nothing: see $fuzz_dir/${target}_run.log and $fuzz_dir/${target}_run/"
  fi
done
exit $failed
