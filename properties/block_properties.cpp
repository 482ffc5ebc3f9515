// Block reduction, properties: laws of the model (integers reduce exactly in any order; a block of
// one warp is the warp algorithms' reduction), the GPU against the model on random shapes and values
// for the suite's block_reduce and CUB's BlockReduce, and each known-bad pattern caught with a shrunk
// counterexample.
#include <gtest/gtest.h>

#include <string>

#include "harness/random_check.hpp"
#include "core/warp_gen.hpp"
#include "families/block/family.hpp"
#include "families/block/model.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using gpu::BlockImplementation;
using model::AlgorithmOp;
using model::Type;

std::vector<uint64_t> random_values(Draw& d, Type type, int n) {
  std::vector<uint64_t> v(static_cast<size_t>(n));
  for (uint64_t& x : v) x = gen::gen_bits(d, type);
  return v;
}

// Law: for integer types every operator is associative and commutative, so every thread holds the
// values folded in thread order, and the library model agrees with the suite's.
TEST(BlockAlgorithmLaws, integers_reduce_to_the_fold_in_thread_order) {
  gen::expect_law(3000, [](Draw& d) -> LawResult {
    const AlgorithmOp op = model::kAlgorithmOps[d.below(model::kAlgorithmOps.size())];
    const Type type = gen::element(d, {Type::i32, Type::u32, Type::i64});
    const int n = static_cast<int>(gen::in_range(d, 1, model::kMaxBlockThreads));
    const std::vector<uint64_t> v = random_values(d, type, n);
    uint64_t fold = v[0];
    for (int t = 1; t < n; ++t) fold = model::apply(op, type, fold, v[t]);
    const model::BlockOutcome out = model::block_reduce(op, type, v);
    const model::BlockOutcome library = model::library_block_reduce(op, type, v);
    for (int t = 0; t < n; ++t)
      if (out[t].bits != fold)
        return violation(op, "<", type, "> block of ", n, " thread ", t, ": ", out[t].bits, ", fold ", fold);
    if (library[0].bits != fold) return violation(op, "<", type, "> block of ", n, ": library ", library[0].bits);
    return {};
  });
}

// Law: a block of one warp is that warp's reduction: the butterfly's lane 0 for 32 threads, reduce
// over the launched lanes for fewer, floating types and NaNs included.
TEST(BlockAlgorithmLaws, one_warp_is_the_warp_reduction) {
  gen::expect_law(5000, [](Draw& d) -> LawResult {
    const AlgorithmOp op = model::kAlgorithmOps[d.below(model::kAlgorithmOps.size())];
    const Type type = model::kAlgorithmTypes[d.below(model::kAlgorithmTypes.size())];
    if (!model::has_op(op, type)) return {};
    const int n = static_cast<int>(gen::in_range(d, 1, 32));
    model::PerLane<uint64_t> lanes{};
    const std::vector<uint64_t> v = random_values(d, type, n);
    std::copy(v.begin(), v.end(), lanes.begin());
    const uint32_t launched = n == 32 ? model::kFullMask : (1u << n) - 1;
    const model::WarpOutcome warp = model::warp_algorithm(
        n == 32 ? model::WarpAlgorithm::reduce_butterfly : model::WarpAlgorithm::reduce, op, type,
        model::uniform_scene(launched), 32, lanes);
    const model::BlockOutcome block = model::block_reduce(op, type, v);
    if (block[0].bits != warp[0].bits || block[0].care != warp[0].care)
      return violation(op, "<", type, "> block of ", n, ": block ", block[0].bits, " care ", block[0].care,
                       ", warp ", warp[0].bits, " care ", warp[0].care);
    return {};
  });
}

class BlockAlgorithmRandomOnGpu : public check::GpuTest {};

TEST_F(BlockAlgorithmRandomOnGpu, agrees_with_the_model_on_random_shapes_and_values) {
  for (AlgorithmOp op : model::kAlgorithmOps)
    for (Type type : model::kAlgorithmTypes)
      if (model::has_op(op, type)) {
        const gpu::BlockSpec spec{op, BlockImplementation::seam};
        gen::expect_gpu_agrees_on_random<gpu::BlockCalls>([spec, type](Draw& d) { return gen::block_case(d, spec, type); }, 600,
                                               gpu::block_text(spec) + "<" + std::string(model::info(type).cpp) + ">");
      }
}

class BlockLibraryRandomOnGpu : public check::GpuTest {};

TEST_F(BlockLibraryRandomOnGpu, cub_agrees_with_the_exact_result_on_random_values) {
  for (AlgorithmOp op : model::kAlgorithmOps)
    for (Type type : model::kAlgorithmTypes)
      if (gpu::has_cub_instance(op, type, gpu::kCubBitwiseShapes[0])) {
        const gpu::BlockSpec spec{op, BlockImplementation::cub};
        gen::expect_gpu_agrees_on_random<gpu::BlockCalls>([spec, type](Draw& d) { return gen::cub_block_case(d, spec, type); },
                                               600, gpu::block_text(spec) + "<" + std::string(model::info(type).cpp) + ">");
      }
}

class KnownBadBlockOnGpu : public check::GpuTest {};

TEST_F(KnownBadBlockOnGpu, missing_barrier_is_caught_with_a_shrunk_counterexample) {
  const gpu::BlockSpec spec{AlgorithmOp::sum, BlockImplementation::missing_barrier};
  // Its warps sleep 20 us in every launch, so shrinking stops after 100 steps (55 s on an H100 at 2000).
  gen::expect_gpu_catches_on_random<gpu::BlockCalls>([spec](Draw& d) { return gen::block_case(d, spec, Type::i32); }, 2000,
                                          gpu::block_text(spec) + "<int>", 100);
}

TEST_F(KnownBadBlockOnGpu, full_mask_over_a_partial_warp_is_caught_with_a_shrunk_counterexample) {
  const gpu::BlockSpec spec{AlgorithmOp::min, BlockImplementation::full_mask_partial};
  gen::expect_gpu_catches_on_random<gpu::BlockCalls>(
      [spec](Draw& d) { return gen::partial_warp_block_case(d, spec, Type::u32); }, 2000,
      gpu::block_text(spec) + "<unsigned int>");
}

// A sum, whose identity 0 fresh shared memory may hold: the kernels' fill before the reduction shows the reads.
TEST_F(KnownBadBlockOnGpu, reads_of_slots_no_warp_wrote_are_caught_with_a_shrunk_counterexample) {
  const gpu::BlockSpec spec{AlgorithmOp::sum, BlockImplementation::unguarded_slots};
  gen::expect_gpu_catches_on_random<gpu::BlockCalls>([spec](Draw& d) { return gen::block_case(d, spec, Type::i32); }, 2000,
                                                     gpu::block_text(spec) + "<int>");
}

}  // namespace
}  // namespace wc
