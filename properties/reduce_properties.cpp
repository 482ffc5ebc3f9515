// Reduce family and __fns, properties: laws of the model, and the GPU against the model on random
// values, masks and exit patterns.
#include <gtest/gtest.h>

#include <climits>

#include "generators/family_gen.hpp"
#include "gpu/reduce_batch.hpp"
#include "model/fns.hpp"
#include "model/reduce.hpp"
#include "testing/gpu_test.hpp"

namespace wc {
namespace {

using model::ReduceOp;
using model::Type;

// Law: a reduction gives every participant the same value, which does not depend on lane order:
// reversing the values of the participants changes nothing.
TEST(ReduceLaws, every_participant_gets_one_result_whatever_the_lane_order) {
  testing::check_property(
      [] {
        const ReduceOp op = *rc::gen::elementOf(model::kReduceOps);
        const Type type = model::has_overload(op, Type::i32) ? *rc::gen::element(Type::i32, Type::u32) : Type::u32;
        const auto scene = model::uniform_scene(model::kFullMask, *gen::gen_exited());
        const auto values = *rc::gen::container<model::PerLane<uint64_t>>(gen::gen_bits(Type::u32));
        model::PerLane<uint64_t> reversed{};
        for (int lane = 0; lane < 32; ++lane) reversed[lane] = values[31 - lane];
        model::Scene mirrored = scene;  // the exited lanes, mirrored with the values
        mirrored.exited = 0;
        for (int lane = 0; lane < 32; ++lane)
          if (model::has_lane(scene.exited, 31 - lane)) mirrored.exited |= 1u << lane;
        mirrored = model::uniform_scene(model::kFullMask, mirrored.exited);
        const auto a = model::reduce(op, type, scene, values), b = model::reduce(op, type, mirrored, reversed);
        uint64_t first = 0;
        bool seen = false;
        for (int lane = 0; lane < 32; ++lane) {
          if (!model::has_value(a[lane])) continue;
          if (seen) RC_ASSERT(a[lane].bits == first);
          first = a[lane].bits;
          seen = true;
          RC_ASSERT(model::has_value(b[31 - lane]));
          RC_ASSERT(b[31 - lane].bits == first);
        }
      },
      2000);
}

// Law: __fns(mask, base, n) for n > 0 is the first position p >= base with n set bits in [base, p].
TEST(FnsLaws, counts_set_bits_from_the_base) {
  testing::check_property(
      [] {
        const uint32_t mask = *gen::gen_mask();
        const uint32_t base = *rc::gen::inRange<uint32_t>(0, 32);
        const int32_t n = *rc::gen::inRange<int32_t>(1, 34);
        const model::LaneOutcome o = model::fns(mask, base, n);
        int seen = 0;
        uint64_t want = 0xFFFFFFFF;
        for (uint32_t p = base; p < 32; ++p)
          if (model::has_lane(mask, static_cast<int>(p)) && ++seen == n) {
            want = p;
            break;
          }
        RC_ASSERT(o.bits == want);
      },
      2000);
}

class ReduceOnGpu : public testing::GpuTest {
 protected:
  void SetUp() override {
    testing::GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (auto why = testing::not_supported(gpu::kReduceComputeCapability, "__reduce_add_sync")) GTEST_SKIP() << *why;
  }
};

TEST_F(ReduceOnGpu, agrees_with_the_model_on_random_cases) {
  for (ReduceOp op : model::kReduceOps)
    for (Type type : {Type::i32, Type::u32})
      if (model::has_overload(op, type))
        gen::expect_gpu_agrees_on_random(
            gen::gen_case(op, type, gen::gen_no_ints(), gen::gen_no_ints(),
                          rc::gen::container<model::PerLane<uint64_t>>(gen::gen_bits(Type::u32))),
            300, std::string(model::intrinsic_name(op)) + "<" + std::string(model::info(type).cpp) + ">");
}

class FnsOnGpu : public testing::GpuTest {};

TEST_F(FnsOnGpu, agrees_with_the_model_on_random_arguments) {
  const auto offsets = gen::weighted_one_of<int32_t>({{4, gen::small_int(-34, 34)},
                                                        {1, rc::gen::element<int32_t>(INT_MIN, INT_MIN + 1, INT_MAX)},
                                                        {1, rc::gen::arbitrary<int32_t>()}});
  const auto bases = gen::weighted_one_of<int32_t>({{6, rc::gen::inRange<int32_t>(0, 32)},
                                                      {1, rc::gen::element<int32_t>(32, 33, INT_MIN, -1)}});
  const auto masks = rc::gen::container<model::PerLane<uint64_t>>(rc::gen::cast<uint64_t>(gen::gen_mask()));
  gen::expect_gpu_agrees_on_random(gen::gen_case(gpu::Fns{}, Type::u32, gen::gen_per_lane(offsets),
                                                 gen::gen_per_lane(bases), masks),
                                   1000, "__fns");
}

}  // namespace
}  // namespace wc
