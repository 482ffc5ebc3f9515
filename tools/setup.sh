#!/usr/bin/env bash
# Installs what warpconf's build needs and is missing, where it can: on Debian or Ubuntu with apt-get,
# as root or through sudo. Where it cannot, it stops with one line naming what to install (exit
# status 2). With everything present it only looks (PATH, one dpkg-query): tools/conformance.sh and
# tools/selftest.sh run it first. --fuzz: clang too, for the asan preset's libFuzzer runs (selftest).
# Where CMAKE_PREFIX_PATH is set, the libraries are looked for there by configure, which names the
# one that is missing. The CUDA Toolkit (nvcc 13) is not a distribution package: it must be installed.
set -euo pipefail
stop() {
  echo "setup.sh: $*" >&2
  exit 2
}
tools=(cmake:cmake ninja:ninja-build c++:g++)  # command:Debian package
libraries=(libgtest-dev libgmock-dev googletest librapidcheck-dev nlohmann-json3-dev libcli11-dev)
case "${1:-}" in
  "") ;;
  --fuzz) tools+=(clang++:clang) ;;
  *) stop "unknown argument '$1': tools/setup.sh [--fuzz]" ;;
esac
missing=()
for tool in "${tools[@]}"; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
debian=false
command -v dpkg-query >/dev/null && command -v apt-get >/dev/null && debian=true
if $debian && [ -z "${CMAKE_PREFIX_PATH:-}" ]; then
  installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${libraries[@]}" 2>/dev/null |
                awk '/ install ok installed$/ { print $1 }' || true)
  for p in "${libraries[@]}"; do
    grep -qx "$p" <<<"$installed" || missing+=("$p")
  done
fi
if ((${#missing[@]})); then
  $debian || stop "missing ${missing[*]} (Debian's names): install them, then run this command again"
  # sudo only where it can ask for a password (a terminal) or needs none: never a hang in CI.
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null && { [ -t 0 ] || sudo -n true 2>/dev/null; }; then
    as_root=(sudo)
  else
    stop "missing ${missing[*]}: run 'apt-get install ${missing[*]}' as root, then this command again"
  fi
  echo "setup.sh: installing ${missing[*]}"
  { "${as_root[@]}" apt-get update -qq &&
      "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } ||
    stop "apt-get could not install ${missing[*]}: install them, then run this command again"
fi
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || stop "nvcc not found: install the CUDA Toolkit 13 (https://developer.nvidia.com/cuda-downloads)"
cmake_version=$(cmake --version | head -n1 | grep -oE '[0-9]+\.[0-9]+')
if [ "$(printf '%s\n3.24\n' "$cmake_version" | sort -V | head -n1)" != "3.24" ]; then
  stop "cmake $cmake_version is older than 3.24: install a newer CMake"
fi
