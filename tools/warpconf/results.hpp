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

// Reads a results file's lines as they arrive, each checked to be a `device`, `check` or `perf`
// record of the schema this build reads, its members of the shapes the readers use; throws
// UsageError naming the file, line and member for anything else, and for a UsageError that `each`
// throws.
class RecordReader {
 public:
  using Each = std::function<void(const nlohmann::json&)>;
  // A line refused, for a reader that goes on (`warpconf run`): its text, and why, in the words of
  // the UsageError it would throw otherwise (naming the file and line).
  using Refuse = std::function<void(const std::string& text, const std::string& why)>;
  explicit RecordReader(std::string name) : name_(std::move(name)) {}
  // Hands each whole line's record to `each`; a line with no newline yet waits for more bytes.
  // With `refuse`, a line it would throw for goes there instead, and reading goes on.
  void feed(std::string_view bytes, const Each& each, const Refuse& refuse = nullptr);
  // At the end of the stream: a last line without its newline is handed to `each` if it is a whole
  // record; one cut off mid-way (its writer was killed) is not, and its line number is returned.
  // 0 when nothing was cut off.
  int finish(const Each& each, const Refuse& refuse = nullptr);
  int lines() const { return lines_; }  // lines read, a cut-off one included

 private:
  void take(const std::string&, const Each&, const Refuse&);
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

// into += n; throws UsageError where the sum passes 2^64 - 1.
void add_count(uint64_t& into, uint64_t n);

// The counts of one check record.
FamilySums sums_of(const nlohmann::json& check);

// Reads a results file; throws UsageError naming the line for anything that is not a record of
// the schema this build writes, a last line cut off mid-way included.
ResultsSummary summarize_results(std::istream&, const std::string& name);

void print_results_text(const ResultsSummary&, std::ostream&);
void print_results_json(const ResultsSummary&, std::ostream&);

}  // namespace wc::cli
