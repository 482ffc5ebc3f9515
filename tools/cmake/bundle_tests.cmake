# Run at install (bundle.cmake): writes the bundle's tests/CTestTestfile.cmake, every path in it
# relative to that file's folder, so that ctest runs the bundle's tests wherever it is copied.
# The GoogleTest suites are listed now, by running each installed binary, so that ctest never has to
# write into the bundle. In: WARPCONF_BUNDLE_TESTS ("binary|label" each), WARPCONF_BUNDLE_GPU,
# WARPCONF_BUNDLE_PROBE_FAMILIES.
cmake_policy(VERSION 3.24)
include("${CMAKE_CURRENT_LIST_DIR}/gtest_suites.cmake")
set(tests_dir "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/tests")
set(content [==[# warpconf's tests in this bundle, written at install by tools/cmake/bundle_tests.cmake. Every path
# is relative to this folder: the bundle runs wherever it is copied.
cmake_policy(VERSION 3.24)
if(CMAKE_CURRENT_LIST_DIR)
  set(warpconf_tests "${CMAKE_CURRENT_LIST_DIR}")
else()
  # ctest 3.25 reads this file by its bare name from its own folder, CMAKE_CURRENT_LIST_DIR left empty.
  file(REAL_PATH . warpconf_tests)
endif()
get_filename_component(warpconf_bundle "${warpconf_tests}/.." ABSOLUTE)
set(warpconf "${warpconf_bundle}/bin/warpconf")
]==])
foreach(entry IN LISTS WARPCONF_BUNDLE_TESTS)
  string(REPLACE "|" ";" entry "${entry}")
  list(GET entry 0 binary)
  list(GET entry 1 label)
  execute_process(COMMAND "${tests_dir}/${binary}" --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${tests_dir}/${binary} --gtest_list_tests failed with ${status}")
  endif()
  warpconf_suite_tests(suites "\"\${warpconf_tests}/${binary}\"" "${label}" "" TRUE "${listing}")
  string(APPEND content "${suites}")
endforeach()
string(APPEND content [==[add_test(golden.check "${warpconf}" golden check)
set_tests_properties(golden.check PROPERTIES LABELS golden)
]==])
if(WARPCONF_BUNDLE_GPU)
  string(APPEND content [==[add_test(golden.verify "${warpconf}" golden verify)
set_tests_properties(golden.verify PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 RESOURCE_GROUPS gpus:1)
# The probes' recordings go beside the result records: under warpconf run's --out, else in
# warpconf-results/ of the test's working directory (core/installation.hpp).
if("$ENV{WARPCONF_RESULTS}" STREQUAL "")
  set(warpconf_written "warpconf-results")
else()
  get_filename_component(warpconf_written "$ENV{WARPCONF_RESULTS}" DIRECTORY)
endif()
]==])
  foreach(family IN LISTS WARPCONF_BUNDLE_PROBE_FAMILIES)
    string(APPEND content
           "add_test(probe.verify.${family} \"\${warpconf}\" probe --verify --family ${family} --timeout 3 "
           "--out \"\${warpconf_written}/probe/${family}.txt\")\n"
           "set_tests_properties(probe.verify.${family} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 600 "
           "RESOURCE_GROUPS gpus:1)\n")
  endforeach()
endif()
file(WRITE "${tests_dir}/CTestTestfile.cmake" "${content}")
