#include "warpconf/resource_spec.hpp"

#include <nlohmann/json.hpp>

#include <climits>
#include <cstdint>

#include "core/numbers.hpp"

namespace wc::cli {

int spec_slots(std::istream& in, const std::string& name) {
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  const auto malformed = [&name] { return UsageError(name + ": not a ctest resource spec with local[0].gpus"); };
  if (j.is_discarded() || !j.contains("local") || !j["local"].is_array() || j["local"].empty() ||
      !j["local"][0].contains("gpus") || !j["local"][0]["gpus"].is_array())
    throw malformed();
  int slots = 0;
  for (const nlohmann::json& gpu : j["local"][0]["gpus"]) {
    if (!gpu.is_object() || !gpu.value("slots", nlohmann::json()).is_number_unsigned()) throw malformed();
    const uint64_t gpu_slots = gpu["slots"].get<uint64_t>();
    if (gpu_slots > static_cast<uint64_t>(INT_MAX - slots))
      throw UsageError(name + ": the GPUs' slots add up to more than " + std::to_string(INT_MAX));
    slots += static_cast<int>(gpu_slots);
  }
  return slots;
}

}  // namespace wc::cli
