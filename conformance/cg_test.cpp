// Cooperative groups at warp level against a model of their documented lowering: thread_block_tile
// ops for every size, coalesced groups from divergent branches and from partitions, and binary and
// labeled partitions.
#include <gtest/gtest.h>

#include "model/cg.hpp"
#include "sweeps/expect.hpp"
#include "testing/gpu_test.hpp"

namespace wc {
namespace {

using model::CoalescedOp;
using model::PartitionKind;
using model::TileOp;
using sweeps::uniform;

model::PerLane<int32_t> bits_to_predicates(uint32_t bits) {
  model::PerLane<int32_t> row{};
  for (int lane = 0; lane < 32; ++lane) row[lane] = (bits >> lane) & 1;
  return row;
}

// --- The model, against what the header's code says ------------------------------------------------

TEST(CgTileModel, builds_the_tile_mask_from_the_lane) {
  EXPECT_EQ(model::tile_mask(32, 7), 0xFFFFFFFFu);
  EXPECT_EQ(model::tile_mask(8, 13), 0x0000FF00u);
  EXPECT_EQ(model::tile_mask(1, 31), 0x80000000u);
}

TEST(CgTileModel, shifts_ballots_to_tile_ranks) {
  const model::Scene s = model::tile_scene(8, ~0u, 0, 0);
  const auto out = model::tile_op(TileOp::ballot, 8, s, 0, bits_to_predicates(0x00000300), {});
  EXPECT_EQ(out[9].bits, 0x3u);   // lanes 8 and 9 are ranks 0 and 1 of the second tile
  EXPECT_EQ(out[20].bits, 0x0u);
}

TEST(CgTileModel, all_compares_with_the_whole_tile_mask_exited_lanes_included) {
  const model::Scene s = model::tile_scene(4, ~0u, 0x1, 0);  // lane 0 of the first tile exited
  const auto out = model::tile_op(TileOp::all, 4, s, 0, uniform<int32_t>(1), {});
  EXPECT_EQ(out[1].bits, 0u) << "[HDR] all() = __ballot_sync(mask, p) == build_mask()";
  EXPECT_EQ(out[5].bits, 1u);
}

TEST(CgTileModel, ranks_threads_across_the_block) {
  const model::Scene s = model::tile_scene(16, ~0u, 0, 0);
  const auto rank = model::tile_op(TileOp::thread_rank, 16, s, 64, {}, {});
  const auto meta = model::tile_op(TileOp::meta_group_rank, 16, s, 64, {}, {});
  EXPECT_EQ(rank[17].bits, 1u);
  EXPECT_EQ(meta[17].bits, 5u);  // thread 81 of the block is in tile 81 / 16 = 5
}

TEST(CgPartitionModel, keeps_the_group_when_every_predicate_agrees) {
  const model::Scene warp = model::tile_scene(32, ~0u, 0, 0);
  model::PerLane<uint64_t> all_true = uniform<uint64_t>(1);
  const auto out = model::partition(PartitionKind::binary, warp, all_true);
  EXPECT_EQ(out[3].bits, (uint64_t{0xFFFFFFFF} << 32) | (0u << 16) | 1u) << "rank 0 of 1, though the predicate is true";
}

TEST(CgPartitionModel, splits_by_predicate_into_two_ranked_groups) {
  const model::Scene warp = model::tile_scene(32, ~0u, 0, 0);
  model::PerLane<uint64_t> pred{};
  for (int lane = 0; lane < 32; ++lane) pred[lane] = lane % 2;
  const auto out = model::partition(PartitionKind::binary, warp, pred);
  EXPECT_EQ(out[1].bits, (uint64_t{0xAAAAAAAA} << 32) | (1u << 16) | 2u);
  EXPECT_EQ(out[0].bits, (uint64_t{0x55555555} << 32) | (0u << 16) | 2u);
}

TEST(CgPartitionModel, ranks_labels_by_their_lowest_lane) {
  const model::Scene tile = model::tile_scene(8, ~0u, 0, 0);
  model::PerLane<uint64_t> label{};
  for (int lane = 0; lane < 32; ++lane) label[lane] = (lane % 8) < 2 ? 9 : (lane % 8) < 5 ? 3 : 7;  // 9, 3, 7 by position
  const auto out = model::partition(PartitionKind::labeled, tile, label);
  EXPECT_EQ(out[11].bits, (uint64_t{0x00001C00} << 32) | (1u << 16) | 3u);  // lanes 10-12 hold 3: the second leader
}

TEST(CgCoalescedModel, reads_lane_31_when_the_rank_is_past_the_group) {
  const model::Scene group = model::group_scene({0x0000000F});
  const auto out = model::coalesced_op(CoalescedOp::shfl, group, uniform<int32_t>(9), sweeps::distinct_values(model::Type::u32, 0));
  EXPECT_EQ(out[0].source, 31) << "spec 9.3: __fns finds nothing, b[4:0] = 31";
  EXPECT_EQ(out[0].cls, model::LaneClass::undefined) << "lane 31 is not in the group";
}

TEST(CgCoalescedModel, packs_ballots_by_rank) {
  const model::Scene group = model::group_scene({0x00F000F0});
  const auto out = model::coalesced_op(CoalescedOp::ballot, group, bits_to_predicates(0x00100010), {});
  EXPECT_EQ(out[4].bits, 0x11u);  // lanes 4 and 20 are ranks 0 and 4
}

// --- The GPU ---------------------------------------------------------------------------------------

struct TileParam {
  TileOp op;
  int size;
};

std::ostream& operator<<(std::ostream& os, const TileParam& p) {
  return os << "thread_block_tile<" << p.size << ">::" << model::op_name(p.op);
}

std::vector<TileParam> every_tile_op() {
  std::vector<TileParam> out;
  for (int size : model::kTileSizes)
    for (TileOp op : model::kTileOps) out.push_back({op, size});
  return out;
}

class CgTileOnGpu : public testing::GpuTest, public ::testing::WithParamInterface<TileParam> {};

TEST_P(CgTileOnGpu, agrees_with_the_lowering) {
  sweeps::expect_gpu_agrees(sweeps::tile_batch(GetParam().op, GetParam().size), 16);
}

INSTANTIATE_TEST_SUITE_P(EverySizeAndOp, CgTileOnGpu, ::testing::ValuesIn(every_tile_op()), [](const auto& info) {
  return std::string(model::op_name(info.param.op)) + "_" + std::to_string(info.param.size);
});

class CgTileBlockShapesOnGpu : public testing::GpuTest, public ::testing::WithParamInterface<gpu::LaunchShape> {};

TEST_P(CgTileBlockShapesOnGpu, agree_with_the_lowering) {
  for (const TileParam& p : every_tile_op())
    sweeps::expect_gpu_agrees(sweeps::with_block(sweeps::tile_batch(p.op, p.size), GetParam()), 16);
}

INSTANTIATE_TEST_SUITE_P(DivergenceShapes, CgTileBlockShapesOnGpu, ::testing::ValuesIn(sweeps::divergence_shapes()),
                         [](const auto& info) { return sweeps::shape_text(info.param); });

struct PartitionParam {
  PartitionKind kind;
  int size;
};

std::ostream& operator<<(std::ostream& os, const PartitionParam& p) {
  return os << model::op_name(p.kind) << "(thread_block_tile<" << p.size << ">)";
}

std::vector<PartitionParam> every_partition() {
  std::vector<PartitionParam> out;
  for (PartitionKind kind : {PartitionKind::binary, PartitionKind::labeled})
    for (int size : model::kTileSizes) out.push_back({kind, size});
  return out;
}

class CgPartitionOnGpu : public testing::GpuTest, public ::testing::WithParamInterface<PartitionParam> {};

TEST_P(CgPartitionOnGpu, gives_membership_and_meta_group_rank_and_size) {
  const PartitionParam p = GetParam();
  sweeps::expect_gpu_agrees(sweeps::partition_batch(p.kind, p.size), 16);
}

INSTANTIATE_TEST_SUITE_P(EveryKindAndSize, CgPartitionOnGpu, ::testing::ValuesIn(every_partition()),
                         [](const auto& info) {
                           return std::string(model::op_name(info.param.kind)) + "_" + std::to_string(info.param.size);
                         });

struct CoalescedParam {
  CoalescedOp op;
  gpu::CoalescedSource source;
};

std::ostream& operator<<(std::ostream& os, const CoalescedParam& p) {
  return os << (p.source == gpu::CoalescedSource::active_threads ? "coalesced_threads()" : "binary_partition(warp)")
            << "." << model::op_name(p.op);
}

std::vector<CoalescedParam> every_coalesced_op() {
  std::vector<CoalescedParam> out;
  for (auto source : {gpu::CoalescedSource::active_threads, gpu::CoalescedSource::binary_partition})
    for (CoalescedOp op : model::kCoalescedOps) out.push_back({op, source});
  return out;
}

class CgCoalescedOnGpu : public testing::GpuTest, public ::testing::WithParamInterface<CoalescedParam> {};

// The group a coalesced_threads() call forms is a snapshot of the lanes active with it: it must hold
// the caller and only calling lanes of the caller's own arm, and its members must agree on it. The
// op's result is then checked against the lowering for that group.
TEST_P(CgCoalescedOnGpu, forms_a_group_of_its_own_arm_and_agrees_with_the_lowering) {
  const CoalescedParam p = GetParam();
  const gpu::CoalescedBatch b = sweeps::coalesced_batch(p.op, p.source);
  gpu::WarpResults results;
  run(b, results);
  uint64_t groups_whole_arm = 0, groups = 0;
  for (size_t c = 0; c < b.cases.size(); ++c) {
    const model::Scene scene = gpu::scene_of(b.scenes[b.cases[c].scene], b.block, c);
    const uint32_t calling = model::callers(scene);
    model::PerLane<uint64_t> pred{};
    for (int lane = 0; lane < 32; ++lane) pred[lane] = b.args2[b.cases[c].arg2][lane] != 0;
    const model::WarpOutcome partition = model::partition(PartitionKind::binary, scene, pred);
    for (int lane = 0; lane < 32; ++lane) {
      if (!model::has_lane(calling, lane)) continue;
      const uint32_t members = static_cast<uint32_t>(results.bits[c * 32 + lane] >> 32);
      const uint32_t arm = model::has_lane(scene.else_arm, lane) ? scene.else_arm : ~scene.else_arm;
      const std::string where = sweeps::describe(b, c, lane).name + ", lane " + std::to_string(lane);
      if (p.source == gpu::CoalescedSource::binary_partition) {
        ASSERT_EQ(members, partition[lane].bits >> 32) << where;
        continue;
      }
      ASSERT_TRUE(model::has_lane(members, lane)) << where;
      ASSERT_EQ(members & ~(calling & arm), 0u) << where << ": group " << std::hex << members;
      for (int k = 0; k < 32; ++k)
        if (model::has_lane(members, k))
          ASSERT_EQ(static_cast<uint32_t>(results.bits[c * 32 + k] >> 32), members) << where << ", member " << k;
      ++groups;
      groups_whole_arm += members == (calling & arm);
    }
  }
  if (groups) std::printf("coalesced_threads(): %llu of %llu lanes saw every calling lane of their arm\n",
                          static_cast<unsigned long long>(groups_whole_arm), static_cast<unsigned long long>(groups));
  const testing::CheckReport report = testing::check_all(
      results, [&](size_t c) { return gpu::model_outcome(b, c, results.bits.data() + c * 32); });
  testing::expect_agrees(report, [&](size_t c, int lane) { return sweeps::describe(b, c, lane); }, 16,
                         sweeps::check_info(b));
}

INSTANTIATE_TEST_SUITE_P(EveryOpAndSource, CgCoalescedOnGpu, ::testing::ValuesIn(every_coalesced_op()),
                         [](const auto& info) {
                           return std::string(info.param.source == gpu::CoalescedSource::active_threads ? "active_"
                                                                                                         : "partition_") +
                                  std::string(model::op_name(info.param.op));
                         });

}  // namespace
}  // namespace wc
