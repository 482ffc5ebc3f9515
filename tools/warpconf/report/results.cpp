#include "warpconf/report/results.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <limits>
#include <set>

#include "core/numbers.hpp"
#include "core/records.hpp"
#include "formats/text.hpp"
#include "warpconf/report/json_fields.hpp"
#include "warpconf/report/report.hpp"
#include "warpconf/report/report_perf.hpp"

namespace wc::cli {
namespace {

void add_counts(std::map<std::string, uint64_t>& into, const std::map<std::string, uint64_t>& from) {
  for (const auto& [key, n] : from) add_count(into[key], n);
}

// The members that warpconf's readers of records use have the shapes docs/results-schema.md gives
// them (the others are not read), a check's verdict and a perf figure are ones a report holds; a
// record of another schema or kind is refused.
void check_record(const nlohmann::json& record) {
  const JsonObject r(record, "");
  const std::string schema = r.text("schema");
  if (schema != check::kResultsSchema)
    throw UsageError("schema " + golden::text::quote(schema) + ", this warpconf reads " +
                     std::string(check::kResultsSchema));
  const std::string kind = r.text("record");
  for (const char* key : {"time", "test"}) r.expect(key, Shape::text);
  r.expect("pid", Shape::integer);
  if (kind == "device") {
    const JsonObject device = r.object("device");
    device.expect("present", Shape::flag);
    for (const char* key : {"reason", "name", "uuid", "compute_capability", "driver", "driver_release", "runtime"})
      device.expect(key, Shape::text);
    for (const char* key : {"ordinal", "multiprocessors"}) device.expect(key, Shape::integer);
    if (!r.has("build")) return;
    const JsonObject build = r.object("build");
    for (const char* key : {"nvcc", "architectures", "code_path"}) build.expect(key, Shape::text);
    for (const char* key : {"ptx_version", "binary_version"}) build.expect(key, Shape::integer);
  } else if (kind == "check") {
    r.text("family");
    if (!is_check_verdict(r.text("verdict")))
      throw UsageError("unknown verdict " + golden::text::quote(r.text("verdict")));
    for (const char* key : {"intrinsic", "type", "replay", "reason"}) r.expect(key, Shape::text);
    r.expect("seed", Shape::text, true);
    r.expect("cases", Shape::count);
    for (const char* key : {"lanes", "mismatches"}) r.expect(key, Shape::counts);
    r.expect("first", Shape::object, true);
    if (r.has("scenario")) r.object("scenario").expect("scenes", Shape::text);
    if (r.has("known_deviations"))
      for (const JsonObject& d : r.objects("known_deviations")) {
        d.text("id");
        d.count("lanes");
        for (const char* key : {"documented", "observed", "evidence"}) d.expect(key, Shape::text);
      }
    if (r.has("golden")) {
      const JsonObject compared = r.object("golden");
      for (const char* key : {"command", "dir"}) compared.expect(key, Shape::text);
      compared.expect("behaviour_changes", Shape::count);
    }
    if (r.has("sm_lanes")) sm_lanes_of(r.at("sm_lanes"));
    if (r.has("contract"))
      for (const char* key : {"id", "probe_family", "scenario", "mask", "outcome", "detail", "golden", "golden_file", "was"})
        r.object("contract").expect(key, Shape::text);
  } else if (kind == "perf") {
    r.text("id");
    r.text("verdict");
    perf_figure_of(record, "");  // its verdict, metric and figures are ones a report can hold
  } else {
    throw UsageError("unknown record " + golden::text::quote(kind));
  }
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
    add_count(s.deviation_lanes[d.value("id", "?")], d.value("lanes", uint64_t{0}));
  return s;
}

void RecordReader::feed(std::string_view bytes, const Each& each, const Refuse& refuse) {
  while (!bytes.empty()) {
    const size_t end = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, end);
    if (!overlong_ && partial_.size() + piece.size() > kMostRecordBytes) refuse_overlong(refuse);
    if (!overlong_) partial_.append(piece);
    if (end == std::string_view::npos) return;
    bytes.remove_prefix(end + 1);
    if (overlong_) {
      overlong_ = false;
      continue;
    }
    const std::string whole = std::move(partial_);
    partial_.clear();
    take(whole, each, refuse);
  }
}

void RecordReader::refuse_overlong(const Refuse& refuse) {
  ++lines_;
  overlong_ = true;
  const std::string why = name_ + ":" + std::to_string(lines_) + ": a line longer than " + kMostRecordWords +
                          ", which no record is";
  const std::string start = partial_.substr(0, 200);
  partial_.clear();
  if (!refuse) throw UsageError(why);
  refuse(start, why);
}

int RecordReader::finish(const Each& each, const Refuse& refuse) {
  if (overlong_) {  // refused when it passed the bound
    overlong_ = false;
    return 0;
  }
  if (partial_.empty()) return 0;
  const std::string last = std::move(partial_);
  partial_.clear();
  if (nlohmann::json::parse(last, nullptr, false).is_discarded()) return ++lines_;
  take(last, each, refuse);
  return 0;
}

int RecordReader::read_all(std::istream& in, const Each& each) {
  std::string chunk(1 << 16, '\0');
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
    feed(std::string_view(chunk.data(), static_cast<size_t>(in.gcount())), each);
  return finish(each);
}

void RecordReader::take(const std::string& text, const Each& each, const Refuse& refuse) {
  if (!refuse) return line(text, each);
  try {
    line(text, each);
  } catch (const UsageError& e) {
    refuse(text, e.what());
  } catch (const std::exception& e) {  // whatever else a line made the reader or `each` throw
    refuse(text, name_ + ":" + std::to_string(lines_) + ": " + e.what());
  }
}

void RecordReader::line(const std::string& text, const Each& each) {
  ++lines_;
  const std::string where = name_ + ":" + std::to_string(lines_) + ": ";
  const nlohmann::json r = nlohmann::json::parse(text, nullptr, false);
  if (r.is_discarded() || !r.is_object()) throw UsageError(where + "not a JSON object");
  try {
    check_record(r);
    each(r);
  } catch (const UsageError& e) {
    throw UsageError(where + e.what());  // what the record or its consumer got wrong, at its line
  }
}

void FamilySums::add(const FamilySums& o) {
  add_count(records, o.records);
  add_count(cases, o.cases);
  add_count(random_cases, o.random_cases);
  add_counts(lanes, o.lanes);
  add_counts(mismatches, o.mismatches);
  add_counts(verdicts, o.verdicts);
  add_counts(deviation_lanes, o.deviation_lanes);
}

void add_count(uint64_t& into, uint64_t n) {
  if (n > std::numeric_limits<uint64_t>::max() - into) throw UsageError("a sum of counts passes 2^64 - 1");
  into += n;
}

ResultsSummary summarize_results(std::istream& in, const std::string& name) {
  ResultsSummary summary;
  std::set<std::string> devices;
  std::map<int64_t, std::string> device_of_pid;  // a check's device: its process's last device record
  const RecordReader::Each each = [&](const nlohmann::json& r) {
    const int64_t pid = r.value("pid", int64_t{-1});
    if (r["record"] == "device") {
      const std::string line = device_line(r);
      if (devices.insert(line).second) summary.devices.push_back(line);
      device_of_pid[pid] = line;
      summary.coverage[line].multiprocessors = r["device"].value("multiprocessors", 0);
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
    const auto device = device_of_pid.find(pid);
    summary.coverage[device == device_of_pid.end() ? "unknown" : device->second].add_check(r["family"], r);
  };
  RecordReader reader(name);
  if (const int cut = reader.read_all(in, each))
    throw UsageError(name + ":" + std::to_string(cut) + ": a record cut off mid-way (its writer was killed?)");
  if (reader.lines() == 0) throw UsageError(name + ": no records");
  return summary;
}

std::vector<std::string> coverage_rows(const SmCoverage& c) {
  std::vector<std::string> rows;
  for (const auto& [family, lanes] : c.families) {
    uint64_t total = 0;
    for (const auto& [sm, n] : lanes) add_count(total, n);
    std::string row = family + ": " + std::to_string(lanes.size()) + (lanes.size() == 1 ? " SM, " : " SMs, ") +
                      grouped(total) + " lanes";
    const auto fewest = std::min_element(lanes.begin(), lanes.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    if (fewest != lanes.end()) row += ", fewest " + grouped(fewest->second) + " (SM " + std::to_string(fewest->first) + ")";
    rows.push_back(row);
  }
  return rows;
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
  for (const auto& [device, coverage] : s.coverage) {
    if (!coverage.placed()) continue;
    out << "SM coverage on " << device << ": " << coverage_text(coverage) << "\n";
    for (const std::string& row : coverage_rows(coverage)) out << "  " << row << "\n";
  }
  if (s.planted.records == 0) return;
  out << "planted bugs (deliberately wrong implementations, not in the rows above):";
  for (const auto& [verdict, n] : s.planted.verdicts) out << " " << verdict << " " << n << ";";
  out << " " << s.planted.cases << " cases\n";
}

void print_results_json(const ResultsSummary& s, std::ostream& out) {
  nlohmann::json families = nlohmann::json::object();
  for (const auto& [family, f] : s.families) families[family] = sums_json(f);
  nlohmann::json coverage = nlohmann::json::object();
  for (const auto& [device, c] : s.coverage)
    if (c.placed()) coverage[device] = coverage_json(c);
  out << nlohmann::json{{"devices", s.devices},          {"families", families},
                        {"total", sums_json(s.total)},   {"planted", sums_json(s.planted)},
                        {"perf", sums_json(s.perf)},     {"sm_coverage", coverage}}
             .dump(2)
      << "\n";
}

}  // namespace wc::cli
