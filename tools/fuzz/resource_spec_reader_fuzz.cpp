// Fuzz target of the resource spec reader of `warpconf run` (spec_slots): any input is read or
// rejected with a UsageError, and what is read gives the sum of its GPUs' slots, which must be a
// number of tests ctest can run at once. Anything else is a finding.
#include <nlohmann/json.hpp>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "fuzz_target.hpp"
#include "core/numbers.hpp"
#include "warpconf/resource_spec.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  int slots = 0;
  try {
    std::istringstream in(input);
    slots = wc::cli::spec_slots(in, "input");
  } catch (const wc::cli::UsageError&) {
    return 0;
  }
  // Read, so local[0].gpus is an array of objects whose slots are unsigned numbers.
  const nlohmann::json spec = nlohmann::json::parse(input);
  unsigned long long sum = 0;
  for (const nlohmann::json& gpu : spec["local"][0]["gpus"]) {
    const unsigned long long gpu_slots = gpu["slots"].get<unsigned long long>();
    sum = gpu_slots > ULLONG_MAX - sum ? ULLONG_MAX : sum + gpu_slots;
  }
  if (sum > INT_MAX || static_cast<unsigned long long>(slots) != sum) {
    std::fprintf(stderr, "spec_slots read %d slots from a spec whose GPUs have %llu\n", slots, sum);
    std::abort();
  }
  ++wc::fuzz::accepted_inputs;
  return 0;
}
