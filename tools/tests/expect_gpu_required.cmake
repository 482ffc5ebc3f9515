# Runs BINARY with --gtest_filter=FILTER under WARPCONF_REQUIRE_GPU=1. With a GPU the tests must
# pass and name the device; without one the run must fail and say why, so that a filtered
# driver-validation run cannot pass on skips alone. Its records and XML go to RESULTS_DIR, not
# into the results of the run that includes this test: its checks repeat the suite's own.
set(ENV{WARPCONF_REQUIRE_GPU} 1)
file(REMOVE_RECURSE "${RESULTS_DIR}")
file(MAKE_DIRECTORY "${RESULTS_DIR}")
set(ENV{WARPCONF_RESULTS} "${RESULTS_DIR}/results.jsonl")
set(ENV{WARPCONF_GTEST_XML} "${RESULTS_DIR}")
execute_process(COMMAND ${BINARY} --gtest_filter=${FILTER} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(out MATCHES "warpconf device: ")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "a GPU is present but ${FILTER} failed:\n${out}${err}")
  endif()
  message(STATUS "GPU present: ${FILTER} passed")
elseif(status EQUAL 0 OR NOT out MATCHES "WARPCONF_REQUIRE_GPU=1 but" OR out MATCHES "SKIPPED")
  message(FATAL_ERROR "no GPU, yet ${FILTER} did not fail every test with the reason (exit ${status}):\n${out}${err}")
else()
  message(STATUS "no GPU: ${FILTER} failed as required")
endif()
