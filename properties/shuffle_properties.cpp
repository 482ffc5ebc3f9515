// Shuffle family, properties: laws of the model that need no GPU, and the GPU against the model on
// random cases over the whole domain. Failures shrink and print a replay command.
#include <gtest/gtest.h>

#include "harness/random_check.hpp"
#include "families/shuffle/family.hpp"
#include "families/shuffle/model.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using model::LaneClass;
using model::PerLane;
using model::ShuffleOp;
using model::Type;
using model::has_value;
using sweeps::uniform;

// A random case's shuffle inputs by name.
const gpu::ShuffleInputs<gpu::LaneRow>& inputs(const gen::WarpCase<gpu::ShuffleCalls>& c) { return c.inputs; }

gen::WarpCase<gpu::ShuffleCalls> any_shuffle_case(Draw& d) {
  const ShuffleOp op = model::kShuffleOps[d.below(model::kShuffleOps.size())];
  const Type type = model::kShuffleTypes[d.below(model::kShuffleTypes.size())];
  return gen::shuffle_case(d, op, type);
}

// --- Laws of the model ------------------------------------------------------------------------------

// Law: with width 1 every group is one lane, so shfl, shfl_up and shfl_down give the own value;
// shfl_xor may still read an earlier group ("able to access elements from earlier groups"), never a later one.
TEST(ShuffleLaws, width_one_yields_the_own_value_or_an_earlier_lane_for_xor) {
  gen::expect_law(50000, [](Draw& d) -> LawResult {
    const auto c = any_shuffle_case(d);
    const auto in = inputs(c);
    const auto out = model::shuffle(c.op, c.type, c.scene, in.lane_arg, uniform<int32_t>(1), in.value);
    for (int lane = 0; lane < 32; ++lane) {
      if (out[lane].cls == LaneClass::not_called) continue;
      const int j = lane ^ (in.lane_arg[lane] & 31);
      const int want = c.op != ShuffleOp::bfly ? lane : j < lane ? j : lane;
      if (out[lane].source != want) return violation(c, "\nlane ", lane, " reads lane ", out[lane].source);
      if (c.op != ShuffleOp::bfly && out[lane].bits != (in.value[lane] & model::value_mask(model::info(c.type).bits)))
        return violation(c, "\nlane ", lane, " does not get its own value");
    }
    return {};
  });
}

// Law: over a full warp, xor with the same laneMask twice is the identity, when the mask stays
// inside the segment (a documented width w and laneMask in [0, w)).
TEST(ShuffleLaws, xor_twice_with_the_same_lane_mask_is_the_identity) {
  gen::expect_law(50000, [](Draw& d) -> LawResult {
    const int32_t width = gen::element<int32_t>(d, {1, 2, 4, 8, 16, 32});
    const int32_t lane_mask = static_cast<int32_t>(d.below(static_cast<uint64_t>(width)));
    const Type type = model::kShuffleTypes[d.below(model::kShuffleTypes.size())];
    const auto values = gen::each_lane<uint64_t>(d, [type](Draw& dd) { return gen::gen_bits(dd, type); });
    const model::Scene full = model::uniform_scene(model::kFullMask);
    const auto once = model::shuffle(ShuffleOp::bfly, type, full, uniform(lane_mask), uniform(width), values);
    PerLane<uint64_t> after_once{};
    for (int lane = 0; lane < 32; ++lane) after_once[lane] = once[lane].bits;
    const auto twice = model::shuffle(ShuffleOp::bfly, type, full, uniform(lane_mask), uniform(width), after_once);
    for (int lane = 0; lane < 32; ++lane)
      if (twice[lane].cls != LaneClass::defined || twice[lane].bits != values[lane])
        return violation("shfl_xor<", type, "> width ", width, " laneMask ", lane_mask, ": lane ", lane,
                         " does not get its value back");
    return {};
  });
}

// Law: PTX reads only b[4:0] and (32 - width) & 31, so adding 32 to the argument or the width
// changes no lane's source (only, perhaps, its class).
TEST(ShuffleLaws, argument_and_width_act_modulo_32) {
  gen::expect_law(50000, [](Draw& d) -> LawResult {
    const auto c = any_shuffle_case(d);
    const auto in = inputs(c);
    PerLane<int32_t> arg_plus = in.lane_arg, width_plus = in.width;
    for (int lane = 0; lane < 32; ++lane) {
      arg_plus[lane] = static_cast<int32_t>(static_cast<uint32_t>(in.lane_arg[lane]) + 32u);
      width_plus[lane] = static_cast<int32_t>(static_cast<uint32_t>(in.width[lane]) + 32u);
    }
    const auto base = model::shuffle(c.op, c.type, c.scene, in.lane_arg, in.width, in.value);
    const auto shifted = model::shuffle(c.op, c.type, c.scene, arg_plus, width_plus, in.value);
    for (int lane = 0; lane < 32; ++lane)
      if (base[lane].source != shifted[lane].source || has_value(base[lane]) != has_value(shifted[lane]) ||
          (has_value(base[lane]) && base[lane].bits != shifted[lane].bits))
        return violation(c, "\nlane ", lane, " changes when 32 is added to its argument and width");
    return {};
  });
}

// Law: a 64-bit shuffle gives the same result as shuffling its hi and lo words as two u32 calls.
TEST(ShuffleLaws, a_64_bit_shuffle_is_two_32_bit_shuffles) {
  gen::expect_law(50000, [](Draw& d) -> LawResult {
    const Type type = gen::element(d, {Type::i64, Type::u64, Type::f64, Type::long_, Type::ulong});
    const auto c = gen::shuffle_case(d, model::kShuffleOps[d.below(4)], type);
    const auto in = inputs(c);
    PerLane<uint64_t> hi{}, lo{};
    for (int lane = 0; lane < 32; ++lane) {
      hi[lane] = in.value[lane] >> 32;
      lo[lane] = in.value[lane] & 0xFFFFFFFFu;
    }
    const auto whole = model::shuffle(c.op, type, c.scene, in.lane_arg, in.width, in.value);
    const auto high = model::shuffle(c.op, Type::u32, c.scene, in.lane_arg, in.width, hi);
    const auto low = model::shuffle(c.op, Type::u32, c.scene, in.lane_arg, in.width, lo);
    for (int lane = 0; lane < 32; ++lane)
      if (whole[lane].cls != high[lane].cls ||
          (has_value(whole[lane]) && whole[lane].bits != ((high[lane].bits << 32) | low[lane].bits)))
        return violation(c, "\nlane ", lane, " differs from its two 32-bit halves");
    return {};
  });
}

// Law: a lane that makes no call is not-called, and a calling lane only ever reads a lane of its
// own mask, or gets a class that says it may not.
TEST(ShuffleLaws, a_calling_lane_reads_only_lanes_of_its_call) {
  gen::expect_law(50000, [](Draw& d) -> LawResult {
    const auto c = any_shuffle_case(d);
    const auto in = inputs(c);
    const auto out = model::shuffle(c.op, c.type, c.scene, in.lane_arg, in.width, in.value);
    const uint32_t calling = model::callers(c.scene);
    for (int lane = 0; lane < 32; ++lane) {
      if ((out[lane].cls == LaneClass::not_called) != !model::has_lane(calling, lane))
        return violation(c, "\nlane ", lane, " is not-called exactly when it makes no call: wrong");
      if (has_value(out[lane]) && !model::has_lane(model::participants(c.scene, lane), out[lane].source))
        return violation(c, "\nlane ", lane, " has a value read from lane ", out[lane].source, ", outside its call");
    }
    return {};
  });
}

// Law: the generated scenes keep the mask contract, so the GPU properties run only valid calls.
TEST(ShuffleLaws, generated_scenes_keep_the_mask_contract) {
  gen::expect_law(100000, [](Draw& d) -> LawResult {
    const auto scene = gen::gen_scene(d);
    if (const auto why = model::contract_violation(scene)) return violation(sweeps::scene_text(scene), ": ", *why);
    return {};
  });
}

// --- The GPU against the model ------------------------------------------------------------------------

class ShuffleOnGpu : public check::GpuTest {};

TEST_F(ShuffleOnGpu, agrees_with_the_model_on_random_cases) {
  for (ShuffleOp op : model::kShuffleOps)
    for (Type type : model::kShuffleTypes)
      gen::expect_gpu_agrees_on_random<gpu::ShuffleCalls>(
          [op, type](Draw& d) { return gen::shuffle_case(d, op, type); }, 10000,
          std::string(model::intrinsic_name(op)) + "<" + std::string(model::info(type).cpp) + ">");
}

}  // namespace
}  // namespace wc
