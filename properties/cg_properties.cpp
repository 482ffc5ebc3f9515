// Cooperative groups, properties: laws of the model, and thread_block_tile ops and partitions on the
// GPU against the model on random tiles, exits, arms and labels.
#include <gtest/gtest.h>

#include "harness/random_check.hpp"
#include "families/cg/family.hpp"
#include "families/cg/model.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using model::PartitionKind;
using model::TileOp;

// Law: labeled partitions of one tile are disjoint, cover its participants, and number their
// groups 0 to size - 1.
TEST(CgLaws, labeled_partitions_cover_the_tile_with_ranked_groups) {
  gen::expect_law(100000, [](Draw& d) -> LawResult {
    const int size = model::kTileSizes[d.below(model::kTileSizes.size())];
    const auto c = gen::partition_case(d, {PartitionKind::labeled, size});
    const auto out = model::partition(PartitionKind::labeled, c.scene, c.inputs.label);
    for (int lane = 0; lane < 32; ++lane) {
      if (!model::has_value(out[lane])) continue;
      const uint32_t members = static_cast<uint32_t>(out[lane].bits >> 32);
      const uint64_t rank = (out[lane].bits >> 16) & 0xFFFF, groups = out[lane].bits & 0xFFFF;
      if (!model::has_lane(members, lane) || (members & ~model::participants(c.scene, lane)) != 0 || rank >= groups)
        return violation(c, "\nlane ", lane, ": group ", members, ", rank ", rank, " of ", groups);
    }
    return {};
  });
}

class CgOnGpu : public check::GpuTest {};

TEST_F(CgOnGpu, tiles_agree_with_the_model_on_random_cases) {
  for (int size : model::kTileSizes)
    for (TileOp op : model::kTileOps)
      gen::expect_gpu_agrees_on_random<gpu::TileCalls>(
          [op, size](Draw& d) { return gen::tile_case(d, {op, size}); }, 4000,
          "thread_block_tile<" + std::to_string(size) + ">::" + std::string(model::op_name(op)));
}

TEST_F(CgOnGpu, partitions_agree_with_the_model_on_random_labels) {
  for (int size : model::kTileSizes)
    for (PartitionKind kind : {PartitionKind::binary, PartitionKind::labeled})
      gen::expect_gpu_agrees_on_random<gpu::PartitionCalls>(
          [kind, size](Draw& d) { return gen::partition_case(d, {kind, size}); }, 15000,
          std::string(model::op_name(kind)) + " of thread_block_tile<" + std::to_string(size) + ">");
}

}  // namespace
}  // namespace wc
