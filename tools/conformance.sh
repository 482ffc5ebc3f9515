#!/usr/bin/env bash
# Builds warpconf for this machine's GPUs and runs the whole suite on each of them, failing when a
# GPU is missing. Extra arguments go to ctest (for example -L gpu, or -R Shuffle).
# Per GPU N, build/gpu/results/device-N/ receives, fresh each run: junit.xml and ctest.log (ctest's),
# results.jsonl (one record per check, docs/results-schema.md) and gtest/ (GoogleTest's XML, with
# each test's recorded counts).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
cmake --preset gpu >/dev/null && cmake --build --preset gpu || exit 1
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  gpus=$(tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -c .)
else
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
fi
((gpus > 0)) || gpus=1  # still run once: the GPU tests then fail and say why
status=0
for ((device = 0; device < gpus; ++device)); do
  results="$PWD/build/gpu/results/device-$device"
  rm -rf "$results"
  mkdir -p "$results/gtest"
  WARPCONF_DEVICE=$device WARPCONF_RESULTS="$results/results.jsonl" WARPCONF_GTEST_XML="$results/gtest" \
    ctest --preset gpu --output-junit "$results/junit.xml" --output-log "$results/ctest.log" "$@" || status=1
  echo "warpconf: device $device results: $results/ (junit.xml, ctest.log, results.jsonl, gtest/)"
done
exit $status
