// Cooperative groups at warp level against a model of what the Programming Guide documents:
// thread_block_tile ops for every size, coalesced groups from divergent branches and from
// partitions, and binary and labeled partitions. These go through NVIDIA's cooperative_groups.h;
// where it differs from the documents, lanes report a known deviation.
#include <gtest/gtest.h>

#include "families/cg/family.hpp"
#include "families/cg/model.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"

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

// --- The model, against what the Programming Guide documents -------------------------------------

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

// PG CG: all() is __all_sync over the group, which ignores exited threads. The CUDA 13 header
// compares the ballot with the whole tile mask and answers 0: a known deviation, never a pass.
TEST(CgTileModel, all_ignores_exited_threads_and_knows_the_headers_zero) {
  const model::Scene s = model::tile_scene(4, ~0u, 0x1, 0);  // lane 0 of the first tile exited
  const auto out = model::tile_op(TileOp::all, 4, s, 0, uniform<int32_t>(1), {});
  EXPECT_EQ(out[1].bits, 1u);
  ASSERT_NE(out[1].known, nullptr);
  EXPECT_EQ(out[1].known->id, "cg.header.tile-all-exited");
  EXPECT_EQ(out[1].known_bits, 0u);
  EXPECT_EQ(out[5].bits, 1u);
  EXPECT_EQ(out[5].known, nullptr) << "no thread of the second tile exited";
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
  const auto out = model::partition(PartitionKind::binary, warp, uniform<uint64_t>(1));
  EXPECT_EQ(out[3].bits, (uint64_t{0xFFFFFFFF} << 32) | (0u << 16) | 1u) << "rank 0 of 1, though the predicate is true";
  EXPECT_EQ(out[3].known, nullptr);
}

TEST(CgPartitionModel, splits_by_predicate_into_two_ranked_groups) {
  const model::Scene warp = model::tile_scene(32, ~0u, 0, 0);
  model::PerLane<uint64_t> pred{};
  for (int lane = 0; lane < 32; ++lane) pred[lane] = lane % 2;
  const auto out = model::partition(PartitionKind::binary, warp, pred);
  EXPECT_EQ(out[1].bits, (uint64_t{0xAAAAAAAA} << 32) | (1u << 16) | 2u);
  EXPECT_EQ(out[0].bits, (uint64_t{0x55555555} << 32) | (0u << 16) | 2u);
  EXPECT_EQ(out[0].cls, model::LaneClass::ptx_defined) << "which group is rank 1 is the header's choice";
}

// PG CG: the partition groups the non-exited threads by predicate. The header puts exited threads
// in the false group, and with every remaining predicate true makes the true threads group 1 of 2.
TEST(CgPartitionModel, groups_non_exited_threads_and_knows_the_headers_groups) {
  const model::Scene warp = model::tile_scene(32, ~0u, 0x0000000F, 0);
  const auto all_true = model::partition(PartitionKind::binary, warp, uniform<uint64_t>(1));
  EXPECT_EQ(all_true[8].bits, (uint64_t{0xFFFFFFF0} << 32) | (0u << 16) | 1u);
  ASSERT_NE(all_true[8].known, nullptr);
  EXPECT_EQ(all_true[8].known->id, "cg.header.binary-partition-exited");
  EXPECT_EQ(all_true[8].known_bits, (uint64_t{0xFFFFFFF0} << 32) | (1u << 16) | 2u);
  const auto all_false = model::partition(PartitionKind::binary, warp, uniform<uint64_t>(0));
  EXPECT_EQ(all_false[8].bits, (uint64_t{0xFFFFFFF0} << 32) | 1u);
  EXPECT_EQ(all_false[8].known_bits, (uint64_t{0xFFFFFFFF} << 32) | 1u) << "the header's group holds the exited lanes";
}

// After a binary partition of a warp with exited lanes, the header's false group holds the exited
// lanes: rank 0 of it is exited lane 1, whose value is undefined. Only the membership is known.
TEST(CgPartitionModel, knows_the_headers_membership_where_its_result_reads_an_exited_lane) {
  const model::Scene warp = sweeps::groups_scene({0xFFFFFFFF}, 0xAAAAAAAA);
  model::PerLane<int32_t> pred{};
  for (int lane = 0; lane < 16; ++lane) pred[lane] = 1;
  const auto values = sweeps::distinct_values(model::Type::u32, 0);
  const auto out = model::coalesced_op_after_binary_partition(CoalescedOp::shfl, warp, pred, uniform<int32_t>(0), values);
  EXPECT_EQ(out[16].bits, (uint64_t{0x55550000} << 32) | values[16]) << "rank 0 of the non-exited false lanes";
  ASSERT_NE(out[16].known, nullptr);
  EXPECT_EQ(out[16].known_bits >> 32, 0xFFFFAAAAu);
  EXPECT_EQ(out[16].known_care, ~uint64_t{0} << 32);
  // Every predicate false: the header keeps the whole warp, exited lanes included, and shuffles as
  // __shfl_down_sync over it, so lane 0 reads exited lane 1.
  const auto down = model::coalesced_op_after_binary_partition(CoalescedOp::shfl_down, warp, uniform<int32_t>(0),
                                                               uniform<int32_t>(1), values);
  EXPECT_EQ(down[0].bits, (uint64_t{0x55555555} << 32) | values[2]);
  EXPECT_EQ(down[0].known_bits >> 32, 0xFFFFFFFFu);
  EXPECT_EQ(down[0].known_care, ~uint64_t{0} << 32);
}

TEST(CgPartitionModel, ranks_labels_by_their_lowest_lane) {
  const model::Scene tile = model::tile_scene(8, ~0u, 0, 0);
  model::PerLane<uint64_t> label{};
  for (int lane = 0; lane < 32; ++lane) label[lane] = (lane % 8) < 2 ? 9 : (lane % 8) < 5 ? 3 : 7;  // 9, 3, 7 by position
  const auto out = model::partition(PartitionKind::labeled, tile, label);
  EXPECT_EQ(out[11].bits, (uint64_t{0x00001C00} << 32) | (1u << 16) | 3u);  // lanes 10-12 hold 3: the second leader
}

// The model takes a coalesced group from the inputs, never from what the GPU reports: the calling
// lanes of the caller's arm.
TEST(CgCoalescedModel, forms_each_group_from_the_lanes_of_its_arm) {
  model::Scene s = sweeps::groups_scene({0x0000FFFF, 0xFFFF0000}, 0x00000101);
  s.else_arm = 0x00FF00FF;
  const model::Scene groups = model::coalesced_threads_groups(s);
  EXPECT_EQ(groups.mask[2], 0x00FF00FEu) << "the else arm's calling lanes";
  EXPECT_EQ(groups.mask[9], 0xFF00FE00u) << "the then arm's calling lanes";
  EXPECT_EQ(groups.mask[0], 0u) << "exited";
  const auto size = model::coalesced_threads_op(CoalescedOp::size, s, {}, {});
  EXPECT_EQ(size[2].bits, (uint64_t{0x00FF00FE} << 32) | 15u) << "membership rides in bits 32-63";
}

TEST(CgCoalescedModel, leaves_a_rank_past_the_group_undefined) {
  const model::Scene group = model::group_scene({0x0000000F});
  const auto out = model::coalesced_op(CoalescedOp::shfl, group, uniform<int32_t>(9), sweeps::distinct_values(model::Type::u32, 0));
  EXPECT_EQ(out[0].cls, model::LaneClass::undefined) << "PG CG names no value for rank 9 of a group of 4";
}

TEST(CgCoalescedModel, shuffles_and_packs_ballots_by_rank) {
  const model::Scene group = model::group_scene({0x00F000F0});
  const auto values = sweeps::distinct_values(model::Type::u32, 0);
  const auto ballot = model::coalesced_op(CoalescedOp::ballot, group, bits_to_predicates(0x00100010), {});
  EXPECT_EQ(ballot[4].bits & 0xFFFFFFFF, 0x11u);  // lanes 4 and 20 are ranks 0 and 4
  const auto down = model::coalesced_op(CoalescedOp::shfl_down, group, uniform<int32_t>(4), values);
  EXPECT_EQ(down[5].source, 21) << "rank 1 reads rank 5";
  EXPECT_EQ(down[21].source, 21) << "rank 5 + 4 is past the group: own value";
}

// The sweeps hold what their comments claim: for every tile size, a whole tile whose all() is true,
// and a binary partition of a whole tile whose predicates are all true.
TEST(CgSweepCoverage, holds_all_true_tiles_and_all_true_partitions_of_every_size) {
  for (int size : model::kTileSizes) {
    const gpu::TileBatch all = sweeps::tile_batch(TileOp::all, size);
    const gpu::PartitionBatch partitions = sweeps::partition_batch(PartitionKind::binary, size);
    bool all_true = false, partition_all_true = false;
    for (size_t c = 0; c < all.cases.size() && !all_true; ++c) {
      const model::WarpOutcome out = gpu::outcome(all, c);
      for (int lane = 0; lane < 32; ++lane)
        all_true = all_true || (model::has_value(out[lane]) && out[lane].bits == 1 && out[lane].known == nullptr);
    }
    for (size_t c = 0; c < partitions.cases.size() && !partition_all_true; ++c) {
      const model::WarpOutcome out = gpu::outcome(partitions, c);
      const auto& pred = gpu::inputs(partitions, c).predicate;
      for (int lane = 0; lane < 32; ++lane)
        partition_all_true = partition_all_true ||
                             (model::has_value(out[lane]) && pred[lane] != 0 && (out[lane].bits & 0xFFFF) == 1 &&
                              out[lane].bits >> 32 == model::tile_mask(size, lane));
    }
    EXPECT_TRUE(all_true) << "thread_block_tile<" << size << ">::all is never true over a whole tile";
    EXPECT_TRUE(partition_all_true) << "binary_partition of tile " << size << " never sees every predicate true";
  }
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

class CgTileOnGpu : public check::GpuTest, public ::testing::WithParamInterface<TileParam> {};

TEST_P(CgTileOnGpu, agrees_with_the_model) {
  sweeps::expect_gpu_agrees(sweeps::tile_batch(GetParam().op, GetParam().size), 16);
}

INSTANTIATE_TEST_SUITE_P(EverySizeAndOp, CgTileOnGpu, ::testing::ValuesIn(every_tile_op()), [](const auto& info) {
  return std::string(model::op_name(info.param.op)) + "_" + std::to_string(info.param.size);
});

class CgTileBlockShapesOnGpu : public check::GpuTest, public ::testing::WithParamInterface<gpu::LaunchShape> {};

TEST_P(CgTileBlockShapesOnGpu, agree_with_the_model) {
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

class CgPartitionOnGpu : public check::GpuTest, public ::testing::WithParamInterface<PartitionParam> {};

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

class CgCoalescedOnGpu : public check::GpuTest, public ::testing::WithParamInterface<CoalescedParam> {};

// Each lane's output holds the op's result and its group's membership; both are compared with the
// model, which takes the group from the branch arms and the partition predicates.
TEST_P(CgCoalescedOnGpu, forms_the_documented_groups_and_agrees_with_the_model) {
  sweeps::expect_gpu_agrees(sweeps::coalesced_batch(GetParam().op, GetParam().source), 16);
}

INSTANTIATE_TEST_SUITE_P(EveryOpAndSource, CgCoalescedOnGpu, ::testing::ValuesIn(every_coalesced_op()),
                         [](const auto& info) {
                           return std::string(info.param.source == gpu::CoalescedSource::active_threads ? "active_"
                                                                                                         : "partition_") +
                                  std::string(model::op_name(info.param.op));
                         });

}  // namespace
}  // namespace wc
