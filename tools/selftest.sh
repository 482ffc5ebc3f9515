#!/usr/bin/env bash
# Builds warpconf and runs everything this machine can: the model, tool and harness tests for real,
# the GPU tests as Skipped where there is no GPU. Two builds: the ci preset (sm_75 code and compute_75
# PTX, warnings as errors) and the model preset, which needs no CUDA toolkit and, where clang is
# installed, also runs each reader's libFuzzer target for a few seconds. This is what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
cmake --preset ci >/dev/null
cmake --build --preset ci
ctest --preset ci "$@"
cmake --preset model >/dev/null
cmake --build --preset model
ctest --preset model "$@"
