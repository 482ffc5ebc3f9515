// Block reduction, deterministic: examples worked out by hand from docs/algorithms.md ("Block
// reduction") in the model and on the GPU, the library model's bounds, the comparison wired through
// model-made results, then sweeps of every operator and type over the block sizes and shapes the
// contract's edges call for, for the suite's block_reduce and for CUB's BlockReduce.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "families/algorithm/family.hpp"
#include "families/block/family.hpp"
#include "families/block/model.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gpu::BlockImplementation;
using model::AlgorithmOp;
using model::Type;
using sweeps::bits_of;

struct BlockExample {
  std::string claim;
  AlgorithmOp op;
  Type type;
  gpu::LaunchShape block;
  std::vector<std::pair<int, double>> values;  // thread and value; the other threads hold `rest`
  double rest;
  uint64_t total;  // worked out by hand from the contract
};

std::vector<uint64_t> example_values(const BlockExample& ex) {
  std::vector<uint64_t> v(static_cast<size_t>(ex.block.threads()), bits_of(ex.type, ex.rest));
  for (const auto& [thread, value] : ex.values) v[thread] = bits_of(ex.type, value);
  return v;
}

// Thread t holding t + 1 (as the examples with `rest` = -1 mean).
std::vector<uint64_t> numbered(Type type, int n) {
  std::vector<uint64_t> v(static_cast<size_t>(n));
  for (int t = 0; t < n; ++t) v[t] = bits_of(type, t + 1);
  return v;
}

std::vector<BlockExample> examples() {
  return {
      {"a full warp reduces by butterfly: 2048 at thread 0, 1 at threads 1 and 3: the ones meet first, 2050",
       AlgorithmOp::sum, Type::f16, {32, 1, 1}, {{0, 2048}, {1, 1}, {3, 1}}, 0, 0x6801},
      {"a partial last warp folds in lane order before it meets the others: 2048 + (1 + 1) is 2050",
       AlgorithmOp::sum, Type::f16, {34, 1, 1}, {{0, 2048}, {32, 1}, {33, 1}}, 0, 0x6801},
      {"the warps' partials fold in warp order: (2048 + 1) + 1 rounds to 2048 twice", AlgorithmOp::sum, Type::f16,
       {96, 1, 1}, {{0, 2048}, {32, 1}, {64, 1}}, 0, 0x6800},
      {"warps come from the linear index, x fastest: in 8x4x2 thread (0, 0, 1) starts the second warp, so 2050 from "
       "the first warp, then + 1, ties to even: 2052",
       AlgorithmOp::sum, Type::f16, {8, 4, 2}, {{0, 2048}, {1, 1}, {3, 1}, {32, 1}}, 0, 0x6802},
      {"a max over 33 negative threads is -1, not a 0 read from a lane never launched", AlgorithmOp::max, Type::i32,
       {33, 1, 1}, {}, -1, 0xFFFFFFFF},
      {"an unsigned sum wraps: 1024 x 0x80000000 is 0", AlgorithmOp::sum, Type::u32, {1024, 1, 1}, {}, 2147483648.0, 0},
      {"a min of one thread is its value", AlgorithmOp::min, Type::bf16, {1, 1, 1}, {}, 3, 0x4040},
      {"xor over 0, 1, 2, 3, 4 in a 5-thread block is 4", AlgorithmOp::bit_xor, Type::i64, {5, 1, 1},
       {{1, 1}, {2, 2}, {3, 3}, {4, 4}}, 0, 4},
  };
}

std::string example_text(const BlockExample& ex) {
  return "docs/algorithms.md: " + ex.claim + " (block_reduce<" + std::string(model::op_name(ex.op)) + ", " +
         std::string(model::info(ex.type).cpp) + "> block " + sweeps::shape_text(ex.block) + ")";
}

TEST(BlockAlgorithm, gives_every_thread_the_worked_out_total) {
  for (const BlockExample& ex : examples()) {
    const model::BlockOutcome out = model::block_reduce(ex.op, ex.type, example_values(ex));
    ASSERT_EQ(out.size(), static_cast<size_t>(ex.block.threads())) << example_text(ex);
    for (size_t t = 0; t < out.size(); ++t) {
      EXPECT_EQ(out[t].cls, model::LaneClass::defined) << example_text(ex) << ", thread " << t;
      EXPECT_EQ(out[t].bits, ex.total) << example_text(ex) << ", thread " << t;
    }
  }
}

TEST(BlockAlgorithm, sums_one_to_n_for_every_size_of_the_contract) {
  for (int n : sweeps::block_sizes()) {
    const model::BlockOutcome out = model::block_reduce(AlgorithmOp::sum, Type::i64, numbered(Type::i64, n));
    EXPECT_EQ(out[n - 1].bits, static_cast<uint64_t>(n) * (n + 1) / 2) << "block of " << n;
  }
}

TEST(BlockAlgorithm, fixes_only_quietness_of_a_nan_a_sum_makes) {
  std::vector<uint64_t> v(40, 0x7F800000);  // +inf
  v[35] = 0xFF800000;                       // -inf in the partial warp: inf + -inf is a NaN
  const model::BlockOutcome out = model::block_reduce(AlgorithmOp::sum, Type::f32, v);
  EXPECT_EQ(out[0].care, 0x7FC00000u);
  EXPECT_EQ(out[0].bits & out[0].care, 0x7FC00000u);
}

TEST(BlockAlgorithm, takes_1_to_1024_threads) {
  EXPECT_THROW(model::block_reduce(AlgorithmOp::sum, Type::i32, {}), std::invalid_argument);
  EXPECT_THROW(model::block_reduce(AlgorithmOp::sum, Type::i32, std::vector<uint64_t>(1025)), std::invalid_argument);
}

TEST(BlockAlgorithm, library_result_is_thread_0s_alone) {
  const model::BlockOutcome out = model::library_block_reduce(AlgorithmOp::sum, Type::i32, numbered(Type::i32, 65));
  EXPECT_EQ(out[0].cls, model::LaneClass::defined);
  EXPECT_EQ(out[0].bits, 65u * 66 / 2);
  EXPECT_FALSE(out[0].tolerance);
  for (size_t t = 1; t < out.size(); ++t) EXPECT_EQ(out[t].cls, model::LaneClass::undefined) << "thread " << t;
}

TEST(BlockAlgorithm, library_float_sum_is_bounded_by_n_minus_1_roundings) {
  // 100 threads of 0.1f: exact sum 100 * fl(0.1); bound ((1 + u)^99 - 1 + 2^-52) * 100 * fl(0.1), u = 2^-24,
  // where (1 + u)^99 - 1 = 99u + 4851u^2 + (terms below 2^-50 of it).
  const std::vector<uint64_t> v(100, bits_of(Type::f32, 0.1));
  const model::BlockOutcome out = model::library_block_reduce(AlgorithmOp::sum, Type::f32, v);
  ASSERT_TRUE(out[0].tolerance);
  const double x = static_cast<double>(0.1f);
  EXPECT_DOUBLE_EQ(out[0].tolerance->exact, 100 * x);
  const double u = std::ldexp(1.0, -24), want = (99 * u + 4851 * u * u + std::ldexp(1.0, -52)) * 100 * x;
  EXPECT_NEAR(out[0].tolerance->allowed, want, 1e-11 * want);
  // bfloat16 over 1024 threads: (1 + 2^-8)^1023 - 1 = e^3.99.. - 1, about 53.
  EXPECT_NEAR(model::library_sum_bound(Type::bf16, 1024, 1.0), std::expm1(1023 * std::log1p(1.0 / 256)), 1e-9);
  EXPECT_GT(model::library_sum_bound(Type::bf16, 1024, 1.0), 50.0);
  EXPECT_EQ(model::library_sum_bound(Type::f16, 1, 2.0), 2.0 * std::ldexp(1.0, -52) * (1 + std::ldexp(1.0, -40)));
}

TEST(BlockAlgorithm, library_min_and_max_compare_by_value_and_leave_nans_open) {
  std::vector<uint64_t> v(33, bits_of(Type::f32, 5));
  v[7] = 0x80000000;  // -0
  v[9] = 0;           // +0: which of the two a library keeps depends on its order
  const model::BlockOutcome out = model::library_block_reduce(AlgorithmOp::min, Type::f32, v);
  ASSERT_TRUE(out[0].tolerance);
  EXPECT_EQ(out[0].tolerance->exact, 0.0);
  EXPECT_EQ(out[0].tolerance->allowed, 0.0);
  v[20] = 0x7FC00000;
  EXPECT_EQ(model::library_block_reduce(AlgorithmOp::max, Type::f32, v)[0].cls, model::LaneClass::undefined);
}

TEST(BlockAlgorithm, library_sum_of_both_infinities_is_a_nan) {
  std::vector<uint64_t> v(3, bits_of(Type::f64, 1));
  v[0] = 0x7FF0000000000000ull;
  v[2] = 0xFFF0000000000000ull;
  const model::BlockOutcome out = model::library_block_reduce(AlgorithmOp::sum, Type::f64, v);
  ASSERT_TRUE(out[0].tolerance);
  EXPECT_TRUE(std::isnan(out[0].tolerance->exact));
}

// What a GPU that follows the model would write: the model's bits, 7 where it leaves the value open.
void write_model_results(const gpu::BlockBatch& b, gpu::WarpResults& r) {
  r.cases = b.cases();
  r.outputs = 2 * b.threads();
  r.bits.resize(r.cases * r.outputs);
  r.wrote.resize(r.cases * r.outputs);
  for (size_t c = 0; c < r.cases; ++c) {
    const std::vector<model::LaneOutcome> want = gpu::outcome(b, c);
    for (size_t i = 0; i < r.outputs; ++i) {
      const model::LaneOutcome& w = want[i];
      r.bits[c * r.outputs + i] = !model::has_value(w) ? 7 : w.tolerance ? bits_of(b.type, w.tolerance->exact) : w.bits;
      r.wrote[c * r.outputs + i] = 1;
    }
  }
}

TEST(BlockAlgorithm, comparison_passes_the_models_results_and_catches_one_wrong_thread) {
  for (BlockImplementation impl : {BlockImplementation::seam, BlockImplementation::cub}) {
    const gpu::BlockBatch b = sweeps::block_batch({AlgorithmOp::sum, impl}, Type::f32, {65, 1, 1});
    gpu::WarpResults r;
    write_model_results(b, r);
    const check::CheckReport clean = gen::check_batch(b, r).report;
    EXPECT_TRUE(clean.clean()) << gpu::block_text(b.op) << ": " << clean.bad_lanes() << " bad, "
                               << clean.tally.compared() << " compared";
    // Thread 0's second reduction of case 3 written wrong by 1.5: thread 0 is compared by both models.
    const size_t at = 3 * r.outputs + 65;
    r.bits[at] = bits_of(b.type, model::floating_value(b.type, r.bits[at]) + 1.5);
    const check::CheckReport bad = gen::check_batch(b, r).report;
    EXPECT_EQ(bad.bad_lanes(), 1u) << gpu::block_text(b.op);
    EXPECT_EQ(bad.wrong_values, 1u) << gpu::block_text(b.op);
    ASSERT_TRUE(bad.first);
    EXPECT_EQ(bad.first->case_index, 3u);
    EXPECT_EQ(bad.first->lane, 65);
  }
}

class BlockAlgorithmOnGpu : public check::GpuTest {};

TEST_F(BlockAlgorithmOnGpu, gives_every_thread_the_worked_out_total) {
  for (const BlockExample& ex : examples()) {
    gpu::BlockBatch b;
    b.op = {ex.op, BlockImplementation::seam};
    b.type = ex.type;
    b.block = ex.block;
    const std::vector<uint64_t> v = example_values(ex);
    b.values = v;
    b.values.insert(b.values.end(), v.begin(), v.end());
    b.scenario = {"every thread calls", example_text(ex)};
    ASSERT_EQ(model::block_reduce(ex.op, ex.type, v)[0].bits, ex.total) << example_text(ex);
    sweeps::expect_gpu_agrees_on_batches(std::vector<gpu::BlockBatch>{b}, sweeps::shape_text(ex.block));
  }
}

TEST_F(BlockAlgorithmOnGpu, agrees_at_every_size_from_1_to_1024) {
  for (const auto& [op, type] : {std::pair{AlgorithmOp::sum, Type::f32}, std::pair{AlgorithmOp::max, Type::i32},
                                 std::pair{AlgorithmOp::sum, Type::f16}}) {
    std::vector<gpu::BlockBatch> batches;
    for (int n = 1; n <= model::kMaxBlockThreads; ++n)
      batches.push_back(sweeps::block_batch({op, BlockImplementation::seam}, type, {n, 1, 1}));
    sweeps::expect_gpu_agrees_on_batches(batches, "every size 1 to 1024 (1024 shapes)");
  }
}

struct BlockParam {
  AlgorithmOp op;
  Type type;
};

std::ostream& operator<<(std::ostream& os, const BlockParam& p) { return os << p.op << "<" << p.type << ">"; }

std::vector<BlockParam> every_op_and_type() {
  std::vector<BlockParam> out;
  for (AlgorithmOp op : model::kAlgorithmOps)
    for (Type type : model::kAlgorithmTypes)
      if (model::has_op(op, type)) out.push_back({op, type});
  return out;
}

std::string param_name(const ::testing::TestParamInfo<BlockParam>& info) {
  return std::string(model::op_name(info.param.op)) + "_" + std::string(model::info(info.param.type).name);
}

class BlockAlgorithmSweepOnGpu : public check::GpuTest, public ::testing::WithParamInterface<BlockParam> {};

TEST_P(BlockAlgorithmSweepOnGpu, agrees_with_the_model_at_the_contracts_edges) {
  std::vector<gpu::BlockBatch> batches;
  const std::vector<int> sizes = sweeps::block_sizes();
  for (int n : sizes) batches.push_back(sweeps::block_batch({GetParam().op, BlockImplementation::seam}, GetParam().type, {n, 1, 1}));
  for (const gpu::LaunchShape& s : sweeps::block_shapes_2d_3d())
    batches.push_back(sweeps::block_batch({GetParam().op, BlockImplementation::seam}, GetParam().type, s));
  sweeps::expect_gpu_agrees_on_batches(batches, std::to_string(sizes.size()) + " sizes 1 to 1024 and " +
                                                    std::to_string(sweeps::block_shapes_2d_3d().size()) +
                                                    " 2D/3D shapes");
}

INSTANTIATE_TEST_SUITE_P(Every, BlockAlgorithmSweepOnGpu, ::testing::ValuesIn(every_op_and_type()), param_name);

class BlockLibraryOnGpu : public check::GpuTest, public ::testing::WithParamInterface<BlockParam> {};

TEST_P(BlockLibraryOnGpu, cub_block_reduce_agrees_with_the_exact_result_within_its_bound) {
  std::vector<gpu::BlockBatch> batches;
  for (const gpu::LaunchShape& s : gpu::kCubShapes)
    if (gpu::has_cub_instance(GetParam().op, GetParam().type, s))
      batches.push_back(sweeps::block_batch({GetParam().op, BlockImplementation::cub}, GetParam().type, s));
  sweeps::expect_gpu_agrees_on_batches(batches, std::to_string(batches.size()) + " CUB shapes");
}

// The operators and types CUB's BlockReduce is instantiated for, on some shape.
std::vector<BlockParam> cub_ops_and_types() {
  std::vector<BlockParam> out;
  for (const BlockParam& p : every_op_and_type())
    if (gpu::has_cub_instance(p.op, p.type, gpu::kCubBitwiseShapes[0])) out.push_back(p);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Every, BlockLibraryOnGpu, ::testing::ValuesIn(cub_ops_and_types()), param_name);

}  // namespace
}  // namespace wc
