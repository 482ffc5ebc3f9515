// Warp patterns, properties: laws of the model on random cases, the GPU against the model on random
// cases of every pattern, operator and type, and each known-bad pattern caught with a shrunk
// counterexample.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "harness/random_check.hpp"
#include "families/pattern/family.hpp"
#include "families/pattern/model.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using gpu::PatternImplementation;
using model::AlgorithmOp;
using model::LaneClass;
using model::PerLane;
using model::Type;
using model::WarpPattern;

// One call of the whole mask, with lanes exited; the scene the laws draw.
model::Scene gen_one_call(Draw& d) { return model::uniform_scene(gen::gen_mask(d), gen::gen_exited(d)); }

PerLane<int32_t> gen_flags(Draw& d) {
  return gen::each_lane<int32_t>(d, [](Draw& dd) { return gen::weighted(dd, {3, 1}) == 0 ? 0 : gen::gen_predicate(dd); });
}

// Law: each lane's segmented result is the reduction, in lane order, of the participants from the
// last head at or below it up to the lane before the next head: reduce over that run as one mask.
TEST(PatternLaws, a_segment_reduces_as_reduce_over_its_lanes) {
  gen::expect_law(20000, [](Draw& d) -> LawResult {
    const AlgorithmOp op = model::kAlgorithmOps[d.below(model::kAlgorithmOps.size())];
    const Type type = model::kAlgorithmTypes[d.below(model::kAlgorithmTypes.size())];
    if (!model::has_op(op, type)) return {};
    const model::Scene scene = gen_one_call(d);
    const PerLane<int32_t> heads = gen_flags(d);
    const auto values = gen::each_lane<uint64_t>(d, [type](Draw& dd) { return gen::gen_bits(dd, type); });
    const auto got = model::warp_pattern(WarpPattern::segmented_reduce, op, type, scene, heads, values);
    const uint32_t p = model::callers(scene);
    uint32_t run = 0;
    for (int lane = 0; lane <= 32; ++lane) {
      const bool ends = lane == 32 || (model::has_lane(p, lane) && heads[lane] != 0 && run != 0);
      if (ends && run != 0) {
        const auto want = model::warp_algorithm(model::WarpAlgorithm::reduce, op, type, model::uniform_scene(run), 32, values);
        for (int k = 0; k < 32; ++k)
          if (model::has_lane(run, k) && (got[k].bits & got[k].care) != (want[k].bits & want[k].care))
            return violation(model::op_name(op), "<", type, "> lane ", k, " of the segment ", sweeps::hex32(run),
                             ": segmented_reduce ", got[k].bits, ", reduce ", want[k].bits);
        run = 0;
      }
      if (lane < 32 && model::has_lane(p, lane)) run |= model::lane_bit(lane);
    }
    return {};
  });
}

// Law: compaction keeps the kept participants' values in lane order in slots 0 .. count - 1 (after
// the mask's first lane), count = popc of the kept participants, and writes no other slot.
TEST(PatternLaws, compaction_keeps_order_and_counts_the_kept) {
  gen::expect_law(20000, [](Draw& d) -> LawResult {
    const model::Scene scene = gen_one_call(d);
    const PerLane<int32_t> keep = gen_flags(d);
    const auto values = gen::each_lane<uint64_t>(d, [](Draw& dd) { return gen::gen_bits(dd, Type::u32); });
    const auto got = model::warp_pattern(WarpPattern::compact, AlgorithmOp::sum, Type::u32, scene, keep, values);
    const uint32_t p = model::callers(scene);
    if (p == 0) return {};
    const int first = __builtin_ctz(scene.mask[__builtin_ctz(p)]);
    int slot = first;
    for (int lane = 0; lane < 32; ++lane) {
      if (!model::has_lane(p, lane) || keep[lane] == 0) continue;
      if (got[slot].cls != LaneClass::defined || got[slot].bits != values[lane])
        return violation("mask ", sweeps::hex32(scene.mask[lane]), " exited ", sweeps::hex32(scene.exited), ": slot ",
                         slot - first, " should hold lane ", lane, "'s value");
      ++slot;
    }
    for (int output = 0; output < 32; ++output)
      if ((output < first || output >= slot) && got[output].cls != LaneClass::not_called)
        return violation("output ", output, " lies past the count, yet is written");
    for (int lane = 0; lane < 32; ++lane)
      if (model::has_lane(p, lane) && got[32 + lane].bits != static_cast<uint64_t>(slot - first))
        return violation("lane ", lane, " counts ", got[32 + lane].bits, ", not ", slot - first);
    return {};
  });
}

// Law: the bins of one call add up to its participants, each bin to the participants holding it.
TEST(PatternLaws, histogram_bins_sum_to_the_participants) {
  gen::expect_law(20000, [](Draw& d) -> LawResult {
    const model::Scene scene = gen_one_call(d);
    const auto bins = gen::each_lane<int32_t>(d, [](Draw& dd) { return static_cast<int32_t>(dd.below(32)); });
    const auto got = model::warp_pattern(WarpPattern::histogram, AlgorithmOp::sum, Type::i32, scene, bins, {});
    const uint32_t p = model::callers(scene);
    uint64_t total = 0;
    for (int bin = 0; bin < 32; ++bin) {
      int holders = 0;
      for (int lane = 0; lane < 32; ++lane) holders += model::has_lane(p, lane) && bins[lane] == bin;
      const uint64_t count = got[bin].cls == LaneClass::not_called ? 0 : got[bin].bits;
      if (count != static_cast<uint64_t>(holders)) return violation("bin ", bin, " counts ", count, ", held by ", holders);
      total += count;
    }
    if (total != static_cast<uint64_t>(__builtin_popcount(p))) return violation("bins sum to ", total);
    return {};
  });
}

// Law: argmax's value is no less than any participant's (a NaN only where the first participant
// holds it), and its lane is the lowest participant holding the value's bits.
TEST(PatternLaws, argmax_is_no_less_than_any_participant_and_names_its_lowest_lane) {
  gen::expect_law(20000, [](Draw& d) -> LawResult {
    const Type type = model::kAlgorithmTypes[d.below(model::kAlgorithmTypes.size())];
    const model::Scene scene = gen_one_call(d);
    const auto values = gen::each_lane<uint64_t>(d, [type](Draw& dd) { return gen::gen_bits(dd, type); });
    const auto got = model::warp_pattern(WarpPattern::argmax, AlgorithmOp::sum, type, scene, {}, values);
    const uint32_t p = model::callers(scene);
    for (int lane = 0; lane < 32; ++lane) {
      if (!model::has_lane(p, lane)) continue;
      const uint64_t max = got[lane].bits;
      const int holder = static_cast<int>(got[32 + lane].bits);
      const bool nan = model::is_floating(type) && std::isnan(model::floating_value(type, max));
      if (nan && holder != __builtin_ctz(p)) return violation(type, " lane ", lane, ": a NaN maximum from lane ", holder);
      if (!model::has_lane(p, holder) || values[holder] != max)
        return violation(type, " lane ", lane, ": lane ", holder, " does not hold the maximum");
      for (int k = 0; k < 32; ++k) {
        if (!model::has_lane(p, k)) continue;
        if (k < holder && values[k] == max) return violation(type, " lane ", k, " below ", holder, " holds the maximum");
        if (model::apply(AlgorithmOp::max, type, max, values[k]) != max)
          return violation(type, " lane ", k, " holds more than the maximum ", model::format_value(type, max));
      }
    }
    return {};
  });
}

class PatternOnGpu : public check::GpuTest {};

TEST_F(PatternOnGpu, agrees_with_the_model_on_random_cases) {
  for (WarpPattern pattern : model::kWarpPatterns)
    for (Type type : model::pattern_types(pattern))
      for (AlgorithmOp op : model::kAlgorithmOps) {
        if (!model::has_op(op, type) || (!model::takes_operator(pattern) && op != AlgorithmOp::sum)) continue;
        const gpu::PatternSpec spec{pattern, op, PatternImplementation::seam};
        gen::expect_gpu_agrees_on_random<gpu::PatternCalls>(
            [spec, type](Draw& d) { return gen::pattern_case(d, spec, type); }, 4000,
            gpu::pattern_text(spec) + "<" + std::string(model::info(type).cpp) + ">");
      }
}

// A mistake found in real code, the pattern it claims to be, and the type it runs on.
struct KnownBadPattern {
  PatternImplementation implementation;
  WarpPattern claims;
  AlgorithmOp op;
  Type type;
};

const KnownBadPattern kKnownBad[] = {
    {PatternImplementation::segmented_butterfly, WarpPattern::segmented_reduce, AlgorithmOp::sum, Type::i32},
    {PatternImplementation::argmax_highest_lane, WarpPattern::argmax, AlgorithmOp::sum, Type::f32},
    {PatternImplementation::histogram_every_lane, WarpPattern::histogram, AlgorithmOp::sum, Type::i32},
};

class PatternKnownBadOnGpu : public check::GpuTest {};

TEST_F(PatternKnownBadOnGpu, each_is_caught_with_a_shrunk_counterexample) {
  for (const KnownBadPattern& bad : kKnownBad) {
    const gpu::PatternSpec spec{bad.claims, bad.op, bad.implementation};
    gen::expect_gpu_catches_on_random<gpu::PatternCalls>(
        [spec, bad](Draw& d) { return gen::pattern_case(d, spec, bad.type); }, 20000,
        gpu::pattern_text(spec) + "<" + std::string(model::info(bad.type).cpp) + ">");
  }
}

}  // namespace
}  // namespace wc
