# Runs a libFuzzer binary for SECONDS on a scratch copy of its seed corpus (the tree is never
# written); fails on any finding and when the run executed no input beyond those it started with
# (the seeds: a flag such as -runs=abc ends the run there, which fuzzed nothing). A crashing input is kept
# under WORK as crash-* (or leak-*, timeout-*, oom-*), and `<FUZZER> <that file>` replays it.
# In: FUZZER, CORPUS (seed folder), DICTIONARY (the format's tokens), WORK (scratch folder, emptied
# first), SECONDS; optional EXTRA, more libFuzzer flags (a list).
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(COPY "${CORPUS}/" DESTINATION "${WORK}/corpus")
execute_process(
  COMMAND "${FUZZER}" -max_total_time=${SECONDS} -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
          -dict=${DICTIONARY} ${EXTRA}
          -artifact_prefix=${WORK}/ "${WORK}/corpus"
  RESULT_VARIABLE status
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
file(WRITE "${WORK}/output.txt" "${output}")
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" executed "${output}")
string(REGEX MATCH "[0-9]+$" executed "${executed}")
# libFuzzer's "#<inputs run> INITED" line: where the seeds end and the fuzzing starts.
string(REGEX MATCH "#[0-9]+[ \t]+INITED" seeds "${output}")
string(REGEX MATCH "[0-9]+" seeds "${seeds}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${FUZZER} found a defect (status ${status}); the input is under ${WORK}:\n${output}")
endif()
if(NOT executed GREATER 0)
  message(FATAL_ERROR "${FUZZER} executed no inputs:\n${output}")
endif()
if(seeds STREQUAL "" OR NOT executed GREATER seeds)
  message(FATAL_ERROR "${FUZZER} fuzzed nothing: it executed ${executed} inputs, and its seeds were '${seeds}':\n${output}")
endif()
string(REGEX MATCH "Done [0-9]+ runs in [0-9]+ second" done "${output}")
string(REGEX MATCH "[0-9]+ second" took "${done}")
if(NOT took)
  set(took "${SECONDS} second")
endif()
string(REGEX MATCH "#[0-9]+[^\n]*DONE[^\n]*" final "${output}")
message("${FUZZER}: ${executed} inputs in ${took}s, no finding. ${final}")
