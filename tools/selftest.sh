#!/usr/bin/env bash
# Builds warpconf for one architecture and runs everything this machine can: the model, tool and
# harness tests for real, the GPU tests as Skipped where there is no GPU. This is what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
cmake --preset ci >/dev/null
cmake --build --preset ci
ctest --preset ci "$@"
