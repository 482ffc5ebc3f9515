// Match family, deterministic: observed calls against the model and the GPU, then the sweep of both
// ops over the eight types, colliding values, structured scenes and block shapes.
#include <gtest/gtest.h>

#include "families/match/family.hpp"
#include "families/shuffle/family.hpp"
#include "families/match/model.hpp"
#include "harness/documented.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"
#include "harness/params.hpp"

namespace wc {
namespace {

using model::MatchOp;
using model::Type;
using sweeps::uniform;

// One lane of a documented or observed match, written out; bit 32 of `want` is match_all's pred.
struct MatchExample {
  const char* claim;
  MatchOp op;
  Type type;
  uint32_t mask, exited;
  uint64_t even_value, odd_value;  // the values of even and odd lanes
  int lane;
  uint64_t want;
};

const MatchExample kMatchExamples[] = {
    {"spec 6: -0.0f on even lanes and +0.0f on odd lanes are different bits", MatchOp::any, Type::f32, 0xFFFFFFFF, 0,
     0x80000000, 0x00000000, 0, 0x55555555},
    {"spec 6: ... and the odd lanes match each other", MatchOp::any, Type::f32, 0xFFFFFFFF, 0, 0x80000000, 0x0, 1,
     0xAAAAAAAA},
    {"spec 6: match_all(0xffffffff, 7) with lanes 16-31 exited returns 0x0000ffff, pred 1", MatchOp::all, Type::i32,
     0xFFFFFFFF, 0xFFFF0000, 7, 7, 2, 0x10000FFFFull},
    {"PG13: match_all with differing values returns 0, pred 0", MatchOp::all, Type::u32, 0xFFFFFFFF, 0, 1, 2, 2, 0},
    {"PTX: a NaN matches only the same NaN payload", MatchOp::any, Type::f64, 0xFFFFFFFF, 0, 0x7FF8000000000001,
     0x7FF8000000000002, 4, 0x55555555},
    {"64-bit values equal in the low half only do not match", MatchOp::all, Type::u64, 0x3, 0, 0x00000001DEADBEEF,
     0x00000002DEADBEEF, 0, 0},
    {"long is 64 bits on LP64: values equal in the high half only do not match", MatchOp::any, Type::long_, 0xFFFFFFFF,
     0, 0x0000000100000000, 0x0000000100000001, 0, 0x55555555},
};

model::PerLane<uint64_t> alternating(uint64_t even, uint64_t odd) {
  model::PerLane<uint64_t> row{};
  for (int lane = 0; lane < 32; ++lane) row[lane] = lane % 2 ? odd : even;
  return row;
}

TEST(MatchDocumentedModel, gives_the_documented_result) {
  for (const MatchExample& ex : kMatchExamples) {
    const auto out = model::match(ex.op, ex.type, model::uniform_scene(ex.mask, ex.exited),
                                  alternating(ex.even_value, ex.odd_value));
    EXPECT_EQ(out[ex.lane].bits, ex.want) << ex.claim;
  }
}

TEST(MatchModel, single_lane_masks_match_themselves) {
  std::vector<uint32_t> singles;
  for (int lane = 0; lane < 32; ++lane) singles.push_back(1u << lane);
  const auto out = model::match(MatchOp::all, Type::f64, sweeps::groups_scene(singles), sweeps::distinct_values(Type::f64, 1));
  for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(out[lane].bits, (1u << lane) | model::kMatchPredBit) << lane;
}

TEST(MatchClassesModel, returns_only_non_exited_lanes_where_the_guide_says_mask) {
  const auto out = model::match(MatchOp::all, Type::i32, model::uniform_scene(0xFFFFFFFF, 0x1), uniform<uint64_t>(3));
  EXPECT_EQ(out[1].cls, model::LaneClass::ptx_defined);
  EXPECT_EQ(out[1].deviation->id, "guide.match-all-mask");
}

class MatchDocumentedOnGpu : public check::GpuTest {};

TEST_F(MatchDocumentedOnGpu, gives_the_documented_result) {
  for (const MatchExample& ex : kMatchExamples) {
    gpu::MatchBatch b;
    b.op = ex.op;
    b.type = ex.type;
    b.scenes = {model::uniform_scene(ex.mask, ex.exited)};
    b.tables.value = {alternating(ex.even_value, ex.odd_value)};
    b.cases = {{}};
    sweeps::expect_gpu_gives_documented(b, {{ex.claim, {{ex.lane, ex.want}}}});
  }
}

using MatchParam = check::OpAndType<MatchOp>;

std::vector<MatchParam> every_op_and_type() {
  return check::every_op_and_type(model::kMatchOps, model::kMatchTypes, [](MatchOp, Type) { return true; });
}

class MatchSweepOnGpu : public check::GpuTest, public ::testing::WithParamInterface<MatchParam> {};

TEST_P(MatchSweepOnGpu, agrees_with_the_model) {
  const MatchParam p = GetParam();
  sweeps::expect_gpu_agrees(sweeps::match_batch(p.op, p.type));
}

INSTANTIATE_TEST_SUITE_P(EveryOpAndType, MatchSweepOnGpu, ::testing::ValuesIn(every_op_and_type()),
                         check::op_and_type_name<MatchOp>);

// Law, checked on what the GPU returned without the model: match_any's classes partition the
// participants. Each lane's class must be exactly the participants that report the same class, and
// hold the lane itself: then classes are equal or disjoint, and together they are P.
constexpr model::Rule kPartitionLaw{"match.partition-law",
                                    "match_any's classes partition the participants (a law on the GPU's own output)"};

class MatchPartitionOnGpu : public check::GpuTest, public ::testing::WithParamInterface<Type> {};

TEST_P(MatchPartitionOnGpu, classes_partition_the_participants) {
  const gpu::MatchBatch b = sweeps::match_batch(MatchOp::any, GetParam());
  gpu::WarpResults results;
  if (!sweeps::run_or_record_error(b, results)) return;
  const check::CheckReport report = check::check_all(results, [&](size_t c) {
    const model::Scene scene = gpu::scene_of(b.scenes[b.cases[c].scene], b.block, c);
    const uint64_t* got = results.bits.data() + c * 32;
    model::WarpOutcome law;
    for (int lane = 0; lane < 32; ++lane) {
      law[lane].rule = &model::kNotCalled;
      if (!model::has_lane(model::callers(scene), lane)) continue;
      uint32_t same = model::lane_bit(lane);
      for (int other = 0; other < 32; ++other)
        if (model::has_lane(model::participants(scene, lane), other) && got[other] == got[lane])
          same |= model::lane_bit(other);
      law[lane].bits = same;
      law[lane].cls = model::LaneClass::defined;
      law[lane].rule = &kPartitionLaw;
    }
    return law;
  });
  check::CheckInfo info = gpu::check_info(b);
  info.arguments += "; the law on the GPU's output, not the model";
  check::expect_agrees(report, [&](size_t c, int lane) { return gpu::describe(b, c, lane); },
                         sweeps::hex_digits(model::Type::u32), info);
}

INSTANTIATE_TEST_SUITE_P(SomeTypes, MatchPartitionOnGpu, ::testing::Values(Type::u32, Type::f64, Type::long_),
                         [](const auto& info) { return std::string(model::info(info.param).name); });

class MatchBlockShapesOnGpu : public check::GpuTest, public ::testing::WithParamInterface<gpu::LaunchShape> {};

TEST_P(MatchBlockShapesOnGpu, agree_with_the_model) {
  for (const MatchParam& p : every_op_and_type())
    sweeps::expect_gpu_agrees(sweeps::with_block(sweeps::match_batch(p.op, p.type), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(DivergenceShapes, MatchBlockShapesOnGpu, ::testing::ValuesIn(sweeps::divergence_shapes()),
                         [](const auto& info) { return sweeps::shape_text(info.param); });

}  // namespace
}  // namespace wc
