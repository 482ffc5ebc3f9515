#!/usr/bin/env bash
# Builds warpconf for this machine's GPUs and runs the whole suite on each of them, failing when a
# GPU is missing. Extra arguments go to ctest (for example -L gpu, or -R Shuffle).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
cmake --preset gpu >/dev/null && cmake --build --preset gpu || exit 1
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  gpus=$(tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -c .)
else
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
fi
((gpus > 0)) || gpus=1  # still run once: device.present then fails and says why
status=0
for ((device = 0; device < gpus; ++device)); do
  results="$PWD/build/gpu/results/device-$device"
  mkdir -p "$results"
  WARPCONF_DEVICE=$device ctest --preset gpu --output-junit "$results/junit.xml" --output-log "$results/ctest.log" "$@" ||
    status=1
  echo "warpconf: device $device results: $results/junit.xml and $results/ctest.log"
done
exit $status
