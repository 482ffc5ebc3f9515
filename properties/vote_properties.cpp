// Vote family, __activemask and __syncwarp, properties: laws of the model, and the GPU against the
// model on random scenes, predicates, exit patterns and partial warps.
#include <gtest/gtest.h>

#include "harness/random_check.hpp"
#include "families/syncwarp/family.hpp"
#include "families/syncwarp/model.hpp"
#include "families/vote/family.hpp"
#include "families/vote/model.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using model::VoteOp;

// Law: all, any and uni are what the ballot of the same predicates says about the participants.
TEST(VoteLaws, all_any_and_uni_follow_from_the_ballot) {
  gen::expect_law(100000, [](Draw& d) -> LawResult {
    const auto c = gen::vote_case(d, VoteOp::ballot);
    const model::PerLane<int32_t>& predicate = c.inputs.predicate;
    const auto ballot = model::vote(VoteOp::ballot, c.scene, predicate);
    const auto all = model::vote(VoteOp::all, c.scene, predicate), any = model::vote(VoteOp::any, c.scene, predicate),
               uni = model::vote(VoteOp::uni, c.scene, predicate);
    for (int lane = 0; lane < 32; ++lane) {
      if (!model::has_value(ballot[lane])) continue;
      const uint32_t p = model::participants(c.scene, lane), b = static_cast<uint32_t>(ballot[lane].bits);
      if ((b & ~p) != 0 || all[lane].bits != uint64_t{b == p} || any[lane].bits != uint64_t{b != 0} ||
          uni[lane].bits != uint64_t{b == 0 || b == p})
        return violation(c, "\nlane ", lane, ": ballot ", b, " over participants ", p, " gives all ", all[lane].bits,
                         ", any ", any[lane].bits, ", uni ", uni[lane].bits);
    }
    return {};
  });
}

// Law: __syncwarp shows every caller exactly the non-exited lanes of its mask.
TEST(VoteLaws, syncwarp_shows_each_caller_its_participants) {
  gen::expect_law(100000, [](Draw& d) -> LawResult {
    const auto scene = gen::gen_scene(d);
    const auto out = model::syncwarp_visibility(scene);
    for (int lane = 0; lane < 32; ++lane)
      if (model::has_value(out[lane]) && out[lane].bits != uint64_t{model::participants(scene, lane)})
        return violation(sweeps::scene_text(scene), ": lane ", lane, " sees ", out[lane].bits);
    return {};
  });
}

class VoteOnGpu : public check::GpuTest {};

TEST_F(VoteOnGpu, agrees_with_the_model_on_random_cases) {
  for (VoteOp op : model::kVoteOps)
    gen::expect_gpu_agrees_on_random<gpu::VoteCalls>([op](Draw& d) { return gen::vote_case(d, op); }, 50000,
                                             model::intrinsic_name(op));
}

TEST_F(VoteOnGpu, activemask_keeps_its_promise_on_random_branch_shapes) {
  gen::expect_gpu_agrees_on_random<gpu::ActivemaskCalls>(gen::activemask_case, 100000, "__activemask");
}

TEST_F(VoteOnGpu, syncwarp_orders_memory_on_random_masks_and_exits) {
  gen::expect_gpu_agrees_on_random<gpu::SyncwarpCalls>([](Draw& d) { return gen::syncwarp_case(d, 8); }, 100000,
                                                  "__syncwarp");
}

}  // namespace
}  // namespace wc
