#!/usr/bin/env bash
# Builds warpconf and runs everything this machine can: the model, tool and harness tests for real,
# the GPU tests as Skipped where there is no GPU. Two builds: the ci preset (compute_75 PTX alone,
# unoptimised; the C++ at -O1; warnings as errors) and the asan preset: the model preset's build
# without a CUDA toolkit, under AddressSanitizer and UndefinedBehaviorSanitizer, which stands in for
# the model preset here to keep CI short. The asan preset alone builds the fuzz targets: it replays each
# reader's seeds and their mutations, and where clang is installed runs its libFuzzer target for a
# few seconds. The ci preset builds with Ninja, the asan preset with Unix Makefiles (CMake's default
# generator), so that both generators build the suite. This is what CI runs. It installs what the
# build lacks first, clang, Chromium and Slurm included (tools/setup.sh --selftest), or stops with
# one line naming it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
tools/setup.sh --selftest
cmake --preset ci >/dev/null
cmake --build --preset ci
ctest --preset ci "$@"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)"  # make builds one target at a time unless told
ctest --preset asan "$@"
