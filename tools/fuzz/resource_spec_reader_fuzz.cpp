// Fuzz target of the resource spec reader of `warpconf run` (spec_slots): any input is read or
// rejected with a UsageError, and what is read is a spec ctest reads too (version 1.0, one local
// entry) whose GPUs each have a slot (1 where none is given), their sum the slots read: a number
// of tests ctest can run at once. Anything else is a finding.
#include <nlohmann/json.hpp>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "fuzz_target.hpp"
#include "core/numbers.hpp"
#include "warpconf/run/resource_spec.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

namespace {

[[noreturn]] void finding(const char* what, int slots) {
  std::fprintf(stderr, "spec_slots read %d slots from a spec that %s\n", slots, what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  int slots = 0;
  try {
    std::istringstream in(input);
    slots = wc::cli::spec_slots(in, "input");
  } catch (const wc::cli::UsageError&) {
    return 0;
  }
  const nlohmann::json spec = nlohmann::json::parse(input);
  const nlohmann::json& version = spec.at("version");
  if (version.at("major") != 1 || version.at("minor") != 0) finding("is not of version 1.0", slots);
  if (spec.at("local").size() != 1) finding("has not one local entry", slots);
  double sum = 0;
  for (const nlohmann::json& gpu : spec.at("local").at(0).at("gpus")) {
    const double gpu_slots = gpu.contains("slots") ? gpu["slots"].get<double>() : 1;
    if (!(gpu_slots >= 1)) finding("has a GPU without a slot", slots);
    sum += gpu_slots;
  }
  if (slots < 1 || sum != static_cast<double>(slots)) finding("has another sum of slots", slots);
  ++wc::fuzz::accepted_inputs;
  return 0;
}
