// Verified warp-cases per second over the whole shuffle sweep. The GPU's part of one batch (upload,
// kernel, download into page-locked memory, on its own stream) overlaps the model check of the batch
// before it, on all cores. Prints the median end-to-end rate over the passes, the rate of the model
// check alone on the same results, and their ratio; then the rate of random shuffle cases, drawn,
// run and checked as the random properties do it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/device.hpp"
#include "core/environment.hpp"
#include "core/number_text.hpp"
#include "core/seconds_since.hpp"
#include "families/shuffle/family.hpp"
#include "harness/random_check.hpp"

namespace {

using namespace wc;
using Clock = std::chrono::steady_clock;

struct Pass {
  double seconds = 0;
  wc::check::CheckReport report;
};

// Every batch through the GPU and the model check, the GPU one batch ahead on the other stream.
Pass pipelined_pass(const std::vector<gpu::ShuffleBatch>& batches, gpu::Stream (&streams)[2],
                    gpu::WarpResults (&results)[2]) {
  Pass pass;
  const auto start = Clock::now();
  gpu::start(batches[0], results[0], streams[0]);
  for (size_t k = 0; k < batches.size(); ++k) {
    if (k + 1 < batches.size()) gpu::start(batches[k + 1], results[(k + 1) % 2], streams[(k + 1) % 2]);
    streams[k % 2].finish();
    pass.report.merge(wc::gen::check_batch(batches[k], results[k % 2]).report);
  }
  pass.seconds = seconds_since(start);
  return pass;
}

// The model check alone: every batch's results fetched first, only the checks timed.
double check_alone_seconds(const std::vector<gpu::ShuffleBatch>& batches, gpu::WarpResults& results) {
  double seconds = 0;
  for (const gpu::ShuffleBatch& b : batches) {
    gpu::run(b, results);
    const auto start = Clock::now();
    const wc::check::CheckReport report = wc::gen::check_batch(b, results).report;
    seconds += seconds_since(start);
    if (report.bad_lanes() != 0) return -1;
  }
  return seconds;
}

// Random shuffle cases of every op and type, drawn, run and checked as the random properties do;
// returns the seconds, or a negative number when a lane was bad.
double random_pass(uint64_t seed, size_t cases_per_check, size_t& cases) {
  const auto start = Clock::now();
  for (model::ShuffleOp op : model::kShuffleOps)
    for (model::Type type : model::kShuffleTypes) {
      const gen::CaseGen<gpu::ShuffleCalls> g = [op, type](gen::Draw& d) { return gen::shuffle_case(d, op, type); };
      const gen::detail::Found<gpu::ShuffleCalls> found = gen::detail::run_cases<gpu::ShuffleCalls>(
          gen::detail::draw_cases<gpu::ShuffleCalls>(g, seed, 0, cases_per_check), {"random", "random"});
      if (found.check.report.bad_lanes() != 0) return -1;
      cases += found.check.report.tally.cases;
      ++seed;
    }
  return seconds_since(start);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (const std::optional<std::string> refused = wc::environment::refusal()) {
    std::fprintf(stderr, "warpconf_bench: %s\n", refused->c_str());
    return 2;
  }
  const std::optional<uint64_t> given = argc == 2 ? wc::numbers::read_number(argv[1], {1, 1000, false}) : std::nullopt;
  if (argc > 2 || (argc == 2 && !given)) {
    std::fprintf(stderr, "warpconf_bench: usage: warpconf_bench [PASSES], PASSES decimal from 1 to 1000 (default 5)\n");
    return 2;
  }
  const long passes = given ? static_cast<long>(*given) : 5;
  const gpu::DeviceStatus& device = gpu::device();
  if (!device.present) {
    std::fprintf(stderr, "warpconf_bench: %s\n", device.reason.c_str());
    return 1;
  }
  std::printf("device: %s\n", gpu::describe(device.info).c_str());
  std::vector<gpu::ShuffleBatch> batches;
  size_t cases = 0;
  for (model::ShuffleOp op : model::kShuffleOps)
    for (model::Type type : model::kShuffleTypes) {
      batches.push_back(sweeps::sweep_batch(op, type));
      cases += batches.back().cases.size();
    }
  gpu::Stream streams[2];
  gpu::WarpResults results[2];
  const Pass warm_up = pipelined_pass(batches, streams, results);
  if (warm_up.report.bad_lanes() != 0) {
    std::fprintf(stderr, "warpconf_bench: %llu bad lanes: run the conformance suite\n",
                 static_cast<unsigned long long>(warm_up.report.bad_lanes()));
    return 1;
  }
  std::printf("sweep: %zu batches, %s\n", batches.size(), wc::check::tally_text(warm_up.report.tally).c_str());
  std::vector<double> rates, check_rates;
  for (long pass = 1; pass <= passes; ++pass) {
    const Pass p = pipelined_pass(batches, streams, results);
    const double check_seconds = check_alone_seconds(batches, results[0]);
    if (p.report.bad_lanes() != 0 || check_seconds < 0) {
      std::fprintf(stderr, "warpconf_bench: bad lanes in pass %ld: run the conformance suite\n", pass);
      return 1;
    }
    rates.push_back(static_cast<double>(cases) / p.seconds);
    check_rates.push_back(static_cast<double>(cases) / check_seconds);
    std::printf("pass %ld: %.3f s, %.3g verified warp-cases/s; model check alone %.3g warp-cases/s\n", pass,
                p.seconds, rates.back(), check_rates.back());
  }
  const double rate = median(rates), check_rate = median(check_rates);
  std::printf("median: %.3g verified warp-cases/s end to end, model check alone %.3g warp-cases/s, ratio %.2f "
              "(%zu cases a pass, %u host threads)\n",
              rate, check_rate, rate / check_rate, cases, std::thread::hardware_concurrency());
  std::vector<double> random_rates;
  for (long pass = 0; pass <= passes; ++pass) {  // pass 0 warms up
    size_t random_cases = 0;
    const double seconds = random_pass(0x5EED0000ull + 100 * static_cast<uint64_t>(pass), 10000, random_cases);
    if (seconds < 0) {
      std::fprintf(stderr, "warpconf_bench: bad lanes in random shuffle cases: run the conformance suite\n");
      return 1;
    }
    if (pass > 0) random_rates.push_back(static_cast<double>(random_cases) / seconds);
  }
  std::printf("random shuffle cases (48 checks of 10000, drawn, run and checked): median %.3g verified "
              "warp-cases/s\n",
              median(random_rates));
  return 0;
}
