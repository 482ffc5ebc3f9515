// Cooperative groups, properties: laws of the model, and thread_block_tile ops and partitions on the
// GPU against the model on random tiles, exits, arms and labels.
#include <gtest/gtest.h>

#include "generators/family_gen.hpp"
#include "gpu/cg_batch.hpp"
#include "model/cg.hpp"
#include "testing/gpu_test.hpp"

namespace wc {
namespace {

using model::PartitionKind;
using model::TileOp;

// Law: labeled partitions of one tile are disjoint, cover its participants, and number their
// groups 0 to size - 1.
TEST(CgLaws, labeled_partitions_cover_the_tile_with_ranked_groups) {
  testing::check_property(
      [] {
        const int size = *rc::gen::elementOf(model::kTileSizes);
        const auto scene = *gen::gen_tile_scene(size);
        const auto labels = *gen::gen_colliding_values(model::Type::u32);
        const auto out = model::partition(PartitionKind::labeled, scene, labels);
        for (int lane = 0; lane < 32; ++lane) {
          if (!model::has_value(out[lane])) continue;
          const uint32_t members = static_cast<uint32_t>(out[lane].bits >> 32);
          const uint64_t rank = (out[lane].bits >> 16) & 0xFFFF, groups = out[lane].bits & 0xFFFF;
          RC_ASSERT(model::has_lane(members, lane));
          RC_ASSERT((members & ~model::participants(scene, lane)) == 0u);
          RC_ASSERT(rank < groups);
        }
      },
      2000);
}

struct TileGenParam {
  TileOp op;
  int size;
};

class CgOnGpu : public testing::GpuTest {};

TEST_F(CgOnGpu, tiles_agree_with_the_lowering_on_random_cases) {
  for (int size : model::kTileSizes)
    for (TileOp op : model::kTileOps) {
      const bool predicate = op == TileOp::any || op == TileOp::all || op == TileOp::ballot;
      const auto args = predicate ? gen::gen_per_lane(gen::gen_predicate()) : gen::gen_per_lane(gen::gen_arg());
      gen::expect_gpu_agrees_on_random(
          gen::gen_case(gpu::TileSpec{op, size}, model::Type::u32, args, rc::gen::just(sweeps::uniform<int32_t>(4)),
                        gen::gen_colliding_values(model::Type::u32), gen::gen_tile_scene(size)),
          40, "thread_block_tile<" + std::to_string(size) + ">::" + std::string(model::op_name(op)));
    }
}

TEST_F(CgOnGpu, partitions_agree_with_the_lowering_on_random_labels) {
  for (int size : model::kTileSizes)
    for (PartitionKind kind : {PartitionKind::binary, PartitionKind::labeled})
      gen::expect_gpu_agrees_on_random(
          gen::gen_case(gpu::PartitionSpec{kind, size}, model::Type::u32, gen::gen_per_lane(gen::gen_predicate()),
                        gen::gen_no_ints(), gen::gen_colliding_values(model::Type::u32), gen::gen_tile_scene(size)),
          150, std::string(model::op_name(kind)) + " of tile " + std::to_string(size));
}

}  // namespace
}  // namespace wc
