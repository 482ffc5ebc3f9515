// Library warp algorithms, properties: the order-free model agrees with the suite's bit-exact model
// wherever order cannot matter and holds two real orders within its bound where it can; the GPU
// against the model on random cases of every built library call; and the planted library bugs caught
// through the bound with a shrunk counterexample.
#include <gtest/gtest.h>

#include <string>

#include "core/bounds.hpp"
#include "harness/random_check.hpp"
#include "families/algorithm/family.hpp"
#include "families/algorithm/library_model.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using gpu::Implementation;
using model::AlgorithmOp;
using model::LibraryCall;
using model::Type;
using model::WarpAlgorithm;

// Law: on a full warp, cg::reduce and cg::inclusive_scan hold the results of the suite's butterfly
// and Hillis-Steele scan (two real orders) bit for bit for integers and within the bound for floats.
TEST(LibraryLaws, two_real_orders_lie_within_the_order_free_model) {
  gen::expect_law(20000, [](Draw& d) -> LawResult {
    const AlgorithmOp op = gen::element(d, {AlgorithmOp::sum, AlgorithmOp::min, AlgorithmOp::max});
    const Type type = model::kAlgorithmTypes[d.below(model::kAlgorithmTypes.size())];
    const gpu::AlgorithmSpec spec{WarpAlgorithm::reduce, op, Implementation::cg_tile};
    const gen::WarpCase<gpu::AlgorithmCalls> c = gen::library_case(d, spec, type);
    const model::Scene full = model::uniform_scene(model::kFullMask);
    const auto& in = c.inputs;
    const int width = in.width[0];
    const std::pair<WarpAlgorithm, LibraryCall> pairs[] = {{WarpAlgorithm::reduce_butterfly, LibraryCall::cg_reduce},
                                                           {WarpAlgorithm::inclusive_scan, LibraryCall::cg_inclusive_scan}};
    for (const auto& [order, call] : pairs) {
      const auto exact = model::warp_algorithm(order, op, type, full, width, in.value);
      const auto bound = model::library_algorithm(call, op, type, full, width, in.value, 0);
      for (int lane = 0; lane < 32; ++lane) {
        if (!model::has_value(bound[lane]) || !model::has_value(exact[lane])) continue;
        const bool holds = bound[lane].tolerance ? check::within(*bound[lane].tolerance, exact[lane].bits)
                                                 : bound[lane].bits == exact[lane].bits;
        if (!holds)
          return violation(model::op_name(call), "<", model::op_name(op), ", ", type, "> width ", width, " lane ", lane,
                           ": ", model::op_name(order), " gives ", model::format_value(type, exact[lane].bits),
                           ", outside the order-free model");
      }
    }
    return {};
  });
}

class LibraryOnGpu : public check::GpuTest {};

TEST_F(LibraryOnGpu, agrees_with_the_order_free_model_on_random_cases) {
  for (Implementation impl : {Implementation::cg_tile, Implementation::cub_warp, Implementation::cub_warp_sum,
                              Implementation::cub_warp_no_initial})
    for (WarpAlgorithm algorithm : model::kWarpAlgorithms)
      for (AlgorithmOp op : model::kAlgorithmOps)
        for (Type type : model::kAlgorithmTypes) {
          const gpu::AlgorithmSpec spec{algorithm, op, impl};
          if (!gpu::library_builds(spec, type)) continue;
          gen::expect_gpu_agrees_on_random<gpu::AlgorithmCalls>(
              [spec, type](Draw& d) { return gen::library_case(d, spec, type); }, 4000,
              gpu::algorithm_text(spec) + "<" + std::string(model::info(type).cpp) + ">");
        }
}

class LibraryPlantedOnGpu : public check::GpuTest {};

// cg_drops_last leaves the tile's last value out of a float sum; cub_min_with_max reduces with max.
TEST_F(LibraryPlantedOnGpu, each_is_caught_through_the_bound) {
  const gpu::AlgorithmSpec planted[] = {{WarpAlgorithm::reduce, AlgorithmOp::sum, Implementation::cg_drops_last},
                                        {WarpAlgorithm::reduce, AlgorithmOp::min, Implementation::cub_min_with_max}};
  for (const gpu::AlgorithmSpec& spec : planted)
    gen::expect_gpu_catches_on_random<gpu::AlgorithmCalls>(
        [spec](Draw& d) { return gen::library_case(d, spec, Type::f32); }, 20000,
        gpu::algorithm_text(spec) + "<float>");
}

}  // namespace
}  // namespace wc
