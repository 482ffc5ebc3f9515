# device.present under WARPCONF_REQUIRE_GPU=1: with a GPU it passes and names the device; without
# one it must fail and say why, so that driver-validation CI cannot pass on skips alone.
set(ENV{WARPCONF_REQUIRE_GPU} 1)
execute_process(COMMAND ${BINARY} --gtest_filter=device.present RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(out MATCHES "warpconf device: ")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "a GPU is present but device.present failed:\n${out}${err}")
  endif()
  message(STATUS "GPU present: device.present passed")
elseif(status EQUAL 0 OR NOT out MATCHES "WARPCONF_REQUIRE_GPU=1 but")
  message(FATAL_ERROR "no GPU, yet device.present did not fail with the reason (exit ${status}):\n${out}${err}")
else()
  message(STATUS "no GPU: device.present failed as required")
endif()
