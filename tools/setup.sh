#!/usr/bin/env bash
# Installs what warpconf's build needs and is missing, where it can: on Debian or Ubuntu with apt-get,
# as root or through sudo. Where it cannot, it stops with one line naming what to install (exit
# status 2). With everything present it only looks (PATH, one dpkg-query): tools/conformance.sh and
# tools/selftest.sh run it first. --selftest: also clang, for the asan preset's libFuzzer runs,
# Chromium, which report.renders_in_chromium opens the HTML report in (headless), promtool (Debian's
# prometheus), which checks the screen's metrics file (tool_tests' ScreenPrometheus), and Slurm's daemons
# for the slurm test's one-node cluster (Debian only: elsewhere that test skips).
# Where CMAKE_PREFIX_PATH is set, the libraries are looked for there by configure, which names the
# one that is missing. The CUDA Toolkit (nvcc 13) is not a distribution package: it must be installed.
set -euo pipefail
stop() {
  echo "setup.sh: $*" >&2
  exit 2
}
tools=(cmake:cmake ninja:ninja-build c++:g++)  # command:Debian package
# Installed without what they recommend: Chromium's desktop helpers and the dozens of plugins Slurm
# recommends, which no test uses (a font comes with Chromium's fontconfig all the same).
lean_tools=()
libraries=(libgtest-dev libgmock-dev googletest librapidcheck-dev nlohmann-json3-dev libcli11-dev)
slurm=()
case "${1:-}" in
  "") ;;
  --selftest) tools+=(clang++:clang) lean_tools=(chromium:chromium promtool:prometheus) slurm=(slurmctld slurmd munge) ;;
  *) stop "unknown argument '$1': tools/setup.sh [--selftest]" ;;
esac
missing=() missing_lean=()
for tool in "${tools[@]}"; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
for tool in "${lean_tools[@]}"; do
  command -v "${tool%%:*}" >/dev/null || missing_lean+=("${tool#*:}")
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
# What must be installed (the lean ones without their recommends), and Slurm, which may be left out.
required=("${missing[@]}" "${missing_lean[@]}")
if ((${#required[@]} + ${#missing_slurm[@]})); then
  $debian || stop "missing ${required[*]} (Debian's names): install them, then run this command again"
  # sudo only where it can ask for a password (a terminal) or needs none: never a hang in CI.
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null && { [ -t 0 ] || sudo -n true 2>/dev/null; }; then
    as_root=(sudo)
  elif ((${#required[@]})); then
    stop "missing ${required[*]}: run 'apt-get install ${required[*]}' as root, then this command again"
  else
    echo "setup.sh: not installing ${missing_slurm[*]} (not root, no sudo): the slurm test will report Skipped"
    missing_slurm=()
  fi
fi
lean=("${missing_lean[@]}" "${missing_slurm[@]}")
if ((${#missing[@]} + ${#lean[@]})); then
  all=("${missing[@]}" "${lean[@]}")
  echo "setup.sh: installing ${all[*]}"
  "${as_root[@]}" apt-get update -qq || stop "apt-get update failed: install ${all[*]}, then run this command again"
  if ((${#missing[@]})); then
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" ||
      stop "apt-get could not install ${missing[*]}: install them, then run this command again"
  fi
  if ((${#lean[@]})); then
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${lean[@]}" ||
      stop "apt-get could not install ${lean[*]}: install them, then run this command again"
  fi
fi
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || stop "nvcc not found: install the CUDA Toolkit 13 (https://developer.nvidia.com/cuda-downloads)"
cmake_version=$(cmake --version | head -n1 | grep -oE '[0-9]+\.[0-9]+')
if [ "$(printf '%s\n3.24\n' "$cmake_version" | sort -V | head -n1)" != "3.24" ]; then
  stop "cmake $cmake_version is older than 3.24: install a newer CMake"
fi
