#!/usr/bin/env bash
# A node health check for Slurm (HealthCheckProgram, Prolog or Epilog): runs `warpconf health`,
# prints its one line and, with --drain, drains this node with that line as the reason when the node
# failed or could not be tested. Only warpconf health's own verdicts count (tools/warpconf/run/health.cpp):
# "warpconf: conforms: ..." with status 0, "warpconf: FAILED[ (tests)]: ..." with 1, "warpconf: could
# not test: ..." with 77; any other ending (another line or none, a status that does not go with the
# line, a crash) could not test.
# Exit status: 0 conforms, 1 a failure, 77 could not test, 2 for bad arguments or health options
# (nothing drained: the fault is the call's, as it is for a WARPCONF that is no executable file).
# Usage: healthcheck.sh [--drain] WARPCONF [warpconf health options]
set -uo pipefail
# slurmd starts a health check with no PATH at all.
export PATH="${PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}"
usage="usage: healthcheck.sh [--drain] WARPCONF [warpconf health options]"
refuse() {
  echo "healthcheck.sh: $1 ($usage)" >&2
  exit 2
}

# Whether status $1 and line $2 are one of warpconf health's verdicts.
is_verdict() {
  [[ $2 != *$'\n'* ]] || return 1
  case $1:$2 in
    "0:warpconf: conforms: "?* | "1:warpconf: FAILED: "?* | "1:warpconf: FAILED ("*"): "?* | "77:warpconf: could not test: "?*) ;;
    *) return 1 ;;
  esac
}

drain=0
if [ "${1:-}" = --drain ]; then
  drain=1
  shift
fi
[ $# -ge 1 ] || refuse "no WARPCONF"
warpconf=$1
shift
[[ $warpconf != -* ]] || refuse "'$warpconf' where WARPCONF goes"
# A missing warpconf may be the node's fault (an install or a file system that is not there); one
# that is there and cannot run is the configuration's.
if [ -e "$warpconf" ] && { [ ! -f "$warpconf" ] || [ ! -x "$warpconf" ]; }; then
  refuse "WARPCONF $warpconf is not an executable file"
fi

# warpconf health keeps its own --time-limit (default 50 s); this guard, 5 s later, covers the rest
# (a report on a file system that hangs), so that the node is still drained before slurmd's 60 s.
# The limit is read as health reads it, decimal seconds up to 1e12 (08 is 8), or refused.
limit=50
for ((i = 1; i <= $#; i++)); do
  case ${!i} in
    --time-limit)
      ((i < $#)) || refuse "--time-limit needs a number of seconds"
      j=$((i + 1)) && limit=${!j} ;;
    --time-limit=*) limit=${!i#*=} ;;
  esac
done
[[ $limit =~ ^([0-9]+)(\.([0-9]+))?$ ]] || refuse "--time-limit '$limit': want a number of seconds, decimal (0 for none)"
whole=${BASH_REMATCH[1]} fraction=${BASH_REMATCH[3]}
whole=${whole#"${whole%%[!0]*}"} && whole=${whole:-0}  # leading zeros dropped: 08 is 8, not octal
if ((${#whole} > 13 || 10#$whole > 10 ** 12)) || { ((10#$whole == 10 ** 12)) && [[ $fraction == *[1-9]* ]]; }; then
  refuse "--time-limit $limit: more than 1e12 seconds"
fi
guard=()
if [[ $whole != 0 || $fraction == *[1-9]* ]]; then
  guard_s=$((10#$whole + 5))${fraction:+.$fraction}
  guard=(timeout -k 2 "$guard_s")
fi

if [ ! -e "$warpconf" ]; then
  line="warpconf: could not test: no warpconf at $warpconf"
  status=77
else
  line=$("${guard[@]}" "$warpconf" health "$@")
  status=$?
  if [ ${#guard[@]} -gt 0 ] && { [ $status -eq 124 ] || [ $status -eq 137 ]; }; then
    line="warpconf: could not test: warpconf health did not end within $guard_s s"
    status=77
  elif [ $status -eq 2 ] && [ -z "$line" ]; then
    exit 2  # bad health options: its one line is on stderr already
  elif ! is_verdict $status "$line"; then
    if [ -z "$line" ]; then
      line="warpconf: could not test: warpconf health ended with status $status and printed nothing"
    else
      line="warpconf: could not test: warpconf health ended with status $status and printed no verdict: ${line%%$'\n'*}"
    fi
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
