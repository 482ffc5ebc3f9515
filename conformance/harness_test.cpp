// The comparison helper's own tests: each kind of planted bug must be caught, and exactly.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <set>

#include <nlohmann/json.hpp>

#include "generators/warp_gen.hpp"
#include "gpu/shuffle_batch.hpp"
#include "model/shuffle.hpp"
#include "sweeps/expect.hpp"
#include "testing/compare.hpp"
#include "testing/gpu_test.hpp"

namespace wc {
namespace {

using model::LaneClass;

// Results as a perfect GPU would write them for `b`, straight from the model.
void write_model_results(const gpu::ShuffleBatch& b, gpu::WarpResults& out) {
  out.cases = b.cases.size();
  out.bits.resize(out.cases * 32);
  out.wrote.resize(out.cases * 32);
  for (size_t c = 0; c < out.cases; ++c) {
    const model::WarpOutcome want = gpu::model_outcome(b, c);
    for (int lane = 0; lane < 32; ++lane) {
      const bool calls = want[lane].cls != LaneClass::not_called;
      // An undefined lane's value is whatever the hardware gives; any value must pass.
      out.bits[c * 32 + lane] = !calls ? gpu::kSentinel : want[lane].cls == LaneClass::undefined ? 0 : want[lane].bits;
      out.wrote[c * 32 + lane] = calls ? 1 : 0;
    }
  }
}

model::WarpOutcome one_defined_lane(uint64_t bits) {
  model::WarpOutcome want{};
  want[0].bits = bits;
  want[0].source = 0;
  want[0].cls = LaneClass::defined;
  return want;
}

testing::CheckReport compare_lane0(const model::WarpOutcome& want, uint64_t got, uint8_t wrote) {
  uint64_t bits[32];
  uint8_t wrote_lanes[32] = {};
  std::fill(bits, bits + 32, gpu::kSentinel);
  bits[0] = got;
  wrote_lanes[0] = wrote;
  testing::CheckReport report;
  testing::compare_warp(0, want, bits, wrote_lanes, report);
  return report;
}

TEST(CompareHarness, tells_minus_zero_from_plus_zero) {
  EXPECT_EQ(compare_lane0(one_defined_lane(0x80000000), 0x00000000, 1).mismatches, 1u);
  EXPECT_EQ(compare_lane0(one_defined_lane(0x8000000000000000), 0x0, 1).mismatches, 1u);
}

TEST(CompareHarness, tells_nan_payloads_apart) {
  EXPECT_EQ(compare_lane0(one_defined_lane(0x7FC00001), 0x7FC00002, 1).mismatches, 1u);
  EXPECT_EQ(compare_lane0(one_defined_lane(0x7FC00001), 0x7FC00001, 1).mismatches, 0u);
}

TEST(CompareHarness, fails_a_calling_lane_that_never_wrote) {
  EXPECT_EQ(compare_lane0(one_defined_lane(gpu::kSentinel), gpu::kSentinel, 0).mismatches, 1u);
  model::WarpOutcome undefined{};
  undefined[0].cls = LaneClass::undefined;
  EXPECT_EQ(compare_lane0(undefined, 0, 0).mismatches, 1u);
  EXPECT_EQ(compare_lane0(undefined, 12345, 1).mismatches, 0u);
}

TEST(CompareHarness, fails_a_lane_that_wrote_without_calling) {
  const model::WarpOutcome nobody_calls{};
  EXPECT_EQ(compare_lane0(nobody_calls, 0, 1).mismatches, 1u);
  EXPECT_EQ(compare_lane0(nobody_calls, 0, 0).mismatches, 1u);  // the sentinel was overwritten
  EXPECT_EQ(compare_lane0(nobody_calls, gpu::kSentinel, 0).mismatches, 0u);
}

TEST(CompareHarness, does_not_call_a_check_of_nothing_clean) {
  const testing::CheckReport report = compare_lane0(model::WarpOutcome{}, gpu::kSentinel, 0);
  EXPECT_EQ(report.mismatches, 0u);
  EXPECT_FALSE(report.clean());
}

TEST(CompareHarness, finds_one_planted_bad_lane_in_a_sweep_and_names_it) {
  const gpu::ShuffleBatch b = sweeps::sweep_batch(model::ShuffleOp::bfly, model::Type::f16);
  gpu::WarpResults results;
  write_model_results(b, results);
  ASSERT_TRUE(testing::check_batch(b, results).clean());

  // Plant a bug in a compared lane far into the batch.
  size_t planted = b.cases.size() * 3 / 4 * 32;
  while (gpu::model_outcome(b, planted / 32)[planted % 32].cls != LaneClass::ptx_defined) ++planted;
  results.bits[planted] ^= 0x8000;
  const testing::CheckReport report = testing::check_batch(b, results);
  EXPECT_EQ(report.mismatches, 1u);
  ASSERT_TRUE(report.first.has_value());
  EXPECT_EQ(report.first->case_index, planted / 32);
  EXPECT_EQ(report.first->lane, static_cast<int>(planted % 32));
  const std::string diff = testing::diff_text(
      report, [&](size_t c, int lane) { return sweeps::describe(b, c, lane); }, sweeps::hex_digits(b.type));
  EXPECT_NE(diff.find("explain shfl_xor --mask"), std::string::npos) << diff;
  EXPECT_NE(diff.find("--type f16 "), std::string::npos) << diff;
  EXPECT_NE(diff.find("lane " + std::to_string(planted % 32)), std::string::npos) << diff;
}

TEST(CompareHarness, counts_every_lane_once_per_class) {
  const gpu::ShuffleBatch b = sweeps::sweep_batch(model::ShuffleOp::idx, model::Type::i32);
  gpu::WarpResults results;
  write_model_results(b, results);
  const testing::CheckReport report = testing::check_batch(b, results);
  const testing::LaneTally& t = report.tally;
  EXPECT_EQ(t.cases, b.cases.size());
  EXPECT_EQ(t.defined + t.ptx_defined + t.undefined + t.not_called, 32 * b.cases.size());
  EXPECT_GT(t.defined, 0u);
  EXPECT_GT(t.ptx_defined, 0u);
  EXPECT_GT(t.undefined, 0u);
  EXPECT_GT(t.not_called, 0u);
}

// Runs a repro line with --json and returns the lane's "bits", or "" when it did not run.
std::string bits_from_repro(const std::string& repro, int lane) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((repro + " --json").c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, pipe.get())) out.append(buf, n);
  const auto j = nlohmann::json::parse(out, nullptr, false);
  if (j.is_discarded() || !j["lanes"][lane]["bits"].is_string()) return "";
  return j["lanes"][lane]["bits"].get<std::string>();
}

// The repro line a failure prints must make warpconf explain give the lane the model's bits; tried on
// the first case from `case_index` on with a lane the model fixes.
template <class Batch>
void expect_repro_reproduces(const Batch& b, size_t case_index, int digits) {
  model::WarpOutcome want = gpu::model_outcome(b, case_index);
  while (std::none_of(want.begin(), want.end(), model::has_value)) want = gpu::model_outcome(b, ++case_index);
  int checked = 0;
  for (int lane = 0; lane < 32 && checked < 2; ++lane) {
    if (!model::has_value(want[lane])) continue;
    const std::string repro = sweeps::describe(b, case_index, lane).repro;
    EXPECT_EQ(bits_from_repro(repro, lane), sweeps::hex_bits(want[lane].bits & 0xFFFFFFFFFFFFFFFFull, digits))
        << repro;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(ReproLines, make_warpconf_explain_give_the_models_bits) {
  const gpu::ShuffleBatch shuffles = sweeps::sweep_batch(model::ShuffleOp::down, model::Type::f64);
  expect_repro_reproduces(shuffles, shuffles.cases.size() / 3, 16);
  const gpu::VoteBatch votes = sweeps::vote_batch(model::VoteOp::ballot);
  expect_repro_reproduces(votes, votes.cases.size() / 2, 8);
  const gpu::ReduceBatch reductions = sweeps::reduce_batch(model::ReduceOp::max, model::Type::i32);
  expect_repro_reproduces(reductions, reductions.cases.size() / 2, 8);
  const gpu::FnsBatch fns = sweeps::fns_batch();
  expect_repro_reproduces(fns, 1234, 8);
}

// Generators shrink toward simple values only if their orders start there: small_int's order must
// start at 0, never grow in magnitude, and visit every int of the range once.
TEST(GeneratorOrder, small_ints_start_at_zero_and_cover_the_range_once) {
  for (const auto& [low, high] : {std::pair{-64, 96}, {-100, 100}, {-34, 34}, {0, 31}, {-5, 0}}) {
    std::set<int32_t> seen;
    int32_t last_magnitude = 0;
    for (int64_t k = 0; k <= int64_t{high} - low; ++k) {
      const int32_t v = gen::nth_smallest(k, low, high);
      EXPECT_TRUE(v >= low && v <= high) << v;
      EXPECT_GE(std::abs(v), last_magnitude) << "k " << k;
      last_magnitude = std::abs(v);
      seen.insert(v);
    }
    EXPECT_EQ(gen::nth_smallest(0, low, high), 0);
    EXPECT_EQ(seen.size(), static_cast<size_t>(high - low + 1)) << low << ".." << high;
  }
}

// Only two CUDA errors mean "no GPU on this machine"; every other one is a broken driver or device
// that a driver-validation run must see as a failure.
TEST(DeviceSelection, treats_only_no_device_and_insufficient_driver_as_no_gpu) {
  for (int absent : {gpu::kCudaErrorNoDevice, gpu::kCudaErrorInsufficientDriver}) {
    const gpu::DeviceStatus s = gpu::status_for_error(absent, "name", "cudaGetDeviceCount");
    EXPECT_FALSE(s.present);
    EXPECT_FALSE(s.error) << absent;
  }
  // cudaErrorInitializationError, cudaErrorSystemDriverMismatch, cudaErrorDevicesUnavailable, cudaErrorUnknown
  for (int broken : {3, 803, 46, 999}) {
    const gpu::DeviceStatus s = gpu::status_for_error(broken, "cudaErrorSomething", "cudaFree(0)");
    EXPECT_FALSE(s.present);
    EXPECT_TRUE(s.error) << broken;
    EXPECT_NE(s.reason.find("cudaFree(0) failed with cudaErrorSomething"), std::string::npos) << s.reason;
  }
}

TEST(NotSupported, names_the_intrinsic_and_both_compute_capabilities) {
  gpu::DeviceInfo turing;
  turing.cc_major = 7;
  turing.cc_minor = 5;
  EXPECT_EQ(testing::not_supported(80, "__reduce_add_sync", turing),
            "NotSupported: __reduce_add_sync needs compute capability 8.0, device is 7.5");
  gpu::DeviceInfo hopper;
  hopper.cc_major = 9;
  EXPECT_FALSE(testing::not_supported(80, "__reduce_add_sync", hopper).has_value());
}

}  // namespace
}  // namespace wc
