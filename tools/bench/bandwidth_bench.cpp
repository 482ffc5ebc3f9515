// The bandwidth figures of docs/perf.md alone: the suite's reduction, cub::DeviceReduce::Sum and
// every softmax variant, as GB/s and as a fraction of a device-to-device copy timed in the same
// repetitions. Every kernel's result is checked first: a wrong one exits 1 instead of giving a figure.
// Usage: warpconf_bandwidth [repetitions]
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

#include "core/batch.hpp"
#include "core/environment.hpp"
#include "core/number_text.hpp"
#include "core/perf/bench.hpp"

int main(int argc, char** argv) {
  if (const std::optional<std::string> refused = wc::environment::refusal()) {
    std::fprintf(stderr, "warpconf_bandwidth: %s\n", refused->c_str());
    return 2;
  }
  wc::perf::Options options;
  options.repetitions = 20;
  const std::optional<uint64_t> repetitions =
      argc == 2 ? wc::numbers::read_number(argv[1], {1, wc::golden::max_perf_repetitions, false}) : std::nullopt;
  if (argc > 2 || (argc == 2 && !repetitions)) {
    std::fprintf(stderr, "warpconf_bandwidth: usage: warpconf_bandwidth [REPETITIONS, decimal from 1 to 1000000]\n");
    return 2;
  }
  if (repetitions) options.repetitions = static_cast<int>(*repetitions);
  options.select = [](const std::string& id, wc::golden::PerfMetric) { return id.rfind("bandwidth.", 0) == 0; };
  try {
    const std::vector<wc::perf::Figure> figures = wc::perf::measure(options);
    wc::perf::print_table(figures, std::cout);
    for (const wc::perf::Figure& f : figures)
      if (f.status == wc::perf::Status::wrong) return 1;
    return 0;
  } catch (const wc::gpu::CudaFailure& e) {
    std::fprintf(stderr, "warpconf_bandwidth: %s\n", e.what());
    return 1;
  }
}
