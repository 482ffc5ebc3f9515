#!/bin/sh
# A stand-in for a GPU test binary in warpconf run's tests: appends the records of file $1 (if
# named) to $WARPCONF_RESULTS, prints $3, sleeps $4 seconds, and exits with $2; with $5, a
# NAME=value such as WARPCONF_BUDGET=quick, exits 1 unless the environment holds it; it exits 1 too where
# CUDA_CACHE_PATH names no folder (warpconf run's JIT cache). With $6, a
# file, it appends its pid there and that of a child that sleeps as long in a session of its own
# (as the isolation runner's children are in groups of their own).
if [ -n "$6" ]; then
  setsid sleep "$4" &
  echo "$!" >> "$6"
  echo "$$" >> "$6"
fi
if [ -n "$1" ]; then cat "$1" >> "$WARPCONF_RESULTS"; fi
if [ -n "$3" ]; then echo "$3"; fi
if [ -n "$4" ]; then sleep "$4"; fi
if [ -n "$5" ] && ! env | grep -qxF "$5"; then echo "the environment lacks $5"; exit 1; fi
if [ -n "$CUDA_CACHE_PATH" ] && [ ! -d "$CUDA_CACHE_PATH" ]; then echo "CUDA_CACHE_PATH $CUDA_CACHE_PATH is no folder"; exit 1; fi
exit "$2"
