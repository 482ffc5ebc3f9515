// Fuzz target of the readers of results.jsonl: `warpconf results` (summarize_results and both of its
// printers), and `warpconf run` and `report` (a RecordReader handed the input a byte at a time, as a
// pipe may deliver it, into a RecordSink). Each reads the input or rejects it with a UsageError, and
// both take the same inputs (results refuses a last line cut off and a file of no record besides);
// the report built must write and read back (report_round_trip.hpp). Anything else is a finding.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "fuzz_target.hpp"
#include "report_round_trip.hpp"
#include "core/numbers.hpp"
#include "warpconf/report/report.hpp"
#include "warpconf/report/results.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wc::cli;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  bool summed = true;
  try {
    std::istringstream in{std::string(input)};
    const ResultsSummary summary = summarize_results(in, "input");
    std::ostringstream text, json;
    print_results_text(summary, text);
    print_results_json(summary, json);
  } catch (const UsageError&) {
    summed = false;
  }

  Report report;
  RecordSink sink(report, "");
  RecordReader reader("input");
  const RecordReader::Each each = [&sink](const nlohmann::json& record) { sink.add(record); };
  bool reported = true;
  try {
    for (const char& byte : input) reader.feed(std::string_view(&byte, 1), each);
    reported = reader.finish(each) == 0 && reader.lines() > 0;
  } catch (const UsageError&) {
    reported = false;
  }
  if (summed != reported) {
    std::fprintf(stderr, "warpconf results %s the input, and report %s it\n", summed ? "took" : "refused",
                 reported ? "took" : "refused");
    std::abort();
  }
  if (!reported) return 0;
  wc::fuzz::finish_run(report, "report");
  wc::fuzz::check_report_round_trip(report);
  ++wc::fuzz::accepted_inputs;
  return 0;
}
