// elect.sync, properties: laws of the model on random scenes and named leaders, and the GPU against
// the model on random scenes (groups, skips, exits, both arms), shrunk to a minimal scene on failure.
#include <gtest/gtest.h>

#include "families/elect/family.hpp"
#include "families/elect/model.hpp"
#include "harness/gpu_test.hpp"
#include "harness/random_check.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;

// Law: whichever lanes the results name, every call has one leader, an electable lane (its mask's
// lanes that have not exited) that its callers all name and that alone sees p; a named electable
// leader is taken when all callers name it.
TEST(ElectLaws, one_electable_leader_per_call_named_by_all_and_marked_by_p_alone) {
  gen::expect_law(100000, [](Draw& d) -> LawResult {
    const model::Scene scene = gen::gen_scene(d);
    const int named_leader = static_cast<int>(d.below(33)) - 1;  // -1: none named
    model::PerLane<int> named;
    named.fill(named_leader);
    const model::WarpOutcome o = model::elect(scene, named);
    const uint32_t calling = model::callers(scene);
    for (int lane = 0; lane < 32; ++lane) {
      if (!model::has_value(o[lane])) continue;
      const uint32_t electable = model::participants(scene, lane);
      const int leader = static_cast<int>(o[lane].bits & 0xFFFFFFFFu);
      if (!model::has_lane(electable, leader))
        return violation("lane ", lane, " of mask ", scene.mask[lane], " exited ", scene.exited, ": leader ", leader,
                         " cannot be elected");
      if (named_leader >= 0 && model::has_lane(electable, named_leader) && leader != named_leader)
        return violation("lane ", lane, ": every caller named ", named_leader, ", the model elected ", leader);
      int marked = 0;
      for (int k = 0; k < 32; ++k) {
        if (!model::has_lane(calling, k) || scene.mask[k] != scene.mask[lane] || !model::has_value(o[k])) continue;
        if ((o[k].bits & 0xFFFFFFFFu) != static_cast<uint64_t>(leader))
          return violation("lanes ", lane, " and ", k, " of mask ", scene.mask[lane], " name different leaders");
        marked += (o[k].bits & model::kElectedBit) != 0 ? 1 : 0;
      }
      if (marked != (model::has_lane(calling, leader) ? 1 : 0))
        return violation("mask ", scene.mask[lane], ": p on ", marked, " lanes, leader ", leader);
    }
    return {};
  });
}

class ElectOnGpu : public check::GpuTest {
 protected:
  void SetUp() override {
    check::GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (auto why = check::not_supported_recorded(gpu::kElectComputeCapability, "elect", "elect.sync")) GTEST_SKIP() << *why;
  }
};

TEST_F(ElectOnGpu, agrees_with_the_model_on_random_scenes) {
  gen::expect_gpu_agrees_on_random<gpu::ElectCalls>(gen::elect_case, 100000, "elect.sync");
}

}  // namespace
}  // namespace wc
