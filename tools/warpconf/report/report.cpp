#include "warpconf/report/report.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <set>
#include <sstream>

#include "core/code_paths.hpp"
#include "core/files.hpp"
#include "core/numbers.hpp"
#include "formats/text.hpp"

namespace wc::cli {

namespace {

namespace fs = std::filesystem;

nlohmann::json sums_json(const FamilySums& s) {
  return {{"checks", s.records},     {"cases", s.cases},           {"random_cases", s.random_cases},
          {"lanes", s.lanes},        {"mismatches", s.mismatches}, {"verdicts", s.verdicts},
          {"known_deviation_lanes", s.deviation_lanes}};
}

FamilySums sums_from(const JsonObject& j) {
  FamilySums s;
  s.records = j.count("checks");
  s.cases = j.count("cases");
  s.random_cases = j.count("random_cases");
  s.lanes = j.counts("lanes");
  s.mismatches = j.counts("mismatches");
  s.verdicts = j.counts("verdicts");
  s.deviation_lanes = j.counts("known_deviation_lanes");
  for (const auto& [verdict, n] : s.verdicts)
    if (!is_verdict(verdict)) throw UsageError(j.path_of("verdicts") + ": unknown verdict " + golden::text::quote(verdict));
  return s;
}

nlohmann::json cell_json(const Cell& c) {
  nlohmann::json j = {{"device", c.device},   {"family", c.family}, {"intrinsic", c.intrinsic},
                      {"type", c.type},       {"scenes", c.scenes}, {"verdict", c.verdict()},
                      {"random_checks", c.random_checks}, {"seeds", c.seeds}, {"first", c.first},
                      {"replay", c.replay},   {"reason", c.reason}};
  j.update(sums_json(c.sums));
  return j;
}

Cell cell_from(const JsonObject& j) {
  Cell c;
  c.device = j.text("device");
  c.family = j.text("family");
  c.intrinsic = j.text("intrinsic");
  c.type = j.text("type");
  c.scenes = j.text("scenes");
  c.sums = sums_from(j);
  c.random_checks = j.count("random_checks");
  c.seeds = j.texts("seeds");
  j.expect("first", Shape::object, true);
  c.first = j.at("first");
  c.replay = j.text("replay");
  c.reason = j.text("reason");
  // A cell's verdict is the worst of its checks': the writers have none to show for a cell of no check.
  if (c.verdict().empty()) throw UsageError(j.path_of("verdicts") + ": counts no check, so the cell has no verdict");
  return c;
}

RunInfo run_from(const JsonObject& j) {
  RunInfo r;
  r.warpconf = j.text("warpconf");
  r.command = j.text_of("command", {"run", "report", "merge"});
  r.argv = j.texts("argv");
  r.budget = j.text("budget");
  r.variant = j.text("variant");
  r.status = j.text_of("status", {"running", "finished", "aborted"});
  r.start = j.text("start");
  r.end = j.text("end");
  r.seconds = j.number("seconds", 0, kMostSeconds);
  for (const JsonObject& round : j.objects("rounds"))
    r.rounds.push_back({static_cast<int>(round.integer("round", 0, std::numeric_limits<int>::max())), round.text("seed"),
                        round.text("summary")});
  for (const JsonObject& source : j.objects("sources")) {
    source.text("path");
    source.object("run");
  }
  r.sources = j.at("sources");
  return r;
}

Fingerprint fingerprint_from(const JsonObject& j) {
  constexpr int64_t most = std::numeric_limits<int>::max();
  Fingerprint f;
  f.id = j.text("id");
  f.name = j.text("name");
  f.uuid = j.text("uuid");
  f.ordinal = static_cast<int>(j.integer("ordinal", -1, most));
  f.compute_capability = j.text("compute_capability");
  f.multiprocessors = static_cast<int>(j.integer("multiprocessors", 0, most));
  f.driver = j.text("driver");
  f.driver_release = j.text("driver_release");
  f.runtime = j.text("runtime");
  f.nvcc = j.text("nvcc");
  f.architectures = j.text("architectures");
  f.code_path = j.text("code_path");
  f.ptx_version = static_cast<int>(j.integer("ptx_version", 0, most));
  f.binary_version = static_cast<int>(j.integer("binary_version", 0, most));
  f.variant = j.text("variant");
  f.proof = j.optional_text("proof");  // reports before the code paths' proofs have none
  f.compiled_at_run_time = j.has("compiled_at_run_time") && j.at("compiled_at_run_time") == true;
  return f;
}

Deviation deviation_from(const JsonObject& j) {
  return {j.text("device"), j.text("id"), j.text("documented"), j.text("observed"), j.text("evidence"),
          j.count("lanes"), j.count("checks")};
}

BehaviourChange behaviour_change_from(const JsonObject& j) {
  return {j.text("device"), j.text("source"), j.text("family"), j.text("what"), j.text("detail"), j.text("was"),
          j.text("file"), j.count("lanes")};
}

Contract contract_from(const JsonObject& j) {
  return {j.text("device"),   j.text("id"),      j.text("probe_family"), j.text("intrinsic"), j.text("scenario"),
          j.text("mask"),     j.text("outcome"), j.text("detail"),       j.text("golden"),    j.text("was"),
          j.optional_text("path")};
}

TestResult test_from(const JsonObject& j) {
  TestResult t;
  t.name = j.text("name");
  t.status = j.text_of("status", {"passed", "failed", "timeout", "not-run", "skipped", "disabled"});
  t.ctest = j.text("ctest");
  t.seconds = j.number("seconds", 0, kMostSeconds);
  t.round = static_cast<int>(j.integer("round", 0, std::numeric_limits<int>::max()));
  t.skip = j.text_of("skip", {"", "not-supported", "not-recorded", "unexplained"});
  t.reason = j.text("reason");
  t.source = j.text("source");
  return t;
}

void add_seed(Cell& c, const std::string& seed) {
  if (c.seeds.size() < Cell::kMaxSeeds && std::find(c.seeds.begin(), c.seeds.end(), seed) == c.seeds.end())
    c.seeds.push_back(seed);
}

void merge_cell(Cell& into, const Cell& from) {
  into.sums.add(from.sums);
  add_count(into.random_checks, from.random_checks);
  for (const std::string& seed : from.seeds) add_seed(into, seed);
  if (into.first.is_null()) {
    into.first = from.first;
    into.replay = from.replay;
  }
  if (into.reason.empty()) into.reason = from.reason;
}

void merge_deviation(Deviation& into, const Deviation& from) {
  add_count(into.lanes, from.lanes);
  add_count(into.checks, from.checks);
}

int integer(const nlohmann::json& object, const char* key, int otherwise) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<int>() : otherwise;
}

// A device row is one device, driver, toolkit, code path and variant.
std::string fingerprint_id(const Fingerprint& f) {
  return f.uuid + " " + f.driver_release + " nvcc " + f.nvcc + " " + f.code_path + " " + f.variant;
}

Fingerprint fingerprint_of(const nlohmann::json& record, const std::string& variant) {
  const nlohmann::json& d = record["device"];
  const nlohmann::json build = record.value("build", nlohmann::json::object());
  Fingerprint f;
  if (!d.value("present", false)) {
    f.name = "no GPU: " + field_text(d, "reason");
    f.id = "no GPU";
    f.variant = variant;
    return f;
  }
  f.name = field_text(d, "name");
  f.uuid = field_text(d, "uuid");
  f.ordinal = integer(d, "ordinal", -1);
  f.compute_capability = field_text(d, "compute_capability");
  f.multiprocessors = integer(d, "multiprocessors", 0);
  f.driver = field_text(d, "driver");
  f.driver_release = field_text(d, "driver_release");
  f.runtime = field_text(d, "runtime");
  f.nvcc = field_text(build, "nvcc");
  f.architectures = field_text(build, "architectures");
  f.code_path = field_text(build, "code_path");
  f.ptx_version = integer(build, "ptx_version", 0);
  f.binary_version = integer(build, "binary_version", 0);
  f.proof = field_text(build, "code_path_proof");
  // Where the run does not say (perf, sanitize or the code path it asked for), the code path does.
  f.variant = !variant.empty() ? variant : f.code_path;
  f.id = fingerprint_id(f);
  return f;
}

// The tests by status and the skipped ones by reason: what the summary and run.tests count.
struct TestCounts {
  std::map<std::string, uint64_t> status = {{"passed", 0},  {"failed", 0},  {"timeout", 0},
                                            {"not-run", 0}, {"skipped", 0}, {"disabled", 0}};
  std::map<std::string, uint64_t> skipped;
};

TestCounts count_tests(const std::vector<TestResult>& tests) {
  TestCounts c;
  for (const TestResult& t : tests) {
    ++c.status[t.status];
    if (t.status == "skipped") ++c.skipped[t.skip];
  }
  return c;
}

nlohmann::json run_json(const Report& r) {
  nlohmann::json run = r.run;
  const TestCounts counts = count_tests(r.tests);
  run["tests"] = counts.status;
  run["skipped"] = counts.skipped;
  const RunStop& stop = r.run.stop;
  run["stop"] = stop.cause.empty() ? nlohmann::json(nullptr)
                                   : nlohmann::json{{"cause", stop.cause},
                                                    {"signal", stop.signal > 0 ? nlohmann::json(stop.signal) : nullptr},
                                                    {"detail", stop.detail}};
  return run;
}

constexpr int64_t kLastSignal = 64;  // Linux's SIGRTMAX

// run.stop: null, or {cause, signal, detail}; absent in reports written before it, which read as null.
RunStop stop_from(const nlohmann::json& run) {
  const nlohmann::json stop = run.value("stop", nlohmann::json());
  if (stop.is_null()) return {};
  const auto field = [&stop](const char* key) { return stop.value(key, nlohmann::json()); };
  const nlohmann::json signal = stop.is_object() ? field("signal") : nlohmann::json();
  const bool signal_ok = signal.is_null() || (signal.is_number_integer() && signal.get<int64_t>() > 0 &&
                                               signal.get<int64_t>() <= kLastSignal);
  if (!stop.is_object() || !field("cause").is_string() || !field("detail").is_string() || !signal_ok)
    throw UsageError("run.stop is neither null nor {cause, signal, detail}");
  return {field("cause").get<std::string>(), signal.is_null() ? 0 : signal.get<int>(),
          field("detail").get<std::string>()};
}

}  // namespace

bool is_verdict(std::string_view verdict) {
  return std::find(std::begin(kVerdictOrder), std::end(kVerdictOrder), verdict) != std::end(kVerdictOrder);
}

bool is_check_verdict(std::string_view verdict) { return is_verdict(verdict) && verdict != "performance-change"; }

int verdict_rank(std::string_view verdict) {
  for (size_t i = 0; i < std::size(kVerdictOrder); ++i)
    if (verdict == kVerdictOrder[i]) return static_cast<int>(i);
  throw UsageError("unknown verdict " + golden::text::quote(verdict));
}

bool is_failure(std::string_view v) {
  return v == "error" || v == "conformance-failure" || v == "nothing-compared" || v == "planted-missed";
}

bool test_fails(const TestResult& t) {
  return t.status != "passed" && t.status != "disabled" &&
         !(t.status == "skipped" && (t.skip == "not-supported" || t.skip == "not-recorded"));
}

bool report_fails(const Report& r, bool strict) {
  bool failed = std::any_of(r.tests.begin(), r.tests.end(), test_fails);
  for (const FamilySums* sums : {&r.totals, &r.planted})
    for (const auto& [verdict, n] : sums->verdicts) failed = failed || (n > 0 && is_failure(verdict));
  for (const PerfFigure& f : r.perf)
    failed = failed || is_failure(f.verdict) || (strict && f.verdict == "performance-change");
  return failed;
}

std::string Cell::verdict() const {
  std::string worst;
  for (const auto& [v, n] : sums.verdicts)
    if (n > 0 && (worst.empty() || verdict_rank(v) < verdict_rank(worst))) worst = v;
  return worst;
}

void Report::merge(const Report& other) {
  devices.insert(other.devices.begin(), other.devices.end());
  for (const auto& [key, cell] : other.cells) {
    const auto [it, inserted] = cells.emplace(key, cell);
    if (!inserted) merge_cell(it->second, cell);
  }
  for (const auto& [key, d] : other.deviations) {
    const auto [it, inserted] = deviations.emplace(key, d);
    if (!inserted) merge_deviation(it->second, d);
  }
  behaviour_changes.insert(behaviour_changes.end(), other.behaviour_changes.begin(), other.behaviour_changes.end());
  contracts.insert(contracts.end(), other.contracts.begin(), other.contracts.end());
  for (const PerfFigure& f : other.perf) add_perf_figure(perf, f);
  totals.add(other.totals);
  planted.add(other.planted);
  for (const auto& [device, c] : other.coverage) coverage[device].merge(c);
  tests.insert(tests.end(), other.tests.begin(), other.tests.end());
}

std::string RecordSink::device_of(int pid, const std::string& code_path) {
  const auto known = device_of_pid_.find(pid);
  if (known != device_of_pid_.end()) {
    const Fingerprint& process = report_.devices.at(known->second);
    if (code_path.empty() || code_path == process.code_path) return known->second;
    // Code the process compiled at run time (random programs) ran on a path of its own: the same device and
    // build on that path.
    Fingerprint on_path = process;
    on_path.code_path = code_path;
    on_path.proof = "compiled at run time by a process of the " + process.code_path + " path";
    on_path.compiled_at_run_time = true;
    on_path.id = fingerprint_id(on_path);
    report_.devices.emplace(on_path.id, on_path);
    return on_path.id;
  }
  Fingerprint unknown;
  unknown.id = unknown.name = "unknown";  // a record whose process wrote no device record
  report_.devices.emplace(unknown.id, unknown);
  return unknown.id;
}

void RecordSink::add(const nlohmann::json& r) {
  const int pid = integer(r, "pid", -1);
  if (r["record"] == "device") {
    const Fingerprint f = fingerprint_of(r, variant_);
    report_.devices.emplace(f.id, f);
    device_of_pid_[pid] = f.id;
    return;
  }
  const std::string device = device_of(pid, field_text(r, "code_path"));
  if (!field_text(r, "test").empty()) last_test_ = field_text(r, "test");
  if (r["record"] == "perf") {
    add_perf_figure(report_.perf, perf_figure_of(r, device));
    return;
  }
  const std::string verdict = r["verdict"].get<std::string>();
  const FamilySums sums = sums_of(r);
  const nlohmann::json scenario = r.value("scenario", nlohmann::json::object());
  Cell& cell = report_.cells[{device, field_text(r, "family"), field_text(r, "intrinsic"), field_text(r, "type"), field_text(scenario, "scenes")}];
  if (cell.sums.records == 0) {
    cell.device = device;
    cell.family = field_text(r, "family");
    cell.intrinsic = field_text(r, "intrinsic");
    cell.type = field_text(r, "type");
    cell.scenes = field_text(scenario, "scenes");
  }
  cell.sums.add(sums);
  if (!field_text(r, "seed").empty()) {
    ++cell.random_checks;
    add_seed(cell, field_text(r, "seed"));
  }
  if (cell.first.is_null() && r.contains("first") && !r["first"].is_null()) {
    cell.first = r["first"];
    cell.replay = field_text(r, "replay");
  }
  if (cell.reason.empty()) cell.reason = field_text(r, "reason");
  (verdict.rfind("planted-", 0) == 0 ? report_.planted : report_.totals).add(sums);
  if (verdict.rfind("planted-", 0) != 0) {  // a planted bug's lanes verify nothing of the GPU
    SmCoverage& coverage = report_.coverage[device];
    coverage.multiprocessors = report_.devices.at(device).multiprocessors;
    coverage.add_check(field_text(r, "family"), r);
  }
  for (const auto& k : r.value("known_deviations", nlohmann::json::array())) {
    Deviation d{device, field_text(k, "id"), field_text(k, "documented"), field_text(k, "observed"), field_text(k, "evidence"),
                k.value("lanes", uint64_t{0}), 1};
    const auto [it, inserted] = report_.deviations.emplace(std::make_pair(device, d.id), d);
    if (!inserted) merge_deviation(it->second, d);
  }
  if (r.contains("golden") && r["golden"].is_object()) {
    const nlohmann::json& g = r["golden"];
    const uint64_t changed = g.value("behaviour_changes", uint64_t{0});
    if (changed > 0 || verdict == "behaviour-change")
      report_.behaviour_changes.push_back(
          {device, "golden " + field_text(g, "command"), field_text(r, "family"), field_text(r, "intrinsic"),
           grouped(changed) + " undefined or float outputs differ from the golden", "", field_text(g, "dir"), changed});
  }
  if (r.contains("contract") && r["contract"].is_object()) {
    const nlohmann::json& c = r["contract"];
    const auto fingerprint = report_.devices.find(device);
    const std::string path = c.contains("path") ? field_text(c, "path")
                             : fingerprint != report_.devices.end() ? fingerprint->second.code_path
                                                                    : "";
    report_.contracts.push_back({device, field_text(c, "id"), field_text(c, "probe_family"), field_text(r, "intrinsic"),
                                 field_text(c, "scenario"), field_text(c, "mask"), field_text(c, "outcome"), field_text(c, "detail"),
                                 field_text(c, "golden"), field_text(c, "was"), path});
    if (field_text(c, "golden") == "changed")
      report_.behaviour_changes.push_back({device, "contract probe", "contract", path + " " + field_text(c, "id"),
                                           field_text(c, "outcome") + " | " + field_text(c, "detail"), field_text(c, "was"),
                                           field_text(c, "golden_file"), 0});
  }
}

std::string grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string seconds_text(double seconds) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f", seconds);
  const std::string s = text;
  return s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0 ? s.substr(0, s.size() - 2) : s;
}

std::string summary_line(const Report& r) {
  std::vector<std::string> names;
  for (const auto& [id, f] : r.devices)
    if (std::find(names.begin(), names.end(), f.name) == names.end()) names.push_back(f.name);
  std::string line;
  // A report written during a run says so: if it is the last one written, the run was killed.
  if (r.run.status == "running") line += "UNFINISHED (still running, or killed or crashed): ";
  else if (!r.aborted.is_null()) line += "ABORTED (" + field_text(r.aborted, "reason") + "): ";
  for (size_t i = 0; i < names.size(); ++i) line += (i > 0 ? ", " : "") + names[i];
  line += names.empty() ? "no device" : "";
  const auto part = [&line](uint64_t n, const std::string& singular, const std::string& plural) {
    line += "; " + grouped(n) + " " + (n == 1 ? singular : plural);
  };
  if (!r.tests.empty()) {
    TestCounts counts = count_tests(r.tests);
    line += ": " + grouped(r.tests.size()) + (r.tests.size() == 1 ? " test: " : " tests: ") +
            grouped(counts.status["passed"]) + " passed";
    for (const char* s : {"failed", "timeout", "not-run", "skipped", "disabled"}) {
      if (counts.status[s] == 0) continue;
      line += ", " + grouped(counts.status[s]) + " " + s;
      if (std::string(s) != "skipped") continue;
      std::string why;
      for (const auto& [kind, n] : counts.skipped)
        why += (why.empty() ? "" : ", ") + grouped(n) + " " + (kind.empty() ? "reason pending" : kind);
      line += " (" + why + ")";
    }
  }
  const auto lanes = [&r](const char* c) {
    const auto it = r.totals.lanes.find(c);
    return it == r.totals.lanes.end() ? uint64_t{0} : it->second;
  };
  const auto checks = [](const FamilySums& s, const char* v) {
    const auto it = s.verdicts.find(v);
    return it == s.verdicts.end() ? uint64_t{0} : it->second;
  };
  part(lanes("defined") + lanes("ptx-defined"), "lane compared", "lanes compared");
  part(checks(r.totals, "conformance-failure") + perf_count(r, "conformance-failure"), "conformance failure",
       "conformance failures");
  if (const uint64_t n = checks(r.totals, "error")) part(n, "error", "errors");
  if (const uint64_t n = checks(r.totals, "nothing-compared")) part(n, "check compared nothing", "checks compared nothing");
  if (const uint64_t n = checks(r.planted, "planted-missed")) part(n, "planted bug missed", "planted bugs missed");
  std::set<std::string> deviation_ids;
  for (const auto& [key, d] : r.deviations) deviation_ids.insert(d.id);
  part(deviation_ids.size(), "known deviation", "known deviations");
  part(r.behaviour_changes.size(), "behaviour change", "behaviour changes");
  // Compilers' bugs, apart from the GPU's: recorded ones pass a run, new ones fail the command that found them.
  if (const uint64_t n = checks(r.totals, "toolchain-bug")) part(n, "toolchain bug", "toolchain bugs");
  if (!r.perf.empty()) part(perf_count(r, "performance-change"), "performance change", "performance changes");
  if (const uint64_t n = perf_count(r, "costlier-than-raw"))
    part(n, "library call costlier than its raw intrinsic", "library calls costlier than their raw intrinsics");
  return line;
}

std::vector<std::string> coverage_lines(const Report& r) {
  std::vector<std::string> lines;
  for (const auto& [device, c] : r.coverage)
    if (c.placed()) lines.push_back(device_label(r, device) + ": " + coverage_text(c));
  return lines;
}

const CodePath* code_path_of_test(std::string_view name) {
  const size_t slash = name.find('/');
  return slash == std::string_view::npos ? nullptr : find_code_path(name.substr(0, slash));
}

Report part_on_path(const Report& r, const std::string& path) {
  Report part;
  for (const auto& [id, f] : r.devices)
    if (f.code_path == path) part.devices.emplace(id, f);
  const auto on_path = [&part](const std::string& device) { return part.devices.count(device) > 0; };
  for (const auto& [key, c] : r.cells)
    if (on_path(c.device))  // a planted check names its plant in its intrinsic, so its cell holds planted checks only
      (c.verdict().rfind("planted-", 0) == 0 ? part.planted : part.totals).add(c.sums);
  for (const auto& [key, d] : r.deviations)
    if (on_path(d.device)) part.deviations.emplace(key, d);
  for (const BehaviourChange& b : r.behaviour_changes)
    if (on_path(b.device)) part.behaviour_changes.push_back(b);
  for (const PerfFigure& f : r.perf)
    if (on_path(f.device)) part.perf.push_back(f);
  for (const TestResult& t : r.tests) {
    const CodePath* named = code_path_of_test(t.name);
    if ((named != nullptr ? named->name : kCodePaths[0].name) == path) part.tests.push_back(t);
  }
  return part;
}

std::vector<std::string> code_path_lines(const Report& r) {
  std::vector<std::string> paths;
  for (const CodePath& p : kCodePaths)
    for (const auto& [id, f] : r.devices)
      if (f.code_path == p.name) {
        paths.emplace_back(p.name);
        break;
      }
  if (paths.size() < 2) return {};
  std::vector<std::string> lines;
  for (const std::string& path : paths) {
    const Report part = part_on_path(r, path);
    std::string proof;  // the build's own proof where the path has one, else that of code compiled at run time
    for (const auto& [id, f] : part.devices)
      if (!f.proof.empty() && (proof.empty() || !f.compiled_at_run_time)) proof = f.proof;
    lines.push_back(path + ": " + summary_line(part) + "; " + (proof.empty() ? "no proof that it ran was recorded" : proof));
  }
  return lines;
}

uint64_t perf_count(const Report& r, const std::string& verdict) {
  return static_cast<uint64_t>(
      std::count_if(r.perf.begin(), r.perf.end(), [&verdict](const PerfFigure& f) { return f.verdict == verdict; }));
}

std::string aborted_text(const Report& r) {
  if (r.aborted.is_null()) return "";
  std::string t = field_text(r.aborted, "reason");
  if (!field_text(r.aborted, "last_test").empty()) t += "; last test finished: " + field_text(r.aborted, "last_test");
  const auto in_flight = r.aborted.find("in_flight");
  if (in_flight != r.aborted.end() && in_flight->is_array() && !in_flight->empty()) {
    t += "; running then:";
    for (const auto& test : *in_flight) t += " " + (test.is_string() ? test.get<std::string>() : test.dump());
  }
  return t;
}

std::string stop_text(const RunStop& stop) {
  if (stop.cause.empty()) return "";
  return stop.cause + (stop.signal > 0 ? " " + std::to_string(stop.signal) : "") +
         (stop.detail.empty() ? "" : ": " + stop.detail);
}

std::string device_label(const Report& r, const std::string& id) {
  const auto it = r.devices.find(id);
  if (it == r.devices.end() || it->second.uuid.empty()) return id;
  const Fingerprint& f = it->second;
  const bool variant_says_more = f.variant != "sass" && f.variant != f.code_path;
  return f.name + " (" + f.uuid.substr(0, 12) + ", " + f.code_path + (variant_says_more ? ", " + f.variant : "") + ")";
}

std::string code_note(const Fingerprint& f) {
  if (f.compiled_at_run_time) return "";  // NVRTC's code, not the build's: its path is its column
  std::string cc;  // "9.0" -> "90"
  for (const char c : f.compute_capability)
    if (c != '.') cc += c;
  // The build's SASS architectures: "90" and "90-real" (and "90a-real") are sm_90 code, "75-virtual" is PTX.
  bool named = false, built = false;
  size_t at = 0;
  while (at <= f.architectures.size()) {
    const size_t end = std::min(f.architectures.find_first_of(",;", at), f.architectures.size());
    const std::string entry = f.architectures.substr(at, end - at);
    at = end + 1;
    const size_t digits = entry.find_first_not_of("0123456789");
    if (digits == 0 || entry.empty()) continue;
    named = true;
    const std::string suffix = entry.substr(digits == std::string::npos ? entry.size() : digits);
    if (entry.compare(0, digits, cc) == 0 && suffix.find("-virtual") == std::string::npos) built = true;
  }
  const std::string missing = named && !built ? "no sm_" + cc + " SASS in the build (architectures " + f.architectures + "): " : "";
  // Records of warpconf before the code paths said "driver-jit" for either JIT path.
  const bool jit = f.code_path.rfind("jit-", 0) == 0 || f.code_path == "driver-jit";
  if (jit && f.variant != f.code_path)
    return missing + "the driver JIT-compiled the embedded compute_" + std::to_string(f.ptx_version) + " PTX";
  if (!jit && f.binary_version > 0 && std::to_string(f.binary_version) != cc)
    return missing + "sm_" + std::to_string(f.binary_version) + " SASS ran on compute capability " + f.compute_capability;
  return "";
}

std::vector<const Cell*> counterexample_cells(const Report& r) {
  std::vector<const Cell*> cells;
  for (const auto& [key, c] : r.cells)
    if (!c.first.is_null() && c.verdict() != "planted-caught") cells.push_back(&c);
  std::stable_sort(cells.begin(), cells.end(),
                   [](const Cell* a, const Cell* b) { return verdict_rank(a->verdict()) < verdict_rank(b->verdict()); });
  return cells;
}

bool ContractMatrix::ran_everywhere(const std::string& probe) const {
  for (const std::string& p : paths) {
    const auto cell = cells.find({probe, p});
    if (cell != cells.end() && cell->second->outcome != "ran") return false;
  }
  return true;
}

std::vector<ContractMatrix> contract_matrices(const Report& r) {
  std::vector<ContractMatrix> matrices;
  for (const Contract& c : r.contracts) {
    const auto device = r.devices.find(c.device);
    const std::string gpu = device == r.devices.end() ? c.device
                                                      : device->second.name + " (" + device->second.uuid.substr(0, 12) + ")";
    auto m = std::find_if(matrices.begin(), matrices.end(), [&gpu](const ContractMatrix& x) { return x.gpu == gpu; });
    if (m == matrices.end()) m = matrices.insert(matrices.end(), ContractMatrix{gpu, {}, {}, {}});
    if (std::find(m->paths.begin(), m->paths.end(), c.path) == m->paths.end()) m->paths.push_back(c.path);
    if (std::find(m->probes.begin(), m->probes.end(), c.id) == m->probes.end()) m->probes.push_back(c.id);
    m->cells.emplace(std::make_pair(c.id, c.path), &c);
  }
  // Columns in the table's order; a path it does not know (a report of another warpconf) last.
  const auto rank = [](const std::string& path) {
    for (size_t i = 0; i < std::size(kCodePaths); ++i)
      if (kCodePaths[i].name == path) return i;
    return std::size(kCodePaths);
  };
  for (ContractMatrix& m : matrices)
    std::stable_sort(m.paths.begin(), m.paths.end(), [&rank](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  return matrices;
}

nlohmann::json to_json(const Report& r) {
  nlohmann::json devices = nlohmann::json::array(), cells = nlohmann::json::array(),
                 deviations = nlohmann::json::array();
  for (const auto& [id, f] : r.devices) devices.push_back(f);
  for (const auto& [key, c] : r.cells) cells.push_back(cell_json(c));
  for (const auto& [key, d] : r.deviations) deviations.push_back(d);
  nlohmann::json perf = nlohmann::json::array();
  for (const PerfFigure& f : r.perf) perf.push_back(perf_json(f));
  nlohmann::json coverage = nlohmann::json::array();
  for (const auto& [device, c] : r.coverage) {
    if (!c.placed()) continue;
    nlohmann::json one = {{"device", device}};
    one.update(coverage_json(c));
    coverage.push_back(one);
  }
  return {{"schema", kReportSchema},
          {"summary", summary_line(r)},
          {"code_paths", code_path_lines(r)},
          {"verdict_rule", kVerdictRule},
          {"run", run_json(r)},
          {"devices", devices},
          {"totals", sums_json(r.totals)},
          {"planted", sums_json(r.planted)},
          {"cells", cells},
          {"known_deviations", deviations},
          {"behaviour_changes", r.behaviour_changes},
          {"contracts", r.contracts},
          {"perf", perf},
          {"sm_coverage", coverage},
          {"tests", r.tests},
          {"aborted", r.aborted}};
}

Report report_from_json(const nlohmann::json& j, const std::string& name) {
  Report r;
  try {
    const JsonObject report(j, "");
    const std::string schema = report.text("schema");
    if (schema != kReportSchema)
      throw UsageError("schema " + golden::text::quote(schema) + ", this warpconf reads " + kReportSchema);
    r.run = run_from(report.object("run"));
    r.run.stop = stop_from(report.at("run"));
    for (const JsonObject& d : report.objects("devices")) {
      const Fingerprint f = fingerprint_from(d);
      r.devices.emplace(f.id, f);
    }
    for (const JsonObject& c : report.objects("cells")) {
      const Cell cell = cell_from(c);
      r.cells.emplace(std::make_tuple(cell.device, cell.family, cell.intrinsic, cell.type, cell.scenes), cell);
    }
    for (const JsonObject& d : report.objects("known_deviations")) {
      const Deviation deviation = deviation_from(d);
      r.deviations.emplace(std::make_pair(deviation.device, deviation.id), deviation);
    }
    for (const JsonObject& c : report.objects("behaviour_changes")) r.behaviour_changes.push_back(behaviour_change_from(c));
    for (const JsonObject& c : report.objects("contracts")) r.contracts.push_back(contract_from(c));
    // A report written before reports held perf figures has none.
    if (report.has("perf"))
      for (const JsonObject& f : report.objects("perf")) r.perf.push_back(perf_figure_from(f));
    // A report written before runs recorded where lanes ran has no SM coverage.
    if (report.has("sm_coverage")) {
      report.expect("sm_coverage", Shape::list);
      const nlohmann::json& coverage = j["sm_coverage"];
      for (size_t i = 0; i < coverage.size(); ++i) {
        const std::string where = "sm_coverage[" + std::to_string(i) + "]";
        r.coverage[JsonObject(coverage[i], where).text("device")].merge(coverage_from_json(coverage[i], where));
      }
    }
    r.totals = sums_from(report.object("totals"));
    r.planted = sums_from(report.object("planted"));
    for (const JsonObject& t : report.objects("tests")) r.tests.push_back(test_from(t));
    report.expect("aborted", Shape::object, true);
    r.aborted = report.at("aborted");
    if (!r.aborted.is_null()) {
      const JsonObject aborted = report.object("aborted");
      aborted.text("reason");
      aborted.expect("last_test", Shape::text, true);
      aborted.expect("in_flight", Shape::list);
    }
  } catch (const UsageError& e) {
    throw UsageError(name + ": " + e.what());
  }
  return r;
}

Report parse_report(std::string_view text, const std::string& name) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) throw UsageError(name + ": not JSON");
  return report_from_json(j, name);
}

void write_report_files(const Report& r, const std::string& dir) {
  const auto write = [&dir](const char* file, const auto& body) {
    std::ostringstream os;
    body(os);
    files::write_atomically((fs::path(dir) / file).string(), os.str());
  };
  // Test output and names may hold bytes that are not UTF-8: replaced, not a reason to lose the report.
  write("report.json", [&r](std::ostream& os) {
    os << to_json(r).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  });
  write("report.md", [&r](std::ostream& os) { write_markdown(r, os); });
  write("report.html", [&r](std::ostream& os) { write_html(r, os); });
}

std::string warpconf_version() { return WARPCONF_GIT; }

}  // namespace wc::cli
