// Library warp algorithms (cooperative groups and CUB), deterministic: examples worked by hand in the
// order-free model, the bound's arithmetic, the comparison accepting another valid order and catching
// a dropped element without a GPU; then the sweep of every built implementation, algorithm, operator
// and type over every built width and the contract's scenes, and 1D, 2D, 3D and partial-warp blocks.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/bounds.hpp"
#include "families/algorithm/family.hpp"
#include "families/algorithm/library_model.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gpu::Implementation;
using model::AlgorithmOp;
using model::LaneClass;
using model::LibraryCall;
using model::PerLane;
using model::Type;
using model::WarpAlgorithm;
using sweeps::bits_of;
using sweeps::uniform;

const model::Scene kFull = model::uniform_scene(model::kFullMask);

PerLane<uint64_t> one_to_32(Type type) {
  PerLane<uint64_t> row{};
  for (int lane = 0; lane < 32; ++lane) row[lane] = bits_of(type, lane + 1);
  return row;
}

struct LibraryExample {
  std::string claim;
  LibraryCall call;
  AlgorithmOp op;
  Type type;
  int width;
  PerLane<uint64_t> values;
  uint64_t initial;
  std::vector<std::pair<int, uint64_t>> lanes;  // lane, and the bits it must hold
};

std::vector<LibraryExample> examples() {
  return {
      {"cg::reduce of 1..32 at tile 8 gives every rank its tile's sum", LibraryCall::cg_reduce, AlgorithmOp::sum,
       Type::i32, 8, one_to_32(Type::i32), 0, {{0, 36}, {7, 36}, {9, 100}, {31, 228}}},
      {"cg::inclusive_scan max of 1..32 at tile 32 gives rank r the value r + 1", LibraryCall::cg_inclusive_scan,
       AlgorithmOp::max, Type::i32, 32, one_to_32(Type::i32), 0, {{0, 1}, {17, 18}}},
      {"cg::exclusive_scan min at tile 8: rank 3 gets min(1, 2, 3)", LibraryCall::cg_exclusive_scan,
       AlgorithmOp::min, Type::i32, 8, one_to_32(Type::i32), 0, {{3, 1}, {11, 9}}},
      {"cg::exclusive_scan's rank 0 gets T{}, 0, not min's identity", LibraryCall::cg_exclusive_scan,
       AlgorithmOp::min, Type::i32, 8, one_to_32(Type::i32), 0, {{0, 0}, {8, 0}}},
      {"cg::exclusive_scan's rank 0 gets +0.0f for a float max", LibraryCall::cg_exclusive_scan, AlgorithmOp::max,
       Type::f32, 4, one_to_32(Type::f32), 0, {{0, 0}, {4, 0}}},
      {"cg::reduce xor of long long 0x0F at tile 2 is 0", LibraryCall::cg_reduce, AlgorithmOp::bit_xor, Type::i64, 2,
       uniform<uint64_t>(0x0F), 0, {{0, 0}, {1, 0}}},
      {"WarpReduce::Reduce sum of 1..32 at logical warp 16: lane 16 gets 392", LibraryCall::cub_reduce,
       AlgorithmOp::sum, Type::u32, 16, one_to_32(Type::u32), 0, {{0, 136}, {16, 392}}},
      {"WarpScan::ExclusiveScan sum of ones, initial 3, logical warp 8: rank r gets 3 + r",
       LibraryCall::cub_exclusive_scan, AlgorithmOp::sum, Type::i32, 8, uniform<uint64_t>(1), 3,
       {{0, 3}, {5, 8}, {8, 3}}},
      {"WarpScan::ExclusiveScan max with initial -5 keeps -5 before larger values", LibraryCall::cub_exclusive_scan,
       AlgorithmOp::max, Type::i32, 2, uniform<uint64_t>(0xFFFFFFF0u), 0xFFFFFFFBu, {{0, 0xFFFFFFFB}, {1, 0xFFFFFFFB}}},
  };
}

TEST(LibraryDocumentedModel, gives_the_documented_result) {
  for (const LibraryExample& ex : examples()) {
    const auto out = model::library_algorithm(ex.call, ex.op, ex.type, kFull, ex.width, ex.values, ex.initial);
    for (const auto& [lane, want] : ex.lanes) {
      EXPECT_TRUE(model::has_value(out[lane])) << ex.claim << ", lane " << lane;
      EXPECT_EQ(out[lane].bits, want) << ex.claim << ", lane " << lane;
    }
  }
}

TEST(LibraryModel, leaves_what_the_libraries_leave_undefined) {
  const auto reduce = model::library_algorithm(LibraryCall::cub_reduce, AlgorithmOp::sum, Type::i32, kFull, 8,
                                               uniform<uint64_t>(1), 0);
  EXPECT_EQ(reduce[0].cls, LaneClass::defined);
  EXPECT_EQ(reduce[3].cls, LaneClass::undefined) << "WarpReduce: valid in lane0 only";
  const auto scan = model::library_algorithm(LibraryCall::cub_exclusive_no_initial, AlgorithmOp::sum, Type::i32,
                                             kFull, 8, uniform<uint64_t>(1), 0);
  EXPECT_EQ(scan[8].cls, LaneClass::undefined) << "ExclusiveScan without an initial value: lane0 undefined";
  EXPECT_EQ(scan[9].bits, 1u);
  const auto cg_first = model::library_algorithm(LibraryCall::cg_exclusive_scan, AlgorithmOp::sum, Type::i32, kFull,
                                                 8, uniform<uint64_t>(1), 0);
  EXPECT_EQ(cg_first[0].cls, LaneClass::ptx_defined) << "the header, not the guide, fixes rank 0";
}

TEST(LibraryModel, keeps_the_documented_long_long_sum_and_names_the_cub_deviation) {
  model::PerLane<uint64_t> values{};
  values[0] = 5;
  values[1] = 7;
  const auto out = model::library_algorithm(LibraryCall::cub_reduce, AlgorithmOp::sum, Type::i64, kFull, 2, values, 0);
  EXPECT_EQ(out[0].bits, 12u) << "the model keeps x_0 + x_1";
  ASSERT_NE(out[0].known, nullptr);
  EXPECT_EQ(out[0].known_bits, 14u) << "the deviation seen is 2 * x_1";
  const auto wider = model::library_algorithm(LibraryCall::cub_reduce, AlgorithmOp::sum, Type::i64, kFull, 4, values, 0);
  EXPECT_EQ(wider[0].known, nullptr) << "seen at width 2 only";
}

TEST(LibraryModel, refuses_groups_that_break_the_contract) {
  model::Scene scene = model::uniform_scene(model::kFullMask);
  scene.mask[5] = 0;  // lane 5 skips: its group of 8 is not called whole
  const auto out = model::library_algorithm(LibraryCall::cg_reduce, AlgorithmOp::sum, Type::i32, scene, 8,
                                            uniform<uint64_t>(1), 0);
  EXPECT_EQ(out[0].cls, LaneClass::undefined);
  EXPECT_EQ(out[0].rule->id, "lib.contract");
  EXPECT_EQ(out[8].bits, 8u) << "the next group is whole";
  EXPECT_FALSE(model::keeps_library_contract(scene, 8));
  model::Scene split = model::uniform_scene(model::kFullMask);
  split.else_arm = 0x1;  // one lane of the first group calls from the else arm
  EXPECT_FALSE(model::keeps_library_contract(split, 4));
  EXPECT_TRUE(model::keeps_library_contract(split, 1));
}

TEST(LibraryModel, bounds_a_float_sum_by_gamma_n_minus_1_times_the_sum_of_magnitudes) {
  PerLane<uint64_t> values = uniform<uint64_t>(bits_of(Type::f32, 0x1p-24));
  values[0] = bits_of(Type::f32, 1.0);
  const auto out = model::library_algorithm(LibraryCall::cg_reduce, AlgorithmOp::sum, Type::f32, kFull, 4, values, 0);
  ASSERT_TRUE(out[0].tolerance.has_value());
  EXPECT_EQ(out[0].tolerance->exact, 1 + 3 * 0x1p-24);
  // gamma_3 = 3u / (1 - 3u), u = 2^-24, times sum |x| = 1 + 3 * 2^-24; plus the host's rounding.
  EXPECT_NEAR(out[0].tolerance->allowed, 3 * 0x1p-24, 1e-13);
  EXPECT_TRUE(check::within(*out[0].tolerance, bits_of(Type::f32, 1.0))) << "lane order: each step rounds to 1";
  EXPECT_TRUE(check::within(*out[0].tolerance, 0x3F800002u)) << "(2^-24 + 2^-24 + 2^-24) + 1 rounds the tie to 1 + 2^-22";
  EXPECT_FALSE(check::within(*out[0].tolerance, 0x3F800004u)) << "1 + 2^-21 is no order's result";
}

TEST(LibraryModel, compares_float_min_and_max_by_value_and_leaves_nans_to_the_order) {
  PerLane<uint64_t> values = uniform<uint64_t>(bits_of(Type::f32, 2.0));
  values[0] = 0x80000000;  // -0
  values[1] = 0x00000000;  // +0
  const auto out = model::library_algorithm(LibraryCall::cg_reduce, AlgorithmOp::min, Type::f32, kFull, 4, values, 0);
  ASSERT_TRUE(out[0].tolerance.has_value());
  EXPECT_TRUE(check::within(*out[0].tolerance, 0x00000000u));
  EXPECT_TRUE(check::within(*out[0].tolerance, 0x80000000u));
  EXPECT_FALSE(check::within(*out[0].tolerance, bits_of(Type::f32, 2.0)));
  values[2] = 0x7FC00000;
  const auto nan = model::library_algorithm(LibraryCall::cg_reduce, AlgorithmOp::max, Type::f32, kFull, 4, values, 0);
  EXPECT_EQ(nan[0].cls, LaneClass::undefined);
  EXPECT_EQ(nan[0].rule->id, "lib.minmax.nan");
  EXPECT_EQ(nan[4].cls, LaneClass::defined) << "the next tile holds no NaN";
}

TEST(LibraryModel, follows_ieee_for_nans_and_infinities_in_sums_and_refuses_possible_overflow) {
  PerLane<uint64_t> values = uniform<uint64_t>(bits_of(Type::f32, 1.0));
  values[0] = 0x7F800000;  // +inf
  values[1] = 0xFF800000;  // -inf: lanes 0-1 sum to NaN in every order
  const auto out = model::library_algorithm(LibraryCall::cg_inclusive_scan, AlgorithmOp::sum, Type::f32, kFull, 32,
                                            values, 0);
  EXPECT_EQ(out[0].tolerance->exact, INFINITY);
  EXPECT_TRUE(std::isnan(out[1].tolerance->exact));
  const auto big = model::library_algorithm(LibraryCall::cub_reduce, AlgorithmOp::sum, Type::f16, kFull, 32,
                                            uniform<uint64_t>(bits_of(Type::f16, 4096)), 0);
  EXPECT_EQ(big[0].cls, LaneClass::undefined) << "32 x 4096 passes 65504 in some orders";
  EXPECT_EQ(big[0].rule->id, "lib.sum.may-overflow");
}

TEST(LibraryModel, sums_exactly_on_the_host) {
  const double cancel[] = {1e16, 1.0, -1e16};
  EXPECT_EQ(model::exact_sum(cancel, 3), 1.0);
  const double far[] = {1.0, 1e100, 1.0, -1e100};
  EXPECT_EQ(model::exact_sum(far, 4), 2.0);
  const double tie[] = {1.0, 0x1p-53, 0x1p-106};  // just above a half-way case: rounds up
  EXPECT_EQ(model::exact_sum(tie, 3), 1.0 + 0x1p-52);
  EXPECT_DOUBLE_EQ(model::gamma(31, 0x1p-11), 31 * 0x1p-11 / (1 - 31 * 0x1p-11));
}

// The bound's two sides without a GPU: a sum in another valid order (lanes descending) passes, and a
// library-style sum that drops the tile's last element is caught as a written wrong value.
TEST(LibraryComparison, accepts_another_order_and_catches_a_dropped_element) {
  gpu::AlgorithmBatch b = sweeps::library_batch({WarpAlgorithm::reduce, AlgorithmOp::sum, Implementation::cg_tile},
                                                Type::f32);
  const auto fill = [&](bool drop_last, gpu::WarpResults& out) {
    out.cases = b.cases.size();
    out.bits.resize(out.cases * 32);
    out.wrote.resize(out.cases * 32);
    for (size_t c = 0; c < out.cases; ++c) {
      const model::PerLane<uint64_t>& value = gpu::inputs(b, c).value;
      const int width = gpu::algorithm_width(b, c);
      const model::Scene scene = gpu::scene_of(b.scenes[b.cases[c].scene], b.block, c);
      const uint32_t calling = model::callers(scene);
      for (int lane = 0; lane < 32; ++lane) {
        const bool calls = model::has_lane(calling, lane);
        float sum = 0;
        const int first = lane & ~(width - 1);
        for (int k = first + width - 1 - (drop_last ? 1 : 0); k >= first; --k)
          sum += static_cast<float>(model::floating_value(Type::f32, value[k]));
        out.bits[c * 32 + lane] = calls ? model::floating_bits(Type::f32, sum) : gpu::kSentinel;
        out.wrote[c * 32 + lane] = calls ? 1 : 0;
      }
    }
  };
  gpu::WarpResults descending, dropped;
  fill(false, descending);
  const check::CheckReport good = gen::check_batch(b, descending).report;
  EXPECT_TRUE(good.clean()) << check::diff_text(good, [&](size_t c, int l) { return gpu::describe(b, c, l); }, 8);
  fill(true, dropped);
  const check::CheckReport bad = gen::check_batch(b, dropped).report;
  EXPECT_GT(bad.wrong_values, 0u) << "dropping an element must leave the bound";
}

TEST(LibrarySweeps, keep_the_contract_and_compare_lanes) {
  for (Implementation impl : {Implementation::cg_tile, Implementation::cub_warp})
    for (WarpAlgorithm algorithm : {WarpAlgorithm::reduce, WarpAlgorithm::inclusive_scan, WarpAlgorithm::exclusive_scan})
      for (const gpu::LaunchShape& shape : sweeps::library_shapes()) {
        const gpu::AlgorithmBatch b = sweeps::library_batch({algorithm, AlgorithmOp::sum, impl}, Type::i32, shape);
        ASSERT_FALSE(b.cases.empty()) << sweeps::shape_text(shape);
        uint64_t compared = 0;
        for (size_t c = 0; c < b.cases.size(); ++c) {
          const auto& row = b.cases[c];
          ASSERT_TRUE(model::keeps_library_contract(gpu::scene_of(b.scenes[row.scene], b.block, c),
                                                    gpu::algorithm_width(b, c)))
              << gpu::describe(b, c, 0).name;
          for (const auto& o : gpu::outcome(b, c)) compared += model::has_value(o) ? 1 : 0;
        }
        EXPECT_GT(compared, 0u) << sweeps::shape_text(shape);
      }
}

struct LibraryParam {
  Implementation implementation;
  WarpAlgorithm algorithm;
  AlgorithmOp op;
  Type type;
};

std::ostream& operator<<(std::ostream& os, const LibraryParam& p) {
  return os << gpu::algorithm_text({p.algorithm, p.op, p.implementation}) << "<" << p.type << ">";
}

std::vector<LibraryParam> every_built_library_call() {
  std::vector<LibraryParam> out;
  for (Implementation impl : {Implementation::cg_tile, Implementation::cub_warp, Implementation::cub_warp_sum,
                              Implementation::cub_warp_no_initial})
    for (WarpAlgorithm algorithm : model::kWarpAlgorithms)
      for (AlgorithmOp op : model::kAlgorithmOps)
        for (Type type : model::kAlgorithmTypes)
          if (gpu::library_builds({algorithm, op, impl}, type)) out.push_back({impl, algorithm, op, type});
  return out;
}

TEST(LibrarySweeps, cover_every_operator_for_int_and_float_and_sum_min_max_for_the_others) {
  const std::vector<LibraryParam> params = every_built_library_call();
  // cg and cub_warp: 3 algorithms x (6 int + 3 x 6 other types) pairs; cub_warp_sum: 3 x 7; no_initial: 24.
  EXPECT_EQ(params.size(), 2u * 3u * 24u + 3u * 7u + 24u);
}

class LibrarySweepOnGpu : public check::GpuTest, public ::testing::WithParamInterface<LibraryParam> {};

TEST_P(LibrarySweepOnGpu, agrees_with_the_order_free_model) {
  const LibraryParam p = GetParam();
  sweeps::expect_gpu_agrees(sweeps::library_batch({p.algorithm, p.op, p.implementation}, p.type));
}

INSTANTIATE_TEST_SUITE_P(Every, LibrarySweepOnGpu, ::testing::ValuesIn(every_built_library_call()),
                         [](const auto& info) {
                           return std::string(gpu::implementation_name(info.param.implementation)) + "_" +
                                  std::string(model::op_name(info.param.algorithm)) + "_" +
                                  std::string(model::op_name(info.param.op)) + "_" +
                                  std::string(model::info(info.param.type).name);
                         });

class LibraryBlockShapesOnGpu : public check::GpuTest, public ::testing::WithParamInterface<gpu::LaunchShape> {};

TEST_P(LibraryBlockShapesOnGpu, agree_with_the_order_free_model) {
  for (Implementation impl : {Implementation::cg_tile, Implementation::cub_warp})
    for (WarpAlgorithm algorithm : {WarpAlgorithm::reduce, WarpAlgorithm::inclusive_scan, WarpAlgorithm::exclusive_scan})
      for (const auto& [op, type] : {std::pair{AlgorithmOp::sum, Type::i32}, std::pair{AlgorithmOp::sum, Type::f32},
                                     std::pair{AlgorithmOp::min, Type::f16}})
        sweeps::expect_gpu_agrees(sweeps::library_batch({algorithm, op, impl}, type, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Shapes, LibraryBlockShapesOnGpu, ::testing::ValuesIn(sweeps::library_shapes()),
                         [](const auto& info) { return sweeps::shape_text(info.param); });

}  // namespace
}  // namespace wc
