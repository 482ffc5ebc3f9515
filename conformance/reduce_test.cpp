// Reduce family, deterministic: observed calls against the model and the GPU, then the sweep of every
// overload over overflowing and extreme values, structured scenes and block shapes. On devices under
// compute capability 8.0 the GPU tests report NotSupported as Skipped.
#include <gtest/gtest.h>

#include "families/reduce/family.hpp"
#include "families/reduce/model.hpp"
#include "harness/documented.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"
#include "harness/params.hpp"

namespace wc {
namespace {

using model::ReduceOp;
using model::Type;
using sweeps::uniform;

struct ReduceExample {
  const char* claim;
  ReduceOp op;
  Type type;
  uint32_t mask, exited;
  uint32_t value;  // every lane's value
  uint32_t want;
};

const ReduceExample kReduceExamples[] = {
    {"spec 7.1: 32 x 0x7fffffff sums to 0xffffffe0 (truncated to 32 bits)", ReduceOp::add, Type::i32, 0xFFFFFFFF, 0,
     0x7FFFFFFF, 0xFFFFFFE0},
    {"spec 7.1: reduce_add(0xffffffff, 1) with 16 exited lanes is 16", ReduceOp::add, Type::u32, 0xFFFFFFFF, 0xFFFF0000,
     1, 16},
    {"PG13: min of equal values", ReduceOp::min, Type::i32, 0x0000FFFF, 0, 0x80000000, 0x80000000},
    {"PG13: and over one lane is its value", ReduceOp::and_, Type::u32, 0x00000010, 0, 0xF0F0F0F0, 0xF0F0F0F0},
    {"PG13: xor of an even count of equal values is 0", ReduceOp::xor_, Type::u32, 0xFFFFFFFF, 0, 0xDEADBEEF, 0},
    {"PG13: xor of an odd count of equal values is the value", ReduceOp::xor_, Type::u32, 0xFFFFFFFF, 0x1, 0xDEADBEEF,
     0xDEADBEEF},
};

TEST(ReduceDocumentedModel, gives_the_documented_result) {
  for (const ReduceExample& ex : kReduceExamples) {
    const auto out = model::reduce(ex.op, ex.type, model::uniform_scene(ex.mask, ex.exited), uniform<uint64_t>(ex.value));
    for (int lane = 0; lane < 32; ++lane)
      if (model::has_value(out[lane])) {
        EXPECT_EQ(out[lane].bits, ex.want) << ex.claim << ", lane " << lane;
      }
  }
}

TEST(ReduceModel, takes_the_signedness_of_the_overload) {
  model::PerLane<uint64_t> values = uniform<uint64_t>(5);
  values[3] = 0xFFFFFFFF;  // -1 as int, UINT_MAX as unsigned
  const model::Scene full = model::uniform_scene(model::kFullMask);
  EXPECT_EQ(model::reduce(ReduceOp::min, Type::i32, full, values)[0].bits, 0xFFFFFFFFu);
  EXPECT_EQ(model::reduce(ReduceOp::min, Type::u32, full, values)[0].bits, 5u);
  EXPECT_EQ(model::reduce(ReduceOp::max, Type::i32, full, values)[0].bits, 5u);
  EXPECT_EQ(model::reduce(ReduceOp::max, Type::u32, full, values)[0].bits, 0xFFFFFFFFu);
}

TEST(ReduceModel, has_the_headers_overloads_only) {
  EXPECT_TRUE(model::has_overload(ReduceOp::add, Type::i32));
  EXPECT_TRUE(model::has_overload(ReduceOp::xor_, Type::u32));
  EXPECT_FALSE(model::has_overload(ReduceOp::xor_, Type::i32));
  EXPECT_FALSE(model::has_overload(ReduceOp::add, Type::f32));
}

// A GPU test of a reduction: NotSupported (Skipped) on devices under compute capability 8.0.
class ReduceGpuTest : public check::GpuTest {
 protected:
  void SetUp() override {
    check::GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (auto why = check::not_supported_recorded(gpu::kReduceComputeCapability, "reduce", "__reduce_add_sync"))
      GTEST_SKIP() << *why;
  }
};

class ReduceDocumentedOnGpu : public ReduceGpuTest {};

TEST_F(ReduceDocumentedOnGpu, gives_the_documented_result) {
  for (const ReduceExample& ex : kReduceExamples) {
    gpu::ReduceBatch b;
    b.op = ex.op;
    b.type = ex.type;
    b.scenes = {model::uniform_scene(ex.mask, ex.exited)};
    b.tables.value = {uniform<uint64_t>(ex.value)};
    b.cases = {{}};
    sweeps::DocumentedExample every_participant{ex.claim, {}};
    for (int lane = 0; lane < 32; ++lane)
      if (model::has_lane(ex.mask & ~ex.exited, lane)) every_participant.lanes.push_back({lane, ex.want});
    sweeps::expect_gpu_gives_documented(b, {every_participant});
  }
}

using ReduceParam = check::OpAndType<ReduceOp>;

std::vector<ReduceParam> every_overload() {
  return check::every_op_and_type(model::kReduceOps, std::array<Type, 2>{Type::i32, Type::u32},
                                    [](ReduceOp op, Type t) { return model::has_overload(op, t); });
}

class ReduceSweepOnGpu : public ReduceGpuTest, public ::testing::WithParamInterface<ReduceParam> {};

TEST_P(ReduceSweepOnGpu, agrees_with_the_model) {
  const ReduceParam p = GetParam();
  sweeps::expect_gpu_agrees(sweeps::reduce_batch(p.op, p.type));
}

INSTANTIATE_TEST_SUITE_P(EveryOverload, ReduceSweepOnGpu, ::testing::ValuesIn(every_overload()),
                         check::op_and_type_name<ReduceOp>);

class ReduceBlockShapesOnGpu : public ReduceGpuTest, public ::testing::WithParamInterface<gpu::LaunchShape> {};

TEST_P(ReduceBlockShapesOnGpu, agree_with_the_model) {
  for (const ReduceParam& p : every_overload())
    sweeps::expect_gpu_agrees(sweeps::with_block(sweeps::reduce_batch(p.op, p.type), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(DivergenceShapes, ReduceBlockShapesOnGpu, ::testing::ValuesIn(sweeps::divergence_shapes()),
                         [](const auto& info) { return sweeps::shape_text(info.param); });

}  // namespace
}  // namespace wc
