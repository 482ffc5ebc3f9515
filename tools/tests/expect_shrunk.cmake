# Runs CLI with ARGS (a planted program run) and requires exit status 0 and its smallest failure shrunk
# to at most MAX_STATEMENTS statements, fewer than it had: a shrinker that keeps every candidate
# passing (or runs out of time) fails here. Without a GPU the command's skip is passed on as SKIPPED.
execute_process(COMMAND ${CLI} ${ARGS} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(status EQUAL 77)
  message(STATUS "SKIPPED: ${out}${err}")
  return()
endif()
string(REGEX MATCH "shrunk program [0-9]+ on [a-z0-9-]+ from ([0-9]+) to ([0-9]+) statements" line "${out}")
if(NOT status EQUAL 0 OR line STREQUAL "")
  message(FATAL_ERROR "want exit 0 and a shrunk program; got exit ${status}:\n${out}${err}")
endif()
if(NOT CMAKE_MATCH_2 LESS CMAKE_MATCH_1 OR CMAKE_MATCH_2 GREATER MAX_STATEMENTS)
  message(FATAL_ERROR "${line}: want fewer statements than before and at most ${MAX_STATEMENTS}:\n${out}")
endif()
string(FIND "${out}" "${line}" at)
string(SUBSTRING "${out}" ${at} -1 shrunk)
message(STATUS "${shrunk}")
