// Fuzz target of the report.json reader of `warpconf merge`: any input is read (parse_report) or
// rejected with a UsageError; what is read, and the merge of two copies of it, must write and read
// back (report_round_trip.hpp). Anything else is a finding.
#include <string_view>

#include "fuzz_target.hpp"
#include "report_round_trip.hpp"
#include "core/numbers.hpp"
#include "warpconf/report/report.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wc::cli;
  Report report;
  try {
    report = parse_report(std::string_view(reinterpret_cast<const char*>(data), size), "input");
  } catch (const UsageError&) {
    return 0;
  }
  wc::fuzz::check_report_round_trip(report);
  Report merged;
  merged.merge(report);
  merged.merge(report);
  wc::fuzz::finish_run(merged, "merge");
  wc::fuzz::check_report_round_trip(merged);
  ++wc::fuzz::accepted_inputs;
  return 0;
}
