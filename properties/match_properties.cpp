// Match family, properties: laws of the model, and the GPU against the model on values chosen to
// collide (+0 and -0, NaN payloads, 64-bit values equal in one half) over random scenes.
#include <gtest/gtest.h>

#include "harness/random_check.hpp"
#include "families/match/family.hpp"
#include "families/match/model.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using model::MatchOp;

// Law: match_any's classes partition the participants, and match_all is the participants exactly
// when one class holds them all.
TEST(MatchLaws, classes_partition_the_participants_and_agree_with_match_all) {
  gen::expect_law(100000, [](Draw& d) -> LawResult {
    const model::Type type = model::kMatchTypes[d.below(model::kMatchTypes.size())];
    const auto c = gen::match_case(d, MatchOp::any, type);
    const model::PerLane<uint64_t>& value = c.inputs.value;
    const auto any = model::match(MatchOp::any, type, c.scene, value);
    const auto all = model::match(MatchOp::all, type, c.scene, value);
    for (int lane = 0; lane < 32; ++lane) {
      if (!model::has_value(any[lane])) continue;
      const uint32_t p = model::participants(c.scene, lane), mine = static_cast<uint32_t>(any[lane].bits);
      if (!model::has_lane(mine, lane) || (mine & ~p) != 0)
        return violation(c, "\nlane ", lane, "'s class ", mine, " is not a set of participants holding it");
      for (int other = 0; other < 32; ++other)
        if (model::has_lane(p, other) && any[other].bits != mine && (any[other].bits & mine) != 0)
          return violation(c, "\nthe classes of lanes ", lane, " and ", other, " overlap");
      if ((all[lane].bits == (p | model::kMatchPredBit)) != (mine == p))
        return violation(c, "\nlane ", lane, ": match_all disagrees with match_any");
    }
    return {};
  });
}

class MatchOnGpu : public check::GpuTest {};

TEST_F(MatchOnGpu, agrees_with_the_model_on_colliding_values) {
  for (MatchOp op : model::kMatchOps)
    for (model::Type type : model::kMatchTypes)
      gen::expect_gpu_agrees_on_random<gpu::MatchCalls>(
          [op, type](Draw& d) { return gen::match_case(d, op, type); }, 15000,
          std::string(model::intrinsic_name(op)) + "<" + std::string(model::info(type).cpp) + ">");
}

}  // namespace
}  // namespace wc
