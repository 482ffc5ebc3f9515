// `warpconf results FILE`: what a results file (docs/results-schema.md) holds, summed per family.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <istream>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace wc::cli {

inline constexpr const char* kLaneClasses[] = {"defined", "ptx-defined", "undefined", "not-called"};

// Reads a results file's lines as they arrive, each checked to be a `device` or `check` record of
// the schema this build reads; throws UsageError naming the file and line for anything else, and
// for a UsageError that `each` throws.
class RecordReader {
 public:
  using Each = std::function<void(const nlohmann::json&)>;
  explicit RecordReader(std::string name) : name_(std::move(name)) {}
  // Hands each whole line's record to `each`; a line with no newline yet waits for more bytes.
  void feed(std::string_view bytes, const Each& each);
  // At the end of the stream: a last line without its newline is handed to `each` if it is a whole
  // record; one cut off mid-way (its writer was killed) is not, and its line number is returned.
  // 0 when nothing was cut off.
  int finish(const Each& each);
  int lines() const { return lines_; }  // lines read, a cut-off one included

 private:
  void line(const std::string&, const Each&);
  std::string name_, partial_;
  int lines_ = 0;
};

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

// A count as records and reports write it, a JSON integer of 0 or more: nlohmann converts any
// other number with undefined behaviour where it does not fit. Throws UsageError naming `key`.
uint64_t count_value(const nlohmann::json& value, const std::string& key);
// The same for object[key], 0 where it is absent.
uint64_t count_field(const nlohmann::json& object, const char* key);

// The counts of one check record.
FamilySums sums_of(const nlohmann::json& check);

// Reads a results file; throws UsageError naming the line for anything that is not a record of
// the schema this build writes, a last line cut off mid-way included.
ResultsSummary summarize_results(std::istream&, const std::string& name);

void print_results_text(const ResultsSummary&, std::ostream&);
void print_results_json(const ResultsSummary&, std::ostream&);

}  // namespace wc::cli
