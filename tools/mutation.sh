#!/usr/bin/env bash
# Measures the suite's power to catch bugs. Every planted bug of the families (each
# families/<family>/intrinsic_mutants.cuh and algorithm_mutants.cuh line `// mutant N: what it does`)
# runs against the GPU tests of its family, which must fail. One build tree (WARPCONF_MUTATION=ON)
# holds each family's device code once more per planted bug of its own, and the family's test
# binaries linked with it: a planted bug rebuilds its family's device code only.
# Prints one line per mutant as it finishes (also into <dir>/logs/verdicts.txt), then "mutants
# caught: K of N"; exits 1 unless every selected mutant was built and caught, 2 on a bad argument.
# The program fuzzer's planted miscompiles are its twin: `ctest --preset planted` in the gpu build.
# Usage: tools/mutation.sh [--no-build] [--time-limit SECONDS] [MUTANT ...]   (default: every mutant)
#   --no-build    runs what the last run built, as its mutants.txt lists it
#   --time-limit  how long one test binary of a mutant may run (default 600); one that runs longer
#                 is killed and its mutant reported as timed out, not caught
# WARPCONF_MUTATION_DIR (default build/mutants) and CMAKE_CUDA_ARCHITECTURES (default native) change
# where and for which GPU the mutants are built.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
dir=${WARPCONF_MUTATION_DIR:-$PWD/build/mutants}
architectures=${CMAKE_CUDA_ARCHITECTURES:-native}
usage="usage: mutation.sh [--no-build] [--time-limit SECONDS] [MUTANT ...]"
build=1
time_limit=600
while (($#)) && [[ $1 == --* ]]; do
  case $1 in
    --no-build) build=0 ;;
    --time-limit)
      if ! [[ ${2:-} =~ ^[1-9][0-9]*$ ]]; then
        echo "mutation.sh: --time-limit takes a whole number of seconds above 0, not '${2:-}' ($usage)" >&2
        exit 2
      fi
      time_limit=$2
      shift ;;
    *)
      echo "mutation.sh: unknown option '$1' ($usage)" >&2
      exit 2 ;;
  esac
  shift
done
for id in "$@"; do
  if ! [[ $id =~ ^[0-9]+$ ]]; then
    echo "mutation.sh: '$id' is not a mutant number ($usage)" >&2
    exit 2
  fi
done
mkdir -p "$dir/logs"
if ((build)) && ! cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$architectures" \
  -DWARPCONF_MUTATION=ON -DWARPCONF_CUOBJDUMP=OFF >"$dir/logs/configure.log" 2>&1; then
  echo "mutation.sh: configure failed; see $dir/logs/configure.log" >&2
  exit 1
fi
# id|family|what it does|binary,binary (written by the configure step)
if [ ! -r "$dir/mutants.txt" ]; then
  echo "mutation.sh: no $dir/mutants.txt: nothing was configured there" >&2
  exit 2
fi
mapfile -t table <"$dir/mutants.txt"
wanted=("$@")
selected=()
for row in "${table[@]}"; do
  id=${row%%|*}
  if ((${#wanted[@]} == 0)) || [[ " ${wanted[*]} " == *" $id "* ]]; then selected+=("$row"); fi
done
if ((${#selected[@]} == 0)); then
  echo "mutation.sh: no planted bug numbered: ${*:-(the families plant none)}" >&2
  exit 2
fi
if ((build)); then
  targets=()
  for row in "${selected[@]}"; do
    IFS=',' read -ra binaries <<<"${row##*|}"
    for binary in "${binaries[@]}"; do
      targets+=("$(basename "$binary")")
      rm -f "$binary"  # a binary of an earlier build must not stand in for one that no longer builds
    done
  done
  # -k 0: a mutant that does not build is reported as such; the others still run.
  cmake --build "$dir" -j "$(nproc)" --target "${targets[@]}" -- -k 0 >"$dir/logs/build.log" 2>&1
fi
# Runs the GPU suites of one mutant's binaries; prints its line.
run_mutant() {
  local row=$1 id family bug binaries binary rc failed=0 suites=0 unbuilt=0 crashed="" skipped=0 timed_out=
  IFS='|' read -r id family bug binaries <<<"$row"
  IFS=',' read -ra binaries <<<"$binaries"
  for binary in "${binaries[@]}"; do
    if [ ! -x "$binary" ]; then
      unbuilt=1
      continue
    fi
    local log="$dir/logs/$id-$(basename "$binary").log"
    WARPCONF_REQUIRE_GPU=1 WARPCONF_RESULTS="$dir/results/$id.jsonl" \
      timeout --kill-after=10 "$time_limit" "$binary" --gtest_filter='*OnGpu*' >"$log" 2>&1
    rc=$?
    suites=$((suites + 1))
    case $rc in
      0) ;;
      124 | 137) timed_out+=" $(basename "$binary")" ;;
      1) failed=$((failed + $(sed -n 's/^ *\([0-9]\+\) FAILED TESTS\?$/\1/p' "$log" | tail -n 1 | grep . || echo 0))) ;;
      77) skipped=1 ;;
      *) crashed+=" $(basename "$binary") exit $rc" ;;
    esac
  done
  if ((unbuilt)); then
    echo "mutant $id [$family] ($bug): build failed, not run, not caught; see $dir/logs/build.log"
  elif [ -n "$timed_out" ]; then
    echo "mutant $id [$family] ($bug): timed out after $time_limit s:$timed_out; not counted as caught"
  elif ((skipped)); then
    echo "mutant $id [$family] ($bug): its tests were skipped, not caught; see $dir/logs/$id-*.log"
  elif [ -n "$crashed" ]; then
    echo "mutant $id [$family] ($bug): caught: a test binary stopped abnormally:$crashed"
  elif ((failed > 0)); then
    echo "mutant $id [$family] ($bug): caught by $failed failing tests in $suites binaries"
  else
    echo "mutant $id [$family] ($bug): SURVIVED"
  fi
}
export -f run_mutant
export dir time_limit
mkdir -p "$dir/results"
# Each line as its mutant finishes, kept in logs/verdicts.txt, so that a run cut short loses none.
verdicts="$dir/logs/verdicts.txt"
printf '%s\n' "${selected[@]}" | xargs -d '\n' -P 4 -I{} bash -c 'run_mutant "$1"' _ {} | tee "$verdicts"
caught=$(grep -c '): caught' "$verdicts")
echo "mutants caught: $caught of ${#selected[@]}"
((caught == ${#selected[@]}))
