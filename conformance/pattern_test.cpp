// Warp patterns, deterministic: examples worked out by hand from docs/algorithms.md ("Warp
// patterns"), in the model and on the GPU; the model's rules for outputs no call or several calls
// write; the comparison wired to cases of 64 outputs; then the sweep of every pattern, operator and
// type over the structured scenes and aligned groups, and partial and 2D/3D warps.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "core/seed.hpp"
#include "families/algorithm/family.hpp"
#include "families/pattern/family.hpp"
#include "families/pattern/model.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using model::AlgorithmOp;
using model::LaneClass;
using model::PerLane;
using model::Type;
using model::WarpPattern;
using sweeps::bits_of;
using sweeps::uniform;

struct PatternExample {
  std::string claim;
  WarpPattern pattern;
  AlgorithmOp op;
  Type type;
  uint32_t mask, exited;
  PerLane<int32_t> flags;  // heads, keep flags or bins
  PerLane<uint64_t> values;
  std::vector<std::pair<int, uint64_t>> outputs;  // output index, and the value it must hold
};

// Lane L holds first + L * step, as a value of the type.
PerLane<uint64_t> lane_numbers(Type type, double first, double step) {
  PerLane<uint64_t> row{};
  for (int lane = 0; lane < 32; ++lane) row[lane] = bits_of(type, first + lane * step);
  return row;
}

// Every lane holds `rest`, but the lanes listed.
template <class T>
PerLane<T> row_with(T rest, std::vector<std::pair<int, T>> lanes) {
  PerLane<T> row = uniform(rest);
  for (const auto& [lane, v] : lanes) row[lane] = v;
  return row;
}

PerLane<int32_t> flags_where(bool (*on)(int)) {
  PerLane<int32_t> row{};
  for (int lane = 0; lane < 32; ++lane) row[lane] = on(lane) ? 1 : 0;
  return row;
}

PerLane<int32_t> bins_of(int (*bin)(int)) {
  PerLane<int32_t> row{};
  for (int lane = 0; lane < 32; ++lane) row[lane] = bin(lane);
  return row;
}

std::vector<PatternExample> examples() {
  const auto one_to_32 = lane_numbers(Type::i32, 1, 1);
  const auto none = uniform<int32_t>(0);
  const auto sum = AlgorithmOp::sum, max = AlgorithmOp::max;
  const auto seg = WarpPattern::segmented_reduce, compact = WarpPattern::compact;
  const auto histogram = WarpPattern::histogram, argmax = WarpPattern::argmax;
  const uint64_t f32_one = 0x3F800000, f32_nan = 0x7FC00000;
  return {
      {"heads at 4 and 10 split 1..32 into 1+..+4, 5+..+10 and 11+..+32", seg, sum, Type::i32, 0xFFFFFFFF, 0,
       row_with<int32_t>(0, {{4, 1}, {10, 1}}), one_to_32, {{0, 10}, {3, 10}, {4, 45}, {9, 45}, {10, 473}, {31, 473}}},
      {"the mask's first participant starts a segment without a head: lanes 8-15 sum 9+..+16", seg, sum, Type::i32,
       0x0000FF00, 0, none, one_to_32, {{8, 100}, {15, 100}}},
      {"a head on an exited lane starts nothing, and the exited lane adds nothing: 528 - 3", seg, sum, Type::i32,
       0xFFFFFFFF, 0x00000004, row_with<int32_t>(0, {{2, 1}}), one_to_32, {{0, 525}, {3, 525}, {31, 525}}},
      {"a segment folds in ascending lane order: half 2048 + 1 + 1 + 1 stays 2048", seg, sum, Type::f16, 0x0000000F, 0,
       none, row_with<uint64_t>(0, {{0, 0x6800}, {1, 0x3C00}, {2, 0x3C00}, {3, 0x3C00}}), {{0, 0x6800}, {3, 0x6800}}},
      {"... and a head at lane 1 gives 2048 and 1 + 1 + 1 = 3", seg, sum, Type::f16, 0x0000000F, 0,
       row_with<int32_t>(0, {{1, 1}}), row_with<uint64_t>(0, {{0, 0x6800}, {1, 0x3C00}, {2, 0x3C00}, {3, 0x3C00}}),
       {{0, 0x6800}, {1, 0x4200}, {3, 0x4200}}},
      {"a head on every lane leaves each lane its own value, any non-zero int a head", seg, max, Type::i32, 0xFFFFFFFF,
       0, uniform<int32_t>(-7), lane_numbers(Type::i32, -1, -1), {{0, 0xFFFFFFFF}, {5, 0xFFFFFFFA}, {31, 0xFFFFFFE0}}},
      {"compact keeps the odd lanes' 100 + lane in lane order; every lane gets the count 16", compact, sum, Type::i32,
       0xFFFFFFFF, 0, flags_where([](int lane) { return lane % 2 == 1; }), lane_numbers(Type::i32, 100, 1),
       {{0, 101}, {1, 103}, {15, 131}, {32, 16}, {63, 16}}},
      {"compact of lane 31 alone fills slot 0 and counts 1", compact, sum, Type::f64, 0xFFFFFFFF, 0,
       flags_where([](int lane) { return lane == 31; }), lane_numbers(Type::f64, 0.5, 1), {{0, bits_of(Type::f64, 31.5)}, {32, 1}, {40, 1}}},
      {"compact over the upper half stores slot s at output 16 + s, after its mask's first lane", compact, sum,
       Type::u32, 0xFFFF0000, 0, uniform<int32_t>(1), lane_numbers(Type::u32, 0, 1),
       {{16, 16}, {17, 17}, {31, 31}, {48, 16}, {63, 16}}},
      {"compact that keeps nothing stores nothing and counts 0", compact, sum, Type::i32, 0xFFFFFFFF, 0, none,
       one_to_32, {{32, 0}, {63, 0}}},
      {"histogram of lane % 4 puts 8 in each of bins 0-3", histogram, sum, Type::i32, 0xFFFFFFFF, 0,
       bins_of([](int lane) { return lane % 4; }), {}, {{0, 8}, {1, 8}, {2, 8}, {3, 8}}},
      {"histogram of one bin for all 32 lanes puts 32 in it", histogram, sum, Type::i32, 0xFFFFFFFF, 0,
       uniform<int32_t>(7), {}, {{7, 32}}},
      {"histogram over lanes 0-3 holding bins 5, 5, 9, 5 gives bin 5 three and bin 9 one", histogram, sum, Type::i32,
       0x0000000F, 0, row_with<int32_t>(0, {{0, 5}, {1, 5}, {2, 9}, {3, 5}}), {}, {{5, 3}, {9, 1}}},
      {"histogram leaves out exited lanes: lanes 0-7 of lane / 4 give bins 0 and 1 four each", histogram, sum,
       Type::i32, 0xFFFFFFFF, 0xFFFFFF00, bins_of([](int lane) { return lane / 4; }), {}, {{0, 4}, {1, 4}}},
      {"argmax of a maximum 9 at lanes 5 and 20 names lane 5, the lower", argmax, sum, Type::i32, 0xFFFFFFFF, 0, none,
       row_with<uint64_t>(2, {{5, 9}, {20, 9}}), {{0, 9}, {31, 9}, {32, 5}, {63, 5}}},
      {"argmax keeps the first of equal zeros: -0 at lane 1 before +0 at lane 3", argmax, sum, Type::f32, 0xFFFFFFFF, 0,
       none, row_with<uint64_t>(0xBF800000, {{1, 0x80000000}, {3, 0}}), {{0, 0x80000000}, {32, 1}, {50, 1}}},
      {"argmax's max keeps a NaN in the first participant: NaN < x is false", argmax, sum, Type::f32, 0xFFFFFFFF, 0,
       none, row_with<uint64_t>(f32_one, {{0, f32_nan}, {3, 0x40A00000}}), {{7, f32_nan}, {39, 0}}},
      {"... and passes over a NaN elsewhere: 7 at lane 4", argmax, sum, Type::f32, 0xFFFFFFFF, 0, none,
       row_with<uint64_t>(f32_one, {{2, f32_nan}, {4, 0x40E00000}}), {{0, 0x40E00000}, {32, 4}}},
      {"argmax leaves out exited lanes: 100 at exited lane 5, 50 at lane 6", argmax, sum, Type::i64, 0x000000F0,
       0x00000020, none, row_with<uint64_t>(1, {{5, 100}, {6, 50}}), {{4, 50}, {7, 50}, {36, 6}, {39, 6}}},
  };
}

std::string example_text(const PatternExample& ex) {
  return "docs/algorithms.md: " + ex.claim + " (" + std::string(model::op_name(ex.pattern)) + "<" +
         std::string(model::info(ex.type).cpp) + ">)";
}

std::vector<model::LaneOutcome> model_of(const PatternExample& ex) {
  return model::warp_pattern(ex.pattern, ex.op, ex.type, model::uniform_scene(ex.mask, ex.exited), ex.flags, ex.values);
}

TEST(PatternDocumentedModel, gives_the_documented_result) {
  for (const PatternExample& ex : examples()) {
    const auto out = model_of(ex);
    ASSERT_EQ(out.size(), static_cast<size_t>(model::pattern_outputs(ex.pattern)));
    for (const auto& [output, want] : ex.outputs) {
      EXPECT_EQ(out[output].cls, LaneClass::defined) << example_text(ex) << ", output " << output;
      EXPECT_EQ(out[output].bits, want) << example_text(ex) << ", output " << output;
    }
  }
}

TEST(PatternModel, leaves_compacts_slots_past_the_count_unwritten) {
  const PatternExample ex = examples()[6];  // the odd lanes: 16 kept
  const auto out = model_of(ex);
  for (int slot = 0; slot < 32; ++slot) {
    EXPECT_EQ(out[slot].cls, slot < 16 ? LaneClass::defined : LaneClass::not_called) << "slot " << slot;
    EXPECT_EQ(out[slot].rule->id, slot < 16 ? "pattern.compact.slot" : "pattern.compact.unwritten");
  }
}

TEST(PatternModel, leaves_bins_no_participant_holds_unwritten) {
  const auto out = model_of(examples()[12]);  // bins 5 and 9
  for (int bin = 0; bin < 32; ++bin)
    EXPECT_EQ(out[bin].cls, bin == 5 || bin == 9 ? LaneClass::defined : LaneClass::not_called) << "bin " << bin;
}

TEST(PatternModel, leaves_an_output_two_calls_write_undefined) {
  // Alternating groups compact everything: the even lanes' slots start at output 0, the odd lanes' at 1.
  const model::Scene alternating = model::group_scene({0x55555555, 0xAAAAAAAA});
  const auto out = model::warp_pattern(WarpPattern::compact, AlgorithmOp::sum, Type::i32, alternating,
                                       uniform<int32_t>(1), lane_numbers(Type::i32, 0, 1));
  EXPECT_EQ(out[0].cls, LaneClass::defined);
  EXPECT_EQ(out[0].bits, 0u);
  for (int output = 1; output < 16; ++output) {
    EXPECT_EQ(out[output].cls, LaneClass::undefined) << "output " << output;
    EXPECT_EQ(out[output].rule->id, "pattern.two-calls");
  }
  EXPECT_EQ(out[16].cls, LaneClass::defined);
  EXPECT_EQ(out[16].bits, 31u) << "the odd lanes' slot 15: lane 31";
  // Both halves hold bin 3: each half's lowest lane adds 16 there.
  const auto bins = model::warp_pattern(WarpPattern::histogram, AlgorithmOp::sum, Type::i32,
                                        model::group_scene({0x0000FFFF, 0xFFFF0000}), uniform<int32_t>(3), {});
  EXPECT_EQ(bins[3].cls, LaneClass::undefined);
  EXPECT_EQ(bins[3].rule->id, "pattern.histogram.two-calls");
}

TEST(PatternModel, makes_results_of_a_call_from_both_arms_ptx_defined) {
  model::Scene both_arms = model::uniform_scene(model::kFullMask);
  both_arms.else_arm = 0xAAAAAAAA;
  for (WarpPattern pattern : model::kWarpPatterns) {
    const auto out = model::warp_pattern(pattern, AlgorithmOp::sum, Type::i32, both_arms, uniform<int32_t>(1),
                                         lane_numbers(Type::i32, 1, 1));
    for (size_t output = 0; output < out.size(); ++output) {
      if (out[output].cls == LaneClass::not_called) continue;
      EXPECT_EQ(out[output].cls, LaneClass::ptx_defined) << model::op_name(pattern) << " output " << output;
    }
  }
}

TEST(PatternModel, refuses_bins_outside_the_histogram) {
  EXPECT_THROW(model::warp_pattern(WarpPattern::histogram, AlgorithmOp::sum, Type::i32,
                                   model::uniform_scene(model::kFullMask), uniform<int32_t>(32), {}),
               std::invalid_argument);
}

TEST(PatternModel, fixes_only_quietness_of_a_nan_a_segments_sum_makes) {
  const auto out = model::warp_pattern(WarpPattern::segmented_reduce, AlgorithmOp::sum, Type::f32,
                                       model::uniform_scene(0x3), uniform<int32_t>(0),
                                       row_with<uint64_t>(0, {{0, 0x7F800000}, {1, 0xFF800000}}));
  EXPECT_EQ(out[0].care, 0x7FC00000u) << "+inf + -inf";
  const auto alone = model::warp_pattern(WarpPattern::segmented_reduce, AlgorithmOp::sum, Type::f32,
                                         model::uniform_scene(0x1), uniform<int32_t>(0), uniform<uint64_t>(0x7FC00001));
  EXPECT_EQ(alone[0].care, ~uint64_t{0}) << "a segment of one NaN adds nothing: every bit is its own";
}

// Results as a perfect GPU would write them for `b`, straight from the model, `outputs` a case.
void write_model_results(const gpu::PatternBatch& b, gpu::WarpResults& out) {
  out.cases = b.cases.size();
  out.outputs = static_cast<size_t>(model::pattern_outputs(b.op.pattern));
  out.bits.resize(out.cases * out.outputs);
  out.wrote.resize(out.cases * out.outputs);
  for (size_t c = 0; c < out.cases; ++c) {
    const auto want = gpu::outcome(b, c);
    for (size_t i = 0; i < out.outputs; ++i) {
      const bool written = want[i].cls != LaneClass::not_called;
      out.bits[c * out.outputs + i] = !written ? gpu::kSentinel : want[i].cls == LaneClass::undefined ? 0 : want[i].bits;
      out.wrote[c * out.outputs + i] = written ? 1 : 0;
    }
  }
}

// The comparison reads every output of a 64-output case: a wrong count and a write past the count
// are each caught at their output, with a repro that shows that output.
TEST(PatternHarness, checks_every_output_of_a_compaction) {
  const gpu::PatternBatch b = sweeps::pattern_batch({WarpPattern::compact}, Type::f32);
  gpu::WarpResults results;
  write_model_results(b, results);
  ASSERT_TRUE(gen::check_batch(b, results).report.clean());
  // A case with a count and a slot past it: lanes call, and not every lane keeps its value.
  size_t c = 0, count = 0, unwritten = 0;
  for (; c < b.cases.size(); ++c) {
    const auto want = gpu::outcome(b, c);
    for (count = 32; count < 64 && !model::has_value(want[count]);) ++count;
    for (unwritten = 0; unwritten < 32 && want[unwritten].cls != LaneClass::not_called;) ++unwritten;
    if (count < 64 && unwritten < 32) break;
  }
  ASSERT_LT(c, b.cases.size());
  results.bits[c * 64 + count] += 1;
  const check::CheckReport wrong_count = gen::check_batch(b, results).report;
  ASSERT_EQ(wrong_count.bad_lanes(), 1u);
  EXPECT_EQ(wrong_count.first->lane, static_cast<int>(count));
  const std::string diff = check::diff_text(
      wrong_count, [&](size_t i, int output) { return gpu::describe(b, i, output); }, 8);
  EXPECT_NE(diff.find("explain compact --mask"), std::string::npos) << diff;
  EXPECT_NE(diff.find("--show counts"), std::string::npos) << diff;
  results.bits[c * 64 + count] -= 1;
  results.wrote[c * 64 + unwritten] = 1;
  const check::CheckReport stray = gen::check_batch(b, results).report;
  ASSERT_EQ(stray.bad_lanes(), 1u);
  EXPECT_EQ(stray.first->lane, static_cast<int>(unwritten));
  EXPECT_EQ(stray.first->want.rule->id, "pattern.compact.unwritten");
}

// The kernels' add accumulates, so a histogram whose every lane adds its group's count (the known-bad
// histogram_every_lane) leaves g * g in the bin of a group of g lanes: the comparison reports that bin.
TEST(PatternHarness, catches_a_histogram_that_adds_too_often) {
  const gpu::PatternBatch b = sweeps::pattern_batch({WarpPattern::histogram}, Type::i32);
  gpu::WarpResults results;
  write_model_results(b, results);
  ASSERT_TRUE(gen::check_batch(b, results).report.clean());
  // A case with a bin that one group of several lanes adds to.
  size_t c = 0;
  int bin = 0;
  for (; c < b.cases.size(); ++c) {
    const auto want = gpu::outcome(b, c);
    for (bin = 0; bin < 32 && !(want[bin].cls == LaneClass::defined && want[bin].bits > 1);) ++bin;
    if (bin < 32) break;
  }
  ASSERT_LT(c, b.cases.size());
  uint64_t& count = results.bits[c * 32 + bin];
  count *= count;
  const check::CheckReport over = gen::check_batch(b, results).report;
  ASSERT_EQ(over.bad_lanes(), 1u);
  EXPECT_EQ(over.wrong_values, 1u);
  EXPECT_EQ(over.first->case_index, c);
  EXPECT_EQ(over.first->lane, bin);
  EXPECT_EQ(over.first->want.rule->id, "pattern.histogram.bin");
}

class PatternDocumentedOnGpu : public check::GpuTest {};

TEST_F(PatternDocumentedOnGpu, gives_the_documented_result) {
  constexpr model::Rule kDocumented{"doc.example", "the example's documented value, written out in the test"};
  constexpr model::Rule kOther{"doc.other-output", "an output the example says nothing of: checked written or unwritten as the model says"};
  for (const PatternExample& ex : examples()) {
    gpu::PatternBatch b;
    b.op = {ex.pattern, ex.op, gpu::PatternImplementation::seam};
    b.type = ex.type;
    b.scenes = {model::uniform_scene(ex.mask, ex.exited)};
    auto& t = b.tables;
    t.flag = {ex.flags};
    t.value = {ex.values};
    b.cases = {{}};
    b.scenario = {"documented example", example_text(ex)};
    gpu::WarpResults results;
    if (!sweeps::run_or_record_error(b, results)) continue;
    // The documented outputs hold the values written out above; the others are only held to be
    // written or not, as the model's classes say.
    std::vector<model::LaneOutcome> want = model_of(ex);
    for (model::LaneOutcome& o : want) {
      if (o.cls == LaneClass::not_called) continue;
      o = model::LaneOutcome{};
      o.cls = LaneClass::undefined;
      o.rule = &kOther;
    }
    for (const auto& [output, value] : ex.outputs) {
      want[output] = model::LaneOutcome{};
      want[output].cls = LaneClass::defined;
      want[output].rule = &kDocumented;
      want[output].bits = value;
    }
    const check::CheckReport report = check::check_all(results, [&](size_t) { return want; });
    check::expect_agrees(
        report, [&](size_t, int) { return check::CaseText{example_text(ex), check::rerun_command()}; },
        gpu::result_digits(b), gpu::check_info(b));
  }
}

struct PatternParam {
  WarpPattern pattern;
  AlgorithmOp op;
  Type type;
};

std::string param_name(const PatternParam& p) {
  std::string name(model::op_name(p.pattern));
  if (model::takes_operator(p.pattern)) name += "_" + std::string(model::op_name(p.op));
  return name + "_" + std::string(model::info(p.type).name);
}

std::ostream& operator<<(std::ostream& os, const PatternParam& p) { return os << param_name(p); }

std::vector<PatternParam> every_pattern_op_and_type() {
  std::vector<PatternParam> out;
  for (WarpPattern pattern : model::kWarpPatterns)
    for (Type type : model::pattern_types(pattern)) {
      if (!model::takes_operator(pattern)) {
        out.push_back({pattern, AlgorithmOp::sum, type});
        continue;
      }
      for (AlgorithmOp op : model::kAlgorithmOps)
        if (model::has_op(op, type)) out.push_back({pattern, op, type});
    }
  return out;
}

class PatternSweepOnGpu : public check::GpuTest, public ::testing::WithParamInterface<PatternParam> {};

TEST_P(PatternSweepOnGpu, agrees_with_the_model) {
  const PatternParam p = GetParam();
  sweeps::expect_gpu_agrees(sweeps::pattern_batch({p.pattern, p.op, gpu::PatternImplementation::seam}, p.type));
}

INSTANTIATE_TEST_SUITE_P(Every, PatternSweepOnGpu, ::testing::ValuesIn(every_pattern_op_and_type()),
                         [](const auto& info) { return param_name(info.param); });

class PatternBlockShapesOnGpu : public check::GpuTest, public ::testing::WithParamInterface<gpu::LaunchShape> {};

TEST_P(PatternBlockShapesOnGpu, agree_with_the_model) {
  for (WarpPattern pattern : model::kWarpPatterns)
    for (Type type : {Type::i32, Type::f16})
      if (pattern != WarpPattern::histogram || type == Type::i32)
        sweeps::expect_gpu_agrees(sweeps::with_block(
            sweeps::pattern_batch({pattern, AlgorithmOp::min, gpu::PatternImplementation::seam}, type), GetParam()));
}

INSTANTIATE_TEST_SUITE_P(DivergenceShapes, PatternBlockShapesOnGpu, ::testing::ValuesIn(sweeps::divergence_shapes()),
                         [](const auto& info) { return sweeps::shape_text(info.param); });

}  // namespace
}  // namespace wc
