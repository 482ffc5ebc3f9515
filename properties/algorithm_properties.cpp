// Warp algorithms, properties: laws of the model across algorithms, the GPU against the model on
// random cases of every algorithm, operator and type, and each known-bad pattern caught with a
// shrunk counterexample.
#include <gtest/gtest.h>

#include <string>

#include "harness/random_check.hpp"
#include "families/algorithm/family.hpp"
#include "families/algorithm/model.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using gpu::Implementation;
using model::AlgorithmOp;
using model::Type;
using model::WarpAlgorithm;

// Law: for integer types, where every operator is associative and commutative, the four group
// algorithms agree on each aligned group's total, and exclusive[r] op value[r] == inclusive[r].
TEST(AlgorithmLaws, integer_algorithms_agree_on_each_groups_total) {
  gen::expect_law(20000, [](Draw& d) -> LawResult {
    const AlgorithmOp op = model::kAlgorithmOps[d.below(model::kAlgorithmOps.size())];
    const Type type = gen::element(d, {Type::i32, Type::u32, Type::i64});
    const int width = gen::element(d, {32, 16, 8, 4, 2, 1});
    const auto values = gen::each_lane<uint64_t>(d, [type](Draw& dd) { return gen::gen_bits(dd, type); });
    const model::Scene full = model::uniform_scene(model::kFullMask);
    const auto run = [&](WarpAlgorithm a) { return model::warp_algorithm(a, op, type, full, width, values); };
    const auto butterfly = run(WarpAlgorithm::reduce_butterfly), down = run(WarpAlgorithm::reduce_down);
    const auto inclusive = run(WarpAlgorithm::inclusive_scan), exclusive = run(WarpAlgorithm::exclusive_scan);
    for (int lane = 0; lane < 32; ++lane) {
      const int first = lane & ~(width - 1), last = first + width - 1;
      if (butterfly[lane].bits != down[first].bits || butterfly[lane].bits != inclusive[last].bits)
        return violation(model::op_name(op), "<", type, "> width ", width, " lane ", lane, ": butterfly ",
                         butterfly[lane].bits, ", reduce_down ", down[first].bits, ", inclusive scan's last ",
                         inclusive[last].bits);
      if (model::apply(op, type, exclusive[lane].bits, values[lane]) != inclusive[lane].bits)
        return violation(model::op_name(op), "<", type, "> width ", width, " lane ", lane, ": exclusive ",
                         exclusive[lane].bits, " op value ", values[lane], " is not inclusive ", inclusive[lane].bits);
    }
    return {};
  });
}

class AlgorithmOnGpu : public check::GpuTest {};

TEST_F(AlgorithmOnGpu, agrees_with_the_model_on_random_cases) {
  for (WarpAlgorithm algorithm : model::kWarpAlgorithms)
    for (AlgorithmOp op : model::kAlgorithmOps)
      for (Type type : model::kAlgorithmTypes)
        if (model::has_op(op, type)) {
          const gpu::AlgorithmSpec spec{algorithm, op, Implementation::seam};
          gen::expect_gpu_agrees_on_random<gpu::AlgorithmCalls>(
              [spec, type](Draw& d) { return gen::algorithm_case(d, spec, type); }, 4000,
              gpu::algorithm_text(spec) + "<" + std::string(model::info(type).cpp) + ">");
        }
}

// A widely made mistake, the algorithm it claims to be, and cases that can show it.
struct KnownBad {
  Implementation implementation;
  WarpAlgorithm claims;
  AlgorithmOp op;
  Type type;
  bool full_warp;  // every lane calls with the full mask: the pattern assumes it
};

const KnownBad kKnownBad[] = {
    {Implementation::min_with_max, WarpAlgorithm::reduce_butterfly, AlgorithmOp::min, Type::f32, false},
    {Implementation::accumulator_per_step, WarpAlgorithm::reduce_butterfly, AlgorithmOp::sum, Type::i32, false},
    {Implementation::exclusive_first_unset, WarpAlgorithm::exclusive_scan, AlgorithmOp::sum, Type::i32, false},
    {Implementation::butterfly_over_count, WarpAlgorithm::reduce, AlgorithmOp::sum, Type::u32, false},
    {Implementation::full_mask, WarpAlgorithm::reduce, AlgorithmOp::max, Type::i32, true},
};

class KnownBadOnGpu : public check::GpuTest {};

TEST_F(KnownBadOnGpu, each_is_caught_with_a_shrunk_counterexample) {
  for (const KnownBad& bad : kKnownBad) {
    const gpu::AlgorithmSpec spec{bad.claims, bad.op, bad.implementation};
    const gen::CaseGen<gpu::AlgorithmCalls> cases = [spec, bad](Draw& d) {
      return bad.full_warp ? gen::full_warp_algorithm_case(d, spec, bad.type) : gen::algorithm_case(d, spec, bad.type);
    };
    gen::expect_gpu_catches_on_random<gpu::AlgorithmCalls>(cases, 20000,
                                      gpu::algorithm_text(spec) + "<" + std::string(model::info(bad.type).cpp) + ">");
  }
}

}  // namespace
}  // namespace wc
