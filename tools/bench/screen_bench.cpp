// The SM screen's rates (README, "The SM screen"): lane-results hashed per second on the GPU (every
// compared lane of every warp slot of every SM, the kernel alone by CUDA events; the target is
// 1e10), and on the host the model's rates: lane-results judged by the families' models while the
// batch is made, and sample lane-results compared with them. Usage: warpconf_screen_bench [cases per
// variant, default 2048] [passes, default 5]; the median pass is printed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/batch.hpp"
#include "core/device.hpp"
#include "core/environment.hpp"
#include "core/number_text.hpp"
#include "core/seconds_since.hpp"
#include "screen/launch.hpp"

namespace {

using namespace wc;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "warpconf_screen_bench: usage: warpconf_screen_bench [CASES per variant, decimal from 1 to 65536 (default "
               "2048)] [PASSES, decimal from 1 to 1000 (default 5)]\n");
  std::exit(2);
}

uint64_t count_argument(int argc, char** argv, int k, const numbers::NumberRange& range, uint64_t fallback) {
  if (argc <= k) return fallback;
  const std::optional<uint64_t> n = numbers::read_number(argv[k], range);
  if (!n) usage();
  return *n;
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t per_variant = count_argument(argc, argv, 1, {1, 65536, false}, 2048);
  const uint64_t passes = count_argument(argc, argv, 2, {1, 1000, false}, 5);
  if (argc > 3) usage();
  const gpu::DeviceStatus& d = gpu::device();
  if (!d.present) {
    std::printf("warpconf_screen_bench: SKIPPED: %s\n", d.reason.c_str());
    return environment::require_gpu() || d.error ? 1 : 77;
  }
  try {
    const screen::GridShape shape = screen::grid_shape();
    const int capability = gpu::code_compute_capability();
    std::vector<double> gpu_rates, model_rates, sample_rates;
    for (uint64_t pass = 0; pass < passes; ++pass) {
      const auto made = Clock::now();
      const screen::Batch batch = screen::make_batch(screen::round_seed(0x5c7ee7, pass), per_variant, capability);
      const double make_seconds = seconds_since(made);
      uint64_t compared_per_warp = 0;
      for (const screen::Case& c : batch.cases) compared_per_warp += static_cast<uint64_t>(__builtin_popcount(c.compared));
      // Timed without a capture, whose writes would slow its SM and so the whole kernel.
      screen::GridRequest request;
      request.batch = &batch;
      const screen::GridRun run = screen::run_grid(request);
      const screen::ExpectedHashes expected = screen::expected_hashes(batch);
      if (!screen::compare_hashes(run.hashes, expected, std::nullopt).empty()) {
        std::fprintf(stderr, "warpconf_screen_bench: the SMs disagree with the model: run warpconf screen\n");
        return 1;
      }
      request.capture_sms = screen::seen_sms(run.hashes.smids);
      request.capture_sms.resize(1);
      const screen::Captured captured = screen::run_grid(request).captured;
      const auto sampled = Clock::now();
      uint64_t compared = 0;
      if (!screen::check_sample(captured, batch, 1, compared).empty()) {
        std::fprintf(stderr, "warpconf_screen_bench: SM 0 disagrees with the model: run warpconf screen\n");
        return 1;
      }
      const double sample_seconds = seconds_since(sampled);
      gpu_rates.push_back(static_cast<double>(compared_per_warp) * run.hashes.blocks * run.hashes.slots / run.kernel_seconds);
      model_rates.push_back(static_cast<double>(batch.cases.size()) * model::kWarpSize / make_seconds);
      sample_rates.push_back(static_cast<double>(compared) / sample_seconds);
    }
    std::printf("device: %s; %u SMs x %u warp slots, %llu cases per variant (%zu variants run), median of %llu passes\n",
                gpu::describe(d.info).c_str(), shape.sm_count, shape.slots, static_cast<unsigned long long>(per_variant),
                static_cast<size_t>(std::count_if(screen::kVariants.begin(), screen::kVariants.end(),
                                                  [capability](const screen::Variant& v) { return screen::supported(v, capability); })),
                static_cast<unsigned long long>(passes));
    std::printf("gpu: %.3g lane-results hashed per second (kernel alone; target 1e10)\n", median(gpu_rates));
    std::printf("host: %.3g lane-results judged by the models per second (one core, making the batch)\n", median(model_rates));
    std::printf("host: %.3g sample lane-results compared with the model per second (one SM's, one core)\n", median(sample_rates));
  } catch (const gpu::CudaFailure& e) {
    std::fprintf(stderr, "warpconf_screen_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
