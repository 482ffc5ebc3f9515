// Fuzz target of the readers of ctest's files, as `warpconf report` and `run` read them: the input is
// ctest's progress lines (its ctest.log or standard output), then, after a NUL byte, the round's
// junit.xml. tests_of reads the tests or rejects the log with a UsageError, annotate_from_junit adds
// why each was skipped or failed, and the report of those tests must write and read back
// (report_round_trip.hpp). An input in which no test finishes counts as found nothing.
#include <string_view>
#include <vector>

#include "fuzz_target.hpp"
#include "report_round_trip.hpp"
#include "core/numbers.hpp"
#include "warpconf/report/report_inputs.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wc::cli;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  const std::string_view log = input.substr(0, nul);
  const std::string_view junit = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  CtestProgress progress;
  Report report;
  try {
    report.tests = tests_of(log, "input", 1, progress);
    annotate_from_junit(report.tests, 1, junit);
  } catch (const UsageError&) {
    return 0;
  }
  report.run.rounds.push_back({1, "", progress.summary()});
  if (progress.summary().empty())
    report.aborted = aborted_entry("ends before ctest's summary", report.tests.empty() ? "" : report.tests.back().name,
                                   progress.in_flight());
  wc::fuzz::finish_run(report, "report");
  wc::fuzz::check_report_round_trip(report);
  if (!report.tests.empty()) ++wc::fuzz::accepted_inputs;
  return 0;
}
