// Vote family, __activemask and __syncwarp, properties: laws of the model, and the GPU against the
// model on random scenes, predicates, exit patterns and partial warps.
#include <gtest/gtest.h>

#include "generators/family_gen.hpp"
#include "model/syncwarp.hpp"
#include "model/vote.hpp"
#include "testing/gpu_test.hpp"

namespace wc {
namespace {

using model::VoteOp;

// Law: all, any and uni are what the ballot of the same predicates says about the participants.
TEST(VoteLaws, all_any_and_uni_follow_from_the_ballot) {
  testing::check_property(
      [] {
        const auto scene = *gen::gen_scene();
        const auto pred = *rc::gen::container<model::PerLane<int32_t>>(gen::gen_predicate());
        const auto ballot = model::vote(VoteOp::ballot, scene, pred);
        const auto all = model::vote(VoteOp::all, scene, pred), any = model::vote(VoteOp::any, scene, pred),
                   uni = model::vote(VoteOp::uni, scene, pred);
        for (int lane = 0; lane < 32; ++lane) {
          if (!model::has_value(ballot[lane])) continue;
          const uint32_t p = model::participants(scene, lane), b = static_cast<uint32_t>(ballot[lane].bits);
          RC_ASSERT((b & ~p) == 0u);
          RC_ASSERT(all[lane].bits == uint64_t{b == p});
          RC_ASSERT(any[lane].bits == uint64_t{b != 0});
          RC_ASSERT(uni[lane].bits == uint64_t{b == 0 || b == p});
        }
      },
      2000);
}

// Law: __syncwarp shows every caller exactly the non-exited lanes of its mask.
TEST(VoteLaws, syncwarp_shows_each_caller_its_participants) {
  testing::check_property(
      [] {
        const auto scene = *gen::gen_scene();
        const auto out = model::syncwarp_visibility(scene);
        for (int lane = 0; lane < 32; ++lane)
          if (model::has_value(out[lane])) RC_ASSERT(out[lane].bits == uint64_t{model::participants(scene, lane)});
      },
      2000);
}

class VoteOnGpu : public testing::GpuTest {};

TEST_F(VoteOnGpu, agrees_with_the_model_on_random_cases) {
  for (VoteOp op : model::kVoteOps)
    gen::expect_gpu_agrees_on_random(
        gen::gen_case(op, model::Type::i32, gen::gen_per_lane(gen::gen_predicate()), gen::gen_no_ints(),
                      gen::gen_no_values()),
        500, model::intrinsic_name(op));
}

TEST_F(VoteOnGpu, activemask_keeps_its_promise_on_random_branch_shapes) {
  gen::expect_gpu_agrees_on_random(
      gen::gen_case(gpu::Activemask{}, model::Type::u32, gen::gen_no_ints(), gen::gen_no_ints(), gen::gen_no_values()),
      1000, "__activemask");
}

TEST_F(VoteOnGpu, syncwarp_orders_memory_on_random_masks_and_exits) {
  gen::expect_gpu_agrees_on_random(
      gen::gen_case(gpu::Syncwarp{}, model::Type::u32, gen::gen_no_ints(),
                    rc::gen::just(sweeps::uniform<int32_t>(8)), gen::gen_no_values()),
      1000, "__syncwarp");
}

}  // namespace
}  // namespace wc
