# Included by ctest before it runs tests (TEST_INCLUDE_FILES): registers one ctest test per
# GoogleTest suite of WARPCONF_BINARY, listing the suites again whenever the binary is newer than
# the list. One process per suite starts CUDA once for all of the suite's tests.
# In: WARPCONF_BINARY, WARPCONF_LABEL (label of suites without "OnGpu"), WARPCONF_SUITES_FILE,
# WARPCONF_SANITIZER (compute-sanitizer, or empty).
# GPU suites and their variants ask ctest for one GPU each (RESOURCE_GROUPS gpus:1; resources.json).
# Each GPU suite is registered three more ways, run only by the `jit` and `sanitize` test presets:
# jit/<suite> with the driver compiling the embedded compute_75 PTX (the suite fails unless that
# code ran), and sanitize/<tool>/<suite> under compute-sanitizer's memcheck, racecheck and synccheck
# (sanitize/racecheck/KnownBadBlockOnGpu passes only when racecheck reports its planted race).
# ctest runs this with every policy unset: without CMP0054, if(label STREQUAL "gpu") would read a
# variable named gpu.
cmake_policy(VERSION 3.24)
if(NOT EXISTS "${WARPCONF_BINARY}")
  get_filename_component(missing "${WARPCONF_BINARY}" NAME)
  add_test("${missing}_NOT_BUILT" "${WARPCONF_BINARY}")
  return()
endif()
if(NOT EXISTS "${WARPCONF_SUITES_FILE}" OR "${WARPCONF_BINARY}" IS_NEWER_THAN "${WARPCONF_SUITES_FILE}"
   OR "${CMAKE_CURRENT_LIST_FILE}" IS_NEWER_THAN "${WARPCONF_SUITES_FILE}")
  execute_process(COMMAND "${WARPCONF_BINARY}" --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${WARPCONF_BINARY} --gtest_list_tests failed with ${status}")
  endif()
  string(REPLACE "\n" ";" lines "${listing}")
  set(content "")
  foreach(line IN LISTS lines)
    # Suites start in column 0 and end with '.'; their tests are indented.
    if(line MATCHES "^([^ #][^ ]*)\\.")
      set(suite "${CMAKE_MATCH_1}")
      set(label "${WARPCONF_LABEL}")
      set(resources "")
      if(suite MATCHES "OnGpu" OR suite STREQUAL "device")
        set(label gpu)
        set(resources " RESOURCE_GROUPS gpus:1")
      endif()
      string(APPEND content "add_test([==[${suite}]==] [==[${WARPCONF_BINARY}]==] [==[--gtest_filter=${suite}.*]==])\n"
                            "set_tests_properties([==[${suite}]==] PROPERTIES LABELS ${label} TIMEOUT 300 "
                            "SKIP_RETURN_CODE 77${resources})\n")
      if(label STREQUAL "gpu")
        string(APPEND content
               "add_test([==[jit/${suite}]==] [==[${WARPCONF_BINARY}]==] [==[--gtest_filter=${suite}.*]==])\n"
               "set_tests_properties([==[jit/${suite}]==] PROPERTIES LABELS jit TIMEOUT 900 SKIP_RETURN_CODE 77 "
               "RESOURCE_GROUPS gpus:1 "
               "ENVIRONMENT [==[CUDA_FORCE_PTX_JIT=1;CUDA_CACHE_DISABLE=1;WARPCONF_EXPECT_PTX=75]==])\n")
        if(WARPCONF_SANITIZER)
          foreach(tool IN ITEMS memcheck racecheck synccheck)
            string(APPEND content
                   "add_test([==[sanitize/${tool}/${suite}]==] [==[${WARPCONF_SANITIZER}]==] --tool ${tool} "
                   "--error-exitcode 1 --print-limit 20 [==[${WARPCONF_BINARY}]==] [==[--gtest_filter=${suite}.*]==])\n"
                   "set_tests_properties([==[sanitize/${tool}/${suite}]==] PROPERTIES LABELS sanitize TIMEOUT 3600 "
                   "SKIP_RETURN_CODE 77 RESOURCE_GROUPS gpus:1 ENVIRONMENT WARPCONF_SANITIZED=1)\n")
            # The planted MissingBarrier reuses shared memory without a barrier: racecheck must report it.
            if(tool STREQUAL "racecheck" AND suite STREQUAL "KnownBadBlockOnGpu")
              string(APPEND content
                     "set_tests_properties([==[sanitize/${tool}/${suite}]==] PROPERTIES PASS_REGULAR_EXPRESSION "
                     "[==[Race reported between [^=]*known_bad::MissingBarrier]==])\n")
            endif()
          endforeach()
        endif()
      endif()
    endif()
  endforeach()
  file(WRITE "${WARPCONF_SUITES_FILE}" "${content}")
endif()
include("${WARPCONF_SUITES_FILE}")
