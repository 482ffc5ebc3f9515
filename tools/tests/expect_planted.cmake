# A planted miscompile is caught only where the same programs agree with the oracle without it: runs
# CLI with ARGS and --no-shrink (the baseline, which must exit 0), then with ARGS, --plant PLANT and
# PLANTED_ARGS, which must exit 0 and say "planted PLANT: caught". With MAX_STATEMENTS, its smallest
# failure must be shrunk to at most that many statements, fewer than it had: a shrinker that keeps
# every candidate passing (or runs out of time) fails here. Without a GPU the skip is passed on as SKIPPED.
unset(ENV{WARPCONF_SOAK})  # a soak draws a seed per process: both runs must see the same programs

# Runs CLI with the arguments given; sets status and output (standard output and error) in the caller.
function(run_cli)
  execute_process(COMMAND ${CLI} ${ARGN} RESULT_VARIABLE run_status OUTPUT_VARIABLE run_out ERROR_VARIABLE run_err)
  set(status ${run_status} PARENT_SCOPE)
  set(output "${run_out}${run_err}" PARENT_SCOPE)
endfunction()

run_cli(${ARGS} --no-shrink)
if(status EQUAL 77)
  message(STATUS "SKIPPED: ${output}")
  return()
endif()
if(NOT status EQUAL 0)
  message(FATAL_ERROR "without the plant the same programs do not all agree with the oracle (exit ${status}): "
                      "a failure with ${PLANT} planted would not be its catch:\n${output}")
endif()
run_cli(${ARGS} --plant ${PLANT} ${PLANTED_ARGS})
if(status EQUAL 77)
  message(STATUS "SKIPPED: ${output}")
  return()
endif()
string(REGEX MATCH "planted ${PLANT}: caught in [0-9]+ of [0-9]+ program runs with a site" caught "${output}")
if(NOT status EQUAL 0 OR caught STREQUAL "")
  message(FATAL_ERROR "want exit 0 and the plant caught; got exit ${status}:\n${output}")
endif()
message(STATUS "${caught}; without it the same programs agree with the oracle")
if(NOT DEFINED MAX_STATEMENTS)
  return()
endif()
string(REGEX MATCH "shrunk program [0-9]+ on [A-Za-z0-9-]+ from ([0-9]+) to ([0-9]+) statements" line "${output}")
if(line STREQUAL "")
  message(FATAL_ERROR "want a shrunk program; got none:\n${output}")
endif()
if(NOT CMAKE_MATCH_2 LESS CMAKE_MATCH_1 OR CMAKE_MATCH_2 GREATER MAX_STATEMENTS)
  message(FATAL_ERROR "${line}: want fewer statements than before and at most ${MAX_STATEMENTS}:\n${output}")
endif()
string(FIND "${output}" "${line}" at)
string(SUBSTRING "${output}" ${at} -1 shrunk)
message(STATUS "${shrunk}")
