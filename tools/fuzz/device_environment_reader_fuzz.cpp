// Fuzz target of choose_device, the reader of ctest's CTEST_RESOURCE_GROUP_COUNT,
// CTEST_RESOURCE_GROUP_0 and CTEST_RESOURCE_GROUP_0_GPUS and of WARPCONF_DEVICE in every GPU test.
// The input is lines NAME=VALUE: those four set the variable (other names are ignored), and
// `visible=N` (1 to 16; default 2) is the number of CUDA devices visible. Any environment gives a
// device among the visible ones, or an error of one line. Anything else is a finding.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_target.hpp"
#include "core/device_choice.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

namespace {

constexpr const char* kVariables[] = {"CTEST_RESOURCE_GROUP_COUNT", "CTEST_RESOURCE_GROUP_0", "CTEST_RESOURCE_GROUP_0_GPUS",
                                      "WARPCONF_DEVICE"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  wc::gpu::DeviceEnvironment env;
  int visible = 2;
  while (!input.empty()) {
    const std::string_view line = input.substr(0, input.find('\n'));
    input.remove_prefix(std::min(input.size(), line.size() + 1));
    const size_t equals = line.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string name(line.substr(0, equals)), value(line.substr(equals + 1));
    for (const char* variable : kVariables)
      if (name == variable) env[name] = value;
    if (name == "visible" && value.size() <= 2 && value.find_first_not_of("0123456789") == std::string::npos &&
        !value.empty() && std::stoi(value) >= 1 && std::stoi(value) <= 16)
      visible = std::stoi(value);
  }
  const wc::gpu::DeviceChoice choice = wc::gpu::choose_device(env, visible);
  if (!choice.error.empty()) {
    if (choice.error.find('\n') == std::string::npos) return 0;
    std::fprintf(stderr, "choose_device's error is not one line:\n%s\n", choice.error.c_str());
    std::abort();
  }
  const bool known_source =
      choice.assigned_by == "ctest-resource" || choice.assigned_by == "WARPCONF_DEVICE" || choice.assigned_by == "default";
  if (choice.ordinal < 0 || choice.ordinal >= visible || !known_source) {
    std::fprintf(stderr, "choose_device chose device %d (%s) of %d visible\n", choice.ordinal, choice.assigned_by.c_str(),
                 visible);
    std::abort();
  }
  ++wc::fuzz::accepted_inputs;
  return 0;
}
