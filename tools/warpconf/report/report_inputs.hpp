// What a report is built from besides the result records: ctest's progress lines (its standard
// output, or the ctest.log of --output-log), its junit.xml, and the layout of a results directory;
// and the `warpconf report` and `warpconf merge` commands.
#pragma once

#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "warpconf/report/report.hpp"

namespace wc::cli {

// Reads ctest's output a line at a time.
class CtestProgress {
 public:
  // The test that `line` finishes, if it finishes one. ctest.log breaks some lines after the dots:
  // such a line is held and joined with the next. Throws UsageError naming a test count or seconds
  // that do not fit.
  std::optional<TestResult> line(std::string_view line);
  int total() const { return total_; }  // M of the last "N/M Test #k" line; 0 before one
  // "100% tests passed, 0 tests failed out of 142" (or "No tests were found!!!") once ctest printed it.
  const std::string& summary() const { return summary_; }
  const std::set<std::string>& in_flight() const { return in_flight_; }  // started, not finished

 private:
  std::string held_, summary_;
  std::set<std::string> in_flight_;
  int total_ = 0;
};

// Why a skipped test was skipped, from its output: {"not-supported", the NotSupported line},
// {"not-recorded", the line saying so} or {"unexplained", its last line}.
std::pair<std::string, std::string> skip_reason(std::string_view output);

// Fills in, from ctest's junit.xml of a round ("" where there is none), why each skipped test of
// that round was skipped (unexplained where junit.xml does not say) and how each failed one ended.
void annotate_from_junit(std::vector<TestResult>& tests, int round, std::string_view junit_xml);

// The rounds of a results directory: its round-N folders (a soak run), else the directory itself;
// throws UsageError for a round-N whose N does not fit an int.
std::vector<std::pair<int, std::string>> round_dirs(const std::string& dir);

// The tests that ctest's lines in `text` (the file `name`) finish, of round `round`; `progress` keeps
// what is still open. Throws UsageError naming the file and line of a number that does not fit.
std::vector<TestResult> tests_of(std::string_view text, const std::string& name, int round, CtestProgress& progress);

// The entry of a run that did not finish: {reason, last_test, in_flight}.
nlohmann::json aborted_entry(const std::string& reason, const std::string& last_test,
                             const std::set<std::string>& in_flight);

// A report from a results.jsonl, or a directory holding one with ctest's files beside it (as
// `warpconf run` and tools/conformance.sh write them). Throws UsageError for a file it cannot read.
Report report_from_results(const std::string& path, const std::vector<std::string>& argv);

// `warpconf report PATH [--out DIR]` and `warpconf merge A B ... --out DIR`: 0, or 2 with one line.
int run_report_command(const std::string& path, const std::string& out_dir, const std::vector<std::string>& argv,
                       std::ostream& out, std::ostream& err);
int run_merge_command(const std::vector<std::string>& paths, const std::string& out_dir,
                      const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

}  // namespace wc::cli
