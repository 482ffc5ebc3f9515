// Performance figures in reports (docs/report-schema.md, `perf`): one per (device, figure id,
// metric), from the `perf` result records (docs/results-schema.md), kept apart from the
// conformance cells: a figure adds no check, no lane and no cell.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/perf.hpp"
#include "warpconf/report/json_fields.hpp"

namespace wc::cli {

// The verdicts of a perf record, worst first. A WRONG kernel is a conformance failure; a
// performance change is its own verdict and no failure (a run fails on it only with --strict), and so
// is a library call whose timed loop holds more instructions a call than its raw intrinsic's.
inline constexpr const char* kPerfVerdicts[] = {"conformance-failure", "performance-change", "costlier-than-raw",
                                                "not-recorded", "pass",
                                                "not-supported"};

inline constexpr const char* kPerfRule =
    "A performance change is a figure worse than its baseline (the same architecture and code path) by more than "
    "10 % and 3 x MAD in two consecutive measurements (docs/perf.md): no failure, but with warpconf run --perf "
    "--strict. The figure of a kernel whose result disagreed with the model is a conformance failure.";

struct PerfBaseline {
  double median = 0, mad = 0;
  std::string file;
};

struct PerfFigure {
  std::string device, id, family, intrinsic, type, mask, metric;
  std::optional<double> median, mad;  // nullopt where the kernel was wrong or the call is not supported
  std::optional<uint64_t> repetitions;
  std::string verdict;  // one of kPerfVerdicts
  std::string outcome;  // compare: unchanged, performance-change, improvement or not-repeated; "" otherwise
  std::optional<PerfBaseline> baseline;  // compare, where the baseline has the figure
  std::optional<double> worsening;       // (now - baseline) / baseline, positive is worse; where finite
  nlohmann::json sm_clock_mhz;           // throughput: {measured, nvml}; null otherwise
  std::optional<double> one_pass_gbs;    // softmax bandwidth
  std::string reason;                    // a wrong or not-supported figure: why
  // A latency or throughput figure's timed loop: instructions per call, the named one first, ALL last
  // (docs/perf.md); empty where not counted. The latency over ALL where a call takes several.
  std::vector<golden::PerfSass> sass;
  std::optional<double> latency_per_instruction;
};

// A perf record as a figure of `device`; throws UsageError for a verdict or metric a perf record
// cannot have, or a figure that is not a non-negative number.
PerfFigure perf_figure_of(const nlohmann::json& record, const std::string& device);

nlohmann::json perf_json(const PerfFigure&);
// Reads perf_json's object; throws UsageError naming the member for a malformed one.
PerfFigure perf_figure_from(const JsonObject&);

// Adds a figure; one of the same device, id and metric already there is replaced by it (a figure is
// a measurement, not a count), unless the one there has the worse verdict.
void add_perf_figure(std::vector<PerfFigure>& figures, const PerfFigure& figure);

// One row of a family's table and chart: a figure id and metric, and its figure on each device.
struct PerfRow {
  std::string id, metric;
  std::map<std::string, const PerfFigure*> by_device;  // into the figures perf_tables was given
};

struct PerfFamily {
  std::string name;
  std::vector<PerfRow> rows;         // in the order the figures were measured
  std::vector<std::string> metrics;  // those its rows have, latency, throughput, bandwidth, ratio to copy
};

// What both writers show: the devices with figures (the report's columns, in id order) and the
// families in the order their first figure was measured.
struct PerfTables {
  std::vector<std::string> devices;
  std::vector<PerfFamily> families;
};
PerfTables perf_tables(const std::vector<PerfFigure>&);

// "153 figures on 2 devices: 150 pass, 1 performance-change, 2 not-supported"
std::string perf_counts_text(const std::vector<PerfFigure>&);

// "26.3803 ± 0.02"; "" where the figure was not measured.
std::string perf_value_text(const PerfFigure&);
// "baseline 23.1 ± 0.02, 12.6 % worse"; "" where nothing was compared.
std::string perf_baseline_text(const PerfFigure&);
// "SHFL=2 ALL=2 a call, 12.3 cycles an instruction"; "" where not counted.
std::string perf_sass_text(const PerfFigure&);
// What a metric counts: "latency (cycles per call)", ...
std::string_view perf_metric_title(std::string_view metric);

}  // namespace wc::cli
