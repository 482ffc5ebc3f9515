#!/usr/bin/env bash
# Measures the suite's power to catch bugs. Builds the suite once per planted bug of
# fixtures/intrinsics/mutants.cuh and fixtures/algorithms/mutants.cuh (four builds at a time), then
# runs the GPU tests of the mutated family, which must fail. A mutant whose build fails is reported as such and is not caught.
# Prints one line per mutant and "mutants caught: K of N"; exits 1 unless every mutant was built
# and caught.
# Usage: tools/mutation.sh [MUTANT ...]   (default: every mutant)
# WARPCONF_MUTATION_DIR (default build/mutants), WARPCONF_MUTATION_HEADER (default
# fixtures/intrinsics/mutants.cuh), WARPCONF_MUTATION_ALGORITHMS_HEADER (default
# fixtures/algorithms/mutants.cuh) and CMAKE_CUDA_ARCHITECTURES (default native) change where,
# against what and for which GPU the mutants are built.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
dir=${WARPCONF_MUTATION_DIR:-$PWD/build/mutants}
header=${WARPCONF_MUTATION_HEADER:-$PWD/fixtures/intrinsics/mutants.cuh}
algorithms_header=${WARPCONF_MUTATION_ALGORITHMS_HEADER:-$PWD/fixtures/algorithms/mutants.cuh}
architectures=${CMAKE_CUDA_ARCHITECTURES:-native}
# mutant id | the GPU tests that must catch it (a ctest regex) | the bug
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
  "17|Vote|any_sync ignores the predicates of lanes 16-31"
  "18|Reduce|reduce_add_sync(unsigned) saturates at UINT_MAX"
  "19|Reduce|reduce_and_sync is reduce_min_sync"
  "20|Reduce|reduce_or_sync is reduce_max_sync"
  "21|Reduce|reduce_xor_sync adds with carries"
  "22|Shuffle|shfl_up_sync moves __half and __nv_bfloat16 through float"
  "23|Shuffle|shfl_down_sync moves only the low half of __half2 and __nv_bfloat162"
  "24|Shuffle|shfl_sync adds 0 to float and double: -0 becomes +0"
  "25|Match|match_any_sync compares float and double by value: -0 matches +0"
  "26|Algorithm|reduce_butterfly stops a step short"
  "27|Algorithm|inclusive_scan combines op(value, lower), its own partial first"
  "28|Algorithm|reduce_down shuffles up"
  "29|Algorithm|reduce folds its participants in descending lane order"
  "30|BlockAlgorithm|block_reduce reduces a partial last warp with the full mask"
  "31|BlockAlgorithm|block_reduce counts warps as threads / 32, dropping a partial last warp"
  "32|Pattern|compact counts the lanes below with lanemask_le: every slot one too far"
  "33|Pattern|histogram takes __ffs as 0-based: the group's second lane adds"
  "34|Pattern|segmented_reduce: a head closes the segment below it instead of opening its own"
  "35|Softmax|softmax_online starts its max at -inf with no guard: a lane whose items begin with -inf makes -inf - -inf"
  "36|Softmax|softmax_two_pass leaves the running sum unrescaled when a chunk raises the max"
)
wanted=("$@")
selected=()
for row in "${table[@]}"; do
  id=${row%%|*}
  if ((${#wanted[@]} == 0)) || [[ " ${wanted[*]} " == *" $id "* ]]; then selected+=("$row"); fi
done
if ((${#selected[@]} == 0)); then
  echo "mutation.sh: no mutant among: $*" >&2
  exit 2
fi
# The test binaries with GPU suites that use the seams (the CG tests do not); no SASS-check build.
targets="conformance_shuffle conformance_vote conformance_match conformance_reduce conformance_fns
         conformance_syncwarp conformance_relation conformance_algorithm properties_shuffle properties_vote
         properties_match properties_reduce properties_algorithm conformance_pattern properties_pattern
         conformance_block properties_block conformance_softmax properties_softmax"
build() {
  local id=$1 tree=$dir/$1
  rm -f "$tree.built"
  cmake -S . -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$architectures" \
    -DWARPCONF_INTRINSICS_HEADER="$header" -DWARPCONF_ALGORITHMS_HEADER="$algorithms_header" -DWARPCONF_MUTANT="$id" \
    -DWARPCONF_CUOBJDUMP=OFF >"$tree.log" 2>&1 &&
    # shellcheck disable=SC2086 # one target a word
    cmake --build "$tree" -j 4 --target $targets >>"$tree.log" 2>&1 && touch "$tree.built"
}
export -f build
export dir header algorithms_header architectures targets
mkdir -p "$dir"
printf '%s\n' "${selected[@]}" | cut -d'|' -f1 | xargs -P 4 -I{} bash -c 'build {}'
caught=0 survived=0 unbuilt=0
for row in "${selected[@]}"; do
  IFS='|' read -r id family bug <<<"$row"
  if [ ! -e "$dir/$id.built" ]; then
    unbuilt=$((unbuilt + 1))
    echo "mutant $id ($bug): build failed, not run, not caught; see $dir/$id.log"
    continue
  fi
  log=$dir/$id-ctest.log
  if ctest --test-dir "$dir/$id" -L gpu -R "$family|Relation" -j 8 --timeout 120 --output-on-failure >"$log" 2>&1; then
    survived=$((survived + 1))
    echo "mutant $id ($bug): SURVIVED"
  else
    caught=$((caught + 1))
    echo "mutant $id ($bug): caught by $(grep -c '(Failed)\|(Timeout)' "$log") of $(grep -c 'Test *#' "$log") test suites"
  fi
done
failed_builds=""
((unbuilt == 0)) || failed_builds=" ($unbuilt failed to build)"
echo "mutants caught: $caught of ${#selected[@]}$failed_builds"
((caught == ${#selected[@]}))
