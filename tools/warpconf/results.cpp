#include "warpconf/results.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <set>

#include "testing/results.hpp"
#include "warpconf/numbers.hpp"

namespace wc::cli {
namespace {

void add_counts(std::map<std::string, uint64_t>& into, const std::map<std::string, uint64_t>& from) {
  for (const auto& [key, n] : from) into[key] += n;
}

uint64_t count(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number_unsigned() ? it->get<uint64_t>() : 0;
}

std::string device_line(const nlohmann::json& r) {
  const nlohmann::json& d = r["device"];
  if (!d.value("present", false)) return "no GPU: " + d.value("reason", std::string("?"));
  const nlohmann::json build = r.value("build", nlohmann::json::object());
  return d.value("name", std::string("?")) + " " + d.value("uuid", std::string("?")) + ", compute capability " +
         d.value("compute_capability", std::string("?")) + ", driver " + d.value("driver", std::string("?")) +
         ", runtime " + d.value("runtime", std::string("?")) + ", nvcc " + build.value("nvcc", std::string("?")) +
         ", " + build.value("code_path", std::string("?"));
}

nlohmann::json sums_json(const FamilySums& s) {
  return {{"records", s.records},       {"cases", s.cases},           {"random_cases", s.random_cases},
          {"lanes", s.lanes},           {"mismatches", s.mismatches}, {"verdicts", s.verdicts},
          {"known_deviation_lanes", s.deviation_lanes}};
}

}  // namespace

uint64_t count_value(const nlohmann::json& value, const std::string& key) {
  if (!value.is_number_unsigned()) throw UsageError(key + " is not a count (an integer of 0 or more): " + value.dump());
  return value.get<uint64_t>();
}

uint64_t count_field(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? 0 : count_value(*it, key);
}

FamilySums sums_of(const nlohmann::json& r) {
  FamilySums s;
  s.records = 1;
  s.cases = count(r, "cases");
  if (!r.value("seed", nlohmann::json()).is_null()) s.random_cases = s.cases;
  for (const char* c : kLaneClasses) {
    if (r.contains("lanes")) s.lanes[c] = count(r["lanes"], c);
    if (r.contains("mismatches")) s.mismatches[c] = count(r["mismatches"], c);
  }
  s.verdicts[r["verdict"].get<std::string>()] = 1;
  for (const auto& d : r.value("known_deviations", nlohmann::json::array()))
    s.deviation_lanes[d.value("id", "?")] += count_field(d, "lanes");
  return s;
}

void RecordReader::feed(std::string_view bytes, const Each& each) {
  for (size_t end; (end = bytes.find('\n')) != std::string_view::npos; bytes.remove_prefix(end + 1)) {
    partial_.append(bytes.substr(0, end));
    line(partial_, each);
    partial_.clear();
  }
  partial_.append(bytes);
}

int RecordReader::finish(const Each& each) {
  if (partial_.empty()) return 0;
  const std::string last = std::move(partial_);
  partial_.clear();
  if (nlohmann::json::parse(last, nullptr, false).is_discarded()) return ++lines_;
  line(last, each);
  return 0;
}

void RecordReader::line(const std::string& text, const Each& each) {
  ++lines_;
  const std::string where = name_ + ":" + std::to_string(lines_) + ": ";
  const nlohmann::json r = nlohmann::json::parse(text, nullptr, false);
  if (r.is_discarded() || !r.is_object()) throw UsageError(where + "not a JSON object");
  const std::string schema(testing::kResultsSchema);
  if (r.value("schema", std::string()) != schema)
    throw UsageError(where + "schema '" + r.value("schema", std::string()) + "', this warpconf reads " + schema);
  const std::string kind = r.value("record", std::string());
  if (kind == "device") {
    if (!r.contains("device") || !r["device"].is_object()) throw UsageError(where + "a device record without its device");
  } else if (kind == "check") {
    if (!r.contains("family") || !r.contains("verdict") || !r["verdict"].is_string())
      throw UsageError(where + "a check record without family or verdict");
  } else if (kind == "perf") {
    if (!r.contains("id") || !r.contains("verdict") || !r["verdict"].is_string())
      throw UsageError(where + "a perf record without id or verdict");
  } else {
    throw UsageError(where + "unknown record '" + kind + "'");
  }
  try {
    each(r);
  } catch (const UsageError& e) {
    throw UsageError(where + e.what());  // what the consumer refused, at its line
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(where + "a field of the wrong type: " + e.what());
  }
}

void FamilySums::add(const FamilySums& o) {
  records += o.records;
  cases += o.cases;
  random_cases += o.random_cases;
  add_counts(lanes, o.lanes);
  add_counts(mismatches, o.mismatches);
  add_counts(verdicts, o.verdicts);
  add_counts(deviation_lanes, o.deviation_lanes);
}

ResultsSummary summarize_results(std::istream& in, const std::string& name) {
  ResultsSummary summary;
  std::set<std::string> devices;
  const RecordReader::Each each = [&](const nlohmann::json& r) {
    if (r["record"] == "device") {
      if (devices.insert(device_line(r)).second) summary.devices.push_back(device_line(r));
      return;
    }
    if (r["record"] == "perf") {
      ++summary.perf.records;
      ++summary.perf.verdicts[r["verdict"].get<std::string>()];
      return;
    }
    const FamilySums s = sums_of(r);
    if (r["verdict"].get<std::string>().rfind("planted-", 0) == 0) {
      summary.planted.add(s);
      return;
    }
    summary.families[r["family"].get<std::string>()].add(s);
    summary.total.add(s);
  };
  RecordReader reader(name);
  std::string chunk(1 << 16, '\0');
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
    reader.feed(std::string_view(chunk.data(), static_cast<size_t>(in.gcount())), each);
  if (const int cut = reader.finish(each))
    throw UsageError(name + ":" + std::to_string(cut) + ": a record cut off mid-way (its writer was killed?)");
  if (reader.lines() == 0) throw UsageError(name + ": no records");
  return summary;
}

void print_results_text(const ResultsSummary& s, std::ostream& out) {
  for (const std::string& d : s.devices) out << "device: " << d << "\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-12s %8s %12s %12s %14s %14s %14s %14s %6s %10s\n", "family", "records", "cases",
                "random", "defined", "ptx-defined", "undefined", "not-called", "bad", "deviation");
  out << line;
  const auto row = [&](const std::string& family, const FamilySums& f) {
    uint64_t bad = 0, deviation = 0;
    for (const auto& [c, n] : f.mismatches) bad += n;
    for (const auto& [id, n] : f.deviation_lanes) deviation += n;
    const auto lanes = [&](const char* c) {
      const auto it = f.lanes.find(c);
      return static_cast<unsigned long long>(it == f.lanes.end() ? 0 : it->second);
    };
    std::snprintf(line, sizeof line, "%-12s %8llu %12llu %12llu %14llu %14llu %14llu %14llu %6llu %10llu\n",
                  family.c_str(), static_cast<unsigned long long>(f.records), static_cast<unsigned long long>(f.cases),
                  static_cast<unsigned long long>(f.random_cases), lanes("defined"), lanes("ptx-defined"),
                  lanes("undefined"), lanes("not-called"), static_cast<unsigned long long>(bad),
                  static_cast<unsigned long long>(deviation));
    out << line;
  };
  for (const auto& [family, f] : s.families) row(family, f);
  row("total", s.total);
  out << "verdicts:";
  for (const auto& [verdict, n] : s.total.verdicts) out << " " << verdict << " " << n << ";";
  out << "\n";
  for (const auto& [id, n] : s.total.deviation_lanes) out << "known deviation " << id << ": " << n << " lanes\n";
  if (s.perf.records > 0) {
    out << "performance figures (perf records, not in the rows above): " << s.perf.records << ";";
    for (const auto& [verdict, n] : s.perf.verdicts) out << " " << verdict << " " << n << ";";
    out << "\n";
  }
  if (s.planted.records == 0) return;
  out << "planted bugs (deliberately wrong implementations, not in the rows above):";
  for (const auto& [verdict, n] : s.planted.verdicts) out << " " << verdict << " " << n << ";";
  out << " " << s.planted.cases << " cases\n";
}

void print_results_json(const ResultsSummary& s, std::ostream& out) {
  nlohmann::json families = nlohmann::json::object();
  for (const auto& [family, f] : s.families) families[family] = sums_json(f);
  out << nlohmann::json{{"devices", s.devices}, {"families", families}, {"total", sums_json(s.total)},
                     {"planted", sums_json(s.planted)}, {"perf", sums_json(s.perf)}}.dump(2) << "\n";
}

}  // namespace wc::cli
