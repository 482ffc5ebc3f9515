# Included by ctest before it runs tests (TEST_INCLUDE_FILES): registers one ctest test per
# GoogleTest suite of WARPCONF_BINARY (gtest_suites.cmake says how), listing the suites again
# whenever the binary is newer than the list. One process per suite starts CUDA once for all of the
# suite's tests.
# In: WARPCONF_BINARY, WARPCONF_LABEL (label of suites without "OnGpu"), WARPCONF_SUITES_FILE,
# WARPCONF_SANITIZER (compute-sanitizer, or empty), WARPCONF_PATH_BINARIES ("<path>|<binary>" for each code
# path whose binaries are built apart, on demand: docs/code-paths.md), WARPCONF_BUILD_DIR.
# ctest runs this with every policy unset: without CMP0054, if(label STREQUAL "gpu") would read a
# variable named gpu.
cmake_policy(VERSION 3.24)
include("${CMAKE_CURRENT_LIST_DIR}/gtest_suites.cmake")
if(NOT EXISTS "${WARPCONF_BINARY}")
  get_filename_component(missing "${WARPCONF_BINARY}" NAME)
  add_test("${missing}_NOT_BUILT" "${WARPCONF_BINARY}")
  return()
endif()
if(NOT EXISTS "${WARPCONF_SUITES_FILE}" OR "${WARPCONF_BINARY}" IS_NEWER_THAN "${WARPCONF_SUITES_FILE}"
   OR "${CMAKE_CURRENT_LIST_FILE}" IS_NEWER_THAN "${WARPCONF_SUITES_FILE}"
   OR "${CMAKE_CURRENT_LIST_DIR}/gtest_suites.cmake" IS_NEWER_THAN "${WARPCONF_SUITES_FILE}")
  execute_process(COMMAND "${WARPCONF_BINARY}" --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${WARPCONF_BINARY} --gtest_list_tests failed with ${status}")
  endif()
  warpconf_suite_tests(content "[==[${WARPCONF_BINARY}]==]" "${WARPCONF_LABEL}" "${WARPCONF_SANITIZER}" FALSE "${listing}")
  file(WRITE "${WARPCONF_SUITES_FILE}" "${content}")
endif()
include("${WARPCONF_SUITES_FILE}")

# The GPU suites again on each code path built apart, through tools/paths/run_built_path.sh: from the
# path's binary where that is built, else one test that says which target builds it.
if(NOT WARPCONF_GPU_SUITES)
  return()
endif()
foreach(entry IN LISTS WARPCONF_PATH_BINARIES)
  string(REPLACE "|" ";" entry "${entry}")
  list(GET entry 0 path)
  list(GET entry 1 path_binary)
  warpconf_path_environment(environment ${path})
  warpconf_path_cost(cost ${path})
  set(runner "${CMAKE_CURRENT_LIST_DIR}/../paths/run_built_path.sh" ${path} "${WARPCONF_BUILD_DIR}" "${path_binary}")
  if(NOT EXISTS "${path_binary}")
    get_filename_component(missing "${path_binary}" NAME)
    add_test("${path}/${missing}.not_built" ${runner})
    set_tests_properties("${path}/${missing}.not_built" PROPERTIES LABELS ${path} SKIP_RETURN_CODE 77)
    continue()
  endif()
  foreach(suite IN LISTS WARPCONF_GPU_SUITES)
    add_test("${path}/${suite}" ${runner} "--gtest_filter=${suite}.*")
    # Debug code runs several times slower than -O3 code.
    set_tests_properties("${path}/${suite}" PROPERTIES LABELS ${path} TIMEOUT 1800 SKIP_RETURN_CODE 77
                         RESOURCE_GROUPS gpus:1 COST ${cost} ENVIRONMENT "${environment}")
  endforeach()
endforeach()
