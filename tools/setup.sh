#!/usr/bin/env bash
# Installs what warpconf's build needs and is missing, where it can: on Debian or Ubuntu with apt-get,
# as root or through sudo. Where it cannot, it stops with one line naming what to install (exit
# status 2). With everything present it only looks (PATH, one dpkg-query): tools/conformance.sh and
# tools/selftest.sh run it first. --selftest: also clang, for the asan preset's libFuzzer runs, and
# Slurm's daemons for the slurm test's one-node cluster (Debian only: elsewhere that test skips).
# Where CMAKE_PREFIX_PATH is set, the libraries are looked for there by configure, which names the
# one that is missing. The CUDA Toolkit (nvcc 13) is not a distribution package: it must be installed.
set -euo pipefail
stop() {
  echo "setup.sh: $*" >&2
  exit 2
}
tools=(cmake:cmake ninja:ninja-build c++:g++)  # command:Debian package
libraries=(libgtest-dev libgmock-dev googletest librapidcheck-dev nlohmann-json3-dev libcli11-dev)
# Without the dozens of plugins Slurm recommends: the test's cluster needs none of them.
slurm=()
case "${1:-}" in
  "") ;;
  --selftest) tools+=(clang++:clang) slurm=(slurmctld slurmd munge) ;;
  *) stop "unknown argument '$1': tools/setup.sh [--selftest]" ;;
esac
missing=()
for tool in "${tools[@]}"; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
debian=false
command -v dpkg-query >/dev/null && command -v apt-get >/dev/null && debian=true
# The Debian packages named that are not installed, one per line: one dpkg-query for them all.
not_installed() {
  local installed p
  installed=$(dpkg-query -W -f='${Package} ${Status}\n' "$@" 2>/dev/null |
                awk '/ install ok installed$/ { print $1 }' || true)
  for p in "$@"; do
    grep -qx "$p" <<<"$installed" || echo "$p"
  done
}
if $debian && [ -z "${CMAKE_PREFIX_PATH:-}" ]; then
  mapfile -t -O ${#missing[@]} missing < <(not_installed "${libraries[@]}")
fi
missing_slurm=()
if $debian && ((${#slurm[@]})); then
  mapfile -t missing_slurm < <(not_installed "${slurm[@]}")
fi
if ((${#missing[@]} + ${#missing_slurm[@]})); then
  $debian || stop "missing ${missing[*]} (Debian's names): install them, then run this command again"
  # sudo only where it can ask for a password (a terminal) or needs none: never a hang in CI.
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null && { [ -t 0 ] || sudo -n true 2>/dev/null; }; then
    as_root=(sudo)
  elif ((${#missing[@]})); then
    stop "missing ${missing[*]}: run 'apt-get install ${missing[*]}' as root, then this command again"
  else
    echo "setup.sh: not installing ${missing_slurm[*]} (not root, no sudo): the slurm test will report Skipped"
    missing_slurm=()
  fi
fi
if ((${#missing[@]} + ${#missing_slurm[@]})); then
  all=("${missing[@]}" "${missing_slurm[@]}")
  echo "setup.sh: installing ${all[*]}"
  "${as_root[@]}" apt-get update -qq || stop "apt-get update failed: install ${all[*]}, then run this command again"
  if ((${#missing[@]})); then
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" ||
      stop "apt-get could not install ${missing[*]}: install them, then run this command again"
  fi
  if ((${#missing_slurm[@]})); then
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing_slurm[@]}" ||
      stop "apt-get could not install ${missing_slurm[*]}: install them, then run this command again"
  fi
fi
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || stop "nvcc not found: install the CUDA Toolkit 13 (https://developer.nvidia.com/cuda-downloads)"
cmake_version=$(cmake --version | head -n1 | grep -oE '[0-9]+\.[0-9]+')
if [ "$(printf '%s\n3.24\n' "$cmake_version" | sort -V | head -n1)" != "3.24" ]; then
  stop "cmake $cmake_version is older than 3.24: install a newer CMake"
fi
