#!/usr/bin/env bash
# tools/tests/expect_planted.cmake (program.caught.<kind> and program.planted.<kind>) on stand-ins for
# warpconf: a planted miscompile counts as caught only where the same programs, run first without the
# plant and under the same seed, agree with the oracle; a plant that is missed, or shrunk too little,
# fails; a skip without a GPU is passed on as SKIPPED.
# Usage: planted_verdicts.sh SOURCE_DIR WORK_DIR
set -uo pipefail
source_dir=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
# A stand-in `warpconf program` named $1 that exits $2 without a plant and $3 with one (caught where
# 0), its smallest failure shrunk from 9 statements to $4; it records its arguments in $1.calls and
# fails under WARPCONF_SOAK, which would draw it a seed (so programs) of its own.
stand_in() {
  cat >"$work/$1" <<STAND_IN
#!/usr/bin/env bash
echo "\$*" >>"$work/$1.calls"
[ -z "\${WARPCONF_SOAK:-}" ] || { echo "program 7: conformance failure under a seed of its own"; exit 1; }
if [[ " \$* " != *" --plant "* ]]; then
  echo "warpconf program: 300 programs on 3 paths"
  exit $2
fi
[ $3 = 77 ] || echo "planted hoist: $([ $3 = 0 ] && echo caught || echo MISSED) in 3 of 9 program runs with a site"
[[ " \$* " == *" --no-shrink "* ]] || echo "shrunk program 4 on sass from 9 to $4 statements in 3 rounds (20 candidates):"
exit $3
STAND_IN
  chmod +x "$work/$1"
}
stand_in agrees 0 0 2
stand_in disagrees 1 0 2
stand_in misses 0 1 2
stand_in no-gpu 77 77 2
stand_in shrinks-little 0 0 9
failures=0
# Runs expect_planted.cmake on the stand-in $2 as program.planted.hoist (shrunk) or program.caught.hoist
# ($1), and requires exit status $3 (0 passed, 1 failed), output matching $4 and the stand-in's calls $5.
expect() {
  local test=$1 cli=$2 want=$3 pattern=$4 calls=$5 planted out status
  planted=(-DPLANTED_ARGS=--no-shrink)
  [ "$test" = caught ] || planted=("-DPLANTED_ARGS=--shrink-limit;150" -DMAX_STATEMENTS=8)
  rm -f "$work/$cli.calls"
  out=$(cmake -DCLI="$work/$cli" -DPLANT=hoist "-DARGS=program;--count;300" "${planted[@]}" \
    -P "$source_dir/tools/tests/expect_planted.cmake" 2>&1)
  status=$?
  ((status == 0)) || status=1
  # CMake wraps a message's lines: the pattern is matched with every run of white space one space.
  if [ $status != "$want" ] || ! tr -s '\n ' '  ' <<<"$out" | grep -Eq -- "$pattern" || [ "$(cat "$work/$cli.calls")" != "$calls" ]; then
    echo "FAIL: $test on $cli: exit $status (want $want), calls $(cat "$work/$cli.calls"), output:" && echo "$out"
    failures=$((failures + 1))
  fi
}
both=$'program --count 300 --no-shrink\nprogram --count 300 --plant hoist --no-shrink'
shrunk=$'program --count 300 --no-shrink\nprogram --count 300 --plant hoist --shrink-limit 150'
expect caught agrees 0 'planted hoist: caught in 3 of 9 program runs with a site; without it the same programs agree' "$both"
expect planted agrees 0 'shrunk program 4 on sass from 9 to 2 statements' "$shrunk"
expect caught disagrees 1 'without the plant the same programs do not all agree with the oracle \(exit 1\)' \
  'program --count 300 --no-shrink'
expect planted disagrees 1 'without the plant the same programs do not all agree' 'program --count 300 --no-shrink'
expect caught misses 1 'want exit 0 and the plant caught; got exit 1' "$both"
expect caught no-gpu 0 'SKIPPED: ' 'program --count 300 --no-shrink'
expect planted shrinks-little 1 'from 9 to 9 statements: want fewer statements than before and at most 8' "$shrunk"
WARPCONF_SOAK=30 expect caught agrees 0 'caught in 3 of 9' "$both"
if ((failures)); then exit 1; fi
echo "expect_planted.cmake: 8 verdicts as expected"
