#!/usr/bin/env bash
# tools/slurm without Slurm: `warpconf health` itself where no GPU can be used (one line, status 77,
# a report that says why, which `warpconf merge` takes alone); healthcheck.sh's line, status and
# drain (a stand-in scontrol records the call) for each way warpconf health can end, a line of none
# of its forms included, and its guard (a stand-in timeout records it) for each --time-limit;
# fleet.sbatch's node folders, nodes.txt and exit status on stand-in nodes (stand-ins for srun,
# hostname, nvidia-smi and warpconf), and its refusals before it makes anything.
# Usage: scripts_test.sh WARPCONF SOURCE_DIR WORK_DIR
set -uo pipefail
warpconf=$1 source_dir=$2 work=$3
rm -rf "$work" && mkdir -p "$work/bin"
healthcheck=$source_dir/tools/slurm/healthcheck.sh
fleet=$source_dir/tools/slurm/fleet.sbatch
failures=0
fail() {
  echo "FAILED: $*"
  failures=$((failures + 1))
}
stand_in() {  # name, body
  printf '#!/usr/bin/env bash\n%s\n' "$2" >"$work/bin/$1"
  chmod +x "$work/bin/$1"
}
real_timeout=$(command -v timeout)
export PATH="$work/bin:$PATH"
stand_in scontrol "printf '%s|' \"\$@\" >>'$work/scontrol.calls'; echo >>'$work/scontrol.calls'"
stand_in timeout "echo \"\$*\" >>'$work/timeout.calls'; exec '$real_timeout' \"\$@\""

# --- warpconf health where no GPU can be used (CUDA_VISIBLE_DEVICES=-1 hides every GPU).
line=$(CUDA_VISIBLE_DEVICES=-1 "$warpconf" health --out "$work/health" 2>"$work/health.err")
status=$?
[ $status = 77 ] || fail "warpconf health: status $status, not 77"
[[ $line == "warpconf: could not test: "* && $line != *$'\n'* ]] || fail "warpconf health: line '$line'"
[ ! -s "$work/health.err" ] || fail "warpconf health wrote on stderr: $(cat "$work/health.err")"
grep -q '"cause": "could-not-test"' "$work/health/report.json" || fail "warpconf health: no could-not-test report"
summary=$("$warpconf" merge "$work/health" --out "$work/merged")
status=$?
[ $status = 0 ] || fail "warpconf merge of one could-not-test report: status $status"
[[ $summary == "ABORTED ($work/health: ${line#warpconf: }): no device;"* ]] || fail "merged summary: $summary"

# --- healthcheck.sh: its line, its status, and the drain it asks scontrol for.
# Runs healthcheck.sh with the arguments after `--` and requires status $1, a stdout of one line
# matching $2 and, with a third argument, a drain of node7 whose reason is that line.
# Status 2 must come with one line on stderr.
expect() {
  local want=$1 pattern=$2 drained=$3 out status
  shift 4
  rm -f "$work/scontrol.calls" "$work/timeout.calls"
  out=$(SLURMD_NODENAME=node7 CUDA_VISIBLE_DEVICES=-1 "$healthcheck" "$@" 2>"$work/healthcheck.err")
  status=$?
  [ $status = "$want" ] || fail "healthcheck.sh $*: status $status, not $want ($(cat "$work/healthcheck.err"))"
  [ "$want" != 2 ] || [ "$(wc -l <"$work/healthcheck.err")" = 1 ] ||
    fail "healthcheck.sh $*: not one line on stderr: $(cat "$work/healthcheck.err")"
  [[ $out =~ $pattern && $out != *$'\n'* ]] || fail "healthcheck.sh $*: '$out' does not match '$pattern'"
  if [ "$drained" = drained ]; then
    [ "$(cat "$work/scontrol.calls" 2>/dev/null)" = "update|nodename=node7|state=drain|reason=$out|" ] ||
      fail "healthcheck.sh $*: scontrol got '$(cat "$work/scontrol.calls" 2>/dev/null)'"
  elif [ -e "$work/scontrol.calls" ]; then
    fail "healthcheck.sh $*: drained: $(cat "$work/scontrol.calls")"
  fi
}
stand_in conforms 'echo "warpconf: conforms: NVIDIA H100 80GB HBM3: 48 tests: 48 passed"'
stand_in fails 'echo "warpconf: FAILED (ShuffleOnGpu): NVIDIA H100 80GB HBM3: 48 tests: 47 passed, 1 failed"; exit 1'
stand_in hangs 'sleep 30'
stand_in refuses 'echo "warpconf health: unknown budget '"'"'fast'"'"'" >&2; exit 2'
stand_in crashes 'echo "half a line"; kill -SEGV $$'
expect 77 '^warpconf: could not test: ' drained -- --drain "$warpconf" --out "$work/health"
expect 77 '^warpconf: could not test: ' kept -- "$warpconf" --out "$work/health"
expect 0 '^warpconf: conforms: ' kept -- --drain "$work/bin/conforms"
expect 1 '^warpconf: FAILED \(ShuffleOnGpu\): ' drained -- --drain "$work/bin/fails"
expect 77 '^warpconf: could not test: warpconf health did not end within 6 s$' drained -- --drain "$work/bin/hangs" --time-limit 1
expect 77 '^warpconf: could not test: warpconf health ended with status 139 and printed no verdict: half a line$' drained -- --drain "$work/bin/crashes"
expect 77 "^warpconf: could not test: no warpconf at $work/none\$" drained -- --drain "$work/none"
expect 2 '^$' kept -- --drain "$work/bin/refuses"
expect 2 '^$' kept -- --drain
# The configuration's faults drain nothing: a folder or a file that cannot run as WARPCONF, an option
# where WARPCONF goes.
touch "$work/not-executable"
expect 2 '^$' kept -- --drain "$work/bin"
expect 2 '^$' kept -- --drain "$work/not-executable"
expect 2 '^$' kept -- --drain --drain "$work/bin/conforms"
# Only health's own verdicts count: any other line (or none), or a status that does not go with the
# line, could not test, and drains with a reason (Slurm refuses an empty one).
expect 77 '^warpconf: could not test: warpconf health ended with status 0 and printed nothing$' drained -- --drain /bin/true
expect 77 '^warpconf: could not test: warpconf health ended with status 1 and printed nothing$' drained -- --drain /bin/false
stand_in says "cat '$work/said'; exit \$(cat '$work/said.status')"
while IFS='|' read -r said_status said verdict; do
  printf '%b\n' "$said" >"$work/said" && echo "$said_status" >"$work/said.status"
  if [ "$verdict" = verdict ]; then
    pattern="^$(sed 's/[][\.*^$(){}?+|/]/\\&/g' <<<"$said")\$"
    expect "$said_status" "$pattern" "$([ "$said_status" = 0 ] && echo kept || echo drained)" -- --drain "$work/bin/says"
  else
    first=$(printf '%b' "$said" | head -n 1 | sed 's/[][\.*^$(){}?+|/]/\\&/g')
    expect 77 "^warpconf: could not test: warpconf health ended with status $said_status and printed no verdict: $first\$" \
      drained -- --drain "$work/bin/says"
  fi
done <<'LINES'
0|warpconf: conforms: NVIDIA H100: 48 tests: 48 passed|verdict
1|warpconf: FAILED: NVIDIA H100: 48 tests: 47 passed, 1 failed|verdict
1|warpconf: FAILED (A.b, C.d and 2 more): NVIDIA H100: 48 tests|verdict
77|warpconf: could not test: no CUDA device|verdict
0|all fine|none
0|warpconf: FAILED (ShuffleOnGpu): NVIDIA H100|none
1|warpconf: conforms: NVIDIA H100|none
77|warpconf: conforms: NVIDIA H100|none
0|warpconf: could not test: no CUDA device|none
0|warpconf: conforms: |none
1|warpconf: FAILED|none
0|warpconf: conforms: NVIDIA H100\nand a second line|none
0|  warpconf: conforms: NVIDIA H100|none
LINES
# The guard is health's time limit (read as warpconf health reads it: decimal seconds) plus 5 s.
timeout_of() {  # the timeout healthcheck.sh started warpconf under, or "none"
  cat "$work/timeout.calls" 2>/dev/null | cut -d' ' -f1-3 || true
}
while IFS='|' read -r given guard; do
  expect 0 '^warpconf: conforms: ' kept -- "$work/bin/conforms" $given
  [ "$(timeout_of)" = "${guard/none/}" ] || fail "healthcheck.sh with $given: guard '$(timeout_of)', not '$guard'"
done <<'LIMITS'
--time-limit=50|-k 2 55
--time-limit 08|-k 2 13
--time-limit 010|-k 2 15
--time-limit=0.5|-k 2 5.5
--budget quick --time-limit 7.25|-k 2 12.25
--time-limit 0|none
--time-limit 0.000|none
LIMITS
expect 0 '^warpconf: conforms: ' kept -- "$work/bin/conforms"
[ "$(timeout_of)" = "-k 2 55" ] || fail "healthcheck.sh without --time-limit: guard '$(timeout_of)', not 55 s"
for bad in '' 08x 1e3 -5 0x10 '5 ' 1000000000000.5 99999999999999999999; do
  expect 2 '^$' kept -- --drain "$work/bin/conforms" --time-limit "$bad"
done
expect 2 '^$' kept -- --drain "$work/bin/conforms" --time-limit

# --- fleet.sbatch reads a node's line with the same is_verdict as healthcheck.sh (the table above).
verdict_reader() { sed -n '/^is_verdict() {$/,/^}$/p' "$1"; }
[ -n "$(verdict_reader "$healthcheck")" ] && [ "$(verdict_reader "$healthcheck")" = "$(verdict_reader "$fleet")" ] ||
  fail "healthcheck.sh and fleet.sbatch read health's line differently"

# --- fleet.sbatch on stand-in nodes: srun runs the task once per name in $NODES (HOST being the
# name), hostname prints HOST, nvidia-smi lists the GPUs of the nodes named gpu* (two on gpu2), and
# warpconf health's verdict is the node's name: good, bad or nogpu (a line of no verdict's form on
# one named liar); a node named silent gives none, nor does any where SRUN_FAILS is set.
stand_in srun '[ -z "${SRUN_FAILS:-}" ] || { echo "srun: error: Unable to allocate resources" >&2; exit 1; }
while [[ $1 == --* ]]; do shift; done
for host in $NODES; do [ "$host" = silent ] || HOST=$host "$@"; done'
stand_in hostname 'echo "$HOST"'
stand_in nvidia-smi 'case $HOST in gpu2*) printf "GPU-%s-0\nGPU-%s-1\n" "$HOST" "$HOST" ;; gpu*) echo "GPU-$HOST-0" ;; *) exit 9 ;; esac'
stand_in fleet-warpconf "if [ \"\$1\" = merge ]; then printf '%s|' \"\$@\" >'$work/merge.args'; exit \${MERGE_STATUS:-0}; fi
args=\"\$*\"
while [ \$# -gt 0 ] && [ \"\$1\" != --out ]; do shift; done
echo '{}' >\"\$2/report.json\"
echo \"\$args\" >\"\$2/args\"
case \$HOST in
  *good) echo 'warpconf: conforms: fine' ;;
  *bad) echo 'warpconf: FAILED (ShuffleOnGpu): wrong' && exit 1 ;;
  *liar) echo 'all fine' ;;
  *) echo 'warpconf: could not test: no CUDA device' && exit 77 ;;
esac"
fleet_run() {  # wanted status, nodes, arguments...
  local want=$1 status
  export NODES=$2 SLURM_JOB_NUM_NODES
  SLURM_JOB_NUM_NODES=$(wc -w <<<"$2")
  shift 2
  rm -rf "$work/fleet" "$work/merge.args"
  "$fleet" "$@" >"$work/fleet.out" 2>&1
  status=$?
  [ $status = "$want" ] || fail "fleet.sbatch on $NODES: status $status, not $want: $(cat "$work/fleet.out")"
}
fleet_run 0 "gpu1good gpu2good" "$work/bin/fleet-warpconf" "$work/fleet" quick
[ "$(ls "$work/fleet/nodes")" = $'gpu1good_GPU-gpu1good-0\ngpu2good_GPU-gpu2good-0_2gpus' ] ||
  fail "node folders: $(ls "$work/fleet/nodes")"
[ "$(cat "$work/merge.args")" = "merge|$work/fleet/nodes/gpu1good_GPU-gpu1good-0|$work/fleet/nodes/gpu2good_GPU-gpu2good-0_2gpus|--out|$work/fleet/fleet|" ] ||
  fail "merge got $(cat "$work/merge.args")"
grep -qx "warpconf fleet: 2 nodes: 2 conform, 0 failed, 0 could not be tested; report: $work/fleet/fleet/report.html" \
  "$work/fleet.out" || fail "fleet.out: $(cat "$work/fleet.out")"
[ "$(cat "$work/fleet/nodes/gpu1good_GPU-gpu1good-0/args")" = \
  "health --budget quick --out $work/fleet/nodes/gpu1good_GPU-gpu1good-0 --time-limit 0" ] ||
  fail "health got $(cat "$work/fleet/nodes/gpu1good_GPU-gpu1good-0/args"), not the whole budget without a time limit"
fleet_run 0 "gpu1good" "$work/bin/fleet-warpconf" "$work/fleet" soak --soak-minutes 2 --time-limit=200
[ "$(cat "$work/fleet/nodes/gpu1good_GPU-gpu1good-0/args")" = \
  "health --budget soak --out $work/fleet/nodes/gpu1good_GPU-gpu1good-0 --soak-minutes 2 --time-limit=200" ] ||
  fail "health got $(cat "$work/fleet/nodes/gpu1good_GPU-gpu1good-0/args"), not the options given"
fleet_run 1 "gpu1good gpu1bad nogpu silent" "$work/bin/fleet-warpconf" "$work/fleet" quick
[ "$(cat "$work/fleet/fleet/nodes.txt")" = $'1\tgpu1bad_GPU-gpu1bad-0\twarpconf: FAILED (ShuffleOnGpu): wrong\n0\tgpu1good_GPU-gpu1good-0\twarpconf: conforms: fine\n77\tnogpu_nogpu\twarpconf: could not test: no CUDA device' ] ||
  fail "nodes.txt: $(cat "$work/fleet/fleet/nodes.txt")"
grep -qx "warpconf fleet: 4 nodes: 1 conform, 1 failed, 1 could not be tested, 1 gave no result; report: .*" \
  "$work/fleet.out" || fail "fleet.out: $(cat "$work/fleet.out")"
fleet_run 77 "gpu1good nogpu" "$work/bin/fleet-warpconf" "$work/fleet"
fleet_run 77 "gpu1good silent" "$work/bin/fleet-warpconf" "$work/fleet"
MERGE_STATUS=2 fleet_run 1 "gpu1good" "$work/bin/fleet-warpconf" "$work/fleet"
fleet_run 2 "gpu1good" "$work/bin/fleet-warpconf" "$work/fleet" fast
fleet_run 2 "gpu1good" "$work/none" "$work/fleet"
fleet_run 2 "gpu1good" "$work/bin/fleet-warpconf"
# A line of none of health's forms could not test, on a node as in healthcheck.sh.
fleet_run 77 "gpu1good gpu1liar" "$work/bin/fleet-warpconf" "$work/fleet"
grep -qxF $'77\tgpu1liar_GPU-gpu1liar-0\twarpconf: could not test: warpconf health ended with status 0 and printed no verdict: all fine' \
  "$work/fleet/fleet/nodes.txt" || fail "nodes.txt: $(cat "$work/fleet/fleet/nodes.txt")"
# No node reported (srun failed): not a pass, and srun's status is said.
SRUN_FAILS=1 fleet_run 77 "gpu1good" "$work/bin/fleet-warpconf" "$work/fleet"
grep -qxF "warpconf fleet: 1 node: 0 conform, 0 failed, 0 could not be tested, 1 gave no result; no node wrote a report" \
  "$work/fleet.out" && grep -qxF "fleet.sbatch: srun exited 1" "$work/fleet.out" || fail "fleet.out: $(cat "$work/fleet.out")"
# Refused (2, one line) before anything is made, so that a retry into the same OUT runs: outside sbatch
# (no SLURM_JOB_NUM_NODES), a job of no node (with an srun that fails), a count that is no number, a
# folder as WARPCONF.
refused_run() {  # what, the command
  local what=$1 status
  shift
  rm -rf "$work/fleet"
  "$@" >"$work/fleet.out" 2>"$work/fleet.err"
  status=$?
  [ $status = 2 ] || fail "fleet.sbatch $what: status $status, not 2: $(cat "$work/fleet.out" "$work/fleet.err")"
  [ "$(wc -l <"$work/fleet.err")" = 1 ] && [ ! -s "$work/fleet.out" ] ||
    fail "fleet.sbatch $what: not one line on stderr: $(cat "$work/fleet.out" "$work/fleet.err")"
  [ ! -e "$work/fleet" ] || fail "fleet.sbatch $what: made $(find "$work/fleet")"
}
export NODES=gpu1good
refused_run "outside sbatch" env -u SLURM_JOB_NUM_NODES "$fleet" "$work/bin/fleet-warpconf" "$work/fleet"
SLURM_JOB_NUM_NODES=1 "$fleet" "$work/bin/fleet-warpconf" "$work/fleet" >"$work/fleet.out" 2>&1 ||
  fail "fleet.sbatch into the OUT of a run refused outside sbatch: $(cat "$work/fleet.out")"
for count in 0 '' abc -1 1x ' 1' 1000000000; do
  refused_run "with SLURM_JOB_NUM_NODES='$count'" \
    env SLURM_JOB_NUM_NODES="$count" SRUN_FAILS=1 "$fleet" "$work/bin/fleet-warpconf" "$work/fleet"
done
refused_run "with a folder as WARPCONF" env SLURM_JOB_NUM_NODES=1 "$fleet" "$work/bin" "$work/fleet"
mkdir -p "$work/used/nodes"
NODES=gpu1good SLURM_JOB_NUM_NODES=1 "$fleet" "$work/bin/fleet-warpconf" "$work/used" >/dev/null 2>&1
[ $? = 2 ] || fail "fleet.sbatch into a folder that holds an earlier run's nodes: not status 2"

[ $failures -eq 0 ] && echo "all passed"
[ $failures -eq 0 ]
