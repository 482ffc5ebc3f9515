# Included by ctest before it runs tests (TEST_INCLUDE_FILES): registers one ctest test per
# GoogleTest suite of WARPCONF_BINARY (gtest_suites.cmake says how), listing the suites again
# whenever the binary is newer than the list. One process per suite starts CUDA once for all of the
# suite's tests.
# In: WARPCONF_BINARY, WARPCONF_LABEL (label of suites without "OnGpu"), WARPCONF_SUITES_FILE,
# WARPCONF_SANITIZER (compute-sanitizer, or empty).
# ctest runs this with every policy unset: without CMP0054, if(label STREQUAL "gpu") would read a
# variable named gpu.
cmake_policy(VERSION 3.24)
if(NOT EXISTS "${WARPCONF_BINARY}")
  get_filename_component(missing "${WARPCONF_BINARY}" NAME)
  add_test("${missing}_NOT_BUILT" "${WARPCONF_BINARY}")
  return()
endif()
if(NOT EXISTS "${WARPCONF_SUITES_FILE}" OR "${WARPCONF_BINARY}" IS_NEWER_THAN "${WARPCONF_SUITES_FILE}"
   OR "${CMAKE_CURRENT_LIST_FILE}" IS_NEWER_THAN "${WARPCONF_SUITES_FILE}"
   OR "${CMAKE_CURRENT_LIST_DIR}/gtest_suites.cmake" IS_NEWER_THAN "${WARPCONF_SUITES_FILE}")
  include("${CMAKE_CURRENT_LIST_DIR}/gtest_suites.cmake")
  execute_process(COMMAND "${WARPCONF_BINARY}" --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${WARPCONF_BINARY} --gtest_list_tests failed with ${status}")
  endif()
  warpconf_suite_tests(content "[==[${WARPCONF_BINARY}]==]" "${WARPCONF_LABEL}" "${WARPCONF_SANITIZER}" "${listing}")
  file(WRITE "${WARPCONF_SUITES_FILE}" "${content}")
endif()
include("${WARPCONF_SUITES_FILE}")
