#include "warpconf/run/resource_spec.hpp"

#include <nlohmann/json.hpp>

#include <climits>
#include <cmath>
#include <cstdint>
#include <optional>

#include "core/numbers.hpp"

namespace wc::cli {
namespace {

bool lowercase_word(const std::string& text, bool digit_first) {
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool digit = c >= '0' && c <= '9';
    if (!((c >= 'a' && c <= 'z') || c == '_' || (digit && (i > 0 || digit_first)))) return false;
  }
  return !text.empty();
}

// ctest takes a member of local[0] as a resource type where its name is [a-z_][a-z0-9_]*, and
// ignores the others.
bool is_resource_type(const std::string& name) { return lowercase_word(name, false); }
bool is_resource_id(const std::string& id) { return lowercase_word(id, true); }

// A whole number from 0 to `high`, as ctest reads one: 1 and 1.0 alike.
std::optional<uint64_t> whole(const nlohmann::json& v, uint64_t high) {
  if (v.is_number_unsigned()) {
    const uint64_t n = v.get<uint64_t>();
    return n <= high ? std::optional(n) : std::nullopt;
  }
  if (!v.is_number_float()) return std::nullopt;  // a negative integer, or no number
  const double d = v.get<double>();
  if (!(d >= 0 && d <= static_cast<double>(high) && std::floor(d) == d)) return std::nullopt;
  return static_cast<uint64_t>(d);
}

}  // namespace

int spec_slots(std::istream& in, const std::string& name) {
  const auto refused = [&name](const std::string& why) {
    return UsageError(name + ": not a ctest resource spec: " + why);
  };
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw refused("not a JSON object");
  if (!j.contains("version")) throw refused("no version (ctest reads {\"major\": 1, \"minor\": 0})");
  const nlohmann::json& version = j["version"];
  const std::optional<uint64_t> major = version.is_object() ? whole(version.value("major", nlohmann::json()), INT_MAX)
                                                            : std::nullopt;
  const std::optional<uint64_t> minor = version.is_object() ? whole(version.value("minor", nlohmann::json()), INT_MAX)
                                                            : std::nullopt;
  if (!major || !minor || *major != 1 || *minor != 0)
    throw refused("version " + version.dump() + ", ctest reads {\"major\": 1, \"minor\": 0}");
  const nlohmann::json local = j.value("local", nlohmann::json());
  if (!local.is_array()) throw refused("local is not an array");
  if (local.size() > 1) throw refused("local holds " + std::to_string(local.size()) + " entries, ctest reads one");
  if (local.empty() || !local[0].is_object()) throw refused("local[0] is not an object of resources");
  for (const auto& [type, resources] : local[0].items()) {
    if (!is_resource_type(type)) continue;
    const std::string where = "local[0]." + type;
    if (!resources.is_array()) throw refused(where + " is not an array");
    for (size_t i = 0; i < resources.size(); ++i) {
      const nlohmann::json& r = resources[i];
      const std::string at = where + "[" + std::to_string(i) + "]";
      if (!r.is_object()) throw refused(at + " is not an object");
      const nlohmann::json id = r.value("id", nlohmann::json());
      if (!id.is_string() || !is_resource_id(id.get<std::string>()))
        throw refused(at + ".id is not a string of lowercase letters, digits and underscores");
      if (r.contains("slots") && !whole(r["slots"], UINT32_MAX))
        throw refused(at + ".slots is not a whole number from 0 to 4294967295");
    }
  }
  const nlohmann::json gpus = local[0].value("gpus", nlohmann::json::array());
  if (gpus.empty()) throw refused("local[0].gpus lists no GPU: no GPU test could run");
  int slots = 0;
  for (size_t i = 0; i < gpus.size(); ++i) {
    const uint64_t gpu_slots = gpus[i].contains("slots") ? *whole(gpus[i]["slots"], UINT32_MAX) : 1;  // ctest's default
    if (gpu_slots == 0) throw refused("local[0].gpus[" + std::to_string(i) + "] has no slot: no GPU test could run on it");
    if (gpu_slots > static_cast<uint64_t>(INT_MAX - slots))
      throw UsageError(name + ": the GPUs' slots add up to more than " + std::to_string(INT_MAX));
    slots += static_cast<int>(gpu_slots);
  }
  return slots;
}

std::string resource_spec_text(int gpus, int slots) {
  std::string text = R"({"version": {"major": 1, "minor": 0}, "local": [{"gpus": [)";
  for (int id = 0; id < gpus; ++id)
    text += (id > 0 ? ", " : "") + std::string(R"({"id": ")") + std::to_string(id) + R"(", "slots": )" + std::to_string(slots) + "}";
  return text + "]}]}\n";
}

}  // namespace wc::cli
