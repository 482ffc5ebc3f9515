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

#include "warpconf/report/results_coverage.hpp"

namespace wc::cli {

inline constexpr const char* kLaneClasses[] = {"defined", "ptx-defined", "undefined", "not-called"};

// The longest line of a results file read, "16 MiB" in words: no record is near it, and a reader
// handed an endless line (/dev/zero) stops there.
inline constexpr size_t kMostRecordBytes = size_t{16} << 20;
inline constexpr const char* kMostRecordWords = "16 MiB";

// Reads a results file's lines as they arrive, each checked to be a `device`, `check` or `perf`
// record of the schema this build reads, its members of the shapes and values the readers use (a
// known verdict, a perf figure that reports can hold); throws UsageError naming the file, line and
// member for anything else, a line longer than kMostRecordBytes included, and for a UsageError that
// `each` throws. Every command that reads results (results, report, run) reads them through it.
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
  // feed() every byte of `in`, then finish().
  int read_all(std::istream& in, const Each& each);
  int lines() const { return lines_; }  // lines read, a cut-off one included

 private:
  void take(const std::string&, const Each&, const Refuse&);
  void line(const std::string&, const Each&);
  void refuse_overlong(const Refuse&);
  std::string name_, partial_;
  int lines_ = 0;
  bool overlong_ = false;  // the line being read passed kMostRecordBytes: skipped to its end
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
  std::map<std::string, SmCoverage> coverage;  // by device line ("unknown": checks of a process with no device record)
};

// into += n; throws UsageError where the sum passes 2^64 - 1.
void add_count(uint64_t& into, uint64_t n);

// The counts of one check record.
FamilySums sums_of(const nlohmann::json& check);

// Reads a results file (a files::InputFile for a file named on the command line); throws UsageError
// naming the line for anything that is not a record of the schema this build writes, a last line
// cut off mid-way included.
ResultsSummary summarize_results(std::istream&, const std::string& name);

// Per family on one device: "shuffle: 132 SMs, 4,194,304 lanes, fewest 30,720 (SM 7)".
std::vector<std::string> coverage_rows(const SmCoverage&);

void print_results_text(const ResultsSummary&, std::ostream&);
void print_results_json(const ResultsSummary&, std::ostream&);

}  // namespace wc::cli
