#!/usr/bin/env bash
# Measures the suite's power to catch bugs. Every planted bug of the families (each
# families/<family>/intrinsic_mutants.cuh and algorithm_mutants.cuh line `// mutant N: what it does`)
# runs against the GPU tests of its family, which must fail. One build tree (WARPCONF_MUTATION=ON)
# holds each family's device code once more per planted bug of its own, and the family's test
# binaries linked with it: a planted bug rebuilds its family's device code only.
# The baseline comes first: each family's unmutated binaries, run once. A mutant is caught only by a
# test (by its GoogleTest name, from the binary's XML report) that passes in the baseline and fails
# with the planted bug: a test that fails or skips without a plant catches nothing, and no other
# ending of a binary is a catch (a refused environment, a crash or signal, skipped tests, a timeout).
# Prints a line per unmutated binary (also into <dir>/logs/baseline.txt), then one per mutant as it
# finishes (also into <dir>/logs/verdicts.txt), then "mutants caught: K of N"; exits 1 unless every
# selected mutant was built and caught, 1 without running a mutant where the baseline cannot run or
# passes no test, 2 on a bad argument or an environment that the test binaries refuse.
# The program fuzzer's planted miscompiles are its twin: `ctest --preset planted` in the gpu build.
# Usage: tools/mutation.sh [--no-build] [--time-limit SECONDS] [MUTANT ...]   (default: every mutant)
#   --no-build    runs what the last run built, as its mutants.txt lists it
#   --time-limit  how long one test binary may run (default 600); one that runs longer is killed
#                 and catches nothing
# WARPCONF_MUTATION_DIR (default build/mutants) and CMAKE_CUDA_ARCHITECTURES (default native) change
# where and for which GPU the mutants are built.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
dir=${WARPCONF_MUTATION_DIR:-$PWD/build/mutants}
architectures=${CMAKE_CUDA_ARCHITECTURES:-native}
usage="usage: mutation.sh [--no-build] [--time-limit SECONDS] [MUTANT ...]"
build=1
time_limit=600
while (($#)) && [[ $1 == --* ]]; do
  case $1 in
    --no-build) build=0 ;;
    --time-limit)
      if ! [[ ${2:-} =~ ^[1-9][0-9]*$ ]]; then
        echo "mutation.sh: --time-limit takes a whole number of seconds above 0, not '${2:-}' ($usage)" >&2
        exit 2
      fi
      time_limit=$2
      shift ;;
    *)
      echo "mutation.sh: unknown option '$1' ($usage)" >&2
      exit 2 ;;
  esac
  shift
done
for id in "$@"; do
  if ! [[ $id =~ ^[0-9]+$ ]]; then
    echo "mutation.sh: '$id' is not a mutant number ($usage)" >&2
    exit 2
  fi
done
mkdir -p "$dir/logs"
if ((build)) && ! cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$architectures" \
  -DWARPCONF_MUTATION=ON -DWARPCONF_CUOBJDUMP=OFF >"$dir/logs/configure.log" 2>&1; then
  echo "mutation.sh: configure failed; see $dir/logs/configure.log" >&2
  exit 1
fi
# id|family|what it does|binary,binary|unmutated,unmutated (written by the configure step)
if [ ! -r "$dir/mutants.txt" ]; then
  echo "mutation.sh: no $dir/mutants.txt: nothing was configured there" >&2
  exit 2
fi

# The fields of a mutants.txt row into id, family, bug, binaries and unmutated (the mutant's binaries
# and the same without the planted bug), read from both ends: what a bug does may hold anything.
read_row() {
  local rest=${1#*|}
  id=${1%%|*}
  family=${rest%%|*}
  rest=${rest#*|}
  IFS=',' read -ra unmutated <<<"${rest##*|}"
  rest=${rest%|*}
  IFS=',' read -ra binaries <<<"${rest##*|}"
  bug=${rest%|*}
}

mapfile -t table <"$dir/mutants.txt"
wanted=("$@")
selected=()
for row in "${table[@]}"; do
  read_row "$row"
  if ! [[ $row =~ ^[0-9]+\|[^|]+\|.*\|[^|]+\|[^|]+$ ]] || ((${#binaries[@]} != ${#unmutated[@]})); then
    echo "mutation.sh: $dir/mutants.txt: '$row' is not id|family|what it does|binaries|unmutated binaries: run without --no-build" >&2
    exit 2
  fi
  if ((${#wanted[@]} == 0)) || [[ " ${wanted[*]} " == *" $id "* ]]; then selected+=("$row"); fi
done
if ((${#selected[@]} == 0)); then
  echo "mutation.sh: no planted bug numbered: ${*:-(the families plant none)}" >&2
  exit 2
fi
# The unmutated binaries of the selected mutants, each once: the baseline.
baseline_binaries=()
for row in "${selected[@]}"; do
  read_row "$row"
  for binary in "${unmutated[@]}"; do
    [[ " ${baseline_binaries[*]} " == *" $binary "* ]] || baseline_binaries+=("$binary")
  done
done
if ((build)); then
  targets=()
  for row in "${selected[@]}"; do
    read_row "$row"
    for binary in "${binaries[@]}"; do
      targets+=("$(basename "$binary")")
      rm -f "$binary"  # a binary of an earlier build must not stand in for one that no longer builds
    done
  done
  for binary in "${baseline_binaries[@]}"; do
    targets+=("$(basename "$binary")")
    rm -f "$binary"
  done
  # -k 0: a mutant that does not build is reported as such; the others still run.
  cmake --build "$dir" -j "$(nproc)" --target "${targets[@]}" -- -k 0 >"$dir/logs/build.log" 2>&1
fi

# The tests in a GoogleTest XML report, a line each, "pass", "fail" or "skip" and the test's full
# name (suite.test); a failure's text (CDATA) may hold any line, so it is stepped over.
test_outcomes() {
  awk '
    function last(text, part,   at, found) {
      found = 0
      while ((at = index(text, part)) > 0) { found += at; text = substr(text, at + 1) }
      return found
    }
    function attribute(line, key) {
      if (!match(line, " " key "=\"[^\"]*\"")) return ""
      return substr(line, RSTART + length(key) + 3, RLENGTH - length(key) - 4)
    }
    function finish() {
      if (name != "") print outcome, name
      name = ""
    }
    !in_text && /^ *<testcase / {
      finish()
      if (attribute($0, "status") == "run") {
        name = attribute($0, "classname") "." attribute($0, "name")
        outcome = attribute($0, "result") == "skipped" ? "skip" : "pass"
      }
      if ($0 ~ /\/>$/) finish()
    }
    !in_text && /^ *<failure / && name != "" { outcome = "fail" }
    !in_text && /^ *<\/testcase>/ { finish() }
    {
      opened = last($0, "<![CDATA["); closed = last($0, "]]>")
      if (opened > closed) in_text = 1
      else if (closed > opened) in_text = 0
    }
    END { finish() }
  ' "$1"
}

# Runs one binary's GPU suites under the time limit, its log, XML report and results named $2 in
# $dir/logs and $dir/results; returns its exit status.
run_binary() {
  rm -f "$dir/logs/$2.xml"
  WARPCONF_REQUIRE_GPU=1 WARPCONF_RESULTS="$dir/results/$2.jsonl" \
    timeout --kill-after=10 "$time_limit" "$1" --gtest_filter='*OnGpu*' --gtest_output="xml:$dir/logs/$2.xml" \
    >"$dir/logs/$2.log" 2>&1
}

# Why a binary's run (status $1, run named $2) told nothing of its tests, or "" where its tests are in
# its report: GoogleTest's statuses (0 passed, 1 a test failed, 77 a test skipped) with the report.
no_tests() {
  case $1 in
    0 | 1 | 77) [ -s "$dir/logs/$2.xml" ] || echo "exit $1 and no test report" ;;
    124 | 137) echo "timed out after $time_limit s" ;;
    2) echo "exit 2, the environment refused: $(head -n 1 "$dir/logs/$2.log")" ;;
    *) echo "exit $1" ;;
  esac
}

# "A, B, C and 2 more": the first names of a list, one a line on standard input.
first_names() {
  awk '{ if (NR <= 3) names = names (NR > 1 ? ", " : "") $0 } END { printf "%s", names; if (NR > 3) printf " and %d more", NR - 3 }'
}

# Runs one unmutated binary; prints its baseline line and keeps its tests in $dir/baseline/<name>.tests,
# or where it cannot run, why in $dir/baseline/<name>.unusable.
run_baseline() {
  local binary=$1 name why outcomes pass fail skip status
  name=$(basename "$binary")
  if [ ! -x "$binary" ]; then
    why="not built; see $dir/logs/build.log"
  else
    run_binary "$binary" "baseline-$name"
    status=$?
    why=$(no_tests $status "baseline-$name")
    outcomes=$(test_outcomes "$dir/logs/baseline-$name.xml" 2>/dev/null | LC_ALL=C sort)
  fi
  if [ -n "$why" ]; then
    echo "$why" >"$dir/baseline/$name.unusable"
    echo "baseline $name: cannot run: $why"
    return
  fi
  echo "$outcomes" >"$dir/baseline/$name.tests"
  pass=$(grep -c '^pass ' <<<"$outcomes")
  fail=$(grep -c '^fail ' <<<"$outcomes")
  skip=$(grep -c '^skip ' <<<"$outcomes")
  local line="baseline $name: $pass tests pass without a planted bug"
  if ((fail + skip > 0)); then
    line+="; $fail fail and $skip skip without one, which cannot catch anything: "
    line+=$(grep -v '^pass ' <<<"$outcomes" | cut -d' ' -f2- | first_names)
  fi
  echo "$line"
}

# Runs one mutant's binaries; prints its line.
run_mutant() {
  local id family bug binaries unmutated i binary name run status why failing passing
  local caught="" failing_anyway=0 ended="" timed_out="" skipped=0 unbuilt=0
  read_row "$1"
  for i in "${!binaries[@]}"; do
    binary=${binaries[i]}
    if [ ! -x "$binary" ]; then
      unbuilt=1
      continue
    fi
    name=$(basename "$binary")
    run="$id-$name"
    run_binary "$binary" "$run"
    status=$?
    why=$(no_tests $status "$run")
    if [[ $why == timed* ]]; then
      timed_out+=" $name"
    elif [ -n "$why" ]; then
      ended+=" $name ($why)"
    else
      ((status != 77)) || skipped=1
      failing=$(test_outcomes "$dir/logs/$run.xml" | sed -n 's/^fail //p' | LC_ALL=C sort)
      passing=$(sed -n 's/^pass //p' "$dir/baseline/$(basename "${unmutated[i]}").tests")
      # Caught by the tests of this binary that pass without the planted bug, and by no other.
      caught+=$(LC_ALL=C comm -12 <(echo "$failing") <(echo "$passing") | sed '/^$/d')$'\n'
      failing_anyway=$((failing_anyway + $(LC_ALL=C comm -23 <(echo "$failing") <(echo "$passing") | grep -c .)))
    fi
  done
  caught=$(sed '/^$/d' <<<"$caught")
  local also=""
  ((failing_anyway == 0)) || also+="; $failing_anyway failing tests fail without it too, not counted"
  local line="mutant $id [$family] ($bug):"
  if ((unbuilt)); then
    echo "$line build failed, not run, not caught; see $dir/logs/build.log"
  elif [ -n "$caught" ]; then
    [ -z "$timed_out" ] || also+="; timed out after $time_limit s:$timed_out"
    [ -z "$ended" ] || also+="; ended otherwise than by a failing test:$ended"
    echo "$line caught by $(grep -c . <<<"$caught") tests that pass without it: $(first_names <<<"$caught")$also"
  elif [ -n "$ended" ]; then
    echo "$line not caught: ended otherwise than by a failing test:$ended$also"
  elif [ -n "$timed_out" ]; then
    echo "$line timed out after $time_limit s:$timed_out; not counted as caught$also"
  elif ((skipped)); then
    echo "$line its tests were skipped, not caught$also; see $dir/logs/$id-*.log"
  else
    echo "$line SURVIVED$also"
  fi
}
export -f read_row test_outcomes run_binary no_tests first_names run_baseline run_mutant
export dir time_limit
rm -rf "$dir/baseline" && mkdir -p "$dir/baseline" "$dir/results"
printf '%s\n' "${baseline_binaries[@]}" | xargs -d '\n' -P 4 -I{} bash -c 'run_baseline "$1"' _ {} |
  LC_ALL=C sort | tee "$dir/logs/baseline.txt"
refused=$(cat "$dir"/baseline/*.unusable 2>/dev/null | grep -m 1 '^exit 2, the environment refused: ')
if [ -n "$refused" ]; then
  echo "mutation.sh: ${refused#exit 2, the environment refused: }" >&2
  exit 2
fi
if compgen -G "$dir/baseline/*.unusable" >/dev/null; then
  echo "mutation.sh: the baseline cannot run (see above), so nothing could be caught: no mutant was run" >&2
  exit 1
fi
if ! grep -q '^pass ' "$dir"/baseline/*.tests; then
  echo "mutation.sh: no test passes without a planted bug, so nothing could be caught: no mutant was run" >&2
  exit 1
fi
# Each line as its mutant finishes, kept in logs/verdicts.txt, so that a run cut short loses none.
verdicts="$dir/logs/verdicts.txt"
printf '%s\n' "${selected[@]}" | xargs -d '\n' -P 4 -I{} bash -c 'run_mutant "$1"' _ {} | tee "$verdicts"
caught=$(grep -c '): caught' "$verdicts")
echo "mutants caught: $caught of ${#selected[@]}"
((caught == ${#selected[@]}))
