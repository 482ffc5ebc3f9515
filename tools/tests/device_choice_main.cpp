// Prints the device choose_device() takes from this process's environment among VISIBLE devices, as
// the GPU tests would, for the resource-allocation test (expect_resource_spread.cmake).
// Exit status 1 with the reason where the environment is malformed.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/device_choice.hpp"
#include "core/environment.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s VISIBLE\n", argv[0]);
    return 2;
  }
  const wc::gpu::DeviceChoice c = wc::gpu::choose_device(wc::gpu::device_environment(), std::atoi(argv[1]));
  if (!c.error.empty()) {
    std::fprintf(stderr, "%s\n", c.error.c_str());
    return 1;
  }
  const std::string gpus = wc::environment::raw_value("CTEST_RESOURCE_GROUP_0_GPUS").value_or("(unset)");
  std::printf("CTEST_RESOURCE_GROUP_0_GPUS=%s: ordinal %d, %s\n", gpus.c_str(), c.ordinal, c.assigned_by.c_str());
  return 0;
}
