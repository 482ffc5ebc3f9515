// libcu++'s warp API, deterministic: the documented examples and the PTX pseudocode's pval against
// literal tables, the library's contract lane by lane, the payloads' bytes, the debug check of
// cuda::ptx that refuses valid calls, the comparison against planted wrong results; then the GPU on
// every sweep, block shape and documented example, the relation to the raw intrinsics, and the
// calls CCCL 3.1 adds (NotSupported with the reason where the toolkit lacks them).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/records.hpp"
#include "families/warp_shuffle/family.hpp"
#include "families/warp_shuffle/model.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using model::LaneClass;
using model::Payload;
using model::PerLane;
using model::ShuffleApi;
using model::ShuffleOp;
using model::WarpShuffleOp;
using sweeps::uniform;

PerLane<uint64_t> lane_seeds() {
  PerLane<uint64_t> seeds{};
  for (int lane = 0; lane < 32; ++lane) seeds[static_cast<size_t>(lane)] = 0x1000 + static_cast<uint64_t>(lane);
  return seeds;
}

// One call's outcome: out[k * 32 + lane].
std::vector<model::LaneOutcome> call(const WarpShuffleOp& op, const model::Scene& scene, const PerLane<int32_t>& arg,
                                     int32_t width, const PerLane<uint64_t>& seeds = lane_seeds()) {
  return model::warp_shuffle(op, {scene, arg, uniform(width), seeds});
}

// --- The documents' examples ------------------------------------------------------------------------

// A documented call, its lanes' source lanes and preds written out; -1: the lane makes no call.
struct DocumentedCall {
  const char* claim;
  WarpShuffleOp op;
  uint32_t mask;
  int32_t arg, width;
  PerLane<int> source;
  PerLane<int> pred;
};

const std::vector<DocumentedCall>& documented_calls() {
  static const std::vector<DocumentedCall> table = {
      {"CCCL warp_shuffle.rst example: warp_shuffle_idx(raw_array, 5, 0xFFFF, half_warp) in lanes 0-15: "
       "'lanes [0, 15] get an array with values {5, 6, 7}'",
       {ShuffleApi::device, ShuffleOp::idx, Payload::i32x3}, 0x0000FFFFu, 5, 16,
       { 5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
       { 1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}},
      {"CCCL warp_shuffle.rst example: warp_shuffle_down<16>(my_structs, 2): 'lanes [0, 13] get my_structs with "
       "values {threadIdx.x + 2, threadIdx.x + 3} and pred=true' (and 16-29 likewise; 14, 15, 30, 31 keep theirs)",
       {ShuffleApi::device, ShuffleOp::down, Payload::f64x3}, 0xFFFFFFFFu, 2, 16,
       { 2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 14, 15,
        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 30, 31},
       { 1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  0,  0,
         1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  0,  0}},
      {"PTX through warp_shuffle_up<8>(x, 1) (c 0x1800): the first lane of each 8 keeps its own, pred false",
       {ShuffleApi::device, ShuffleOp::up, Payload::u64}, 0xFFFFFFFFu, 1, 8,
       { 0,  0,  1,  2,  3,  4,  5,  6,  8,  8,  9, 10, 11, 12, 13, 14,
        16, 16, 17, 18, 19, 20, 21, 22, 24, 24, 25, 26, 27, 28, 29, 30},
       { 0,  1,  1,  1,  1,  1,  1,  1,  0,  1,  1,  1,  1,  1,  1,  1,
         0,  1,  1,  1,  1,  1,  1,  1,  0,  1,  1,  1,  1,  1,  1,  1}},
      {"PTX through warp_shuffle_xor<4>(x, 3) (c 0x1c03): lane ^ 3 within each 4, pred true",
       {ShuffleApi::device, ShuffleOp::bfly, Payload::bytes3}, 0xFFFFFFFFu, 3, 4,
       { 3,  2,  1,  0,  7,  6,  5,  4, 11, 10,  9,  8, 15, 14, 13, 12,
        19, 18, 17, 16, 23, 22, 21, 20, 27, 26, 25, 24, 31, 30, 29, 28},
       { 1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,
         1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1}},
      {"CCCL warp_shuffle.h: Width 1 returns {data, true}: warp_shuffle_idx<1>(x, 7) keeps every lane's own",
       {ShuffleApi::device, ShuffleOp::idx, Payload::bytes64}, 0xFFFFFFFFu, 7, 1,
       { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15,
        16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31},
       { 1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,
         1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1}},
      // The PTX pseudocode's pval through cuda::ptx::shfl_sync_*, from the operands b and c.
      {"PTX .idx, b 5, c 0x1f: every lane reads lane 5, pval true",
       {ShuffleApi::ptx, ShuffleOp::idx, Payload::u32}, 0xFFFFFFFFu, 5, 0x1F,
       { 5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,
         5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5},
       { 1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,
         1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1}},
      {"PTX .idx, b 5, c 0x0003 (clamp 3, no segment): j = 5 > maxLane 3, so every lane keeps its own, pval false",
       {ShuffleApi::ptx, ShuffleOp::idx, Payload::u32}, 0xFFFFFFFFu, 5, 0x3,
       { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15,
        16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31},
       { 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
         0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0}},
      {"PTX .down, b 3, c 0x1007 (segments of 16, clamp 7): j <= (lane & 16) | 7, so lanes 0-4 and 16-20 move",
       {ShuffleApi::ptx, ShuffleOp::down, Payload::f32}, 0xFFFFFFFFu, 3, 0x1007,
       { 3,  4,  5,  6,  7,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15,
        19, 20, 21, 22, 23, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31},
       { 1,  1,  1,  1,  1,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
         1,  1,  1,  1,  1,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0}},
      {"PTX .bfly, b 8, c 0x1807 (segments of 8): lanes 8-15 read lanes 0-7, an earlier group, pval true; lanes 0-7 "
       "would read a later one: own, pval false",
       {ShuffleApi::ptx, ShuffleOp::bfly, Payload::i32}, 0xFFFFFFFFu, 8, 0x1807,
       { 0,  1,  2,  3,  4,  5,  6,  7,  0,  1,  2,  3,  4,  5,  6,  7,
        16, 17, 18, 19, 20, 21, 22, 23, 16, 17, 18, 19, 20, 21, 22, 23},
       { 0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  1,  1,  1,
         0,  0,  0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  1,  1,  1}},
      {"PTX .up, b 2, c 0x1800 (segments of 8, clamp 0): j = lane - 2 < the segment's first lane keeps the own",
       {ShuffleApi::ptx, ShuffleOp::up, Payload::u32}, 0xFFFFFFFFu, 2, 0x1800,
       { 0,  1,  0,  1,  2,  3,  4,  5,  8,  9,  8,  9, 10, 11, 12, 13,
        16, 17, 16, 17, 18, 19, 20, 21, 24, 25, 24, 25, 26, 27, 28, 29},
       { 0,  0,  1,  1,  1,  1,  1,  1,  0,  0,  1,  1,  1,  1,  1,  1,
         0,  0,  1,  1,  1,  1,  1,  1,  0,  0,  1,  1,  1,  1,  1,  1}},
  };
  return table;
}

TEST(WarpShuffleDocumentedModel, reads_the_documented_source_lane_and_pred) {
  for (const DocumentedCall& ex : documented_calls()) {
    const auto out = call(ex.op, model::uniform_scene(ex.mask), uniform(ex.arg), ex.width);
    const int words = model::outputs_per_lane(ex.op) - 1;
    for (int lane = 0; lane < 32; ++lane) {
      const auto at = static_cast<size_t>(lane);
      const model::LaneOutcome& pred = out[at];
      if (ex.source[at] < 0) {
        EXPECT_EQ(pred.cls, LaneClass::not_called) << ex.claim << ", lane " << lane;
        continue;
      }
      EXPECT_EQ(pred.cls, LaneClass::defined) << ex.claim << ", lane " << lane << ": " << pred.rule->id;
      EXPECT_EQ(pred.bits, static_cast<uint64_t>(ex.pred[at])) << ex.claim << ", lane " << lane;
      for (int k = 0; k < words; ++k) {
        const model::LaneOutcome& data = out[static_cast<size_t>((k + 1) * 32 + lane)];
        EXPECT_EQ(data.source, ex.source[at]) << ex.claim << ", lane " << lane;
        const uint64_t source_word = model::payload_word(lane_seeds()[static_cast<size_t>(ex.source[at])], k);
        EXPECT_EQ(data.bits & data.care, source_word & data.care) << ex.claim << ", lane " << lane << ", word " << k;
      }
    }
  }
}

TEST(WarpShuffleDocumentedModel, leaves_the_documented_example_that_breaks_its_own_precondition_undefined) {
  model::Scene lower = model::uniform_scene(0xFFFFFFFFu);
  for (int lane = 16; lane < 32; ++lane) lower.mask[static_cast<size_t>(lane)] = 0;
  const auto out = call({ShuffleApi::device, ShuffleOp::up, Payload::i32x3}, lower, uniform(1), 16);
  for (int lane = 0; lane < 16; ++lane) {
    EXPECT_EQ(out[static_cast<size_t>(lane)].cls, LaneClass::undefined) << lane;
    EXPECT_EQ(out[static_cast<size_t>(lane)].rule->id, "warp_shuffle.lane-mask-active") << lane;
  }
}

// --- The PTX instruction alone: pval where the data is undefined -----------------------------------

TEST(WarpShufflePtxModel, defines_pval_on_lanes_whose_source_takes_no_part) {
  const model::Scene lower_half_exited = model::uniform_scene(0xFFFFFFFFu, 0x0000FFFFu);
  // Lane 20 reads lane 4 (exited): the data is undefined, pval (computed from lane, b and c) is true.
  const model::PtxLane idx = model::ptx_shfl_lane(ShuffleOp::idx, lower_half_exited, 20, 4, 0x1F);
  EXPECT_EQ(idx.source.lane, 4);
  EXPECT_TRUE(idx.source.moved);
  EXPECT_EQ(idx.data, LaneClass::undefined);
  EXPECT_EQ(idx.pred, LaneClass::defined);
  EXPECT_EQ(idx.rule->id, "ptx_shfl.source-absent");
  // Lane 16 of a down by 1 whose source lane 17 is outside the mask: undefined data, pval true.
  const model::Scene one = model::uniform_scene(0x00010000u);
  const model::PtxLane down = model::ptx_shfl_lane(ShuffleOp::down, one, 16, 1, 0x1F);
  EXPECT_EQ(down.data, LaneClass::undefined);
  EXPECT_EQ(down.pred, LaneClass::defined);
  EXPECT_TRUE(down.source.moved);
  // Lane 31 of the same down: j = 32 > maxLane, own lane, pval false, the data its own and defined.
  const model::PtxLane last = model::ptx_shfl_lane(ShuffleOp::down, model::uniform_scene(0x80000000u), 31, 1, 0x1F);
  EXPECT_FALSE(last.source.moved);
  EXPECT_EQ(last.data, LaneClass::defined);
  EXPECT_EQ(last.pred, LaneClass::defined);
}

// --- The library's contract, lane by lane ------------------------------------------------------------

struct ContractExample {
  const char* claim;
  WarpShuffleOp op;
  model::Scene scene;
  PerLane<int32_t> arg;
  int32_t width;
  int lane;
  const char* rule;  // nullptr: inside the contract
};

model::Scene with_else(model::Scene s, uint32_t else_arm) {
  s.else_arm = else_arm;
  return s;
}

PerLane<int32_t> lane_parity_plus_one() {
  PerLane<int32_t> row{};
  for (int lane = 0; lane < 32; ++lane) row[static_cast<size_t>(lane)] = 1 + lane % 2;
  return row;
}

TEST(WarpShuffleContractModel, classes_each_broken_precondition_undefined_with_its_rule) {
  const model::Scene full = model::uniform_scene(0xFFFFFFFFu);
  const WarpShuffleOp up{ShuffleApi::device, ShuffleOp::up, Payload::f32x3};
  const WarpShuffleOp xor_op{ShuffleApi::device, ShuffleOp::bfly, Payload::u8};
  const WarpShuffleOp idx{ShuffleApi::device, ShuffleOp::idx, Payload::padded};
  const WarpShuffleOp ptx_up{ShuffleApi::ptx, ShuffleOp::up, Payload::u32};
  const std::vector<ContractExample> table = {
      {"up by 1, Width 32", up, full, uniform(1), 32, 5, nullptr},
      {"up by 0: 'delta must be in the range [1, _Width)'", up, full, uniform(0), 32, 5, "warp_shuffle.delta-range"},
      {"up by Width", up, full, uniform(16), 16, 5, "warp_shuffle.delta-range"},
      {"up by -1", up, full, uniform(-1), 32, 5, "warp_shuffle.delta-range"},
      {"up, Width 1, delta 0", up, full, uniform(0), 1, 5, nullptr},
      {"up, Width 1, delta 1: 'delta must be 0 when Width == 1'", up, full, uniform(1), 1, 5, "warp_shuffle.width-1-zero"},
      {"up by 1 or 2 lane by lane: 'all active lanes must have the same delta'", up, full, lane_parity_plus_one(), 32, 5,
       "warp_shuffle.same-delta"},
      {"xor_mask Width: 'delta must be in the range [1, _Width)'", xor_op, full, uniform(8), 8, 5, "warp_shuffle.xor-mask-range"},
      {"xor_mask 7, Width 8", xor_op, full, uniform(7), 8, 5, nullptr},
      {"idx takes any src_lane", idx, full, uniform(-100), 32, 5, nullptr},
      {"idx src_lane per lane", idx, full, lane_parity_plus_one(), 32, 5, nullptr},
      {"a mask naming exited lanes: 'lane_mask must be a subset of the active mask'", idx,
       model::uniform_scene(0xFFFFFFFFu, 0x1u), uniform(3), 32, 5, "warp_shuffle.lane-mask-active"},
      {"one mask reached from both arms: lanes of the other arm are not active", idx, with_else(full, 0xAAAAAAAAu),
       uniform(3), 32, 4, "warp_shuffle.lane-mask-active"},
      {"two groups from one arm: 'All lanes must have the same value for lane_mask'", idx,
       model::group_scene({0x0000FFFFu, 0xFFFF0000u}), uniform(3), 16, 5, "warp_shuffle.same-lane-mask"},
      {"two groups from two arms: each arm's lanes alone are active", idx,
       sweeps::groups_scene({0x0000FFFFu, 0xFFFF0000u}), uniform(3), 16, 5, nullptr},
      {"a source outside the mask: 'The destination lane must be a member of the lane_mask'", idx,
       model::uniform_scene(0x0000FFFEu), uniform(0), 32, 5, "warp_shuffle.destination-in-mask"},
      {"cuda::ptx up with b 32: 'the lane index or offset must be less than the warp size'", ptx_up, full, uniform(32),
       0, 5, "ptx_shfl.offset-range"},
      {"cuda::ptx with c bits outside [4:0] and [12:8]", ptx_up, full, uniform(1), 0x2000, 5, "ptx_shfl.clamp-segmask-bits"},
      {"cuda::ptx up by 4 from lanes 1-3 alone: every j negative, valid", ptx_up, model::uniform_scene(0xEu), uniform(4), 0,
       2, nullptr},
  };
  for (const ContractExample& ex : table) {
    const auto out = model::warp_shuffle(ex.op, {ex.scene, ex.arg, uniform(ex.width), lane_seeds()});
    for (int k = 0; k < model::outputs_per_lane(ex.op); ++k) {
      const model::LaneOutcome& o = out[static_cast<size_t>(k * 32 + ex.lane)];
      if (ex.rule == nullptr) {
        EXPECT_TRUE(model::has_value(o)) << ex.claim << ": result " << k << " is " << model::to_string(o.cls) << " by "
                                         << o.rule->id;
      } else {
        EXPECT_EQ(o.cls, LaneClass::undefined) << ex.claim << ", result " << k;
        EXPECT_EQ(o.rule->id, ex.rule) << ex.claim << ", result " << k;
      }
    }
  }
}

// --- Payloads ------------------------------------------------------------------------------------------

TEST(WarpShufflePayloadModel, moves_every_byte_of_every_size_and_leaves_padding_uncompared) {
  const std::vector<std::pair<Payload, int>> sizes = {
      {Payload::u8, 1},      {Payload::f16, 2},    {Payload::bytes3, 3}, {Payload::u32, 4},   {Payload::bytes6, 6},
      {Payload::u64, 8},     {Payload::void_ptr, 8}, {Payload::padded, 12}, {Payload::f32x3, 12}, {Payload::i32x3, 12},
      {Payload::f32x4, 16},  {Payload::f64x3, 24}, {Payload::bytes32, 32}, {Payload::bytes64, 64}};
  for (const auto& [payload, bytes] : sizes) {
    EXPECT_EQ(model::info(payload).bytes, bytes) << model::info(payload).name;
    EXPECT_EQ(model::outputs_per_lane({ShuffleApi::device, ShuffleOp::idx, payload}), 1 + (bytes + 7) / 8);
  }
  EXPECT_EQ(model::data_care(Payload::bytes3, 0), 0xFFFFFFull);
  EXPECT_EQ(model::data_care(Payload::padded, 0), 0xFFFFFFFF000000FFull);  // tag, then value; bytes 1-3 padding
  EXPECT_EQ(model::data_care(Payload::padded, 1), 0x000000000000FFFFull);  // count; bytes 10-11 padding
  EXPECT_EQ(model::data_care(Payload::bytes64, 7), ~uint64_t{0});
  // Every lane reads lane 3: each data word is lane 3's.
  const WarpShuffleOp op{ShuffleApi::device, ShuffleOp::idx, Payload::bytes64};
  const auto out = call(op, model::uniform_scene(0xFFFFFFFFu), uniform(3), 32);
  for (int k = 0; k < 8; ++k)
    EXPECT_EQ(out[static_cast<size_t>((k + 1) * 32 + 9)].bits, model::payload_word(lane_seeds()[3], k)) << k;
}

// --- cuda::ptx's debug check -----------------------------------------------------------------------

// CCCL 3.0.1's __shfl_sync_dst_lane names another destination than PTX for idx (`lane & clamp` for
// minLane) and for up (lane 0 where j is negative). Valid calls whose lanes it names outside the
// mask fail its assertion with CCCL's device assertions on; the probes show it on the GPU.
struct RefusedCall {
  const char* claim;
  ShuffleOp mode;
  uint32_t mask, b, c;
  int lane;
  int ptx_destination, check_destination;
};

TEST(WarpShufflePtxCheckModel, names_destinations_outside_the_mask_for_valid_calls) {
  const RefusedCall table[] = {
      {"mask {1,2}, idx b 2, c 0x1f, lane 1", ShuffleOp::idx, 0x6u, 2, 0x1F, 1, 2, 3},
      {"lanes 16-31, idx b 0, Width 16 (c 0x100f), lane 20", ShuffleOp::idx, 0xFFFF0000u, 0, 0x100F, 20, 16, 4},
      {"lanes 1-3, up b 4, c 0, lane 2", ShuffleOp::up, 0xEu, 4, 0, 2, 2, 0},
      {"lanes 1-31, up b 2, c 0, lane 1", ShuffleOp::up, 0xFFFFFFFEu, 2, 0, 1, 1, 0},
  };
  for (const RefusedCall& r : table) {
    const WarpShuffleOp op{ShuffleApi::ptx, r.mode, Payload::u32};
    const model::Scene scene = model::uniform_scene(r.mask);
    const auto out = model::warp_shuffle(op, {scene, uniform(static_cast<int32_t>(r.b)), uniform(static_cast<int32_t>(r.c)), lane_seeds()});
    EXPECT_TRUE(model::has_value(out[static_cast<size_t>(r.lane)])) << r.claim << ": the model says valid";
    EXPECT_EQ(model::ptx_operand_source(r.mode, r.lane, r.b, r.c).lane, r.ptx_destination) << r.claim;
    EXPECT_EQ(model::cccl_check_destination(r.mode, r.lane, r.b, r.c), r.check_destination) << r.claim;
    EXPECT_FALSE(model::has_lane(r.mask, r.check_destination)) << r.claim << ": the check would pass";
  }
}

// Over every mask of the structured scenes and every b and library c: how many valid lanes the check
// refuses, per mode. down and bfly it gets right; idx and up it does not.
TEST(WarpShufflePtxCheckModel, refuses_valid_lanes_of_idx_and_up_alone) {
  for (ShuffleOp mode : model::kShuffleOps) {
    uint64_t valid = 0, refused = 0;
    for (const model::Scene& scene : sweeps::structured_scenes())
      for (int32_t width : model::kWidths)
        for (uint32_t b = 0; b < 32; ++b) {
          const uint32_t c = model::library_clamp_segmask(mode, width);
          const WarpShuffleOp op{ShuffleApi::ptx, mode, Payload::u32};
          const auto out = model::warp_shuffle(op, {scene, uniform(static_cast<int32_t>(b)), uniform(static_cast<int32_t>(c)), lane_seeds()});
          for (int lane = 0; lane < 32; ++lane) {
            if (!model::has_value(out[static_cast<size_t>(lane)])) continue;
            ++valid;
            if (!model::has_lane(scene.mask[static_cast<size_t>(lane)], model::cccl_check_destination(mode, lane, b, c))) ++refused;
          }
        }
    std::printf("%s: CCCL 3.0.1's check refuses %llu of %llu valid lanes\n",
                std::string(model::call_name({ShuffleApi::ptx, mode, Payload::u32})).c_str(), static_cast<unsigned long long>(refused),
                static_cast<unsigned long long>(valid));
    EXPECT_GT(valid, 0u);
    if (mode == ShuffleOp::down || mode == ShuffleOp::bfly) EXPECT_EQ(refused, 0u) << mode;
    else EXPECT_GT(refused, 0u) << mode;
  }
}

// --- The known deviation of cuda::ptx<float> ---------------------------------------------------------

TEST(WarpShuffleDeviationModel, ptx_float_results_carry_the_value_conversion_as_a_known_deviation) {
  PerLane<uint64_t> seeds{};
  seeds.fill(0x3F800000u);  // 1.0f: read as an unsigned, 1065353216, whose nearest float has other bits
  const auto out = model::warp_shuffle({ShuffleApi::ptx, ShuffleOp::idx, Payload::f32},
                                       {model::uniform_scene(0xFFFFFFFFu), uniform(0), uniform(0x1F), seeds});
  const model::LaneOutcome& data = out[32 + 4];
  EXPECT_EQ(data.bits, 0x3F800000u);  // documented: the float itself
  ASSERT_NE(data.known, nullptr);
  EXPECT_EQ(data.known->id, "cccl.ptx-shfl-sync.value-conversion");
  const float converted = 1065353216.0f;
  uint32_t bits = 0;
  std::memcpy(&bits, &converted, sizeof bits);
  EXPECT_EQ(data.known_bits, bits);
  EXPECT_NE(std::string(data.known->evidence).find("NVIDIA/cccl#8209"), std::string::npos);
  // int and unsigned come back bit for bit: no deviation.
  const auto ints = model::warp_shuffle({ShuffleApi::ptx, ShuffleOp::idx, Payload::u32},
                                        {model::uniform_scene(0xFFFFFFFFu), uniform(0), uniform(0x1F), seeds});
  EXPECT_EQ(ints[32 + 4].known, nullptr);
}

// --- The comparison against planted wrong results ---------------------------------------------------

// Results of one documented case (warp_shuffle_down<16> of a 12-byte Padded by 2), with a planted error.
struct PlantedResults {
  const char* what;
  void (*plant)(std::vector<uint64_t>& bits);
  bool caught;
};

const PlantedResults kPlanted[] = {
    {"the documented results", [](std::vector<uint64_t>&) {}, false},
    {"padding bytes that differ", [](std::vector<uint64_t>& b) { b[32 + 7] ^= 0x0000000000FFFF00ull; }, false},
    {"a pred that ignores the segment (lane 15 true)", [](std::vector<uint64_t>& b) { b[15] = 1; }, true},
    {"the last word of the 12 bytes not moved (lane 3 keeps its own count)",
     [](std::vector<uint64_t>& b) { b[64 + 3] = b[64 + 3] ^ 0x1; }, true},
    {"a data word from the wrong lane", [](std::vector<uint64_t>& b) { b[32 + 9] = b[32 + 10]; }, true},
};

TEST(WarpShuffleComparison, catches_every_planted_wrong_result_and_ignores_padding) {
  gpu::WarpShuffleBatch b;
  b.op = {ShuffleApi::device, ShuffleOp::down, Payload::padded};
  b.scenes = {model::uniform_scene(0xFFFFFFFFu)};
  b.tables.lane_arg = {uniform(2)};
  b.tables.width = {uniform(16)};
  b.tables.value = {lane_seeds()};
  b.cases = {{}};
  const std::vector<model::LaneOutcome> want = gpu::outcome(b, 0);
  for (const PlantedResults& p : kPlanted) {
    std::vector<uint64_t> bits(want.size());
    for (size_t i = 0; i < want.size(); ++i) bits[i] = want[i].bits;
    p.plant(bits);
    gpu::WarpResults results;
    results.cases = 1;
    results.outputs = want.size();
    results.bits.resize(want.size());
    results.wrote.resize(want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      results.bits[i] = bits[i];
      results.wrote[i] = 1;
    }
    const check::CheckReport report = gen::check_batch(b, results).report;
    EXPECT_EQ(report.bad_lanes() > 0, p.caught) << p.what;
    EXPECT_GT(report.tally.compared(), 0u) << p.what;
  }
}

// --- What configure found ----------------------------------------------------------------------------

// The three calls came with CCCL 3.1: a detection that finds none in a 3.1 toolkit (or any in 3.0) is
// broken, and would leave them NotSupported, or the build broken, without saying why.
TEST(WarpShuffleCcclFeatures, configure_found_the_calls_the_toolkits_cccl_version_has) {
  unsigned major = 0, minor = 0, patch = 0;
  const std::string version(gpu::cccl_version());
  if (std::sscanf(version.c_str(), "%u.%u.%u", &major, &minor, &patch) != 3) GTEST_SKIP() << "no CCCL found: " << version;
  const bool has_31 = major > 3 || (major == 3 && minor >= 1);
  for (ShuffleApi api : {ShuffleApi::match_all, ShuffleApi::lane_mask, ShuffleApi::elect})
    EXPECT_EQ(gpu::cccl_provides(api), has_31) << model::call_name(WarpShuffleOp{api}) << " in CCCL " << version;
  EXPECT_TRUE(gpu::cccl_provides(ShuffleApi::device));
}

// --- The GPU ---------------------------------------------------------------------------------------------

std::vector<WarpShuffleOp> swept_ops() {
  std::vector<WarpShuffleOp> ops;
  for (ShuffleApi api : {ShuffleApi::device, ShuffleApi::ptx, ShuffleApi::relation})
    for (const WarpShuffleOp& op : sweeps::shuffle_ops(api)) ops.push_back(op);
  return ops;
}

std::string op_test_name(const ::testing::TestParamInfo<WarpShuffleOp>& info) {
  return std::string(model::op_name(info.param)) + "_" + std::string(model::info(info.param.payload).name);
}

class WarpShuffleSweepOnGpu : public check::GpuTest, public ::testing::WithParamInterface<WarpShuffleOp> {};

TEST_P(WarpShuffleSweepOnGpu, agrees_with_the_model_over_the_whole_domain) {
  sweeps::expect_gpu_agrees(sweeps::warp_shuffle_sweep(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(EveryOpAndPayload, WarpShuffleSweepOnGpu, ::testing::ValuesIn(swept_ops()), op_test_name);

// Blocks that leave the last warp partial, 2D and 3D blocks.
// The lanes of a batch whose value the model defines: the GPU is compared on those alone.
size_t lanes_with_a_value(const gpu::WarpShuffleBatch& b) {
  size_t lanes = 0;
  for (size_t c = 0; c < b.cases.size(); ++c)
    for (const model::LaneOutcome& lane : gpu::outcome(b, c)) lanes += model::has_value(lane) ? 1 : 0;
  return lanes;
}

// In a block of one thread, warp_shuffle_down and _xor of an array, whose Width 1 does not compile, have
// no call inside the library's contract: every source lane they may name never runs.
bool no_call_keeps_the_contract(const WarpShuffleOp& op, const gpu::LaunchShape& shape) {
  return shape.threads() == 1 && op.api != ShuffleApi::ptx && (op.mode == ShuffleOp::down || op.mode == ShuffleOp::bfly) &&
         !model::width_compiles(op.payload, 1);
}

// Each block shape's sweep compares lanes on the GPU, but for the calls no_call_keeps_the_contract names.
class WarpShuffleShapedModel : public ::testing::TestWithParam<gpu::LaunchShape> {};

TEST_P(WarpShuffleShapedModel, leaves_lanes_inside_the_contract_but_where_none_can_be) {
  for (const WarpShuffleOp& op : swept_ops()) {
    const gpu::WarpShuffleBatch b = sweeps::warp_shuffle_shaped(op, GetParam());
    EXPECT_EQ(lanes_with_a_value(b) == 0, no_call_keeps_the_contract(op, GetParam())) << gpu::check_info(b).label();
  }
}

INSTANTIATE_TEST_SUITE_P(DivergenceShapes, WarpShuffleShapedModel, ::testing::ValuesIn(sweeps::divergence_shapes()),
                         [](const auto& info) { return sweeps::shape_text(info.param); });

class WarpShuffleBlockShapesOnGpu : public check::GpuTest, public ::testing::WithParamInterface<gpu::LaunchShape> {};

TEST_P(WarpShuffleBlockShapesOnGpu, agree_with_the_model) {
  for (const WarpShuffleOp& op : swept_ops()) {
    const gpu::WarpShuffleBatch b = sweeps::warp_shuffle_shaped(op, GetParam());
    if (no_call_keeps_the_contract(op, GetParam())) {
      std::printf("%s: not run, no call of it keeps the contract in this block\n", gpu::check_info(b).label().c_str());
      continue;
    }
    sweeps::expect_gpu_agrees(b);
  }
}

INSTANTIATE_TEST_SUITE_P(DivergenceShapes, WarpShuffleBlockShapesOnGpu, ::testing::ValuesIn(sweeps::divergence_shapes()),
                         [](const auto& info) { return sweeps::shape_text(info.param); });

class WarpShuffleDocumentedOnGpu : public check::GpuTest {};

TEST_F(WarpShuffleDocumentedOnGpu, reads_the_documented_source_lane_and_pred) {
  for (const DocumentedCall& ex : documented_calls()) {
    gpu::WarpShuffleBatch b;
    b.op = ex.op;
    b.scenes = {sweeps::groups_scene({ex.mask})};
    b.tables.lane_arg = {uniform(ex.arg)};
    b.tables.width = {uniform(ex.width)};
    b.tables.value = {lane_seeds()};
    b.cases = {{}};
    b.scenario = {"documented: " + std::string(ex.claim), "one case"};
    sweeps::expect_gpu_agrees(b);
  }
}

// For every type of the raw intrinsics: warp_shuffle_*(x).data == __shfl_*_sync(x), lane for lane,
// wherever the call keeps the library's contract (both sides also agree with the model: the sweep).
class WarpShuffleRelationOnGpu : public check::GpuTest, public ::testing::WithParamInterface<WarpShuffleOp> {};

TEST_P(WarpShuffleRelationOnGpu, library_data_equals_the_raw_intrinsic_lane_for_lane) {
  const gpu::WarpShuffleBatch b = sweeps::warp_shuffle_sweep(GetParam());
  gpu::WarpResults results;
  ASSERT_TRUE(sweeps::run_or_record_error(b, results));
  uint64_t compared = 0, differ = 0;
  for (size_t c = 0; c < results.cases; ++c) {
    const auto want = gpu::outcome(b, c);
    for (int lane = 0; lane < 32; ++lane) {
      if (want[static_cast<size_t>(lane)].cls != LaneClass::defined || !model::has_value(want[static_cast<size_t>(32 + lane)])) continue;
      const uint64_t care = want[static_cast<size_t>(lane)].care;
      ++compared;
      if (((results.bits[c * 64 + static_cast<size_t>(lane)] ^ results.bits[c * 64 + 32 + static_cast<size_t>(lane)]) & care) != 0) {
        if (differ++ == 0)
          ADD_FAILURE() << gpu::describe(b, c, lane).name << ": the library gives 0x" << std::hex
                        << results.bits[c * 64 + static_cast<size_t>(lane)] << ", the raw intrinsic 0x"
                        << results.bits[c * 64 + 32 + static_cast<size_t>(lane)];
      }
    }
  }
  std::printf("%s: %llu lanes inside the contract compared, %llu differ\n", gpu::check_info(b).label().c_str(),
              static_cast<unsigned long long>(compared), static_cast<unsigned long long>(differ));
  EXPECT_GT(compared, 0u) << "no lane compared";
  EXPECT_EQ(differ, 0u);
}

INSTANTIATE_TEST_SUITE_P(EveryRawType, WarpShuffleRelationOnGpu,
                         ::testing::ValuesIn(sweeps::shuffle_ops(ShuffleApi::relation)), op_test_name);

// The calls CCCL 3.1 adds: NotSupported, recorded with the reason, where the toolkit's CCCL lacks them.
class WarpShuffleCcclAdditionsOnGpu : public check::GpuTest, public ::testing::WithParamInterface<ShuffleApi> {};

TEST_P(WarpShuffleCcclAdditionsOnGpu, agree_with_the_model_or_are_not_supported) {
  const WarpShuffleOp op = sweeps::shuffle_ops(GetParam()).front();
  if (const auto why = gpu::not_supported(op)) {
    check::CheckInfo info;
    info.family = "warp_shuffle";
    info.intrinsic = std::string(model::call_name(op));
    check::record_unchecked(info, check::Verdict::not_supported, *why);
    GTEST_SKIP() << *why;
  }
  sweeps::expect_gpu_agrees(sweeps::warp_shuffle_sweep(op));
}

INSTANTIATE_TEST_SUITE_P(Cccl31, WarpShuffleCcclAdditionsOnGpu,
                         ::testing::Values(ShuffleApi::match_all, ShuffleApi::lane_mask, ShuffleApi::elect),
                         [](const auto& info) { return std::string(model::op_name(WarpShuffleOp{info.param})); });

}  // namespace
}  // namespace wc
