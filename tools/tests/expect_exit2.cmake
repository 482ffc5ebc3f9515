# Runs CLI (warpconf, or a test binary) with ARGS and requires exit status 2, nothing on stdout and
# exactly one line on stderr, holding WANT where it is given.
execute_process(COMMAND ${CLI} ${ARGS} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCHALL "\n" newlines "${err}")
list(LENGTH newlines lines)
if(NOT status EQUAL 2 OR NOT out STREQUAL "" OR NOT lines EQUAL 1)
  message(FATAL_ERROR "want exit 2 and one stderr line; got exit ${status}, stdout '${out}', stderr '${err}'")
endif()
string(FIND "${err}" "${WANT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "stderr '${err}' does not say '${WANT}'")
endif()
message(STATUS "exit 2: ${err}")
