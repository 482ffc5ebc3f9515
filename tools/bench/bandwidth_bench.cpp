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
#include "core/perf/bench.hpp"

int main(int argc, char** argv) {
  if (const std::optional<std::string> refused = wc::environment::refusal()) {
    std::fprintf(stderr, "warpconf_bandwidth: %s\n", refused->c_str());
    return 2;
  }
  wc::perf::Options options;
  options.repetitions = 20;
  char* end = nullptr;
  if (argc > 2 || (argc == 2 && ((options.repetitions = static_cast<int>(std::strtol(argv[1], &end, 10))) < 1 || *end != '\0'))) {
    std::fprintf(stderr, "usage: warpconf_bandwidth [repetitions >= 1]\n");
    return 2;
  }
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
