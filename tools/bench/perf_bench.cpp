// Every performance figure of docs/perf.md on this GPU, as a table and as `perf` result records,
// each chain's timed loop counted in the SASS where cuobjdump is at hand; exits 1 when a kernel's
// result disagreed with the model or its loop lacks its instruction (a failure, never a figure).
// Usage: warpconf_perf [--repetitions N] [--only SUBSTRING]
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

#include "core/batch.hpp"
#include "core/device.hpp"
#include "core/environment.hpp"
#include "core/number_text.hpp"
#include "core/perf/bench.hpp"
#include "core/perf/perf_records.hpp"
#include "core/perf/sass.hpp"
#include "core/records.hpp"

int main(int argc, char** argv) {
  if (const std::optional<std::string> refused = wc::environment::refusal()) {
    std::fprintf(stderr, "warpconf_perf: %s\n", refused->c_str());
    return 2;
  }
  wc::perf::Options options;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::optional<uint64_t> repetitions =
        arg == "--repetitions" && i + 1 < argc
            ? wc::numbers::read_number(argv[i + 1], {1, wc::golden::max_perf_repetitions, false})
            : std::nullopt;
    if (repetitions) {
      options.repetitions = static_cast<int>(*repetitions);
      ++i;
    } else if (arg == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else {
      std::fprintf(stderr, "warpconf_perf: usage: warpconf_perf [--repetitions N, decimal from 1 to 1000000] [--only SUBSTRING of figure ids]\n");
      return 2;
    }
  }
  if (!only.empty())
    options.select = [&only](const std::string& id, wc::golden::PerfMetric) { return id.find(only) != std::string::npos; };
  try {
    std::vector<wc::perf::Figure> figures = wc::perf::measure(options);
    std::string why;
    const wc::gpu::CodeInfo code = wc::gpu::code_info();
    if (const auto source = wc::perf::sass_source(code.binary_version, code.path, why))
      wc::perf::count_sass(figures, wc::perf::read_sass(*source, wc::perf::timed_kernels(figures)));
    else
      std::cout << "the timed loops' SASS is not counted: " << why << "\n";
    wc::perf::print_table(figures, std::cout);
    bool wrong = false;
    for (const wc::perf::Figure& f : figures) {
      wc::check::append_record(wc::perf::perf_record(f, "warpconf_perf", wc::perf::measured_verdict(f)));
      wrong = wrong || f.status == wc::perf::Status::wrong;
    }
    return wrong ? 1 : 0;
  } catch (const wc::gpu::CudaFailure& e) {
    std::fprintf(stderr, "warpconf_perf: %s\n", e.what());
    return 1;
  } catch (const wc::perf::SassError& e) {
    std::fprintf(stderr, "warpconf_perf: %s\n", e.what());
    return 1;
  }
}
