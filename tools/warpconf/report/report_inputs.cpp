#include "warpconf/report/report_inputs.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "core/code_paths.hpp"
#include "core/files.hpp"
#include "core/numbers.hpp"
#include "formats/text.hpp"
#include "warpconf/cli/exit_status.hpp"

namespace wc::cli {
namespace {

namespace fs = std::filesystem;

// One line of ctest's output, read from the front: what its progress lines are made of.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}
  std::string_view rest() const { return text_; }
  void skip_spaces() {
    while (!text_.empty() && std::isspace(static_cast<unsigned char>(text_.front()))) text_.remove_prefix(1);
  }
  bool literal(std::string_view word) {
    if (text_.substr(0, word.size()) != word) return false;
    text_.remove_prefix(word.size());
    return true;
  }
  // One or more of `c`.
  bool some(char c) {
    const size_t n = std::min(text_.find_first_not_of(c), text_.size());
    text_.remove_prefix(n);
    return n > 0;
  }
  // One or more decimal digits; "" where there is none.
  std::string_view digits() {
    const size_t n = std::min(text_.find_first_not_of("0123456789"), text_.size());
    const std::string_view d = text_.substr(0, n);
    text_.remove_prefix(n);
    return d;
  }

 private:
  std::string_view text_;
};

std::string_view trim_end(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

// "  3/140 Test  #12: ": the test count M of "N/M" and what follows the colon; nothing for another line.
std::optional<std::pair<std::string_view, std::string_view>> test_line(std::string_view line) {
  Cursor c(line);
  c.skip_spaces();
  if (c.digits().empty() || !c.literal("/")) return std::nullopt;
  const std::string_view total = c.digits();
  if (total.empty() || !c.literal(" Test") || !c.some(' ') || !c.literal("#") || c.digits().empty() || !c.literal(": "))
    return std::nullopt;
  return std::make_pair(total, trim_end(c.rest()));
}

// A test ctest finished: "name ....   Passed    1.02 sec", "name ...***Failed  0.03 sec".
struct Finished {
  std::string_view total, name, ctest, seconds;
};

std::optional<Finished> finished_line(std::string_view line) {
  const auto head = test_line(line);
  if (!head) return std::nullopt;
  std::string_view body = head->second;
  if (body.size() < 4 || body.substr(body.size() - 4) != " sec") return std::nullopt;
  body.remove_suffix(4);
  const size_t number = body.find_last_not_of("0123456789.") + 1;  // npos + 1 is 0
  const std::string_view seconds = body.substr(number);
  body = body.substr(0, number);
  if (seconds.empty() || body.empty() || body.back() != ' ') return std::nullopt;
  // The name ends at the first run of dots that the status marker, three spaces or ***, follows.
  for (size_t at = body.find(" ."); at != std::string_view::npos; at = body.find(" .", at + 1)) {
    const size_t dots_end = std::min(body.find_first_not_of('.', at + 1), body.size());
    const std::string_view marker = body.substr(dots_end, 3), status = body.substr(std::min(dots_end + 3, body.size()));
    if ((marker == "   " || marker == "***") && !status.empty())
      return Finished{head->first, body.substr(0, at), trim_end(status), seconds};
  }
  return std::nullopt;
}

// ctest.log breaks some lines after the dots: "9/9 Test #13: probe.verify ..........".
bool cut_after_dots(std::string_view line) {
  const auto head = test_line(line);
  if (!head) return false;
  const std::string_view body = head->second;
  const size_t before_dots = body.find_last_not_of('.');
  return before_dots != std::string_view::npos && before_dots + 1 < body.size() && body[before_dots] == ' ';
}

// "    Start 12: name": the name.
std::optional<std::string_view> started_line(std::string_view line) {
  Cursor c(line);
  c.skip_spaces();
  if (!c.literal("Start") || !c.some(' ') || c.digits().empty() || !c.literal(": ")) return std::nullopt;
  return trim_end(c.rest());
}

// ctest 3.x: "100% tests passed, 0 tests failed out of 60"; ctest 4.x: "100% tests passed out of 60".
std::optional<std::string_view> ctest_summary(std::string_view line) {
  const std::string_view text = trim_end(line);
  if (text == "No tests were found!!!") return text;
  Cursor c(text);
  if (c.digits().empty() || !c.literal("% tests passed")) return std::nullopt;
  if (!c.literal(", ") && !c.literal(" out of ")) return std::nullopt;
  return text;
}

// ctest's words for how a test ended, as a status.
std::string status_of(const std::string& ctest) {
  if (ctest.rfind("Passed", 0) == 0) return "passed";
  if (ctest.rfind("Skipped", 0) == 0) return "skipped";
  if (ctest.rfind("Timeout", 0) == 0) return "timeout";
  if (ctest.rfind("Not Run (Disabled)", 0) == 0) return "disabled";
  if (ctest.rfind("Not Run", 0) == 0) return "not-run";
  return "failed";
}

std::string xml_unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const size_t semicolon = s[i] == '&' ? s.find(';', i) : std::string_view::npos;
    if (semicolon == std::string_view::npos || semicolon - i > 10) {
      out += s[i];
      continue;
    }
    const std::string_view entity = s.substr(i + 1, semicolon - i - 1);
    if (entity == "lt") out += '<';
    else if (entity == "gt") out += '>';
    else if (entity == "amp") out += '&';
    else if (entity == "quot") out += '"';
    else if (entity == "apos") out += '\'';
    else if (!entity.empty() && entity[0] == '#') {
      const bool hex = entity.size() > 1 && (entity[1] == 'x' || entity[1] == 'X');
      const unsigned long code = std::strtoul(std::string(entity.substr(hex ? 2 : 1)).c_str(), nullptr, hex ? 16 : 10);
      out += code < 0x80 ? static_cast<char>(code) : '?';  // a reason line needs no more than ASCII
    } else {
      out += s.substr(i, semicolon - i + 1);
    }
    i = semicolon;
  }
  return out;
}

// The value of attribute `name` in an XML start tag.
std::string attribute(const std::string& tag, const std::string& name) {
  const size_t at = tag.find(" " + name + "=\"");
  if (at == std::string::npos) return "";
  const size_t begin = at + name.size() + 3, end = tag.find('"', begin);
  return end == std::string::npos ? "" : xml_unescape(std::string_view(tag).substr(begin, end - begin));
}

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    const size_t begin = line.find_first_not_of(" \t\r"), end = line.find_last_not_of(" \t\r");
    if (begin != std::string::npos) lines.push_back(line.substr(begin, end + 1 - begin));
  }
  return lines;
}

std::string clip(const std::string& s, size_t n) { return s.size() <= n ? s : s.substr(0, n) + "..."; }

// How a failed test ended: GoogleTest's first failure and the line after it, else its last line.
std::string failure_reason(std::string_view output) {
  const std::vector<std::string> lines = lines_of(output);
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find("Failure") != std::string::npos)
      return clip(lines[i] + (i + 1 < lines.size() ? " " + lines[i + 1] : ""), 400);
  return lines.empty() ? "" : clip(lines.back(), 400);
}

// "2026-11-21T09:30:00Z" as seconds since the epoch; nothing for anything else.
std::optional<std::time_t> epoch_of(const std::string& iso) {
  if (!golden::text::recorded_error(iso).empty()) return std::nullopt;
  const auto number = [&iso](size_t at, size_t digits) {
    int n = 0;
    for (size_t i = at; i < at + digits; ++i) n = n * 10 + (iso[i] - '0');
    return n;
  };
  std::tm tm{};
  tm.tm_year = number(0, 4) - 1900;
  tm.tm_mon = number(5, 2) - 1;
  tm.tm_mday = number(8, 2);
  tm.tm_hour = number(11, 2);
  tm.tm_min = number(14, 2);
  tm.tm_sec = number(17, 2);
  return timegm(&tm);
}

// The report.json a merge is given: the file, or the one in a report folder.
fs::path report_file(const std::string& path) {
  return fs::is_directory(path) ? fs::path(path) / "report.json" : fs::path(path);
}

// What a report holds of each device it can tell apart (one with a UUID): its checks (cells,
// deviations, behaviour changes, contract probes) and its perf figures, by device id. A GPU's
// conformance and perf runs hold different parts of it; a device's part in two reports (one of them
// a merged report that holds it already) would count twice.
std::map<std::string, std::set<std::string>> device_parts(const Report& r) {
  std::map<std::string, std::set<std::string>> parts;
  const auto add = [&](const std::string& device, const char* part) {
    const auto it = r.devices.find(device);
    if (it != r.devices.end() && !it->second.uuid.empty()) parts[device].insert(part);
  };
  for (const auto& [key, cell] : r.cells) add(cell.device, "checks");
  for (const auto& [key, d] : r.deviations) add(d.device, "checks");
  for (const BehaviourChange& b : r.behaviour_changes) add(b.device, "checks");
  for (const Contract& c : r.contracts) add(c.device, "checks");
  for (const PerfFigure& f : r.perf) add(f.device, "perf figures");
  return parts;
}

nlohmann::json report_json(const fs::path& file) {
  nlohmann::json j = nlohmann::json::parse(files::read_input(file.string()), nullptr, false);
  if (j.is_discarded()) throw UsageError(file.string() + ": not JSON");
  return j;
}

}  // namespace

std::optional<TestResult> CtestProgress::line(std::string_view text) {
  std::string l(text);
  if (!l.empty() && l.back() == '\r') l.pop_back();
  if (!held_.empty()) {
    const size_t first = l.find_first_not_of(' ');
    if (first != std::string::npos && (l.compare(first, 3, "***") == 0 || l.compare(first, 6, "Passed") == 0))
      l = held_ + (l[first] == '*' ? "" : "   ") + l.substr(first);
    held_.clear();
  }
  if (const std::optional<Finished> f = finished_line(l)) {
    int total = 0;
    const auto [end, error] = std::from_chars(f->total.data(), f->total.data() + f->total.size(), total);
    if (error != std::errc() || end != f->total.data() + f->total.size())
      throw UsageError("the test count " + golden::text::quote(f->total) + " does not fit an int");
    double seconds = 0;
    const auto [stop, bad] = std::from_chars(f->seconds.data(), f->seconds.data() + f->seconds.size(), seconds);
    if (bad != std::errc() || stop != f->seconds.data() + f->seconds.size() || !(seconds <= kMostSeconds))
      throw UsageError("the seconds " + golden::text::quote(f->seconds) + " are not a number of seconds");
    total_ = total;
    TestResult t;
    t.name = f->name;
    t.ctest = f->ctest;
    t.status = status_of(t.ctest);
    t.seconds = seconds;
    in_flight_.erase(t.name);
    return t;
  }
  if (cut_after_dots(l)) held_ = l;
  else if (const auto name = started_line(l)) in_flight_.insert(std::string(*name));
  else if (const auto summary = ctest_summary(l)) summary_ = *summary;
  return std::nullopt;
}

std::pair<std::string, std::string> skip_reason(std::string_view output) {
  const std::vector<std::string> lines = lines_of(output);
  for (const std::string& l : lines)
    if (l.find("NotSupported") != std::string::npos) return {"not-supported", clip(l, 400)};
  for (const std::string& l : lines)
    if (l.find("not recorded") != std::string::npos) return {"not-recorded", clip(l, 400)};
  return {"unexplained", lines.empty() ? "no output" : clip(lines.back(), 400)};
}

void annotate_from_junit(std::vector<TestResult>& tests, int round, std::string_view xml) {
  for (size_t at = xml.find("<testcase "); at != std::string_view::npos; at = xml.find("<testcase ", at + 1)) {
    const size_t tag_end = xml.find('>', at);
    if (tag_end == std::string_view::npos) break;
    const std::string tag(xml.substr(at, tag_end - at));
    const size_t case_end = xml.find("</testcase>", tag_end);
    const std::string_view body = xml.substr(tag_end, case_end == std::string_view::npos ? 0 : case_end - tag_end);
    const size_t out_begin = body.find("<system-out>"), out_end = body.find("</system-out>");
    const std::string output = out_begin != std::string_view::npos && out_end != std::string_view::npos
                                   ? xml_unescape(body.substr(out_begin + 12, out_end - out_begin - 12))
                                   : "";
    const std::string name = attribute(tag, "name");
    for (TestResult& t : tests) {
      if (t.round != round || t.name != name) continue;
      if (t.status == "skipped") std::tie(t.skip, t.reason) = skip_reason(output);
      if (t.status == "failed" || t.status == "timeout" || t.status == "not-run") t.reason = failure_reason(output);
    }
  }
  for (TestResult& t : tests)
    if (t.round == round && t.status == "skipped" && t.skip.empty())
      std::tie(t.skip, t.reason) = std::make_pair("unexplained", xml.empty() ? "no junit.xml" : "not in junit.xml");
}

std::vector<std::pair<int, std::string>> round_dirs(const std::string& dir) {
  std::vector<std::pair<int, std::string>> rounds;
  std::error_code error;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, error)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || name.rfind("round-", 0) != 0 || name.size() == 6 ||
        name.find_first_not_of("0123456789", 6) != std::string::npos)
      continue;
    int round = 0;
    const auto [end, bad] = std::from_chars(name.data() + 6, name.data() + name.size(), round);
    if (bad != std::errc() || end != name.data() + name.size())
      throw UsageError(e.path().string() + ": the round number does not fit an int");
    rounds.emplace_back(round, e.path().string());
  }
  std::sort(rounds.begin(), rounds.end());
  if (rounds.empty()) rounds.emplace_back(1, dir);
  return rounds;
}

std::vector<TestResult> tests_of(std::string_view text, const std::string& name, int round, CtestProgress& progress) {
  std::vector<TestResult> tests;
  int number = 0;
  for (size_t begin = 0; begin < text.size();) {
    const size_t end = std::min(text.find('\n', begin), text.size());
    ++number;
    try {
      if (std::optional<TestResult> t = progress.line(text.substr(begin, end - begin))) {
        t->round = round;
        tests.push_back(*t);
      }
    } catch (const UsageError& e) {
      throw UsageError(name + ":" + std::to_string(number) + ": " + e.what());
    }
    begin = end + 1;
  }
  return tests;
}

nlohmann::json aborted_entry(const std::string& reason, const std::string& last_test,
                             const std::set<std::string>& in_flight) {
  return {{"reason", reason},
          {"last_test", last_test.empty() ? nlohmann::json(nullptr) : nlohmann::json(last_test)},
          {"in_flight", in_flight}};
}

Report report_from_results(const std::string& path, const std::vector<std::string>& argv) {
  const bool is_dir = fs::is_directory(path);
  const fs::path results = is_dir ? fs::path(path) / "results.jsonl" : fs::path(path);
  const fs::path dir = is_dir ? fs::path(path) : results.has_parent_path() ? results.parent_path() : fs::path(".");
  files::InputFile in(results.string());
  Report r;
  r.run.warpconf = warpconf_version();
  r.run.command = "report";
  r.run.argv = argv;
  // The tests first: their names say which variant ran.
  std::vector<std::string> cut;
  std::string last_test;
  std::set<std::string> in_flight;
  for (const auto& [round, round_dir] : round_dirs(dir.string())) {
    const fs::path progress = fs::path(round_dir) / "progress.log", log = fs::path(round_dir) / "ctest.log";
    const fs::path lines = fs::exists(progress) ? progress : log;
    if (!fs::exists(lines)) continue;
    CtestProgress ctest;
    const std::vector<TestResult> tests = tests_of(files::read_input(lines.string()), lines.string(), round, ctest);
    r.tests.insert(r.tests.end(), tests.begin(), tests.end());
    if (!tests.empty()) last_test = tests.back().name;
    r.run.rounds.push_back({round, "", ctest.summary()});
    if (ctest.summary().empty()) {
      cut.push_back(lines.string() + " ends before ctest's summary");
      in_flight.insert(ctest.in_flight().begin(), ctest.in_flight().end());
    }
    const fs::path junit = fs::path(round_dir) / "junit.xml";
    annotate_from_junit(r.tests, round, fs::exists(junit) ? files::read_input(junit.string()) : "");
  }
  std::set<std::string> paths;  // the code paths whose tests ran: <path>/<suite>, sass's unprefixed
  for (const TestResult& t : r.tests) {
    if (t.name.rfind("sanitize/", 0) == 0) r.run.variant = "sanitize";
    if (const CodePath* p = code_path_of_test(t.name)) paths.insert(std::string(p->name));
    if (t.name.find("OnGpu") != std::string::npos && t.name.find('/') == std::string::npos) paths.insert("sass");
  }
  if (r.run.variant.empty() && !paths.empty()) r.run.variant = paths.size() == 1 ? *paths.begin() : "all";
  RecordSink sink(r, r.run.variant == "all" ? "" : r.run.variant);
  std::string first_time, last_time;
  const RecordReader::Each each = [&](const nlohmann::json& record) {
    const std::string time = record.value("time", std::string());
    if (!time.empty() && (first_time.empty() || time < first_time)) first_time = time;
    last_time = std::max(last_time, time);
    sink.add(record);
  };
  RecordReader reader(results.string());
  if (const int line = reader.read_all(in, each))
    cut.push_back(results.string() + " line " + std::to_string(line) + " is cut off mid-record");
  if (reader.lines() == 0 && r.tests.empty())
    throw UsageError(results.string() + ": no record, and no test in a ctest file beside it: nothing to report");
  if (!cut.empty()) {
    std::string reason = "killed or crashed before the run finished (";
    for (size_t i = 0; i < cut.size(); ++i) reason += (i > 0 ? "; " : "") + cut[i];
    r.aborted = aborted_entry(reason + ")", last_test.empty() ? sink.last_test() : last_test, in_flight);
  }
  r.run.status = r.aborted.is_null() ? "finished" : "aborted";
  r.run.start = first_time;
  r.run.end = last_time;
  const std::optional<std::time_t> start = epoch_of(first_time), end = epoch_of(last_time);
  if (start && end) r.run.seconds = static_cast<double>(*end - *start);
  if (r.run.variant.empty() && !r.devices.empty()) r.run.variant = r.devices.begin()->second.variant;
  return r;
}

namespace {

// Writes the report's three files into `dir` (made if missing) and prints its summary line: 0.
int publish(const Report& r, const std::string& dir, std::ostream& out) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw UsageError("cannot create " + dir + ": " + error.message());
  write_report_files(r, dir);
  out << summary_line(r) << "\n";
  for (const std::string& line : code_path_lines(r)) out << "  " << line << "\n";
  out << "report: " << (fs::path(dir) / "report.html").string() << "\n";
  return 0;
}

}  // namespace

int run_report_command(const std::string& path, const std::string& out_dir, const std::vector<std::string>& argv,
                       std::ostream& out, std::ostream& err) {
  return with_exit_status("warpconf report", err, [&] {
    require_utf8_path("the results", path);
    require_utf8_path("--out", out_dir);
    const Report r = report_from_results(path, argv);
    const std::string dir = !out_dir.empty()       ? out_dir
                            : fs::is_directory(path) ? path
                            : fs::path(path).has_parent_path() ? fs::path(path).parent_path().string()
                                                              : std::string(".");
    return publish(r, dir, out);
  });
}

int run_merge_command(const std::vector<std::string>& paths, const std::string& out_dir,
                      const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  return with_exit_status("warpconf merge", err, [&] {
    Report merged;
    merged.run.warpconf = warpconf_version();
    merged.run.command = "merge";
    merged.run.argv = argv;
    std::vector<std::string> aborted;
    std::set<std::string> budgets, variants;
    require_utf8_path("--out", out_dir);
    for (const std::string& path : paths) require_utf8_path("the report", path);
    std::vector<std::pair<fs::path, nlohmann::json>> read;  // each report's file and JSON
    std::map<std::pair<std::string, std::string>, fs::path> given;  // (device id, part) -> the report that gave it
    for (const std::string& path : paths) {
      const fs::path file = report_file(path);
      nlohmann::json j = report_json(file);
      // The same report twice (a folder and its report.json, a link, a copy) would count every check twice.
      for (const auto& [earlier, earlier_json] : read) {
        std::error_code error;
        if (fs::equivalent(earlier, file, error) || earlier_json == j)
          throw UsageError(file.string() + " and " + earlier.string() + " are the same report: it would count twice");
      }
      Report r = report_from_json(j, file.string());
      // A run that did not finish says why it holds nothing (warpconf health that could not test); it
      // makes the merged report aborted too.
      if (r.cells.empty() && r.tests.empty() && r.perf.empty() && r.aborted.is_null())
        throw UsageError(file.string() + ": no check, test or perf figure: nothing to merge");
      for (const auto& [device, parts] : device_parts(r))
        for (const std::string& part : parts) {
          const auto [earlier, first] = given.emplace(std::make_pair(device, part), file);
          if (!first)
            throw UsageError(file.string() + ": the " + part + " of " + r.devices.at(device).name + " (" + device +
                             ") are in " + earlier->second.string() + " too: they would count twice");
        }
      for (TestResult& t : r.tests) t.source = path;
      try {
        merged.merge(r);
      } catch (const UsageError& e) {
        throw UsageError(file.string() + ": " + e.what());
      }
      read.emplace_back(file, std::move(j));
      merged.run.sources.push_back({{"path", path}, {"run", r.run}});
      budgets.insert(r.run.budget);
      variants.insert(r.run.variant);
      if (merged.run.start.empty() || (!r.run.start.empty() && r.run.start < merged.run.start))
        merged.run.start = r.run.start;
      merged.run.end = std::max(merged.run.end, r.run.end);
      merged.run.seconds += r.run.seconds;
      if (merged.run.seconds > kMostSeconds) throw UsageError(file.string() + ": the runs' seconds sum past 1e12");
      if (!r.aborted.is_null()) aborted.push_back(path + ": " + field_text(r.aborted, "reason"));
    }
    // A setting the merged runs share is the merged report's; different ones are listed per source.
    merged.run.budget = budgets.size() == 1 ? *budgets.begin() : "";
    merged.run.variant = variants.size() == 1 ? *variants.begin() : "";
    if (!aborted.empty()) {
      std::string reason;
      for (const std::string& a : aborted) reason += (reason.empty() ? "" : "; ") + a;
      merged.aborted = aborted_entry(reason, "", {});
    }
    merged.run.status = merged.aborted.is_null() ? "finished" : "aborted";
    return publish(merged, out_dir, out);
  });
}

}  // namespace wc::cli
