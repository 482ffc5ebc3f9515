// Fuzz target of the bundle manifest reader (bundle_manifest_error, which `warpconf run` and every
// program of a bundle ask through check::is_bundle): any input is a manifest or one line saying
// what is wrong, and what is taken is of the schema and shapes bundle.cmake writes. Anything else,
// an exception included, is a finding.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_target.hpp"
#include "core/bundle_manifest.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string error = wc::check::bundle_manifest_error(input);
  if (!error.empty()) {
    if (error.find('\n') != std::string::npos) {
      std::fprintf(stderr, "a refusal of two lines: %s\n", error.c_str());
      std::abort();
    }
    return 0;
  }
  const nlohmann::json m = nlohmann::json::parse(input);
  if (m.at("schema") != wc::check::kBundleSchema || !m.at("sass").is_array() || !m.at("ptx").is_array() ||
      m.at("tests") != "tests" || m.at("golden") != "golden" || !m.at("gpu").is_boolean()) {
    std::fprintf(stderr, "took a manifest bundle.cmake does not write\n");
    std::abort();
  }
  ++wc::fuzz::accepted_inputs;
  return 0;
}
