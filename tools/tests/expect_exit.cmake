# Runs CLI with ARGS (and the VAR=value settings of ENV) and requires exit status STATUS and exactly
# one line on stderr, which starts with "warpconf"; for bad input (2) also nothing on stdout.
foreach(setting IN LISTS ENV)
  string(REGEX MATCH "^([^=]+)=(.*)$" ignored "${setting}")
  set(ENV{${CMAKE_MATCH_1}} "${CMAKE_MATCH_2}")
endforeach()
execute_process(COMMAND ${CLI} ${ARGS} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCHALL "\n" newlines "${err}")
list(LENGTH newlines lines)
if(NOT status EQUAL STATUS OR (STATUS EQUAL 2 AND NOT out STREQUAL "") OR NOT lines EQUAL 1 OR NOT err MATCHES "^warpconf")
  message(FATAL_ERROR "want exit ${STATUS} and one stderr line; got exit ${status}, stdout '${out}', stderr '${err}'")
endif()
message(STATUS "exit ${STATUS}: ${err}")
