// Verified warp-cases per second over the whole shuffle sweep: GPU execution (upload, kernel,
// download) and the model check on all cores, together. Prints the median of several passes.
#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdio>
#include <vector>

#include "gpu/device.hpp"
#include "sweeps/shuffle_sweep.hpp"

int main(int argc, char** argv) {
  using namespace wc;
  const int passes = argc > 1 ? std::atoi(argv[1]) : 5;
  if (!gpu::device().present) {
    std::fprintf(stderr, "warpconf_bench: %s\n", gpu::device().reason.c_str());
    return 2;
  }
  std::printf("device: %s\n", gpu::describe(gpu::device().info).c_str());
  std::vector<gpu::ShuffleBatch> batches;
  size_t cases = 0;
  for (model::ShuffleOp op : model::kShuffleOps)
    for (model::Type type : model::kShuffleTypes) {
      batches.push_back(sweeps::sweep_batch(op, type));
      cases += batches.back().cases.size();
    }
  gpu::WarpResults results;
  std::vector<double> rates;
  for (int pass = 0; pass <= passes; ++pass) {  // pass 0 warms up
    testing::LaneTally tally;
    uint64_t bad = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const gpu::ShuffleBatch& b : batches) {
      gpu::run(b, results);
      const testing::CheckReport report = testing::check_batch(b, results);
      tally.add(report.tally);
      bad += report.bad_lanes();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (bad != 0) {
      std::fprintf(stderr, "warpconf_bench: %llu bad lanes: run the conformance suite\n",
                   static_cast<unsigned long long>(bad));
      return 1;
    }
    if (pass == 0) {
      std::printf("sweep: %zu batches, %s\n", batches.size(), testing::tally_text(tally).c_str());
      continue;
    }
    rates.push_back(static_cast<double>(cases) / seconds);
    std::printf("pass %d: %.3f s, %.3g verified warp-cases/s\n", pass, seconds, rates.back());
  }
  std::sort(rates.begin(), rates.end());
  std::printf("median: %.3g verified warp-cases/s (%zu cases a pass, %u host threads)\n", rates[rates.size() / 2],
              cases, std::thread::hardware_concurrency());
  return 0;
}
