# tools/mutation.sh against a seam that does not compile: the mutant's build fails, which must be
# reported as a build failure, never counted as caught, and must make the script exit non-zero.
set(ENV{WARPCONF_MUTATION_DIR} "${WORK_DIR}")
set(ENV{WARPCONF_MUTATION_HEADER} "${SOURCE_DIR}/tools/tests/broken_intrinsics.cuh")
set(ENV{CMAKE_CUDA_ARCHITECTURES} "75-real")
execute_process(COMMAND bash "${SOURCE_DIR}/tools/mutation.sh" 7 RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(status EQUAL 0 OR NOT out MATCHES "mutant 7 \\([^)]*\\): build failed" OR NOT out MATCHES "mutants caught: 0 of 1 \\(1 failed to build\\)")
  message(FATAL_ERROR "a mutant that does not build was not reported as such (exit ${status}):\n${out}${err}")
endif()
message(STATUS "${out}")
