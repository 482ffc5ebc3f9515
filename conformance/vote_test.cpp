// Vote family and __activemask, deterministic: documented and observed calls against the model
// and the GPU, then the sweeps of every op over the structured scenes and block shapes.
#include <gtest/gtest.h>

#include "families/vote/family.hpp"
#include "families/vote/model.hpp"
#include "harness/documented.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using model::VoteOp;
using sweeps::uniform;

// One lane of a documented or observed vote, with the result it must get, written out.
struct VoteExample {
  const char* claim;
  VoteOp op;
  uint32_t mask, exited;
  uint32_t pred;  // lanes whose predicate is 1
  int lane;
  uint32_t want;
};

const VoteExample kVoteExamples[] = {
    {"spec 4: ballot(0xffffffff, 1) with lanes 16-31 exited gives 0xffff", VoteOp::ballot, 0xFFFFFFFF, 0xFFFF0000, ~0u, 3, 0xFFFF},
    {"spec 4: ballot(0x0000ffff, 1) in one of two disjoint groups gives 0x0000ffff", VoteOp::ballot, 0x0000FFFF, 0, ~0u, 0, 0xFFFF},
    {"PTX: lanes outside membermask contribute 0", VoteOp::ballot, 0x000000F0, 0, ~0u, 4, 0xF0},
    {"PG13: ballot sets bit N when lane N's predicate is non-zero", VoteOp::ballot, 0xFFFFFFFF, 0, 0x80000001, 9, 0x80000001},
    {"PG13: all over the mask, every predicate true", VoteOp::all, 0xFFFFFFFF, 0, ~0u, 0, 1},
    {"PG13: all with one false predicate", VoteOp::all, 0xFFFFFFFF, 0, ~1u, 5, 0},
    {"PG13: all ignores exited lanes", VoteOp::all, 0xFFFFFFFF, 0x1, ~1u, 5, 1},
    {"PG13: any with one true predicate", VoteOp::any, 0xFFFFFFFF, 0, 0x00100000, 31, 1},
    {"PG13: any with none true", VoteOp::any, 0xFFFFFFFF, 0, 0, 31, 0},
    {"PTX: uni when every predicate is equal", VoteOp::uni, 0xFFFFFFFF, 0, 0, 2, 1},
    {"PTX: uni when predicates differ", VoteOp::uni, 0xFFFFFFFF, 0, 0x4, 2, 0},
    {"spec 4: a lane alone: all returns its predicate", VoteOp::all, 0x00000100, 0, 0x100, 8, 1},
    {"spec 4: a lane alone: uni returns 1", VoteOp::uni, 0x00000100, 0, 0, 8, 1},
    {"spec 4: a lane alone: ballot returns its bit", VoteOp::ballot, 0x00000100, 0, 0x100, 8, 0x100},
};

model::PerLane<int32_t> predicates(uint32_t bits) {
  model::PerLane<int32_t> row{};
  for (int lane = 0; lane < 32; ++lane) row[lane] = (bits >> lane) & 1;
  return row;
}

TEST(VoteDocumentedModel, gives_the_documented_result) {
  for (const VoteExample& ex : kVoteExamples) {
    const auto out = model::vote(ex.op, model::uniform_scene(ex.mask, ex.exited), predicates(ex.pred));
    EXPECT_EQ(out[ex.lane].bits, ex.want) << ex.claim;
    EXPECT_TRUE(model::has_value(out[ex.lane])) << ex.claim;
  }
}

TEST(VoteClassesModel, mark_what_only_ptx_or_the_header_fixes) {
  const model::Scene full = model::uniform_scene(model::kFullMask);
  EXPECT_EQ(model::vote(VoteOp::all, full, predicates(~0u))[0].cls, model::LaneClass::ptx_defined);  // exactly 1
  EXPECT_EQ(model::vote(VoteOp::all, full, predicates(0))[0].cls, model::LaneClass::defined);
  EXPECT_EQ(model::vote(VoteOp::uni, full, predicates(0))[0].cls, model::LaneClass::ptx_defined);   // undocumented
  EXPECT_EQ(model::vote(VoteOp::ballot, full, predicates(5))[0].cls, model::LaneClass::defined);
  const model::Scene halves = sweeps::groups_scene({0x0000FFFF, 0xFFFF0000});
  EXPECT_EQ(model::vote(VoteOp::ballot, halves, predicates(5))[0].cls, model::LaneClass::ptx_defined);
  model::Scene both_arms = full;
  both_arms.else_arm = 0xF0;
  EXPECT_EQ(model::vote(VoteOp::ballot, both_arms, predicates(5))[0].deviation->id, "guide.program-point");
}

TEST(ActivemaskModel, promises_the_own_bit_and_clears_the_other_arm) {
  model::Scene s = sweeps::groups_scene({0x000000FF, 0x0000FF00}, 0x00000003);
  const auto out = model::activemask_promise(s);
  EXPECT_EQ(out[4].bits, 1u << 4);
  EXPECT_EQ(out[4].care & 0xFFFFFFFF, ~0xECu & 0xFFFFFFFFu) << "lanes 2, 3, 5, 6, 7 of the same arm are the snapshot's to choose";
  EXPECT_EQ(out[0].cls, model::LaneClass::not_called);
}

class VoteDocumentedOnGpu : public check::GpuTest {};

TEST_F(VoteDocumentedOnGpu, gives_the_documented_result) {
  for (VoteOp op : model::kVoteOps) {
    gpu::VoteBatch b;
    b.op = op;
    auto& t = b.tables;
    std::vector<sweeps::DocumentedExample> examples;
    for (const VoteExample& ex : kVoteExamples) {
      if (ex.op != op) continue;
      const uint32_t index = static_cast<uint32_t>(b.cases.size());
      b.scenes.push_back(model::uniform_scene(ex.mask, ex.exited));
      t.predicate.push_back(predicates(ex.pred));
      gpu::CaseRow<gpu::VoteCalls> row;
        row.scene = index;
      row.rows.predicate = index;
      b.cases.push_back(row);
      examples.push_back({ex.claim, {{ex.lane, ex.want}}});
    }
    sweeps::expect_gpu_gives_documented(b, examples);
  }
}

class VoteSweepOnGpu : public check::GpuTest, public ::testing::WithParamInterface<VoteOp> {};

TEST_P(VoteSweepOnGpu, agrees_with_the_model) {
  sweeps::expect_gpu_agrees(sweeps::vote_batch(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(EveryOp, VoteSweepOnGpu, ::testing::ValuesIn(model::kVoteOps),
                         [](const auto& info) { return std::string(model::op_name(info.param)); });

class VoteBlockShapesOnGpu : public check::GpuTest, public ::testing::WithParamInterface<gpu::LaunchShape> {};

TEST_P(VoteBlockShapesOnGpu, agree_with_the_model) {
  for (VoteOp op : model::kVoteOps)
    sweeps::expect_gpu_agrees(sweeps::with_block(sweeps::vote_batch(op), GetParam()));
  sweeps::expect_gpu_agrees(sweeps::with_block(sweeps::activemask_batch(64), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(DivergenceShapes, VoteBlockShapesOnGpu, ::testing::ValuesIn(sweeps::divergence_shapes()),
                         [](const auto& info) { return sweeps::shape_text(info.param); });

class ActivemaskOnGpu : public check::GpuTest {};

TEST_F(ActivemaskOnGpu, keeps_its_promise_across_branch_shapes) {
  sweeps::expect_gpu_agrees(sweeps::activemask_batch(4000));
}

}  // namespace
}  // namespace wc
