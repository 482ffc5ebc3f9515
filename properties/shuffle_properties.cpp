// Shuffle family, properties: laws of the model that need no GPU, and the GPU against the model on
// random cases over the whole domain. Failures shrink and print a replay command.
#include <gtest/gtest.h>

#include "generators/shuffle_gen.hpp"
#include "model/shuffle.hpp"
#include "sweeps/shuffle_sweep.hpp"
#include "testing/gpu_test.hpp"
#include "testing/property.hpp"

namespace wc {
namespace {

using model::LaneClass;
using model::PerLane;
using model::ShuffleOp;
using model::Type;

using sweeps::uniform;

using model::has_value;

// --- Laws of the model ------------------------------------------------------------------------------

// Law: with width 1 every group is one lane, so shfl, shfl_up and shfl_down give the own value;
// shfl_xor may still read an earlier group ("able to access elements from earlier groups"), never a later one.
TEST(ShuffleLaws, width_one_yields_the_own_value_or_an_earlier_lane_for_xor) {
  testing::check_property([] {
    const auto c = *gen::gen_shuffle_case();
    const auto out = model::shuffle(c.op, c.type, c.scene, c.arg, uniform<int32_t>(1), c.value);
    for (int lane = 0; lane < 32; ++lane) {
      if (out[lane].cls == LaneClass::not_called) continue;
      if (c.op != ShuffleOp::bfly) {
        RC_ASSERT(out[lane].source == lane);
        RC_ASSERT(out[lane].bits == (c.value[lane] & model::value_mask(model::info(c.type).bits)));
      } else {
        const int j = lane ^ (c.arg[lane] & 31);
        RC_ASSERT(out[lane].source == (j < lane ? j : lane));
      }
    }
  }, 2000);
}

// Law: over a full warp, xor with the same laneMask twice is the identity, when the mask stays
// inside the segment (a documented width w and laneMask in [0, w)).
TEST(ShuffleLaws, xor_twice_with_the_same_lane_mask_is_the_identity) {
  testing::check_property([] {
    const int32_t width = *rc::gen::element<int32_t>(1, 2, 4, 8, 16, 32);
    const int32_t lane_mask = *rc::gen::inRange<int32_t>(0, width);
    const Type type = *rc::gen::elementOf(model::kShuffleTypes);
    const auto values = *rc::gen::container<PerLane<uint64_t>>(gen::gen_bits(type));
    const model::Scene full = model::uniform_scene(model::kFullMask);
    const auto once = model::shuffle(ShuffleOp::bfly, type, full, uniform(lane_mask), uniform(width), values);
    PerLane<uint64_t> after_once{};
    for (int lane = 0; lane < 32; ++lane) after_once[lane] = once[lane].bits;
    const auto twice = model::shuffle(ShuffleOp::bfly, type, full, uniform(lane_mask), uniform(width), after_once);
    for (int lane = 0; lane < 32; ++lane) {
      RC_ASSERT(twice[lane].cls == LaneClass::defined);
      RC_ASSERT(twice[lane].bits == values[lane]);
    }
  }, 2000);
}

// Law: PTX reads only b[4:0] and (32 - width) & 31, so adding 32 to the argument or the width
// changes no lane's source (only, perhaps, its class).
TEST(ShuffleLaws, argument_and_width_act_modulo_32) {
  testing::check_property([] {
    const auto c = *gen::gen_shuffle_case();
    PerLane<int32_t> arg_plus = c.arg, width_plus = c.arg2;
    for (int lane = 0; lane < 32; ++lane) {
      arg_plus[lane] = static_cast<int32_t>(static_cast<uint32_t>(c.arg[lane]) + 32u);
      width_plus[lane] = static_cast<int32_t>(static_cast<uint32_t>(c.arg2[lane]) + 32u);
    }
    const auto base = model::shuffle(c.op, c.type, c.scene, c.arg, c.arg2, c.value);
    const auto shifted = model::shuffle(c.op, c.type, c.scene, arg_plus, width_plus, c.value);
    for (int lane = 0; lane < 32; ++lane) {
      RC_ASSERT(base[lane].source == shifted[lane].source);
      RC_ASSERT(has_value(base[lane]) == has_value(shifted[lane]));
      if (has_value(base[lane])) RC_ASSERT(base[lane].bits == shifted[lane].bits);
    }
  }, 2000);
}

// Law: a 64-bit shuffle gives the same result as shuffling its hi and lo words as two u32 calls.
TEST(ShuffleLaws, a_64_bit_shuffle_is_two_32_bit_shuffles) {
  testing::check_property([] {
    const Type type = *rc::gen::element(Type::i64, Type::u64, Type::f64, Type::long_, Type::ulong);
    const auto c = *gen::gen_shuffle_case(*rc::gen::elementOf(model::kShuffleOps), type);
    PerLane<uint64_t> hi{}, lo{};
    for (int lane = 0; lane < 32; ++lane) {
      hi[lane] = c.value[lane] >> 32;
      lo[lane] = c.value[lane] & 0xFFFFFFFFu;
    }
    const auto whole = model::shuffle(c.op, type, c.scene, c.arg, c.arg2, c.value);
    const auto high = model::shuffle(c.op, Type::u32, c.scene, c.arg, c.arg2, hi);
    const auto low = model::shuffle(c.op, Type::u32, c.scene, c.arg, c.arg2, lo);
    for (int lane = 0; lane < 32; ++lane) {
      RC_ASSERT(whole[lane].cls == high[lane].cls);
      if (has_value(whole[lane])) RC_ASSERT(whole[lane].bits == ((high[lane].bits << 32) | low[lane].bits));
    }
  }, 2000);
}

// Law: a lane that makes no call is not-called, and a calling lane only ever reads a lane of its
// own mask, or gets a class that says it may not.
TEST(ShuffleLaws, a_calling_lane_reads_only_lanes_of_its_call) {
  testing::check_property([] {
    const auto c = *gen::gen_shuffle_case();
    const auto out = model::shuffle(c.op, c.type, c.scene, c.arg, c.arg2, c.value);
    const uint32_t calling = model::callers(c.scene);
    for (int lane = 0; lane < 32; ++lane) {
      RC_ASSERT((out[lane].cls == LaneClass::not_called) == !model::has_lane(calling, lane));
      if (has_value(out[lane]))
        RC_ASSERT(model::has_lane(model::participants(c.scene, lane), out[lane].source));
    }
  }, 2000);
}

// Law: the generated scenes keep the mask contract, so the GPU property below runs only valid calls.
TEST(ShuffleLaws, generated_scenes_keep_the_mask_contract) {
  testing::check_property([] {
    const auto scene = *gen::gen_scene();
    const auto violation = model::contract_violation(scene);
    RC_ASSERT(!violation.has_value());
  }, 2000);
}

// --- The GPU against the model ------------------------------------------------------------------------

class ShuffleOnGpu : public testing::GpuTest {};

TEST_F(ShuffleOnGpu, agrees_with_the_model_on_random_cases) {
  testing::LaneTally total;
  gpu::WarpResults results;
  testing::check_property([&] {
    const auto c = *gen::gen_shuffle_case();
    const gpu::ShuffleBatch b = gen::to_batch(c);
    gpu::run(b, results);
    const testing::CheckReport report = testing::check_batch(b, results);
    total.add(report.tally);
    if (report.mismatches != 0)
      RC_FAIL(testing::diff_text(
          report, [&](size_t i, int lane) { return sweeps::describe(b, i, lane); }, sweeps::hex_digits(b.type)));
  }, 2000);
  std::printf("random shuffle cases: %s\n", testing::tally_text(total).c_str());
  EXPECT_GT(total.compared(), 0u) << "no lane was compared";
}

}  // namespace
}  // namespace wc
