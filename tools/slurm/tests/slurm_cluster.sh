#!/usr/bin/env bash
# tools/slurm on a real one-node Slurm cluster started here (Debian's Slurm 22.05 slurmctld and
# slurmd, and munged, all in a temporary folder on free ports; no cgroups, no accounting): slurmd
# runs the health check at start-up and it drains the node with warpconf health's line as the
# reason; the node is resumed as README.md says; fleet.sbatch runs on it and merges its one node's
# report. CUDA_VISIBLE_DEVICES=-1 hides every GPU, so that the node cannot be tested on any machine
# and each step takes a second. Every daemon it starts is ended on the way out. Skipped (77) where
# not root or Slurm is not installed.
# Usage: slurm_cluster.sh WARPCONF SOURCE_DIR
set -uo pipefail
warpconf=$1 source_dir=$2
export PATH="$PATH:/usr/sbin:/sbin"

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIPPED: not root: slurmctld, slurmd and munged run as root here"
  exit 77
fi
for tool in munged slurmctld slurmd sbatch scontrol sinfo scancel; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIPPED: no $tool: tools/setup.sh installs slurmctld, slurmd and munge"
    exit 77
  fi
done

work=$(mktemp -d /tmp/warpconf-slurm.XXXXXX) || exit 1
chmod 755 "$work"  # munged refuses a socket in a folder that others cannot search
export SLURM_CONF=$work/slurm.conf
daemons=()
failures=0
started=$SECONDS

fail() {
  echo "FAILED: $*"
  failures=$((failures + 1))
}

# The processes that hold this cluster's SLURM_CONF, its job steps (slurmstepd) included.
cluster_processes() {
  grep -lzxF "SLURM_CONF=$SLURM_CONF" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 | grep -vx $$
}

# Waits up to 5 s for the cluster's processes named $1 (any, where not given) to end.
ended() {
  local i pid left
  for i in $(seq 25); do
    left=""
    for pid in $(cluster_processes); do
      [ -z "${1:-}" ] || [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ] && left+=" $pid"
    done
    [ -z "$left" ] && return
    sleep 0.2
  done
}

cleanup() {
  scancel --quiet --user=root 2>/dev/null
  export -n SLURM_CONF  # so that this script's own subshells are not taken for the cluster's processes
  ended slurmstepd  # job steps report to slurmd as they end
  local pid
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null; done
  ended
  for pid in $(cluster_processes); do kill -KILL "$pid" 2>/dev/null; done
  wait 2>/dev/null
  if [ $failures -gt 0 ]; then
    for log in slurmctld.log slurmd.log healthcheck.err fleet.out; do
      [ -e "$work/$log" ] && echo "--- $log" && tail -n 30 "$work/$log"
    done
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# Waits up to $1 seconds for the command that follows to succeed.
wait_until() {
  local until=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $until ] || return 1
    sleep 0.2
  done
}

# Two free TCP ports for slurmctld and slurmd: none in /proc/net/tcp{,6} is listening on them.
listening() {
  local sl address rest
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | while read -r sl address _ state rest; do
    [ "$state" = 0A ] && echo $((16#${address##*:}))
  done
}
ports=$(listening)
port=0
for try in $(seq 20); do
  candidate=$((20000 + RANDOM % 20000))
  if ! grep -qxE "$candidate|$((candidate + 1))" <<<"$ports"; then
    port=$candidate
    break
  fi
done
[ $port -gt 0 ] || { fail "no two free ports in 20 tries"; exit 1; }

node=$(hostname -s)
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
munged -F --key-file="$work/munge.key" --socket="$work/munge.socket" --pid-file="$work/munged.pid" \
  --log-file="$work/munged.log" --seed-file="$work/munged.seed" 2>>"$work/munged.log" &
daemons+=($!)
wait_until 10 test -S "$work/munge.socket" || { fail "munged did not start"; exit 1; }

# slurmd gives a health check no environment: this cluster's slurm.conf, and no GPU.
printf '#!/bin/bash\nexport SLURM_CONF=%q CUDA_VISIBLE_DEVICES=-1\n' "$SLURM_CONF" >"$work/healthcheck"
printf 'line=$(%q --drain %q --out %q 2>>%q)\n' "$source_dir/tools/slurm/healthcheck.sh" "$warpconf" \
  "$work/health" "$work/healthcheck.err" >>"$work/healthcheck"
printf 'status=$?\necho "$status $line" >>%q\necho "$line"\nexit $status\n' "$work/healthcheck.runs" >>"$work/healthcheck"
chmod 755 "$work/healthcheck"

cat >"$SLURM_CONF" <<CONF
ClusterName=warpconfci
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CredType=cred/munge
StateSaveLocation=$work/slurmctld
SlurmdSpoolDir=$work/slurmd
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
HealthCheckProgram=$work/healthcheck
HealthCheckInterval=3600
HealthCheckNodeState=IDLE
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=10 State=UP
CONF
mkdir -p "$work/slurmctld" "$work/slurmd"
slurmctld -D -f "$SLURM_CONF" >>"$work/slurmctld.log" 2>&1 &
daemons+=($!)
wait_until 20 scontrol ping || { fail "slurmctld did not answer scontrol ping"; exit 1; }
slurmd -D -N "$node" -f "$SLURM_CONF" >>"$work/slurmd.log" 2>&1 &
daemons+=($!)

# 1. slurmd's start-up health check drains the node, the reason being the line it printed.
reason() { sinfo -h -n "$node" -o '%E'; }
drained() { sinfo -h -n "$node" -o '%T' | grep -q drain && [ "$(reason)" != none ]; }
if wait_until 30 test -s "$work/healthcheck.runs" && wait_until 10 drained; then
  read -r status line <"$work/healthcheck.runs"
  echo "health check: status $status, line: $line"
  [ "$status" = 77 ] || fail "health check status $status, not 77 (could not test)"
  [[ $line == "warpconf: could not test: "* ]] || fail "health check line: $line"
  [ "$(reason)" = "$line" ] || fail "drain reason '$(reason)' is not the line '$line'"
  grep -q '"cause": "could-not-test"' "$work/health/report.json" || fail "no could-not-test report in $work/health"
else
  fail "the node was not drained by the start-up health check: $(sinfo -h -n "$node" -o '%T %E')"
fi
[ "$(wc -l <"$work/healthcheck.runs" 2>/dev/null)" = 1 ] || fail "the health check did not run exactly once"

# 2. Resumed as README.md says, the node takes the fleet job.
scontrol update nodename="$node" state=resume
idle() { [ "$(sinfo -h -n "$node" -o '%T')" = idle ]; }
wait_until 20 idle || fail "not idle after resume: $(sinfo -h -n "$node" -o '%T')"

# 3. fleet.sbatch: a job that could not test its one node exits 77, with the node's folder, its
# line and report, and a fleet report that says the node could not be tested.
job=$(timeout 60 sbatch --parsable --wait --export=ALL,CUDA_VISIBLE_DEVICES=-1 -N 1 -D "$work" -o "$work/fleet.out" \
  "$source_dir/tools/slurm/fleet.sbatch" "$warpconf" "$work/fleet" quick)
job_status=$?
echo "fleet job $job: status $job_status; $(tail -n 1 "$work/fleet.out" 2>/dev/null)"
[ $job_status = 77 ] || fail "fleet job status $job_status, not 77"
scontrol show job "$job" | grep -q 'ExitCode=77:0' || fail "scontrol show job $job: $(scontrol show job "$job" | grep ExitCode)"
folders=("$work"/fleet/nodes/*)
want=${node}_nogpu
command -v nvidia-smi >/dev/null && want="${node}_*"  # nvidia-smi lists GPUs that CUDA_VISIBLE_DEVICES hides
if [ ${#folders[@]} != 1 ] || [[ $(basename "${folders[0]}") != $want ]]; then
  fail "node folders: ${folders[*]}, want one $want"
else
  grep -q '^77 warpconf: could not test: ' "${folders[0]}/health.txt" || fail "health.txt: $(cat "${folders[0]}/health.txt")"
  grep -q '"cause": "could-not-test"' "${folders[0]}/report.json" || fail "no could-not-test report in ${folders[0]}"
fi
grep -q $'^77\t[^\t]*\twarpconf: could not test: ' "$work/fleet/fleet/nodes.txt" || fail "nodes.txt: $(cat "$work/fleet/fleet/nodes.txt")"
grep -q '"summary": "ABORTED (.*could not test: ' "$work/fleet/fleet/report.json" || fail "the fleet report does not say the node could not be tested"
grep -q "^warpconf fleet: 1 node: 0 conform, 0 failed, 1 could not be tested; report: $work/fleet/fleet/report.html$" \
  "$work/fleet.out" || fail "fleet.out: $(tail -n 3 "$work/fleet.out")"

echo "$((SECONDS - started)) s"
[ $failures -eq 0 ]
