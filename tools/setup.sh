#!/usr/bin/env bash
# Installs what warpconf needs on Debian/Ubuntu and is missing; safe to run again.
# The CUDA Toolkit (nvcc 13) is not a distribution package: it must already be installed.
set -euo pipefail
packages=(cmake ninja-build g++ clang libgtest-dev libgmock-dev googletest librapidcheck-dev nlohmann-json3-dev libcli11-dev)
# The slurm test's one-node cluster (tools/slurm/tests), without the dozens of plugins Slurm recommends.
slurm_packages=(slurmctld slurmd munge)
missing=() missing_slurm=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
for p in "${slurm_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing_slurm+=("$p")
done
if ((${#missing[@]} + ${#missing_slurm[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  if ((${#missing[@]})); then DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"; fi
  if ((${#missing_slurm[@]})); then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing_slurm[@]}"
  fi
fi
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ ! -x "$nvcc" ]; then
  echo "setup.sh: nvcc not found: install the CUDA Toolkit 13 (https://developer.nvidia.com/cuda-downloads)" >&2
  exit 2
fi
cmake_version=$(cmake --version | head -n1 | grep -oE '[0-9]+\.[0-9]+')
if [ "$(printf '%s\n3.24\n' "$cmake_version" | sort -V | head -n1)" != "3.24" ]; then
  echo "setup.sh: cmake $cmake_version is older than 3.24: install a newer CMake" >&2
  exit 2
fi
echo "setup.sh: ready (nvcc: $nvcc)"
