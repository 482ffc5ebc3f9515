#!/usr/bin/env bash
# tools/mutation.sh --no-build on tables of stand-in binaries that write GoogleTest's XML report. A
# mutant is caught only by a test that passes in its unmutated binary (the baseline) and fails with
# it: never by a test that fails without it, nor by a binary that is missing (a build that failed),
# skips, ends otherwise than by a failing test (a refused environment, a crash, no report) or outruns
# --time-limit. A baseline that cannot run, or passes no test, runs no mutant: the unmutated
# conformance_shuffle named as its own mutant where no GPU can be used, and WARPCONF_SEED=zz, which
# it refuses. Exit status 1 unless every selected mutant was caught, 2 on a bad argument.
# Usage: mutation_verdicts.sh SOURCE_DIR WORK_DIR CONFORMANCE_SHUFFLE
set -uo pipefail
source_dir=$1 work=$2 shuffle=$3
rm -rf "$work" && mkdir -p "$work"
# A stand-in test binary that exits with status $2 and reports the tests after it, each
# outcome:suite.test, where --gtest_output names a file: pass, fail, skip, or quote (a failure whose
# text holds XML of another failing test, which is no test of the report).
stand_in() {
  local name=$1 status=$2 test outcome suite case open
  shift 2
  {
    printf '#!/bin/sh\nfor arg; do case $arg in --gtest_output=xml:*) xml=${arg#*xml:} ;; esac; done\n'
    printf 'echo "stand-in %s"\n[ -z "$xml" ] || cat >"$xml" <<'"'XML'"'\n' "$name"
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo '<testsuites tests="1" name="AllTests">'
    for test in "$@"; do
      outcome=${test%%:*} suite=${test#*:}
      case=${suite#*.} suite=${suite%%.*}
      open="    <testcase name=\"$case\" file=\"x.cpp\" line=\"1\" status=\"run\" result=\"completed\" time=\"0\" classname=\"$suite\""
      case $outcome in
        pass) echo "$open />" ;;
        fail) printf '%s>\n      <failure message="lane 3" type=""><![CDATA[x.cpp:1\nlane 3: got 1]]></failure>\n    </testcase>\n' "$open" ;;
        skip) printf '%s>\n      <skipped message="no GPU"><![CDATA[no GPU]]></skipped>\n    </testcase>\n' "${open/completed/skipped}" ;;
        quote) printf '%s>\n      <failure message="x" type=""><![CDATA[the log:\n%s>\n      <failure message="x">\n    </testcase>]]></failure>\n    </testcase>\n' \
          "$open" "${open/name=\"$case\"/name=\"decoy\"}" ;;
      esac
    done
    echo '</testsuites>'
    echo 'XML'
    echo "exit $status"
  } >"$work/$name"
  chmod +x "$work/$name"
}
stand_in base 0 pass:S.a pass:S.b pass:S.c pass:S.decoy
stand_in base-fails-a 1 fail:S.a pass:S.b pass:S.c
stand_in fails 1 fail:S.a fail:S.b pass:S.c
stand_in fails-a 1 fail:S.a pass:S.b pass:S.c
stand_in passes 0 pass:S.a pass:S.b pass:S.c
stand_in skips 77 skip:S.a skip:S.b
stand_in quotes 1 quote:S.a pass:S.b
printf '#!/bin/sh\necho "Aborted"\nexit 134\n' >"$work/aborts"
printf '#!/bin/sh\necho "refuses: WARPCONF_SEED is refused" >&2\nexit 2\n' >"$work/refuses"
printf '#!/bin/sh\necho " 1 FAILED TEST"\nexit 1\n' >"$work/no-report"
printf '#!/bin/sh\nsleep 30\n' >"$work/hangs"
chmod +x "$work/aborts" "$work/refuses" "$work/no-report" "$work/hangs"
mkdir -p "$work/table"
cat >"$work/table/mutants.txt" <<TABLE
1|stand-in|a caught bug|$work/fails|$work/base
2|stand-in|a surviving bug|$work/passes|$work/base
3|stand-in|a bug that does not build|$work/missing|$work/base
4|stand-in|a bug whose tests skip|$work/skips|$work/base
5|stand-in|a bug that aborts its binary|$work/aborts|$work/base
6|stand-in|a bug caught by one of two binaries|$work/passes,$work/fails|$work/base,$work/base
7|stand-in|a bug whose test never ends|$work/hangs,$work/passes|$work/base,$work/base
8|stand-in|a bug whose failing test fails without it|$work/fails-a|$work/base-fails-a
9|stand-in|a bug whose failure quotes XML|$work/quotes|$work/base
10|stand-in|a bug | whose binary refuses its environment|$work/refuses|$work/base
11|stand-in|a bug whose binary fails with no report|$work/no-report|$work/base
12|stand-in|a bug caught beside a binary that never ends|$work/hangs,$work/fails|$work/base,$work/base
TABLE
failures=0
# Runs mutation.sh on the table in $1 and requires exit status $3 and output matching $4 ($2 names the case).
expect_in() {
  local table=$1 what=$2 want=$3 pattern=$4 out status
  shift 4
  out=$(WARPCONF_MUTATION_DIR="$table" bash "$source_dir/tools/mutation.sh" "$@" 2>&1)
  status=$?
  if [ "$status" != "$want" ] || ! grep -Eq -- "$pattern" <<<"$out"; then
    echo "FAIL: $what: exit $status (want $want), output:" && echo "$out"
    failures=$((failures + 1))
  fi
  last_out=$out
}
# As expect_in, and no mutant may have run.
expect_no_mutant_run() {
  expect_in "$@"
  if grep -q '^mutant' <<<"$last_out"; then
    echo "FAIL: $2: a mutant ran:" && echo "$last_out"
    failures=$((failures + 1))
  fi
}
expect() { expect_in "$work/table" "$@"; }
expect "the baseline's passes and failures" 1 \
  '^baseline base-fails-a: 2 tests pass without a planted bug; 1 fail and 0 skip without one, which cannot catch anything: S.a$' --no-build 8
expect "a test that passes without the bug and fails with it is a catch" 0 \
  '^mutant 1 \[stand-in\] \(a caught bug\): caught by 2 tests that pass without it: S.a, S.b$' --no-build 1
expect "a passing binary survives" 1 '^mutant 2 .*: SURVIVED$' --no-build 2
expect "a build failure is not a catch" 1 '^mutant 3 .*: build failed, not run, not caught' --no-build 3
expect "skipped tests are not a catch" 1 '^mutant 4 .*: its tests were skipped, not caught' --no-build 4
expect "an aborted binary is not a catch" 1 \
  '^mutant 5 .*: not caught: ended otherwise than by a failing test: aborts \(exit 134\)$' --no-build 5
expect "one failing binary of two catches" 0 '^mutant 6 .*: caught by 2 tests that pass without it: S.a, S.b$' --no-build 6
expect "a binary that outruns the limit is not a catch" 1 \
  '^mutant 7 .*: timed out after 1 s: hangs; not counted as caught$' --no-build --time-limit 1 7
expect "a test that fails without the bug is not a catch" 1 \
  '^mutant 8 .*: SURVIVED; 1 failing tests fail without it too, not counted$' --no-build 8
expect "a failure's text is no test" 0 '^mutant 9 .*: caught by 1 tests that pass without it: S.a$' --no-build 9
expect "a refused environment is not a catch" 1 \
  '^mutant 10 \[stand-in\] \(a bug \| whose binary refuses its environment\): not caught: ended otherwise than by a failing test: refuses \(exit 2, the environment refused: refuses: WARPCONF_SEED is refused\)$' \
  --no-build 10
expect "a failure without a report is not a catch" 1 \
  '^mutant 11 .*: not caught: ended otherwise than by a failing test: no-report \(exit 1 and no test report\)$' --no-build 11
expect "a test's failure catches beside a binary that never ends" 0 \
  '^mutant 12 .*: caught by 2 tests that pass without it: S.a, S.b; timed out after 1 s: hangs$' --no-build --time-limit 1 12
expect "the count is the sum" 1 '^mutants caught: 4 of 12$' --no-build --time-limit 1
expect "a number no family plants" 2 'no planted bug numbered: 99' --no-build 99
expect "a word is not a mutant" 2 "'x' is not a mutant number" --no-build x
expect "a time limit must be a number" 2 "--time-limit takes a whole number of seconds" --no-build --time-limit 0

# Baselines that run no mutant.
mkdir -p "$work/unusable" "$work/unmutated" "$work/old"
cat >"$work/unusable/mutants.txt" <<TABLE
1|stand-in|a bug|$work/fails|$work/aborts
2|stand-in|a bug|$work/fails|$work/missing
TABLE
expect_no_mutant_run "$work/unusable" "an unmutated binary that aborts" 1 '^baseline aborts: cannot run: exit 134$' --no-build 1
expect_no_mutant_run "$work/unusable" "an unmutated binary that did not build" 1 \
  "^mutation.sh: the baseline cannot run \(see above\), so nothing could be caught: no mutant was run$" --no-build 2
echo "1|shuffle|the unmutated binary as its own mutant|$shuffle|$shuffle" >"$work/unmutated/mutants.txt"
CUDA_VISIBLE_DEVICES=-1 expect_no_mutant_run "$work/unmutated" "the unmutated binary without a GPU" 1 \
  '^mutation.sh: no test passes without a planted bug, so nothing could be caught: no mutant was run$' --no-build
WARPCONF_SEED=zz expect_no_mutant_run "$work/unmutated" "an environment the binaries refuse" 2 \
  "^mutation.sh: conformance_shuffle: WARPCONF_SEED='zz' is refused" --no-build
echo "1|stand-in|a bug|$work/fails" >"$work/old/mutants.txt"
expect_no_mutant_run "$work/old" "a table without the unmutated binaries" 2 'is not id\|family\|what it does\|binaries\|unmutated binaries' --no-build
if ((failures)); then exit 1; fi
echo "mutation.sh: 22 verdicts as expected"
