// Match family, properties: laws of the model, and the GPU against the model on values chosen to
// collide (+0 and -0, NaN payloads, 64-bit values equal in one half) over random scenes.
#include <gtest/gtest.h>

#include "generators/family_gen.hpp"
#include "model/match.hpp"
#include "testing/gpu_test.hpp"

namespace wc {
namespace {

using model::MatchOp;

// Law: match_any's classes partition the participants, and match_all is the participants exactly
// when one class holds them all.
TEST(MatchLaws, classes_partition_the_participants_and_agree_with_match_all) {
  testing::check_property(
      [] {
        const model::Type type = *rc::gen::elementOf(model::kMatchTypes);
        const auto scene = *gen::gen_scene();
        const auto values = *gen::gen_colliding_values(type);
        const auto any = model::match(MatchOp::any, type, scene, values);
        const auto all = model::match(MatchOp::all, type, scene, values);
        for (int lane = 0; lane < 32; ++lane) {
          if (!model::has_value(any[lane])) continue;
          const uint32_t p = model::participants(scene, lane), mine = static_cast<uint32_t>(any[lane].bits);
          RC_ASSERT(model::has_lane(mine, lane));
          RC_ASSERT((mine & ~p) == 0u);
          for (int other = 0; other < 32; ++other)
            if (model::has_lane(p, other)) RC_ASSERT(any[other].bits == mine || (any[other].bits & mine) == 0);
          RC_ASSERT((all[lane].bits == (p | model::kMatchPredBit)) == (mine == p));
        }
      },
      2000);
}

class MatchOnGpu : public testing::GpuTest {};

TEST_F(MatchOnGpu, agrees_with_the_model_on_colliding_values) {
  for (MatchOp op : model::kMatchOps)
    for (model::Type type : model::kMatchTypes)
      gen::expect_gpu_agrees_on_random(gen::gen_case(op, type, gen::gen_no_ints(), gen::gen_no_ints(),
                                                     gen::gen_colliding_values(type)),
                                       150, std::string(model::intrinsic_name(op)) + "<" +
                                                std::string(model::info(type).cpp) + ">");
}

}  // namespace
}  // namespace wc
