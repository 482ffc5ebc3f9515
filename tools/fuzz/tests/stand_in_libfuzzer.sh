#!/bin/sh
# A stand-in for a libFuzzer binary, for run_fuzzer.cmake's own tests: it ran its 3 seeds, then
# FUZZED more inputs (0: a run such as -runs=abc, which ends after the seeds), and found nothing.
printf '#3\tINITED cov: 10 ft: 10 corp: 3/30b exec/s: 0 rss: 30Mb\n' >&2
printf 'stat::number_of_executed_units: %d\n' $((3 + FUZZED)) >&2
