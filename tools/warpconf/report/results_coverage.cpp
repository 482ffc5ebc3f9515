#include "warpconf/report/results_coverage.hpp"

#include <algorithm>
#include <string>

#include "core/usage_error.hpp"
#include "warpconf/report/results.hpp"

namespace wc::cli {
namespace {

// The most an SM id can be: a placement word holds 23 bits of it (core/batch.hpp).
constexpr uint64_t kLastSm = 0x7FFFFF;

uint64_t compared_lanes(const nlohmann::json& record) {
  const nlohmann::json lanes = record.value("lanes", nlohmann::json::object());
  uint64_t n = 0;
  for (const char* c : {"defined", "ptx-defined"})
    if (lanes.contains(c) && lanes[c].is_number_unsigned()) add_count(n, lanes[c].get<uint64_t>());
  return n;
}

}  // namespace

LanesBySm sm_lanes_of(const nlohmann::json& sm_lanes) {
  if (!sm_lanes.is_array()) throw UsageError("sm_lanes: not a list of [sm, lanes]");
  LanesBySm lanes;
  for (size_t i = 0; i < sm_lanes.size(); ++i) {
    const nlohmann::json& pair = sm_lanes[i];
    const std::string where = "sm_lanes[" + std::to_string(i) + "]";
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_unsigned() || !pair[1].is_number_unsigned())
      throw UsageError(where + ": not [sm, lanes], two counts");
    const uint64_t sm = pair[0].get<uint64_t>();
    if (sm > kLastSm) throw UsageError(where + ": SM " + std::to_string(sm) + " is past the last a placement holds");
    if (!lanes.emplace(static_cast<uint32_t>(sm), pair[1].get<uint64_t>()).second)
      throw UsageError(where + ": SM " + std::to_string(sm) + " given twice");
  }
  return lanes;
}

void SmCoverage::add_check(const std::string& family, const nlohmann::json& record) {
  const auto placed_lanes = record.find("sm_lanes");
  if (placed_lanes == record.end()) {
    if (compared_lanes(record) > 0) unplaced.insert(family);
    return;
  }
  LanesBySm& into = families[family];
  for (const auto& [sm, lanes] : sm_lanes_of(*placed_lanes)) add_count(into[sm], lanes);
}

void SmCoverage::merge(const SmCoverage& other) {
  if (multiprocessors == 0) multiprocessors = other.multiprocessors;
  for (const auto& [family, lanes] : other.families) {
    LanesBySm& into = families[family];
    for (const auto& [sm, n] : lanes) add_count(into[sm], n);
  }
  unplaced.insert(other.unplaced.begin(), other.unplaced.end());
}

std::vector<uint32_t> missed_sms(const LanesBySm& lanes, int multiprocessors) {
  std::vector<uint32_t> missed;
  for (uint32_t sm = 0; static_cast<int64_t>(sm) < multiprocessors; ++sm) {
    const auto it = lanes.find(sm);
    if (it == lanes.end() || it->second == 0) missed.push_back(sm);
  }
  return missed;
}

std::vector<uint32_t> sms_past_count(const LanesBySm& lanes, int multiprocessors) {
  std::vector<uint32_t> past;
  for (const auto& [sm, n] : lanes)
    if (static_cast<int64_t>(sm) >= multiprocessors && n > 0) past.push_back(sm);
  return past;
}

std::vector<uint32_t> matrix_sms(const SmCoverage& c) {
  std::vector<uint32_t> sms;
  for (uint32_t sm = 0; static_cast<int64_t>(sm) < c.multiprocessors; ++sm) sms.push_back(sm);
  for (const auto& [family, lanes] : c.families)
    for (uint32_t sm : sms_past_count(lanes, c.multiprocessors)) sms.push_back(sm);
  std::sort(sms.begin(), sms.end());
  sms.erase(std::unique(sms.begin(), sms.end()), sms.end());
  return sms;
}

std::string id_ranges(const std::vector<uint32_t>& ids) {
  std::string text;
  for (size_t i = 0; i < ids.size();) {
    size_t end = i;
    while (end + 1 < ids.size() && ids[end + 1] == ids[end] + 1) ++end;
    text += (text.empty() ? "" : ",") + std::to_string(ids[i]) + (end > i ? "-" + std::to_string(ids[end]) : "");
    i = end + 1;
  }
  return text;
}

bool every_sm_covered(const SmCoverage& c) {
  if (c.multiprocessors <= 0 || c.families.empty()) return false;
  for (const auto& [family, lanes] : c.families)
    if (!missed_sms(lanes, c.multiprocessors).empty()) return false;
  return true;
}

std::string coverage_text(const SmCoverage& c) {
  std::string text;
  const std::string families = std::to_string(c.families.size()) + (c.families.size() == 1 ? " family" : " families");
  if (c.families.empty()) {
    text = "no check recorded the SMs its lanes ran on";
  } else if (c.multiprocessors <= 0) {
    text = "SM count unknown (no device record): " + families + " placed";
  } else if (every_sm_covered(c)) {
    text = "every one of " + std::to_string(c.multiprocessors) + " SMs verified lanes of each of " + families;
  } else {
    std::string missed;
    for (const auto& [family, lanes] : c.families)
      if (const std::string ids = id_ranges(missed_sms(lanes, c.multiprocessors)); !ids.empty())
        missed += (missed.empty() ? "" : "; ") + family + " missed " + ids;
    text = "of " + std::to_string(c.multiprocessors) + " SMs, " + missed;
  }
  std::vector<uint32_t> past = matrix_sms(c);
  past.erase(past.begin(), past.begin() + std::max(c.multiprocessors, 0));
  if (c.multiprocessors > 0 && !past.empty()) text += "; SM ids past the count: " + id_ranges(past);
  std::string unplaced;
  for (const std::string& family : c.unplaced)
    if (c.families.count(family) == 0) unplaced += " " + family;
  if (!unplaced.empty()) text += "; not placed:" + unplaced;
  return text;
}

nlohmann::json coverage_json(const SmCoverage& c) {
  nlohmann::json families = nlohmann::json::object(), missed = nlohmann::json::object();
  for (const auto& [family, lanes] : c.families) {
    nlohmann::json pairs = nlohmann::json::array();
    for (const auto& [sm, n] : lanes) pairs.push_back({sm, n});
    families[family] = pairs;
    missed[family] = id_ranges(missed_sms(lanes, c.multiprocessors));
  }
  return {{"multiprocessors", c.multiprocessors},
          {"families", families},
          {"not_placed", c.unplaced},
          {"missed", missed},
          {"every_sm_covered", every_sm_covered(c)},
          {"summary", coverage_text(c)}};
}

SmCoverage coverage_from_json(const nlohmann::json& j, const std::string& where) {
  const auto member = [&](const char* key) -> const nlohmann::json& {
    if (!j.is_object() || !j.contains(key)) throw UsageError(where + ": no " + key);
    return j[key];
  };
  SmCoverage c;
  const nlohmann::json& sms = member("multiprocessors");
  if (!sms.is_number_integer() || sms.get<int64_t>() < 0 || sms.get<int64_t>() > static_cast<int64_t>(kLastSm) + 1)
    throw UsageError(where + ".multiprocessors: not an SM count");
  c.multiprocessors = static_cast<int>(sms.get<int64_t>());
  const nlohmann::json& families = member("families");
  if (!families.is_object()) throw UsageError(where + ".families: not an object");
  for (const auto& [family, pairs] : families.items()) {
    try {
      c.families[family] = sm_lanes_of(pairs);
    } catch (const UsageError& e) {
      throw UsageError(where + ".families." + family + ": " + e.what());
    }
  }
  const nlohmann::json& unplaced = member("not_placed");
  if (!unplaced.is_array()) throw UsageError(where + ".not_placed: not a list of families");
  for (const nlohmann::json& family : unplaced) {
    if (!family.is_string()) throw UsageError(where + ".not_placed: not a list of families");
    c.unplaced.insert(family.get<std::string>());
  }
  return c;
}

}  // namespace wc::cli
