#!/usr/bin/env bash
# A node health check for Slurm (HealthCheckProgram, Prolog or Epilog): runs `warpconf health`,
# prints its one line and, with --drain, drains this node with that line as the reason when the node
# failed or could not be tested. Exit status: warpconf health's (0 conforms, 1 a failure, 77 could
# not test), 2 for bad arguments or health options (nothing drained: the fault is the call's).
# Usage: healthcheck.sh [--drain] WARPCONF [warpconf health options]
set -uo pipefail
# slurmd starts a health check with no PATH at all.
export PATH="${PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}"
drain=0
if [ "${1:-}" = --drain ]; then
  drain=1
  shift
fi
if [ $# -lt 1 ]; then
  echo "healthcheck.sh: usage: healthcheck.sh [--drain] WARPCONF [warpconf health options]" >&2
  exit 2
fi
warpconf=$1
shift
# warpconf health keeps its own --time-limit (default 50 s); this guard, 5 s later, covers the rest
# (a report on a file system that hangs), so that the node is still drained before slurmd's 60 s.
limit=50
for ((i = 1; i <= $#; i++)); do
  case ${!i} in
    --time-limit) j=$((i + 1)) && limit=${!j:-} ;;
    --time-limit=*) limit=${!i#*=} ;;
  esac
done
guard=()
if [[ $limit =~ ^[0-9]+(\.[0-9]*)?$ ]] && [ "${limit%.*}" != 0 ]; then
  guard=(timeout -k 2 "$((${limit%.*} + 5))")
fi
if [ ! -x "$warpconf" ]; then
  line="warpconf: could not test: no warpconf at $warpconf"
  status=77
else
  line=$("${guard[@]}" "$warpconf" health "$@")
  status=$?
  if [ ${#guard[@]} -gt 0 ] && { [ $status -eq 124 ] || [ $status -eq 137 ]; }; then
    line="warpconf: could not test: warpconf health did not end within ${guard[3]} s"
    status=77
  elif [ $status -eq 2 ]; then
    exit 2  # its one line is on stderr already
  elif [ $status -ne 0 ] && [ $status -ne 1 ] && [ $status -ne 77 ]; then
    line="warpconf: could not test: warpconf health ended with status $status${line:+: $line}"
    status=77
  fi
fi
echo "$line"
if [ $drain -eq 1 ] && [ $status -ne 0 ]; then
  node=${SLURMD_NODENAME:-$(hostname -s)}
  scontrol update nodename="$node" state=drain reason="$line" >&2 ||
    echo "healthcheck.sh: scontrol could not drain $node" >&2
fi
exit $status
