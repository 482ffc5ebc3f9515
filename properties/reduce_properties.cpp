// Reduce family and __fns, properties: laws of the model, and the GPU against the model on random
// values, masks and exit patterns.
#include <gtest/gtest.h>

#include "harness/random_check.hpp"
#include "families/fns/family.hpp"
#include "families/fns/model.hpp"
#include "families/reduce/family.hpp"
#include "families/reduce/model.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using model::ReduceOp;
using model::Type;

// Law: a reduction gives every participant the same value, which does not depend on lane order:
// reversing the values and the exits of the warp changes nothing.
TEST(ReduceLaws, every_participant_gets_one_result_whatever_the_lane_order) {
  gen::expect_law(100000, [](Draw& d) -> LawResult {
    const ReduceOp op = model::kReduceOps[d.below(model::kReduceOps.size())];
    const Type type = model::has_overload(op, Type::i32) ? gen::element(d, {Type::i32, Type::u32}) : Type::u32;
    const uint32_t exited = gen::gen_exited(d);
    const auto values = gen::each_lane<uint64_t>(d, [](Draw& dd) { return gen::gen_bits(dd, Type::u32); });
    model::PerLane<uint64_t> reversed{};
    uint32_t mirrored_exits = 0;
    for (int lane = 0; lane < 32; ++lane) {
      reversed[lane] = values[31 - lane];
      if (model::has_lane(exited, 31 - lane)) mirrored_exits |= 1u << lane;
    }
    const auto a = model::reduce(op, type, model::uniform_scene(model::kFullMask, exited), values);
    const auto b = model::reduce(op, type, model::uniform_scene(model::kFullMask, mirrored_exits), reversed);
    for (int lane = 0; lane < 32; ++lane) {
      if (!model::has_value(a[lane])) continue;
      const int first = __builtin_ctz(~exited);
      if (a[lane].bits != a[first].bits || !model::has_value(b[31 - lane]) || b[31 - lane].bits != a[lane].bits)
        return violation(model::op_name(op), "<", type, "> exited ", exited, ": lane ", lane, " gets ",
                         a[lane].bits, ", mirrored ", b[31 - lane].bits);
    }
    return {};
  });
}

// Law: __fns(mask, base, n) for n > 0 is the first position p >= base with n set bits in [base, p].
TEST(FnsLaws, counts_set_bits_from_the_base) {
  gen::expect_law(100000, [](Draw& d) -> LawResult {
    const uint32_t mask = gen::gen_mask(d);
    const uint32_t base = static_cast<uint32_t>(d.below(32));
    const int32_t n = static_cast<int32_t>(1 + d.below(33));
    int seen = 0;
    uint64_t want = 0xFFFFFFFF;
    for (uint32_t p = base; p < 32; ++p)
      if (model::has_lane(mask, static_cast<int>(p)) && ++seen == n) {
        want = p;
        break;
      }
    const uint64_t got = model::fns(mask, base, n).bits;
    if (got != want) return violation("__fns(", mask, ", ", base, ", ", n, ") = ", got, ", want ", want);
    return {};
  });
}

class ReduceOnGpu : public check::GpuTest {
 protected:
  void SetUp() override {
    check::GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (auto why = check::not_supported_recorded(gpu::kReduceComputeCapability, "reduce", "__reduce_add_sync"))
      GTEST_SKIP() << *why;
  }
};

TEST_F(ReduceOnGpu, agrees_with_the_model_on_random_cases) {
  for (ReduceOp op : model::kReduceOps)
    for (Type type : {Type::i32, Type::u32})
      if (model::has_overload(op, type))
        gen::expect_gpu_agrees_on_random<gpu::ReduceCalls>(
            [op, type](Draw& d) { return gen::reduce_case(d, op, type); }, 30000,
            std::string(model::intrinsic_name(op)) + "<" + std::string(model::info(type).cpp) + ">");
}

class FnsOnGpu : public check::GpuTest {};

TEST_F(FnsOnGpu, agrees_with_the_model_on_random_arguments) {
  gen::expect_gpu_agrees_on_random<gpu::FnsCalls>(gen::fns_case, 100000, "__fns");
}

}  // namespace
}  // namespace wc
