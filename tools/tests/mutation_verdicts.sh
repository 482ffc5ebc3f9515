#!/usr/bin/env bash
# tools/mutation.sh --no-build on a table of stand-in binaries: a failing test is a catch; a binary
# that passes is a survivor; a missing binary (a build that failed), skipped tests and a binary
# that outruns --time-limit are never catches; the script exits 1 unless every selected mutant was caught, 2 on a bad argument.
set -uo pipefail
source_dir=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
stand_in() {  # name, what it prints, exit status
  printf '#!/bin/sh\necho "%s"\nexit %s\n' "$2" "$3" >"$work/$1"
  chmod +x "$work/$1"
}
stand_in fails " 2 FAILED TESTS" 1
stand_in passes "[  PASSED  ] 5 tests." 0
stand_in skips "[  SKIPPED ] 5 tests" 77
stand_in aborts "Aborted" 134
printf '#!/bin/sh\nsleep 30\n' >"$work/hangs" && chmod +x "$work/hangs"
cat >"$work/mutants.txt" <<TABLE
1|stand-in|a caught bug|$work/fails
2|stand-in|a surviving bug|$work/passes,$work/fails-not
3|stand-in|a bug that does not build|$work/missing
4|stand-in|a bug whose tests skip|$work/skips
5|stand-in|a bug that aborts its binary|$work/aborts
6|stand-in|a bug caught by one of two binaries|$work/passes,$work/fails
7|stand-in|a bug whose test never ends|$work/hangs,$work/fails
TABLE
sed -i "s|,$work/fails-not||" "$work/mutants.txt"
failures=0
expect() {  # what, wanted exit status, regex the output must match, mutation.sh arguments...
  local what=$1 want=$2 pattern=$3 out status
  shift 3
  out=$(WARPCONF_MUTATION_DIR="$work" bash "$source_dir/tools/mutation.sh" "$@" 2>&1)
  status=$?
  if [ "$status" != "$want" ] || ! grep -Eq -- "$pattern" <<<"$out"; then
    echo "FAIL: $what: exit $status (want $want), output:" && echo "$out"
    failures=$((failures + 1))
  fi
}
expect "a failing test is a catch" 0 '^mutant 1 \[stand-in\] \(a caught bug\): caught by 2 failing tests in 1 binaries$' --no-build 1
expect "a passing binary survives" 1 '^mutant 2 .*: SURVIVED$' --no-build 2
expect "a build failure is not a catch" 1 '^mutant 3 .*: build failed, not run, not caught' --no-build 3
expect "skipped tests are not a catch" 1 '^mutant 4 .*: its tests were skipped, not caught' --no-build 4
expect "an aborted binary is named" 0 '^mutant 5 .*: caught: a test binary stopped abnormally: aborts exit 134$' --no-build 5
expect "one failing binary of two catches" 0 '^mutant 6 .*: caught by 2 failing tests in 2 binaries$' --no-build 6
expect "a binary that outruns the limit is not a catch" 1 \
  '^mutant 7 .*: timed out after 1 s: hangs; not counted as caught$' --no-build --time-limit 1 7
expect "the count is the sum" 1 '^mutants caught: 3 of 7$' --no-build --time-limit 1
expect "a number no family plants" 2 'no planted bug numbered: 99' --no-build 99
expect "a word is not a mutant" 2 "'x' is not a mutant number" --no-build x
expect "a time limit must be a number" 2 "--time-limit takes a whole number of seconds" --no-build --time-limit 0
if ((failures)); then exit 1; fi
echo "mutation.sh: 11 verdicts as expected"
