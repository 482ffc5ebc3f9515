#!/usr/bin/env bash
# The bundle runs wherever it is copied, without the build or source tree: installs BUILD into a
# fresh folder, moves it, and from there runs warpconf explain, golden check against the bundle's
# goldens, suites of a conformance and a properties binary and golden.check through the bundle's
# ctest file, and warpconf run (whose report must land in the current directory); nothing may name the
# install prefix, and nothing may write into the bundle.
# Usage: bundle_relocates.sh CMAKE CTEST BUILD_DIR WORK_DIR
set -uo pipefail
cmake=$1 ctest=$2 build=$3 work=$4
fail() {
  echo "FAILED: $*"
  exit 1
}
rm -rf "$work" && mkdir -p "$work/run" || fail "cannot make $work"
installed="$work/installed" bundle="$work/moved"
"$cmake" --install "$build" --prefix "$installed" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install"; }
[ -f "$installed/warpconf-bundle.json" ] || fail "no warpconf-bundle.json in the bundle"
if grep -n -F -e "$installed" -e "$build" "$installed/tests/CTestTestfile.cmake" | head -3 | grep .; then
  fail "the bundle's CTestTestfile.cmake names the install prefix or the build tree"
fi
mv "$installed" "$bundle" || fail "cannot move the bundle"
find "$bundle" -type f -printf '%P %s %T@\n' | sort >"$work/before.txt"
cd "$work/run" || fail "cannot enter $work/run"

out=$("$bundle/bin/warpconf" explain shfl --type i32 --mask 0xffffffff --arg 2 --width 16 2>&1) ||
  fail "warpconf explain from the bundle: $out"
grep -qE "^ +31 +0x" <<<"$out" || fail "warpconf explain printed no lane 31: $out"

out=$("$bundle/bin/warpconf" golden check --family vote 2>&1) || fail "warpconf golden check from the bundle: $out"
checked=$(grep -c "^$bundle/golden/sm_[0-9]*: vote: pass" <<<"$out")
[ "$checked" -gt 0 ] || fail "golden check checked no golden of the bundle: $out"
if grep -v "^$bundle/" <<<"$out" | grep -q "/golden/"; then fail "golden check read goldens outside the bundle: $out"; fi

# ctest writes Testing/ into its --test-dir: a folder of its own names the bundle's tests, as warpconf run does.
mkdir -p "$work/ctest" && printf 'subdirs([==[%s/tests]==])\n' "$bundle" >"$work/ctest/CTestTestfile.cmake"
suites='^(ShuffleClassesModel|VoteLaws|golden\.check)$'
# TEST_TMPDIR: GoogleTest's scratch folder, apart from that of the same suites run by the build tree beside it.
mkdir -p "$work/tmp"
out=$(WARPCONF_RESULTS="$work/results.jsonl" TEST_TMPDIR="$work/tmp/" "$ctest" --test-dir "$work/ctest" -R "$suites" --output-on-failure 2>&1) ||
  fail "the bundle's tests through ctest: $out"
ran=$(grep -cE "Test +#[0-9]+: [A-Za-z.]+ \.+ +Passed" <<<"$out")
[ "$ran" -eq 3 ] || fail "3 suites of the bundle should have passed, $ran did: $out"
commands=$("$ctest" --test-dir "$work/ctest" -R "$suites" -N -V 2>&1 | grep "Test command:")
if grep -v -F "$bundle/" <<<"$commands" | grep -q .; then fail "a test command outside the bundle: $commands"; fi

# No GPU here: every GPU test fails (WARPCONF_REQUIRE_GPU=1), exit status 1; with one, it passes.
out=$("$bundle/bin/warpconf" run --budget quick -- -R '^ShuffleOnGpu$' 2>&1)
status=$?
[ "$status" -le 1 ] || fail "warpconf run from the bundle exited $status: $out"
grep -q '"name": "ShuffleOnGpu"' "$work/run/warpconf-report/report.json" 2>/dev/null ||
  fail "warpconf run wrote no report of ShuffleOnGpu into ./warpconf-report: $out"

find "$bundle" -type f -printf '%P %s %T@\n' | sort >"$work/after.txt"
diff "$work/before.txt" "$work/after.txt" >/dev/null || fail "the bundle changed while it ran: $(diff "$work/before.txt" "$work/after.txt")"
echo "bundle moved to $bundle: explain, golden check of vote ($checked architectures), $ran suites through its ctest file and warpconf run (exit $status) ran from it"
