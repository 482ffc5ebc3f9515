# A fleet host's run, for cron or a CI job: configure build/dashboard with the `gpu` configure
# preset's settings, build, run what `ctest --preset gpu` runs with ctest spreading the GPU tests
# over build/dashboard/resources.json, write JUnit, and submit everything to CDash.
#
#   ctest --no-compress-output -S tools/dashboard.cmake -V
#         [-DCTEST_SUBMIT_URL=https://cdash.example/submit.php?project=warpconf] [-DDASHBOARD_MODEL=Nightly]
#         [-DCTEST_SITE=name] [-DCTEST_BUILD_NAME=name] [-DCMAKE_CUDA_ARCHITECTURES=90-real;75-virtual]
#         [-DCTEST_BUILD_FLAGS=-j16]
#
# --no-compress-output: without it, ctest -S writes each test's output into the JUnit zlib-compressed
# and base64-encoded, unreadable to GitLab or Jenkins (a script cannot set it).
# Writes build/dashboard/results/ (junit.xml, results.jsonl), fresh each run. Without
# CTEST_SUBMIT_URL nothing is submitted. Exits non-zero when configure, the build or a test failed,
# or a GPU test found no GPU (the gpu preset sets WARPCONF_REQUIRE_GPU=1).
cmake_minimum_required(VERSION 3.21)  # ctest_test(OUTPUT_JUNIT)

get_filename_component(CTEST_SOURCE_DIRECTORY "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(CTEST_BINARY_DIRECTORY "${CTEST_SOURCE_DIRECTORY}/build/dashboard")
set(results "${CTEST_BINARY_DIRECTORY}/results")

# The presets named `gpu` are the one description of a GPU run: read them rather than repeat them.
file(READ "${CTEST_SOURCE_DIRECTORY}/CMakePresets.json" presets)
function(gpu_preset out kind)
  string(JSON count LENGTH "${presets}" ${kind})
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${presets}" ${kind} ${i} name)
    if(name STREQUAL "gpu")
      string(JSON preset GET "${presets}" ${kind} ${i})
      set(${out} "${preset}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "CMakePresets.json has no ${kind} entry named gpu")
endfunction()
gpu_preset(configure configurePresets)
gpu_preset(test testPresets)

string(JSON CTEST_CMAKE_GENERATOR GET "${configure}" generator)
set(options "")
string(JSON count LENGTH "${configure}" cacheVariables)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON name MEMBER "${configure}" cacheVariables ${i})
  string(JSON type TYPE "${configure}" cacheVariables ${name})
  if(NOT type STREQUAL "STRING")
    message(FATAL_ERROR "CMakePresets.json: gpu's cacheVariables.${name} is not a string; this script reads strings")
  endif()
  string(JSON value GET "${configure}" cacheVariables ${name})
  list(APPEND options "-D${name}=${value}")
endforeach()
if(DEFINED CMAKE_CUDA_ARCHITECTURES)
  # Escaped, so that ctest_configure passes the list as one argument.
  string(REPLACE ";" "\\;" architectures "${CMAKE_CUDA_ARCHITECTURES}")
  list(APPEND options "-DCMAKE_CUDA_ARCHITECTURES=${architectures}")
endif()
string(JSON count LENGTH "${test}" environment)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON name MEMBER "${test}" environment ${i})
  string(JSON value GET "${test}" environment ${name})
  set(ENV{${name}} "${value}")
endforeach()
string(JSON exclude GET "${test}" filter exclude label)
string(JSON jobs GET "${test}" execution jobs)

if(NOT CTEST_SITE)
  cmake_host_system_information(RESULT CTEST_SITE QUERY HOSTNAME)
endif()
if(NOT CTEST_BUILD_NAME)
  execute_process(COMMAND nvidia-smi --query-gpu=name --format=csv,noheader OUTPUT_VARIABLE gpus ERROR_QUIET)
  string(STRIP "${gpus}" gpus)
  string(REPLACE "\n" ", " gpus "${gpus}")
  if(gpus STREQUAL "")
    set(gpus "no GPU")
  endif()
  set(CTEST_BUILD_NAME "warpconf gpu (${gpus})")
endif()
if(NOT DASHBOARD_MODEL)
  set(DASHBOARD_MODEL Experimental)
endif()

file(REMOVE_RECURSE "${results}")
ctest_start(${DASHBOARD_MODEL})
ctest_configure(OPTIONS "${options}" RETURN_VALUE configure_status)
set(built "not run")
if(configure_status EQUAL 0)
  ctest_build(RETURN_VALUE build_status)
  set(built "exit ${build_status}")
endif()

set(tests "not run")
if(built STREQUAL "exit 0")
  # As many tests at once as resources.json has slots (configure writes it where it finds GPUs),
  # else as many as the preset runs.
  set(spec "${CTEST_BINARY_DIRECTORY}/resources.json")
  set(resources "")
  if(EXISTS "${spec}")
    file(READ "${spec}" spec_text)
    string(JSON count LENGTH "${spec_text}" local 0 gpus)
    math(EXPR last "${count} - 1")
    set(jobs 0)
    foreach(i RANGE ${last})
      string(JSON slots GET "${spec_text}" local 0 gpus ${i} slots)
      math(EXPR jobs "${jobs} + ${slots}")
    endforeach()
    set(resources RESOURCE_SPEC_FILE "${spec}")
    message(STATUS "warpconf: ${count} GPU(s) in ${spec}, ${jobs} tests at once")
  else()
    message(STATUS "warpconf: no GPU visible at configure, no ${spec}: the GPU tests fail")
  endif()
  file(MAKE_DIRECTORY "${results}")
  set(ENV{WARPCONF_RESULTS} "${results}/results.jsonl")
  ctest_test(EXCLUDE_LABEL "${exclude}" PARALLEL_LEVEL ${jobs} ${resources} OUTPUT_JUNIT "${results}/junit.xml"
             RETURN_VALUE test_status)
  set(tests "passed")
  if(NOT test_status EQUAL 0)
    set(tests "failed or not run (ctest_test: ${test_status})")
  endif()
  message(STATUS "warpconf: JUnit ${results}/junit.xml, result records ${results}/results.jsonl")
endif()

if(CTEST_SUBMIT_URL)
  ctest_submit(SUBMIT_URL "${CTEST_SUBMIT_URL}" RETURN_VALUE submit_status)
  if(NOT submit_status EQUAL 0)
    message(SEND_ERROR "warpconf: submitting to ${CTEST_SUBMIT_URL} failed")
  endif()
else()
  message(STATUS "warpconf: no -DCTEST_SUBMIT_URL=...: nothing submitted")
endif()

if(NOT tests STREQUAL "passed")
  message(FATAL_ERROR "warpconf: configure exit ${configure_status}, build ${built}, tests ${tests}")
endif()
