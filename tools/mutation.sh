#!/usr/bin/env bash
# Measures the suite's power to catch bugs: builds it against fixtures/intrinsics/mutants.cuh once
# per planted bug and runs the GPU tests, which must fail. Prints one line per mutant and a total;
# exits 1 when a mutant survives. Usage: tools/mutation.sh [first last] [ctest args...]
set -uo pipefail
cd "$(dirname "$0")/.."
first=${1:-1}
last=${2:-6}
shift $(($# >= 2 ? 2 : $#))
build=build/mutants
caught=0
survived=()
for ((m = first; m <= last; ++m)); do
  cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DWARPCONF_INTRINSICS_HEADER="$PWD/fixtures/intrinsics/mutants.cuh" -DWARPCONF_MUTANT=$m >/dev/null &&
    cmake --build $build >/dev/null || { echo "mutant $m: build failed"; exit 2; }
  if ctest --test-dir $build -L gpu -j 8 --timeout 120 "$@" >$build/mutant-$m.log 2>&1; then
    survived+=("$m")
    echo "mutant $m: SURVIVED (no GPU test failed)"
  else
    caught=$((caught + 1))
    echo "mutant $m: caught by $(grep -c '(Failed)' $build/mutant-$m.log) tests, e.g. $(grep -m1 '(Failed)' $build/mutant-$m.log | sed 's/^ *//')"
  fi
done
echo "mutants caught: $caught of $((last - first + 1))"
((${#survived[@]} == 0))
