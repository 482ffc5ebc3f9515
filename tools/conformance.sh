#!/usr/bin/env bash
# Builds warpconf for this machine's GPUs and runs the whole suite once, ctest spreading the GPU
# tests over every GPU of build/gpu/resources.json (each test runs on one of them); fails when a
# test fails or no GPU is found. Extra arguments go to ctest (for example -L gpu, or -R Shuffle).
# build/gpu/results/ receives, fresh each run: junit.xml and ctest.log (ctest's), results.jsonl (one
# record per check, after its process's device record: docs/results-schema.md) and gtest/
# (GoogleTest's XML, with each test's recorded counts). It installs what the build lacks first
# (tools/setup.sh), or stops with one line naming it (exit status 2).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
export PATH="$PATH:/usr/local/cuda/bin"
tools/setup.sh || exit $?
cmake --preset gpu >/dev/null && cmake --build --preset gpu || exit 1
spec=build/gpu/resources.json
jobs=()  # without a spec, the preset's
if [ -f "$spec" ]; then
  # As many tests at once as the spec has slots: WARPCONF_GPU_SLOTS on each GPU.
  jobs=(-j "$(grep -o '"slots": [0-9]*' "$spec" | awk '{ total += $2 } END { print total }')")
  echo "warpconf: $(grep -o '"id"' "$spec" | wc -l) GPU(s) in $spec, ${jobs[1]} tests at once"
else
  echo "warpconf: no GPU visible at configure, no $spec: the GPU tests fail (WARPCONF_REQUIRE_GPU=1)"
fi
results="$PWD/build/gpu/results"
rm -rf "$results"
mkdir -p "$results/gtest"
WARPCONF_RESULTS="$results/results.jsonl" WARPCONF_GTEST_XML="$results/gtest" \
  ctest --preset gpu "${jobs[@]}" --output-junit "$results/junit.xml" --output-log "$results/ctest.log" "$@"
status=$?
echo "warpconf: results: $results/ (junit.xml, ctest.log, results.jsonl, gtest/)"
exit $status
