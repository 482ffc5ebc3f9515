// `warpconf perf record|accept|compare|diff`: performance as a regression dimension (docs/perf.md).
// A baseline is golden/<arch>/perf.txt (fixtures/formats/perf.hpp); a performance change is its own
// verdict, never a conformance failure.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/perf/bench.hpp"
#include "core/perf/stats.hpp"
#include "core/number_text.hpp"
#include "formats/perf.hpp"

namespace wc::cli {

// --repetitions: what a perf.txt holds.
inline constexpr numbers::NumberRange kPerfRepetitions{1, golden::max_perf_repetitions, false};

struct PerfOptions {
  std::string command;             // record, accept, compare or diff
  std::vector<std::string> files;  // accept: the pending perf.txt; compare: the baseline; diff: two files
  std::string out;                 // record: the folder for perf.txt (default golden/pending/sm_XX)
  std::string golden;              // accept: the folder it goes to (default golden/sm_XX, by its header)
  int repetitions = 30;
  bool strict = false;             // compare, diff: a performance change fails
  bool retire = false;             // accept: the baseline's figures the pending file lacks may go
};

// One figure of a comparison: the baseline's, the first measurement and, where the first was
// outside the rule, the second; and the rule's outcome over them.
struct Compared {
  std::string id;
  golden::PerfMetric metric = golden::PerfMetric::latency_cycles;
  std::optional<perf::Summary> baseline, first, second;  // baseline: nullopt where the file has none
  perf::Outcome outcome = perf::Outcome::unchanged;
};

// The baseline's figures of `now` matched by id and metric, each judged by perf::outcome; figures
// the baseline lacks have no baseline (not recorded).
std::vector<Compared> compare_figures(const golden::PerfFile& baseline, const std::vector<perf::Figure>& now);

// "shuffle.shfl.u32.ffffffff latency_cycles: 23.1 (MAD 0.02) -> 25.9 (MAD 0.03), again 25.8 (MAD 0.02):
// 12 % worse: performance-change"
std::string compared_text(const Compared&);

// What measures: perf::measure on the GPU; tests pass a stand-in.
using Measure = std::function<std::vector<perf::Figure>(const perf::Options&)>;

// Runs one perf command. Exit status (README.md, "Exit statuses"): 0; 1 when a kernel's result
// disagreed with the model, a CUDA error, with --strict (or WARPCONF_PERF_STRICT=1) a performance
// change, when diff compared nothing (A and B share no figure), or when accept refused a pending
// file that shares no figure with the baseline or lacks some of its figures (without --retire); 2 on bad input (one line on
// `err`), a perf.txt given or found that holds no figure included; 77 when compare finds no baseline
// of this architecture and code path (or no GPU), or diff two files of different ones (not
// recorded, never a pass).
int run_perf(const PerfOptions&, std::ostream& out, std::ostream& err, const Measure& measure = perf::measure);

// compare's work once the baseline (nullopt: there is none at `baseline_path`) is read and the GPU's
// fingerprint is known (golden style: compute capability and code path): the tests' way in without
// a GPU. The first measurement, unless a kernel was WRONG, becomes the pending baseline
// golden/pending/<sm_XX[-code_path]>/perf.txt, also where there was no baseline to compare with.
int compare_with_baseline(const std::optional<golden::PerfFile>& baseline, const std::string& baseline_path,
                          const golden::PerfHeader& now, const PerfOptions&, const Measure&, std::ostream& out);

}  // namespace wc::cli
