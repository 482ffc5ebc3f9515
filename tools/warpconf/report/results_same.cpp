#include "warpconf/report/results_same.hpp"

#include <nlohmann/json.hpp>

#include <set>

#include "core/numbers.hpp"
#include "warpconf/report/json_fields.hpp"
#include "warpconf/report/results.hpp"

namespace wc::cli {
namespace {

void add_call_counts(CallCounts& into, const nlohmann::json& record) {
  const FamilySums s = sums_of(record);
  add_count(into["records"], s.records);
  add_count(into["cases"], s.cases);
  for (const auto& [lane_class, n] : s.lanes) add_count(into["lanes " + lane_class], n);
  for (const auto& [lane_class, n] : s.mismatches) add_count(into["bad " + lane_class], n);
  for (const auto& [id, n] : s.deviation_lanes) add_count(into["deviation " + id], n);
  for (auto it = into.begin(); it != into.end();) it = it->second == 0 ? into.erase(it) : std::next(it);
}

std::string call_counts_text(const CallCounts& counts) {
  std::string text;
  for (const auto& [name, n] : counts) text += (text.empty() ? "" : ", ") + name + " " + std::to_string(n);
  return text.empty() ? "nothing" : text;
}

uint64_t check_records_of(const CallSums& sums) {
  uint64_t n = 0;
  for (const auto& [key, counts] : sums) {
    const auto it = counts.find("records");
    if (it != counts.end()) add_count(n, it->second);
  }
  return n;
}

}  // namespace

std::string CallKey::text() const {
  return family + " " + intrinsic + " " + (type.empty() ? "(no type)" : type) + " " + verdict + " " + code_path;
}

CallSums call_sums(std::istream& in, const std::string& name) {
  CallSums sums;
  std::map<int64_t, std::string> path_of_pid;  // a process's code path, from its last device record
  const RecordReader::Each each = [&](const nlohmann::json& r) {
    const int64_t pid = r.value("pid", int64_t{-1});
    if (r["record"] == "device") {
      path_of_pid[pid] = r.contains("build") ? field_text(r["build"], "code_path") : "";
      return;
    }
    if (r["record"] != "check") return;
    std::string path = field_text(r, "code_path");
    if (path.empty()) {
      const auto process = path_of_pid.find(pid);
      path = process == path_of_pid.end() || process->second.empty() ? "unknown" : process->second;
    }
    add_call_counts(sums[{field_text(r, "family"), field_text(r, "intrinsic"), field_text(r, "type"), field_text(r, "verdict"), path}], r);
  };
  RecordReader reader(name);
  if (const int cut = reader.read_all(in, each))
    throw UsageError(name + ":" + std::to_string(cut) + ": a record cut off mid-way (its writer was killed?)");
  if (reader.lines() == 0) throw UsageError(name + ": no records");
  return sums;
}

int print_same_sums(const CallSums& first, const std::string& first_name, const CallSums& second,
                    const std::string& second_name, std::ostream& out) {
  std::set<CallKey> keys;
  for (const auto& [key, counts] : first) keys.insert(key);
  for (const auto& [key, counts] : second) keys.insert(key);
  uint64_t differing = 0;
  for (const CallKey& key : keys) {
    const auto a = first.find(key), b = second.find(key);
    if (a != first.end() && b != second.end() && a->second == b->second) continue;
    ++differing;
    out << key.text() << ": ";
    if (b == second.end()) out << "only in " << first_name << " (" << call_counts_text(a->second) << ")\n";
    else if (a == first.end()) out << "only in " << second_name << " (" << call_counts_text(b->second) << ")\n";
    else {
      std::set<std::string> names;
      for (const auto& [name, n] : a->second) names.insert(name);
      for (const auto& [name, n] : b->second) names.insert(name);
      std::string changes;
      for (const std::string& name : names) {
        const auto x = a->second.find(name), y = b->second.find(name);
        const uint64_t before = x == a->second.end() ? 0 : x->second, after = y == b->second.end() ? 0 : y->second;
        if (before != after)
          changes += (changes.empty() ? "" : ", ") + name + " " + std::to_string(before) + " -> " + std::to_string(after);
      }
      out << changes << "\n";
    }
  }
  const uint64_t records = check_records_of(first), other_records = check_records_of(second);
  if (records == 0 && other_records == 0) {
    out << "no check record in either file: nothing compared, no proof\n";
    return 1;
  }
  if (differing > 0) {
    out << differing << " of " << keys.size() << " calls differ (" << records << " check records in " << first_name
        << ", " << other_records << " in " << second_name << ")\n";
    return 1;
  }
  out << "the same: " << keys.size() << " calls (family x intrinsic x type x verdict x code path), " << records
      << " check records in each\n";
  return 0;
}

}  // namespace wc::cli
