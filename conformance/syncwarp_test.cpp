// __syncwarp(mask) orders memory among the lanes of the mask: every lane writes its shared-memory
// slot, syncs, and must then read every other lane's write, round after round.
#include <gtest/gtest.h>

#include "families/syncwarp/family.hpp"
#include "families/syncwarp/model.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

TEST(SyncwarpModel, shows_each_caller_the_writes_of_its_non_exited_lanes) {
  const auto out = model::syncwarp_visibility(sweeps::groups_scene({0x0000FFFF, 0xFFFF0000}, 0x00000101));
  EXPECT_EQ(out[2].bits, 0x0000FEFEu);
  EXPECT_EQ(out[20].bits, 0xFFFF0000u);
  EXPECT_EQ(out[0].cls, model::LaneClass::not_called);
}

class SyncwarpOnGpu : public check::GpuTest {};

TEST_F(SyncwarpOnGpu, orders_memory_among_the_lanes_of_the_mask) {
  sweeps::expect_gpu_agrees(sweeps::syncwarp_batch(2000, 64));
}

class SyncwarpBlockShapesOnGpu : public check::GpuTest, public ::testing::WithParamInterface<gpu::LaunchShape> {};

TEST_P(SyncwarpBlockShapesOnGpu, order_memory) {
  sweeps::expect_gpu_agrees(sweeps::with_block(sweeps::syncwarp_batch(200, 16), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(DivergenceShapes, SyncwarpBlockShapesOnGpu, ::testing::ValuesIn(sweeps::divergence_shapes()),
                         [](const auto& info) { return sweeps::shape_text(info.param); });

}  // namespace
}  // namespace wc
