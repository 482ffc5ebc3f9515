// `warpconf results FILE --same-as OTHER`: whether two whole runs checked the same things with the
// same outcomes, the proof that a change of structure kept every behaviour. Sums per call: family x
// intrinsic x type x verdict x code path, each with its records, cases and lanes per class, its bad
// lanes per class and its known-deviation lanes; performance records (timings) are left out.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <ostream>
#include <string>
#include <tuple>

namespace wc::cli {

struct CallKey {
  std::string family, intrinsic, type, verdict, code_path;
  bool operator<(const CallKey& o) const {
    return std::tie(family, intrinsic, type, verdict, code_path) <
           std::tie(o.family, o.intrinsic, o.type, o.verdict, o.code_path);
  }
  std::string text() const;  // "shuffle __shfl_sync int pass sass"
};

// Every count of a call's records, by name ("records", "cases", "lanes defined", "bad undefined",
// "deviation <id>"), zero counts left out.
using CallCounts = std::map<std::string, uint64_t>;
using CallSums = std::map<CallKey, CallCounts>;

// The sums of a results file's check records (read as `warpconf results` reads them); a check
// without its own code_path takes its process's device record's.
CallSums call_sums(std::istream&, const std::string& name);

// One line per call whose sums differ ("shuffle __shfl_sync int pass sass: cases 1000 -> 999"), or
// that only one file holds; then one summary line. Returns 0 where they are the same, 1 where they
// differ or where neither holds a check record (nothing compared is no proof).
int print_same_sums(const CallSums& first, const std::string& first_name, const CallSums& second,
                    const std::string& second_name, std::ostream&);

}  // namespace wc::cli
