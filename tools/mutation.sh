#!/usr/bin/env bash
# Measures the suite's power to catch bugs. Builds the suite once per planted bug of
# fixtures/intrinsics/mutants.cuh (all builds in parallel), then runs the GPU tests of the mutated
# family, which must fail. Prints one line per mutant and the total; exits 1 when one survives.
# Usage: tools/mutation.sh [MUTANT ...]   (default: every mutant)
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
# mutant id | the family's GPU tests (a ctest regex) | the bug
table=(
  "1|Shuffle|shfl_sync clamps a negative srcLane to 0"
  "2|Shuffle|shfl_sync reduces srcLane with C++ %, as the guide's prose reads"
  "3|Shuffle|shfl_up_sync treats delta >= 32 as 0"
  "4|Shuffle|shfl_down_sync clamps width to 32"
  "5|Shuffle|shfl_xor_sync ignores width"
  "6|Shuffle|shfl_xor_sync moves only the low word of 64-bit values"
  "7|Vote|all_sync counts exited lanes as false"
  "8|Vote|uni_sync is all_sync"
  "9|Vote|ballot_sync counts only predicate 1 as true"
  "10|Match|match_all_sync returns mask, as the guide says, not its non-exited lanes"
  "11|Match|match_any_sync compares 64-bit values by their low half"
  "12|Reduce|reduce_max_sync(int) compares unsigned"
  "13|Reduce|reduce_min_sync(unsigned) compares signed"
  "14|Fns|fns searches upward for a negative offset"
  "15|Syncwarp|syncwarp is no barrier"
  "16|Activemask|activemask always sets lane 0"
)
wanted=("$@")
selected=()
for row in "${table[@]}"; do
  id=${row%%|*}
  if ((${#wanted[@]} == 0)) || [[ " ${wanted[*]} " == *" $id "* ]]; then selected+=("$row"); fi
done
build() {
  local id=$1 dir=build/mutants/$1
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DWARPCONF_INTRINSICS_HEADER="$PWD/fixtures/intrinsics/mutants.cuh" -DWARPCONF_MUTANT="$id" >"$dir.log" 2>&1 &&
    cmake --build "$dir" -j 4 >>"$dir.log" 2>&1 || echo "mutant $id: build failed, see $dir.log"
}
export -f build
mkdir -p build/mutants
printf '%s\n' "${selected[@]}" | cut -d'|' -f1 | xargs -P 4 -I{} bash -c 'build {}'
caught=0
survived=0
for row in "${selected[@]}"; do
  IFS='|' read -r id family bug <<<"$row"
  log=build/mutants/$id-ctest.log
  if ctest --test-dir build/mutants/$id -L gpu -R "$family|Relation" -j 8 --timeout 120 --output-on-failure >"$log" 2>&1; then
    survived=$((survived + 1))
    echo "mutant $id ($bug): SURVIVED"
  else
    caught=$((caught + 1))
    echo "mutant $id ($bug): caught by $(grep -c '(Failed)\|(Timeout)' "$log") of $(grep -c 'Test *#' "$log") tests"
  fi
done
echo "mutants caught: $caught of $((caught + survived))"
((survived == 0))
