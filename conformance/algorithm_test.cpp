// Warp algorithms, deterministic: the examples docs/algorithms.md works out, in the model and on the
// GPU; the model's rules for lanes no document fixes; then the sweep of every algorithm, operator and
// type over every width, the structured scenes and aligned groups, and partial and 2D/3D warps.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "families/algorithm/family.hpp"
#include "families/algorithm/library_model.hpp"
#include "families/algorithm/model.hpp"
#include "harness/documented.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using model::AlgorithmOp;
using model::PerLane;
using model::Type;
using model::WarpAlgorithm;
using sweeps::bits_of;
using sweeps::uniform;

struct AlgorithmExample {
  std::string claim;
  WarpAlgorithm algorithm;
  AlgorithmOp op;
  Type type;
  int width;
  uint32_t mask, exited;
  PerLane<uint64_t> values;
  std::vector<std::pair<int, uint64_t>> lanes;  // documented lane, and the value it must hold
};

// Lane L holds first + L * step, as a value of the type.
PerLane<uint64_t> lane_numbers(Type type, double first, double step) {
  PerLane<uint64_t> row{};
  for (int lane = 0; lane < 32; ++lane) row[lane] = bits_of(type, first + lane * step);
  return row;
}

// The first lanes hold `head`, the others `rest`.
PerLane<uint64_t> row_of(Type type, std::vector<double> head, double rest) {
  PerLane<uint64_t> row = uniform(bits_of(type, rest));
  for (size_t lane = 0; lane < head.size(); ++lane) row[lane] = bits_of(type, head[lane]);
  return row;
}

PerLane<uint64_t> with_lane(PerLane<uint64_t> row, int lane, uint64_t bits) {
  row[lane] = bits;
  return row;
}

std::vector<AlgorithmExample> examples() {
  const auto ones_i32 = uniform<uint64_t>(1);
  const auto one_to_32 = lane_numbers(Type::i32, 1, 1);
  return {
      {"docs/algorithms.md: a butterfly sum of 1..32 gives every lane 528", WarpAlgorithm::reduce_butterfly,
       AlgorithmOp::sum, Type::i32, 32, 0xFFFFFFFF, 0, one_to_32, {{0, 528}, {17, 528}, {31, 528}}},
      {"docs/algorithms.md: a butterfly of width 8 sums each aligned group of eight", WarpAlgorithm::reduce_butterfly,
       AlgorithmOp::sum, Type::i32, 8, 0xFFFFFFFF, 0, one_to_32, {{0, 36}, {9, 100}, {31, 228}}},
      {"docs/algorithms.md: shfl_down at width 16 leaves each group's sum in its first lane",
       WarpAlgorithm::reduce_down, AlgorithmOp::sum, Type::i32, 16, 0xFFFFFFFF, 0, one_to_32, {{0, 136}, {16, 392}}},
      {"docs/algorithms.md: an inclusive sum of ones gives rank r the value r + 1", WarpAlgorithm::inclusive_scan,
       AlgorithmOp::sum, Type::i32, 32, 0xFFFFFFFF, 0, ones_i32, {{0, 1}, {5, 6}, {31, 32}}},
      {"docs/algorithms.md: an exclusive sum of ones at width 8 gives rank r the value r", WarpAlgorithm::exclusive_scan,
       AlgorithmOp::sum, Type::i32, 8, 0xFFFFFFFF, 0, ones_i32, {{0, 0}, {7, 7}, {8, 0}, {13, 5}}},
      {"docs/algorithms.md: an exclusive min's rank 0 holds INT_MAX, min's identity", WarpAlgorithm::exclusive_scan,
       AlgorithmOp::min, Type::i32, 32, 0xFFFFFFFF, 0, one_to_32, {{0, 0x7FFFFFFF}, {1, 1}}},
      {"docs/algorithms.md: an exclusive max's rank 0 holds -inf, max's identity", WarpAlgorithm::exclusive_scan,
       AlgorithmOp::max, Type::f32, 16, 0xFFFFFFFF, 0, lane_numbers(Type::f32, -1, -1),
       {{0, 0xFF800000}, {1, 0xBF800000}, {16, 0xFF800000}}},
      {"docs/algorithms.md: an exclusive min of bf16 starts at +inf", WarpAlgorithm::exclusive_scan, AlgorithmOp::min,
       Type::bf16, 4, 0xFFFFFFFF, 0, lane_numbers(Type::bf16, 3, 0), {{0, 0x7F80}, {3, 0x4040}}},
      {"docs/algorithms.md: an exclusive and of long long starts with every bit set", WarpAlgorithm::exclusive_scan,
       AlgorithmOp::bit_and, Type::i64, 2, 0xFFFFFFFF, 0, uniform<uint64_t>(0x0F), {{0, ~0ull}, {1, 0x0F}}},
      {"docs/algorithms.md: a half butterfly over {2048, 1, 1, 1} rounds each step: 2050, not 2052",
       WarpAlgorithm::reduce_butterfly, AlgorithmOp::sum, Type::f16, 4, 0x0000000F, 0,
       row_of(Type::f16, {2048, 1, 1, 1}, 0), {{0, 0x6801}, {1, 0x6801}, {2, 0x6801}, {3, 0x6801}}},
      {"docs/algorithms.md: reduce folds in ascending lane order: 2048 + 1 + 1 + 1 stays 2048 in half",
       WarpAlgorithm::reduce, AlgorithmOp::sum, Type::f16, 32, 0x0000000F, 0, row_of(Type::f16, {2048, 1, 1, 1}, 0),
       {{0, 0x6800}, {3, 0x6800}}},
      {"docs/algorithms.md: ... and 1 + 1 + 1 + 2048 gives 2052", WarpAlgorithm::reduce, AlgorithmOp::sum, Type::f16,
       32, 0x0000000F, 0, row_of(Type::f16, {1, 1, 1, 2048}, 0), {{0, 0x6802}, {3, 0x6802}}},
      {"docs/algorithms.md: min keeps its first operand unless the second is smaller: min(NaN, 1) is the NaN",
       WarpAlgorithm::reduce, AlgorithmOp::min, Type::f32, 32, 0x00000003, 0,
       with_lane(uniform<uint64_t>(0x3F800000), 0, 0x7FC00000), {{0, 0x7FC00000}, {1, 0x7FC00000}}},
      {"docs/algorithms.md: ... and min(1, NaN) is 1", WarpAlgorithm::reduce, AlgorithmOp::min, Type::f32, 32,
       0x00000003, 0, with_lane(uniform<uint64_t>(0x3F800000), 1, 0x7FC00000), {{0, 0x3F800000}, {1, 0x3F800000}}},
      {"docs/algorithms.md: reduce over a mask leaves out the lanes that exited: 1 + 2 + 4", WarpAlgorithm::reduce,
       AlgorithmOp::sum, Type::i32, 32, 0x0000000F, 0x00000004, one_to_32, {{0, 7}, {1, 7}, {3, 7}}},
      {"docs/algorithms.md: an unsigned sum wraps: 32 x 0x80000000 is 0", WarpAlgorithm::reduce_butterfly,
       AlgorithmOp::sum, Type::u32, 32, 0xFFFFFFFF, 0, uniform<uint64_t>(0x80000000), {{0, 0}, {31, 0}}},
      {"docs/algorithms.md: an inclusive max of a descending row is its first value", WarpAlgorithm::inclusive_scan,
       AlgorithmOp::max, Type::i32, 32, 0xFFFFFFFF, 0, lane_numbers(Type::i32, 32, -1), {{0, 32}, {31, 32}}},
  };
}

std::string example_text(const AlgorithmExample& ex) {
  return ex.claim + " (" + std::string(model::op_name(ex.algorithm)) + "<" + std::string(model::op_name(ex.op)) +
         ", " + std::string(model::info(ex.type).cpp) + "> width " + std::to_string(ex.width) + ")";
}

TEST(AlgorithmDocumentedModel, gives_the_documented_result) {
  for (const AlgorithmExample& ex : examples()) {
    const auto out = model::warp_algorithm(ex.algorithm, ex.op, ex.type, model::uniform_scene(ex.mask, ex.exited),
                                           ex.width, ex.values);
    for (const auto& [lane, want] : ex.lanes) {
      EXPECT_TRUE(model::has_value(out[lane])) << example_text(ex) << ", lane " << lane;
      EXPECT_EQ(out[lane].bits, want) << example_text(ex) << ", lane " << lane;
    }
  }
}

TEST(AlgorithmModel, leaves_reduce_downs_other_lanes_undefined) {
  const auto out = model::warp_algorithm(WarpAlgorithm::reduce_down, AlgorithmOp::sum, Type::i32,
                                         model::uniform_scene(model::kFullMask), 8, uniform<uint64_t>(1));
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(out[lane].cls, lane % 8 ? model::LaneClass::undefined : model::LaneClass::defined) << "lane " << lane;
    if (lane % 8) {
      EXPECT_EQ(out[lane].rule->id, "alg.reduce_down.partial");
    }
  }
}

TEST(AlgorithmModel, leaves_results_built_on_absent_lanes_undefined) {
  // Width 32 over a mask of the lower half: the first step reads the upper half, which takes no part.
  const auto out = model::warp_algorithm(WarpAlgorithm::reduce_butterfly, AlgorithmOp::sum, Type::i32,
                                         model::uniform_scene(0x0000FFFF), 32, uniform<uint64_t>(1));
  for (int lane = 0; lane < 16; ++lane) {
    EXPECT_EQ(out[lane].cls, model::LaneClass::undefined) << "lane " << lane;
    EXPECT_EQ(out[lane].rule->id, "alg.reads-absent");
  }
  // Width 16 over the same mask reads only its own group: every lane has the group's sum.
  const auto aligned = model::warp_algorithm(WarpAlgorithm::reduce_butterfly, AlgorithmOp::sum, Type::i32,
                                             model::uniform_scene(0x0000FFFF), 16, uniform<uint64_t>(1));
  for (int lane = 0; lane < 16; ++lane) EXPECT_EQ(aligned[lane].bits, 16u) << "lane " << lane;
}

TEST(AlgorithmModel, fixes_only_quietness_of_a_nan_a_sum_makes) {
  PerLane<uint64_t> values = uniform<uint64_t>(0x7F800000);  // +inf
  values[1] = 0xFF800000;                                      // -inf: inf + -inf is a NaN
  const auto out = model::warp_algorithm(WarpAlgorithm::reduce_butterfly, AlgorithmOp::sum, Type::f32,
                                         model::uniform_scene(model::kFullMask), 2, values);
  EXPECT_EQ(out[0].care, 0x7FC00000u);
  EXPECT_EQ(out[0].bits & out[0].care, 0x7FC00000u);
  EXPECT_EQ(out[2].care, model::value_mask(64)) << "lanes 2 and 3 add +inf to +inf: every bit is fixed";
}

TEST(AlgorithmModel, takes_bitwise_operators_for_integers_only) {
  EXPECT_TRUE(model::has_op(AlgorithmOp::bit_xor, Type::i64));
  EXPECT_TRUE(model::has_op(AlgorithmOp::sum, Type::bf16));
  EXPECT_FALSE(model::has_op(AlgorithmOp::bit_and, Type::f32));
  EXPECT_FALSE(model::has_op(AlgorithmOp::bit_or, Type::f16));
}

// op(identity, x) == x, but where IEEE arithmetic exempts x: +0 + -0 is +0; min and max keep their
// first operand against a NaN, so op(identity, NaN) is the identity; a sum's NaN has no fixed payload.
TEST(AlgorithmModel, has_an_identity_for_every_operator_and_type) {
  for (AlgorithmOp op : model::kAlgorithmOps)
    for (Type type : model::kAlgorithmTypes) {
      if (!model::has_op(op, type)) continue;
      const uint64_t id = model::identity(op, type);
      for (uint64_t seed = 0; seed < 4; ++seed)
        for (uint64_t x : sweeps::distinct_values(type, seed)) {
          const uint64_t got = model::apply(op, type, id, x);
          const bool negative_zero = op == AlgorithmOp::sum && x == bits_of(type, -0.0) && x != 0;
          const bool nan = model::format_value(type, x).find("nan") != std::string::npos;
          if (negative_zero || nan) continue;
          EXPECT_EQ(got, x) << model::op_name(op) << "<" << type << ">(identity, " << model::format_value(type, x)
                            << ")";
        }
    }
}

// Declaring any order, a result is held to what every order gives: an integer sum bit for bit, a
// floating one within the order-free bound; the lanes it covers must all take part.
TEST(AlgorithmAnyOrderModel, holds_each_lane_to_what_every_order_gives) {
  const auto any_order = [](WarpAlgorithm algorithm, Type type, uint32_t mask, int width, const PerLane<uint64_t>& v) {
    return model::warp_algorithm_in_any_order(algorithm, AlgorithmOp::sum, type, model::uniform_scene(mask), width, v);
  };
  const auto ones = uniform<uint64_t>(bits_of(Type::f32, 1));
  const auto sum = any_order(WarpAlgorithm::reduce_butterfly, Type::f32, model::kFullMask, 32, ones);
  ASSERT_TRUE(sum[5].tolerance);
  EXPECT_EQ(sum[5].tolerance->exact, 32);
  EXPECT_GT(sum[5].tolerance->allowed, 0);
  const auto integers = any_order(WarpAlgorithm::inclusive_scan, Type::i32, model::kFullMask, 8, uniform<uint64_t>(3));
  EXPECT_FALSE(integers[10].tolerance);
  EXPECT_EQ(integers[10].bits, 9u) << "rank 2 of its group: 3 + 3 + 3";
  const auto exclusive = any_order(WarpAlgorithm::exclusive_scan, Type::i32, model::kFullMask, 8, uniform<uint64_t>(3));
  EXPECT_EQ(exclusive[8].bits, 0u) << "rank 0: the identity";
  EXPECT_EQ(exclusive[9].bits, 3u);
  const auto down = any_order(WarpAlgorithm::reduce_down, Type::i32, model::kFullMask, 4, uniform<uint64_t>(2));
  EXPECT_EQ(down[4].bits, 8u);
  EXPECT_EQ(down[5].cls, model::LaneClass::undefined);
  // Width 32 over the lower half: every group covers the upper half, which takes no part.
  const auto absent = any_order(WarpAlgorithm::reduce_butterfly, Type::i32, 0x0000FFFF, 32, uniform<uint64_t>(1));
  EXPECT_EQ(absent[0].cls, model::LaneClass::undefined);
  EXPECT_EQ(absent[0].rule->id, "alg.any-order.reads-absent");
  EXPECT_EQ(absent[20].cls, model::LaneClass::not_called);
}

// Whole warps of every width of the ascending butterfly (fixtures/algorithms/reordered.cuh), which
// declares `order`, over the sweep's values and one row whose sum the order rounds: 1 at lane 0 and
// half an ulp of it at lanes 16 and 17. Descending, each half ulp meets the 1 alone and rounds away;
// ascending, they meet each other first and count.
gpu::AlgorithmBatch ascending_butterflies(Type type, model::OrderOfOperations order) {
  gpu::AlgorithmBatch b;
  b.op = {WarpAlgorithm::reduce_butterfly, AlgorithmOp::sum, gpu::Implementation::ascending_butterfly, order};
  b.type = type;
  b.scenes = {model::uniform_scene(model::kFullMask)};
  for (int width : {2, 4, 8, 16, 32}) b.tables.width.push_back(uniform<int32_t>(width));
  b.tables.value = sweeps::algorithm_values(type);
  PerLane<uint64_t> rounded = uniform<uint64_t>(bits_of(type, 0));
  rounded[0] = bits_of(type, 1);
  rounded[16] = rounded[17] = bits_of(type, model::unit_roundoff(type));
  b.tables.value.push_back(rounded);
  sweeps::add_every_case(b);
  return b;
}

// The ascending butterfly on the host: offsets 1 .. width / 2, every lane at once, each step
// op(own value, partner's value).
void emulate_ascending_butterflies(const gpu::AlgorithmBatch& b, gpu::WarpResults& results) {
  results.cases = b.cases.size();
  results.bits.resize(results.cases * 32);
  results.wrote.resize(results.cases * 32);
  for (size_t c = 0; c < b.cases.size(); ++c) {
    const auto in = gpu::inputs(b, c);
    PerLane<uint64_t> v{};
    for (int lane = 0; lane < 32; ++lane) v[lane] = in.value[lane] & model::value_mask(model::info(b.type).bits);
    for (int offset = 1; offset < in.width[0]; offset *= 2) {
      PerLane<uint64_t> next{};
      for (int lane = 0; lane < 32; ++lane) next[lane] = model::apply(b.op.op, b.type, v[lane], v[lane ^ offset]);
      v = next;
    }
    for (int lane = 0; lane < 32; ++lane) {
      results.bits[c * 32 + lane] = v[lane];
      results.wrote[c * 32 + lane] = 1;
    }
  }
}

constexpr Type kFloatingTypes[] = {Type::f32, Type::f16, Type::bf16, Type::f64};

// A correct reduce_butterfly in another order, emulated: declaring any order it agrees with the
// model; declaring the fixed order, the sum the order rounds is caught.
TEST(AlgorithmOrder, an_ascending_butterfly_passes_declaring_any_order_and_fails_declaring_the_fixed_one) {
  for (Type type : kFloatingTypes) {
    const gpu::AlgorithmBatch any = ascending_butterflies(type, model::OrderOfOperations::any);
    gpu::WarpResults results;
    emulate_ascending_butterflies(any, results);
    const check::CheckReport agrees = gen::check_batch(any, results).report;
    EXPECT_TRUE(agrees.clean()) << type << ": " << agrees.bad_lanes() << " lanes outside the order-free bound";
    EXPECT_GT(agrees.tally.compared(), 0u);
    const check::CheckReport caught =
        gen::check_batch(ascending_butterflies(type, model::OrderOfOperations::fixed), results).report;
    EXPECT_GT(caught.wrong_values, 0u) << type;
  }
}

class AlgorithmOrderOnGpu : public check::GpuTest {};

TEST_F(AlgorithmOrderOnGpu, an_ascending_butterfly_declaring_any_order_agrees_with_the_model) {
  for (Type type : model::kAlgorithmTypes) {
    for (AlgorithmOp op : {AlgorithmOp::sum, AlgorithmOp::min, AlgorithmOp::max})
      sweeps::expect_gpu_agrees(sweeps::algorithm_batch(
          {WarpAlgorithm::reduce_butterfly, op, gpu::Implementation::ascending_butterfly, model::OrderOfOperations::any},
          type));
    sweeps::expect_gpu_agrees(ascending_butterflies(type, model::OrderOfOperations::any));
  }
}

TEST_F(AlgorithmOrderOnGpu, the_same_butterfly_declaring_the_fixed_order_is_caught) {
  for (Type type : kFloatingTypes) sweeps::expect_gpu_catches(ascending_butterflies(type, model::OrderOfOperations::fixed));
}

class AlgorithmDocumentedOnGpu : public check::GpuTest {};

TEST_F(AlgorithmDocumentedOnGpu, gives_the_documented_result) {
  for (const AlgorithmExample& ex : examples()) {
    gpu::AlgorithmBatch b;
    b.op = {ex.algorithm, ex.op, gpu::Implementation::seam};
    b.type = ex.type;
    b.scenes = {model::uniform_scene(ex.mask, ex.exited)};
    auto& t = b.tables;
    t.width = {uniform<int32_t>(ex.width)};
    t.value = {ex.values};
    b.cases = {{}};
    sweeps::expect_gpu_gives_documented(b, {{example_text(ex), ex.lanes}});
  }
}

struct AlgorithmParam {
  WarpAlgorithm algorithm;
  AlgorithmOp op;
  Type type;
};

std::ostream& operator<<(std::ostream& os, const AlgorithmParam& p) {
  return os << model::op_name(p.algorithm) << "<" << model::op_name(p.op) << ", " << p.type << ">";
}

std::vector<AlgorithmParam> every_algorithm_op_and_type() {
  std::vector<AlgorithmParam> out;
  for (WarpAlgorithm algorithm : model::kWarpAlgorithms)
    for (AlgorithmOp op : model::kAlgorithmOps)
      for (Type type : model::kAlgorithmTypes)
        if (model::has_op(op, type)) out.push_back({algorithm, op, type});
  return out;
}

class AlgorithmSweepOnGpu : public check::GpuTest, public ::testing::WithParamInterface<AlgorithmParam> {};

TEST_P(AlgorithmSweepOnGpu, agrees_with_the_model) {
  const AlgorithmParam p = GetParam();
  sweeps::expect_gpu_agrees(sweeps::algorithm_batch({p.algorithm, p.op, gpu::Implementation::seam}, p.type));
}

INSTANTIATE_TEST_SUITE_P(Every, AlgorithmSweepOnGpu, ::testing::ValuesIn(every_algorithm_op_and_type()),
                         [](const auto& info) {
                           return std::string(model::op_name(info.param.algorithm)) + "_" +
                                  std::string(model::op_name(info.param.op)) + "_" +
                                  std::string(model::info(info.param.type).name);
                         });

class AlgorithmBlockShapesOnGpu : public check::GpuTest, public ::testing::WithParamInterface<gpu::LaunchShape> {};

TEST_P(AlgorithmBlockShapesOnGpu, agree_with_the_model) {
  for (WarpAlgorithm algorithm : model::kWarpAlgorithms)
    for (const auto& [op, type] : {std::pair{AlgorithmOp::sum, Type::i32}, std::pair{AlgorithmOp::min, Type::f16}})
      sweeps::expect_gpu_agrees(
          sweeps::with_block(sweeps::algorithm_batch({algorithm, op, gpu::Implementation::seam}, type), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(DivergenceShapes, AlgorithmBlockShapesOnGpu, ::testing::ValuesIn(sweeps::divergence_shapes()),
                         [](const auto& info) { return sweeps::shape_text(info.param); });

}  // namespace
}  // namespace wc
