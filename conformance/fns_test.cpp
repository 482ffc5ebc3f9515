// __fns, deterministic: the PTX ISA's examples against the model and the GPU, then the sweep of
// every base and offset over structured and random masks.
#include <gtest/gtest.h>

#include <climits>

#include "families/fns/family.hpp"
#include "families/fns/model.hpp"
#include "harness/documented.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using sweeps::uniform;

struct FnsExample {
  const char* claim;
  uint32_t mask, base;
  int32_t offset;
  uint32_t want;
};

const FnsExample kFnsExamples[] = {
    {"PTX: fns.b32 d, 0xaaaaaaaa, 3, 1 gives 3", 0xAAAAAAAA, 3, 1, 3},
    {"PTX: fns.b32 d, 0xaaaaaaaa, 3, -1 gives 3", 0xAAAAAAAA, 3, -1, 3},
    {"PTX: fns.b32 d, 0xaaaaaaaa, 2, 1 gives 3", 0xAAAAAAAA, 2, 1, 3},
    {"PTX: fns.b32 d, 0xaaaaaaaa, 2, -1 gives 1", 0xAAAAAAAA, 2, -1, 1},
    {"PTX: offset 0 gives base when its bit is set", 0x00000010, 4, 0, 4},
    {"PTX: offset 0 gives 0xffffffff when base's bit is clear", 0x00000010, 5, 0, 0xFFFFFFFF},
    {"PTX: the third set bit from 0 in 0xaaaaaaaa is 5", 0xAAAAAAAA, 0, 3, 5},
    {"PTX: past the last set bit gives 0xffffffff", 0xAAAAAAAA, 30, 2, 0xFFFFFFFF},
    {"PTX: INT_MIN + 1 set bits are never found", 0xFFFFFFFF, 31, INT_MIN + 1, 0xFFFFFFFF},
    // sm_90 gives 0: the known deviation fns.int-min of golden/sm_90/deviations.txt.
    {"PTX: |INT_MIN| = 2^31 set bits are never found", 0xFFFFFFFF, 0, INT_MIN, 0xFFFFFFFF},
};

TEST(FnsDocumentedModel, gives_the_documented_result) {
  for (const FnsExample& ex : kFnsExamples) EXPECT_EQ(model::fns(ex.mask, ex.base, ex.offset).bits, ex.want) << ex.claim;
}

TEST(FnsClassesModel, leave_only_bases_past_31_undefined) {
  EXPECT_EQ(model::fns(0xFFFFFFFF, 32, 1).cls, model::LaneClass::undefined);
  // PTX: |INT_MIN| = 2^31 set bits are never found. sm_90 gives 0: a known deviation, not undefined.
  const model::LaneOutcome int_min = model::fns(0xFFFFFFFF, 0, INT_MIN);
  EXPECT_EQ(int_min.cls, model::LaneClass::ptx_defined);
  EXPECT_EQ(int_min.bits, 0xFFFFFFFFu);
  EXPECT_EQ(int_min.rule->id, "fns.int-min");
  EXPECT_EQ(model::fns(0xFFFFFFFF, 3, 1).cls, model::LaneClass::defined);
  EXPECT_EQ(model::fns(0, 3, 1).cls, model::LaneClass::ptx_defined);  // the header's doc contradicts itself
}

class FnsDocumentedOnGpu : public check::GpuTest {};

TEST_F(FnsDocumentedOnGpu, gives_the_documented_result) {
  gpu::FnsBatch b;
  b.scenes = {model::uniform_scene(model::kFullMask)};
  model::PerLane<uint64_t> masks{};
  model::PerLane<int32_t> bases{}, offsets{};
  for (size_t i = 0; i < std::size(kFnsExamples); ++i) {
    masks[i] = kFnsExamples[i].mask;
    bases[i] = static_cast<int32_t>(kFnsExamples[i].base);
    offsets[i] = kFnsExamples[i].offset;
  }
  auto& t = b.tables;
  t.mask = {masks};
  t.offset = {offsets};
  t.base = {bases};
  b.cases = {{}};
  sweeps::DocumentedExample lanes{"the PTX ISA's fns examples, one a lane", {}};
  for (size_t i = 0; i < std::size(kFnsExamples); ++i) {
    const FnsExample& ex = kFnsExamples[i];
    lanes.lanes.push_back({static_cast<int>(i), ex.want});
    lanes.rules.push_back(model::fns(ex.mask, ex.base, ex.offset).rule);
  }
  sweeps::expect_gpu_gives_documented(b, {lanes});
}

class FnsSweepOnGpu : public check::GpuTest {};

TEST_F(FnsSweepOnGpu, agrees_with_the_model_for_every_base_and_offset) {
  sweeps::expect_gpu_agrees(sweeps::fns_batch());
}

}  // namespace
}  // namespace wc
