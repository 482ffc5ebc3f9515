# ctest's resource allocation end to end, without a GPU: with the suite's spec for two fake GPUs
# (resource_spread/), ctest must hand its gpus:1 tests both of them, and choose_device() must take
# each assignment; with one, every test gets GPU 0; with none there must be no spec, and the same
# tests run unassigned on device 0.
# In: SOURCE_DIR, WORK_DIR, CHOOSER (tools/tests/device_choice_main.cpp), CTEST, GENERATOR.
unset(ENV{WARPCONF_DEVICE})  # the outer run's choice must not meet the scratch project's
function(run_spread ids)
  execute_process(COMMAND ${CMAKE_COMMAND} -G ${GENERATOR} -S ${SOURCE_DIR}/tools/tests/resource_spread
                          -B ${WORK_DIR} -DWARPCONF_SOURCE_DIR=${SOURCE_DIR} -DCHOOSER=${CHOOSER} "-DGPU_IDS=${ids}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "configuring the scratch project failed (exit ${status}):\n${out}${err}")
  endif()
  # Four tests, two slots: two run at once, so both GPUs are handed out.
  execute_process(COMMAND ${CTEST} --test-dir ${WORK_DIR} -j4 -V
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "the scratch project's ctest failed (exit ${status}):\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
run_spread("0;1")
foreach(id IN ITEMS 0 1)
  if(NOT out MATCHES "CTEST_RESOURCE_GROUP_0_GPUS=id:${id},slots:1: ordinal ${id}, ctest-resource")
    message(FATAL_ERROR "ctest never handed out GPU ${id} of resources.json:\n${out}")
  endif()
endforeach()
if(out MATCHES ", default")
  message(FATAL_ERROR "a test ran without ctest's assignment although resources.json lists GPUs:\n${out}")
endif()
string(REGEX MATCHALL "CTEST_RESOURCE_GROUP_0_GPUS=[^\n]*" assignments "${out}")
list(JOIN assignments "\n" assignments)
message(STATUS "with two GPUs in resources.json:\n${assignments}")

run_spread("0")
string(REGEX MATCHALL "ordinal 0, ctest-resource" assigned "${out}")
list(LENGTH assigned assigned)
if(NOT assigned EQUAL 4)
  message(FATAL_ERROR "with one GPU in resources.json, the four tests must all be handed GPU 0:\n${out}")
endif()
message(STATUS "with one GPU in resources.json: the four tests were handed GPU 0")

run_spread("")
if(EXISTS "${WORK_DIR}/resources.json")
  message(FATAL_ERROR "a resources.json was left for a machine with no GPU")
endif()
string(REGEX MATCHALL "ordinal 0, default" unassigned "${out}")
list(LENGTH unassigned unassigned)
if(NOT unassigned EQUAL 4)
  message(FATAL_ERROR "without a spec, the four tests must run unassigned on device 0:\n${out}")
endif()
message(STATUS "with no GPU: no resources.json, and the four tests ran unassigned on device 0")
