// libcu++'s warp API, properties: laws of the model on random cases (the library's data against the raw
// intrinsics' model, pred against the source lane, the contract's lanes), then the GPU against the
// model on random cases of every op, shrunk to a minimal case on failure.
#include <gtest/gtest.h>

#include "families/shuffle/model.hpp"
#include "families/warp_shuffle/family.hpp"
#include "families/warp_shuffle/model.hpp"
#include "harness/gpu_test.hpp"
#include "harness/random_check.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using model::LaneClass;
using model::Payload;
using model::ShuffleApi;
using model::ShuffleOp;
using model::WarpShuffleOp;

std::vector<model::LaneOutcome> outcome_of(const gen::WarpCase<gpu::WarpShuffleCalls>& c) {
  return model::warp_shuffle(c.op, {c.scene, c.inputs.lane_arg, c.inputs.width, c.inputs.value});
}

template <size_t N>
WarpShuffleOp any_op(Draw& d, ShuffleApi api, const std::array<Payload, N>& payloads) {
  return {api, model::kShuffleOps[d.below(4)], payloads[d.below(N)]};
}

// Law: wherever a call keeps the library's contract, warp_shuffle_*(x).data is what __shfl_*_sync(x)
// gives for the same mask, argument and width, for every type of the raw intrinsics.
TEST(WarpShuffleLaws, inside_the_contract_the_library_moves_what_the_raw_intrinsic_moves) {
  gen::expect_law(50000, [](Draw& d) -> LawResult {
    const auto c = gen::warp_shuffle_case(d, any_op(d, ShuffleApi::relation, model::kRelationPayloads));
    const auto out = outcome_of(c);
    for (int lane = 0; lane < 32; ++lane) {
      const model::LaneOutcome &library = out[static_cast<size_t>(lane)], &raw = out[static_cast<size_t>(32 + lane)];
      if (!model::has_value(library)) continue;
      if (!model::has_value(raw)) return violation(c, "\nlane ", lane, ": inside the library's contract, the raw call is ", model::to_string(raw.cls));
      if (library.source != raw.source || ((library.bits ^ raw.bits) & library.care) != 0)
        return violation(c, "\nlane ", lane, ": the library reads lane ", library.source, ", the raw intrinsic lane ", raw.source);
    }
    return {};
  });
}

// Law: a device call's pred is false exactly where the lane keeps its own value for want of a lane in
// its segment (up, down); idx and xor inside the contract always find one; Width 1 moves nothing.
TEST(WarpShuffleLaws, pred_says_whether_the_source_lane_lies_in_the_segment) {
  gen::expect_law(50000, [](Draw& d) -> LawResult {
    const auto c = gen::warp_shuffle_case(d, any_op(d, ShuffleApi::device, model::kDevicePayloads));
    const auto out = outcome_of(c);
    for (int lane = 0; lane < 32; ++lane) {
      const model::LaneOutcome& pred = out[static_cast<size_t>(lane)];
      if (!model::has_value(pred)) continue;
      const int32_t width = c.inputs.width[static_cast<size_t>(lane)], arg = c.inputs.lane_arg[static_cast<size_t>(lane)];
      const int base = lane & ~(width - 1);
      int want_source = lane;
      bool want_pred = true;
      if (width > 1) {
        switch (c.op.mode) {
          case ShuffleOp::idx: want_source = base + (arg & (width - 1)); break;
          case ShuffleOp::up: want_pred = lane - arg >= base; want_source = want_pred ? lane - arg : lane; break;
          case ShuffleOp::down: want_pred = lane + arg < base + width; want_source = want_pred ? lane + arg : lane; break;
          case ShuffleOp::bfly: want_source = lane ^ arg; break;
        }
      }
      if (pred.bits != (want_pred ? 1u : 0u) || pred.source != want_source)
        return violation(c, "\nlane ", lane, ": pred ", pred.bits, " from lane ", pred.source, ", the segment gives ",
                         want_pred, " from lane ", want_source);
    }
    return {};
  });
}

// Law: a lane outside the library's contract is undefined in every result, and a lane inside it reads
// every word of one source lane's payload, the bytes the documents fix.
TEST(WarpShuffleLaws, a_lane_is_undefined_in_every_result_or_reads_one_lanes_whole_payload) {
  gen::expect_law(50000, [](Draw& d) -> LawResult {
    const bool ptx = d.below(2) == 0;
    const WarpShuffleOp op = ptx ? any_op(d, ShuffleApi::ptx, model::kPtxPayloads) : any_op(d, ShuffleApi::device, model::kDevicePayloads);
    const auto c = gen::warp_shuffle_case(d, op);
    const auto out = outcome_of(c);
    const int outputs = model::outputs_per_lane(op);
    for (int lane = 0; lane < 32; ++lane) {
      const model::LaneOutcome& first = out[static_cast<size_t>(lane)];
      const bool contract_broken = model::has_lane(model::callers(c.scene), lane) &&
                                   model::library_contract_broken(op, {c.scene, c.inputs.lane_arg, c.inputs.width, c.inputs.value}, lane);
      for (int k = 1; k < outputs; ++k) {
        const model::LaneOutcome& data = out[static_cast<size_t>(k * 32 + lane)];
        if (data.cls != first.cls && !(first.cls == LaneClass::defined && data.cls == LaneClass::ptx_defined))
          return violation(c, "\nlane ", lane, ": result ", k, " is ", model::to_string(data.cls), ", pred ", model::to_string(first.cls));
        if (contract_broken != (data.cls == LaneClass::undefined))
          return violation(c, "\nlane ", lane, ": the contract is ", contract_broken ? "broken" : "kept", ", result ", k, " ",
                           model::to_string(data.cls));
        if (!model::has_value(data)) continue;
        const uint64_t word = model::payload_word(c.inputs.value[static_cast<size_t>(data.source)], k - 1);
        if (((data.bits ^ word) & data.care) != 0)
          return violation(c, "\nlane ", lane, ": word ", k - 1, " is not lane ", data.source, "'s");
        if ((data.care & ~model::data_care(op.payload, k - 1)) != 0) return violation(c, "\nlane ", lane, ": padding compared");
      }
    }
    return {};
  });
}

// Law: the PTX layer defines pval from the lane and the operands alone: the same wherever the source
// lane exits or leaves the mask.
TEST(WarpShuffleLaws, pval_does_not_depend_on_who_takes_part) {
  gen::expect_law(50000, [](Draw& d) -> LawResult {
    const ShuffleOp mode = model::kShuffleOps[d.below(4)];
    const auto b = static_cast<uint32_t>(gen::gen_arg(d)), c = static_cast<uint32_t>(d.below(32) | (d.below(32) << 8));
    const model::Scene scene = gen::gen_scene(d);
    const model::Scene full = model::uniform_scene(model::kFullMask);
    for (int lane = 0; lane < 32; ++lane) {
      const model::PtxLane here = model::ptx_shfl_lane(mode, scene, lane, b, c);
      if (here.pred != LaneClass::defined) continue;
      const model::PtxLane whole = model::ptx_shfl_lane(mode, full, lane, b, c);
      if (here.source.moved != whole.source.moved || here.source.lane != whole.source.lane)
        return violation(sweeps::scene_text(scene), " b ", b, " c ", c, ": lane ", lane, "'s pval depends on the scene");
    }
    return {};
  });
}

// The generator's reach: of every API's calling lanes, many keep the library's contract (the laws above
// compare them) and many break it (the model's undefined lanes, which the goldens record).
TEST(WarpShuffleGenerator, draws_lanes_inside_and_outside_the_contract) {
  for (ShuffleApi api : {ShuffleApi::device, ShuffleApi::ptx, ShuffleApi::relation}) {
    uint64_t inside = 0, outside = 0;
    const std::vector<WarpShuffleOp> ops = sweeps::shuffle_ops(api);
    for (uint64_t i = 0; i < 4000; ++i) {
      Draw d(0x5EED, i);
      const auto c = gen::warp_shuffle_case(d, ops[i % ops.size()]);
      const auto out = outcome_of(c);
      for (int lane = 0; lane < 32; ++lane) {
        if (!model::has_lane(model::callers(c.scene), lane)) continue;
        ++(model::has_value(out[static_cast<size_t>(lane)]) ? inside : outside);
      }
    }
    std::printf("%s: %llu calling lanes inside the contract, %llu outside\n",
                std::string(model::op_name(WarpShuffleOp{api, ShuffleOp::idx, Payload::u32})).c_str(),
                static_cast<unsigned long long>(inside), static_cast<unsigned long long>(outside));
    EXPECT_GT(inside, (inside + outside) / 4) << "too few lanes for the laws to compare";
    EXPECT_GT(outside, (inside + outside) / 20) << "too few lanes outside the contract";
  }
}

// --- The GPU against the model ------------------------------------------------------------------------

class WarpShuffleOnGpu : public check::GpuTest, public ::testing::WithParamInterface<ShuffleApi> {};

TEST_P(WarpShuffleOnGpu, agrees_with_the_model_on_random_cases) {
  for (const WarpShuffleOp& op : sweeps::shuffle_ops(GetParam())) {
    std::ostringstream name;
    name << op;
    gen::expect_gpu_agrees_on_random<gpu::WarpShuffleCalls>([op](Draw& d) { return gen::warp_shuffle_case(d, op); }, 4000,
                                                            name.str());
  }
}

INSTANTIATE_TEST_SUITE_P(EveryApi, WarpShuffleOnGpu,
                         ::testing::Values(ShuffleApi::device, ShuffleApi::ptx, ShuffleApi::relation),
                         [](const auto& info) {
                           return std::string(model::op_name(WarpShuffleOp{info.param, ShuffleOp::idx, Payload::u32}));
                         });

}  // namespace
}  // namespace wc
