// `warpconf results FILE`: what a results file (docs/results-schema.md) holds, summed per family.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace wc::cli {

// The sums of the check records of one family, or of all.
struct FamilySums {
  uint64_t records = 0, cases = 0, random_cases = 0;
  std::map<std::string, uint64_t> lanes;       // by lane class
  std::map<std::string, uint64_t> mismatches;  // by lane class
  std::map<std::string, uint64_t> verdicts;
  std::map<std::string, uint64_t> deviation_lanes;  // by known deviation id
  void add(const FamilySums&);
};

struct ResultsSummary {
  std::map<std::string, FamilySums> families;
  FamilySums total;
  FamilySums planted;  // checks of deliberately wrong implementations: apart from the families and the total
  FamilySums perf;     // `perf` records (docs/perf.md): records and verdicts only, apart from the checks
  std::vector<std::string> devices;  // one line per distinct device fingerprint
};

// Reads a results file; throws UsageError naming the line for anything that is not a record of
// the schema this build writes.
ResultsSummary summarize_results(std::istream&, const std::string& name);

void print_results_text(const ResultsSummary&, std::ostream&);
void print_results_json(const ResultsSummary&, std::ostream&);

}  // namespace wc::cli
