// elect.sync, deterministic: the model against what the PTX ISA fixes, the comparison against planted
// wrong results, then the GPU on every structured, group and seeded random scene, in every block
// shape, and the same leader for the same lanes across warps and launches.
#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "core/random_search.hpp"
#include "families/elect/family.hpp"
#include "families/elect/model.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using model::kElectedBit;
using model::kSecondElectionDiffersBit;
using model::LaneClass;
using model::PerLane;

PerLane<int> naming(int leader) {
  PerLane<int> named;
  named.fill(leader);
  return named;
}

TEST(ElectModel, names_one_leader_per_call_on_every_caller_and_sets_p_on_it_alone) {
  for (const model::Scene& scene : sweeps::structured_and_group_scenes()) {
    const model::WarpOutcome o = model::elect(scene, naming(-1));
    for (uint32_t mask : model::instances(scene)) {
      const uint32_t electable = mask & ~scene.exited;
      int leader = -1, leaders = 0;
      for (int lane = 0; lane < 32; ++lane) {
        if (scene.mask[lane] != mask || !model::has_value(o[lane])) continue;
        const int d = static_cast<int>(o[lane].bits & 0xFFFFFFFFu);
        if (leader < 0) leader = d;
        EXPECT_EQ(d, leader) << "lane " << lane << " of mask " << std::hex << mask;
        EXPECT_TRUE(model::has_lane(electable, d)) << "leader " << d << " of mask " << std::hex << mask;
        EXPECT_EQ((o[lane].bits & kElectedBit) != 0, lane == d);
        EXPECT_EQ(o[lane].bits & kSecondElectionDiffersBit, 0u);
        leaders += lane == d ? 1 : 0;
      }
      EXPECT_EQ(leaders, 1) << "mask " << std::hex << mask;
    }
  }
}

TEST(ElectModel, takes_the_leader_the_lanes_name_only_where_the_documents_allow_it) {
  const model::Scene lower_exited = model::uniform_scene(model::kFullMask, 0x000000FF);
  EXPECT_EQ(model::elect(lower_exited, naming(12))[20].bits, 12u);
  EXPECT_EQ(model::elect(lower_exited, naming(12))[12].bits, 12u | kElectedBit);
  // Lane 3 exited: not electable, so the model keeps its own pick, which the named lane differs from.
  EXPECT_EQ(model::elect(lower_exited, naming(3))[20].bits, 8u);
  const model::Scene quarters = model::group_scene({0x000000FF, 0x0000FF00, 0x00FF0000, 0xFF000000});
  // Lane 0 leads the first quarter only: the second keeps its own pick.
  EXPECT_EQ(model::elect(quarters, naming(0))[9].bits, 8u);
}

TEST(ElectModel, leaves_a_caller_outside_its_mask_undefined) {
  model::Scene scene = model::uniform_scene(0x0000FFFF);
  scene.mask[20] = 0x0000FFFF;  // lane 20 calls with a mask that lacks it
  const model::WarpOutcome o = model::elect(scene, naming(-1));
  EXPECT_EQ(o[20].cls, LaneClass::undefined);
  EXPECT_EQ(o[20].rule->id, "elect.not-in-mask");
  EXPECT_EQ(o[3].cls, LaneClass::defined);
}

// Results of one case of the sweep (a full warp, its calls led by lane 5), with a planted error.
struct PlantedResults {
  const char* what;
  void (*plant)(PerLane<uint64_t>& bits, PerLane<uint8_t>& wrote);
  bool caught;
};

const PlantedResults kPlanted[] = {
    {"the documented results", [](PerLane<uint64_t>&, PerLane<uint8_t>&) {}, false},
    {"two lanes name another leader", [](PerLane<uint64_t>& b, PerLane<uint8_t>&) { b[30] = b[31] = 6; }, true},
    {"p set on a follower too", [](PerLane<uint64_t>& b, PerLane<uint8_t>&) { b[9] |= kElectedBit; }, true},
    {"p set on no lane", [](PerLane<uint64_t>& b, PerLane<uint8_t>&) { b[5] &= ~kElectedBit; }, true},
    {"a second call that elects another lane", [](PerLane<uint64_t>& b, PerLane<uint8_t>&) { b[2] |= kSecondElectionDiffersBit; }, true},
    {"a leader outside the mask",
     [](PerLane<uint64_t>& b, PerLane<uint8_t>&) {
       for (uint64_t& word : b) word = 40;  // no lane 40: the model keeps its own pick, lane 0
     },
     true},
    {"a caller that wrote nothing", [](PerLane<uint64_t>&, PerLane<uint8_t>& w) { w[17] = 0; }, true},
};

TEST(ElectComparison, catches_every_planted_wrong_result) {
  gpu::ElectBatch b;
  b.scenes = {model::uniform_scene(model::kFullMask)};
  b.cases = {{}};
  for (const PlantedResults& p : kPlanted) {
    PerLane<uint64_t> bits;
    PerLane<uint8_t> wrote;
    for (int lane = 0; lane < 32; ++lane) {
      bits[lane] = 5 | (lane == 5 ? kElectedBit : 0);
      wrote[lane] = 1;
    }
    p.plant(bits, wrote);
    gpu::WarpResults results;
    results.cases = 1;
    results.bits.resize(32);
    results.wrote.resize(32);
    for (int lane = 0; lane < 32; ++lane) {
      results.bits[lane] = wrote[lane] ? bits[lane] : gpu::kSentinel;
      results.wrote[lane] = wrote[lane];
    }
    const check::CheckReport report = gen::check_batch(b, results).report;
    EXPECT_EQ(report.bad_lanes() > 0, p.caught) << p.what;
    EXPECT_GT(report.tally.compared(), 0u) << p.what;
  }
}

// A GPU test of elect.sync: NotSupported (Skipped) on devices under compute capability 9.0.
class ElectGpuTest : public check::GpuTest {
 protected:
  void SetUp() override {
    check::GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (auto why = check::not_supported_recorded(gpu::kElectComputeCapability, "elect", "elect.sync")) GTEST_SKIP() << *why;
  }
};

class ElectSweepOnGpu : public ElectGpuTest {};

TEST_F(ElectSweepOnGpu, agrees_with_the_model_on_every_scene) { sweeps::expect_gpu_agrees(sweeps::elect_batch(512)); }

class ElectBlockShapesOnGpu : public ElectGpuTest, public ::testing::WithParamInterface<gpu::LaunchShape> {};

TEST_P(ElectBlockShapesOnGpu, agree_with_the_model) {
  sweeps::expect_gpu_agrees(sweeps::with_block(sweeps::elect_batch(64), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(DivergenceShapes, ElectBlockShapesOnGpu, ::testing::ValuesIn(sweeps::divergence_shapes()),
                         [](const auto& info) { return sweeps::shape_text(info.param); });

// PTX: 'the same leader thread is elected for the same membermask every time': across the warps
// of a launch, launches and block shapes, the lanes that can lead give one leader.
class ElectAcrossLaunchesOnGpu : public ElectGpuTest {};

TEST_F(ElectAcrossLaunchesOnGpu, elects_the_same_leader_for_the_same_lanes) {
  std::map<std::pair<uint32_t, uint32_t>, std::map<uint64_t, size_t>> leaders;  // (mask, electable) -> leader -> calls
  size_t calls = 0;
  for (const gpu::LaunchShape& block : {gpu::LaunchShape{256, 1, 1}, gpu::LaunchShape{256, 1, 1}, gpu::LaunchShape{100, 1, 1}}) {
    const gpu::ElectBatch b = sweeps::with_block(sweeps::elect_batch(256), block);
    gpu::WarpResults results;
    gpu::run(b, results);
    for (size_t c = 0; c < results.cases; ++c) {
      const model::Scene scene = gpu::scene_of(b.scenes[b.cases[c].scene], b.block, c);
      for (uint32_t mask : model::instances(scene)) {
        uint32_t calling = 0;
        for (int lane = 0; lane < 32; ++lane)
          if (scene.mask[lane] == mask && model::has_lane(model::callers(scene), lane)) calling |= model::lane_bit(lane);
        if (calling == 0) continue;
        const int first = __builtin_ctz(calling);
        if (!results.wrote[c * 32 + first]) continue;
        ++leaders[{mask, mask & ~scene.exited}][results.bits[c * 32 + first] & 0xFFFFFFFFu];
        ++calls;
      }
    }
  }
  ASSERT_GT(calls, 0u) << "no call compared";
  for (const auto& [lanes, seen] : leaders)
    EXPECT_EQ(seen.size(), 1u) << "mask " << std::hex << lanes.first << " with electable lanes " << lanes.second
                               << " elected " << seen.size() << " different leaders";
}

}  // namespace
}  // namespace wc
