// Shuffle family, deterministic: the documented examples (model and GPU against literal tables),
// the model's class rules, and the exhaustive sweep of the GPU against the model.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/compare.hpp"
#include "families/shuffle/family.hpp"
#include "families/shuffle/model.hpp"
#include "harness/documented.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"
#include "harness/op_table.hpp"
#include "harness/params.hpp"

namespace wc {
namespace {

using model::LaneClass;
using model::PerLane;
using model::ShuffleOp;
using model::Type;

using sweeps::uniform;

TEST(ShuffleOpTable, has_one_row_per_op_each_with_its_probe_and_explain_entry) {
  check::expect_complete_op_table<families::shuffle::Family>(model::kShuffleOpRows);
}

// A documented call over the full warp, with the source lane each lane must read, written out.
struct DocumentedExample {
  const char* claim;
  ShuffleOp op;
  PerLane<int32_t> arg;
  int32_t width;
  PerLane<int> source;
};

const std::vector<DocumentedExample>& documented_examples() {
  static const std::vector<DocumentedExample> table = {
    {"PG13 5.4.6.5: __shfl_sync(0xffffffff, v, 2, 16) reads lane 2 in lanes 0-15, lane 18 in 16-31",
     ShuffleOp::idx, uniform(2), 16,
     { 2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2,
      18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18, 18}},
    {"PG13 broadcast: __shfl_sync(0xffffffff, v, 0) reads lane 0 everywhere",
     ShuffleOp::idx, uniform(0), 32,
     { 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
       0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0}},
    {"PG13: __shfl_up_sync(0xffffffff, v, 1, 32): the lowest lane of each 32 keeps its own",
     ShuffleOp::up, uniform(1), 32,
     { 0,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14,
      15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30}},
    {"PG13: __shfl_down_sync(0xffffffff, v, 1, 32): the highest lane of each 32 keeps its own",
     ShuffleOp::down, uniform(1), 32,
     { 1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,
      17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 31}},
    {"PG13: __shfl_up_sync(0xffffffff, v, 1, 16): the lowest lane of each 16 keeps its own",
     ShuffleOp::up, uniform(1), 16,
     { 0,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14,
      16, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30}},
    {"PG13: __shfl_down_sync(0xffffffff, v, 1, 16): the highest lane of each 16 keeps its own",
     ShuffleOp::down, uniform(1), 16,
     { 1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 15,
      17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 31}},
    {"PG13: __shfl_up_sync(0xffffffff, v, 1, 8): the lowest lane of each 8 keeps its own",
     ShuffleOp::up, uniform(1), 8,
     { 0,  0,  1,  2,  3,  4,  5,  6,  8,  8,  9, 10, 11, 12, 13, 14,
      16, 16, 17, 18, 19, 20, 21, 22, 24, 24, 25, 26, 27, 28, 29, 30}},
    {"PG13: __shfl_down_sync(0xffffffff, v, 1, 8): the highest lane of each 8 keeps its own",
     ShuffleOp::down, uniform(1), 8,
     { 1,  2,  3,  4,  5,  6,  7,  7,  9, 10, 11, 12, 13, 14, 15, 15,
      17, 18, 19, 20, 21, 22, 23, 23, 25, 26, 27, 28, 29, 30, 31, 31}},
    {"PG13 scan over 8: __shfl_up_sync(0xffffffff, v, 2, 8): the lower 2 lanes of each 8 keep their own",
     ShuffleOp::up, uniform(2), 8,
     { 0,  1,  0,  1,  2,  3,  4,  5,  8,  9,  8,  9, 10, 11, 12, 13,
      16, 17, 16, 17, 18, 19, 20, 21, 24, 25, 24, 25, 26, 27, 28, 29}},
    {"PG13 scan over 8: __shfl_up_sync(0xffffffff, v, 4, 8): the lower 4 lanes of each 8 keep their own",
     ShuffleOp::up, uniform(4), 8,
     { 0,  1,  2,  3,  0,  1,  2,  3,  8,  9, 10, 11,  8,  9, 10, 11,
      16, 17, 18, 19, 16, 17, 18, 19, 24, 25, 26, 27, 24, 25, 26, 27}},
    {"PG13 butterfly reduction: __shfl_xor_sync(0xffffffff, v, 16, 32) reads lane ^ 16",
     ShuffleOp::bfly, uniform(16), 32,
     {16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
       0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15}},
    {"PG13 butterfly reduction: __shfl_xor_sync(0xffffffff, v, 8, 32) reads lane ^ 8",
     ShuffleOp::bfly, uniform(8), 32,
     { 8,  9, 10, 11, 12, 13, 14, 15,  0,  1,  2,  3,  4,  5,  6,  7,
      24, 25, 26, 27, 28, 29, 30, 31, 16, 17, 18, 19, 20, 21, 22, 23}},
    {"PG13 butterfly reduction: __shfl_xor_sync(0xffffffff, v, 4, 32) reads lane ^ 4",
     ShuffleOp::bfly, uniform(4), 32,
     { 4,  5,  6,  7,  0,  1,  2,  3, 12, 13, 14, 15,  8,  9, 10, 11,
      20, 21, 22, 23, 16, 17, 18, 19, 28, 29, 30, 31, 24, 25, 26, 27}},
    {"PG13 butterfly reduction: __shfl_xor_sync(0xffffffff, v, 2, 32) reads lane ^ 2",
     ShuffleOp::bfly, uniform(2), 32,
     { 2,  3,  0,  1,  6,  7,  4,  5, 10, 11,  8,  9, 14, 15, 12, 13,
      18, 19, 16, 17, 22, 23, 20, 21, 26, 27, 24, 25, 30, 31, 28, 29}},
    {"PG13 butterfly reduction: __shfl_xor_sync(0xffffffff, v, 1, 32) reads lane ^ 1",
     ShuffleOp::bfly, uniform(1), 32,
     { 1,  0,  3,  2,  5,  4,  7,  6,  9,  8, 11, 10, 13, 12, 15, 14,
      17, 16, 19, 18, 21, 20, 23, 22, 25, 24, 27, 26, 29, 28, 31, 30}},
    {"spec 3.5: down(v, 33) acts as delta 1; lane 31 keeps its own",
     ShuffleOp::down, uniform(33), 32,
     { 1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,
      17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 31}},
    {"spec 3.5: down(v, 32) keeps every lane's own",
     ShuffleOp::down, uniform(32), 32,
     { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15,
      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}},
    {"spec 3.5: up(v, 33) acts as delta 1; lane 0 keeps its own",
     ShuffleOp::up, uniform(33), 32,
     { 0,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14,
      15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30}},
    {"spec 3.5: xor(v, 33) reads lane ^ 1",
     ShuffleOp::bfly, uniform(33), 32,
     { 1,  0,  3,  2,  5,  4,  7,  6,  9,  8, 11, 10, 13, 12, 15, 14,
      17, 16, 19, 18, 21, 20, 23, 22, 25, 24, 27, 26, 29, 28, 31, 30}},
    {"spec 3.5: xor(v, -1, 64) reads lane ^ 31",
     ShuffleOp::bfly, uniform(-1), 64,
     {31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
      15, 14, 13, 12, 11, 10,  9,  8,  7,  6,  5,  4,  3,  2,  1,  0}},
    {"spec 3.5: shfl(v, -1, 24): lanes with bit 3 clear read 23, set read 31",
     ShuffleOp::idx, uniform(-1), 24,
     {23, 23, 23, 23, 23, 23, 23, 23, 31, 31, 31, 31, 31, 31, 31, 31,
      23, 23, 23, 23, 23, 23, 23, 23, 31, 31, 31, 31, 31, 31, 31, 31}},
    {"spec 3.5: shfl(v, 5, 48) acts as width 16: lanes 0-15 read 5, 16-31 read 21",
     ShuffleOp::idx, uniform(5), 48,
     { 5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,
      21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21}},
    {"spec 3.5: down(v, 1, 0) acts as width 32",
     ShuffleOp::down, uniform(1), 0,
     { 1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,
      17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 31}},
    {"spec 3.5: up(v, 2, 24): lanes 0, 1, 8, 9 keep their own; 16, 17 read 14, 15",
     ShuffleOp::up, uniform(2), 24,
     { 0,  1,  0,  1,  2,  3,  4,  5,  8,  9,  8,  9, 10, 11, 12, 13,
      14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29}},
    {"spec 3.5: down(v, 3, 12): lanes 9-11, 13-15 (and +16) keep their own",
     ShuffleOp::down, uniform(3), 12,
     { 3,  4,  5,  6,  7,  8,  9, 10, 11,  9, 10, 11, 15, 13, 14, 15,
      19, 20, 21, 22, 23, 24, 25, 26, 27, 25, 26, 27, 31, 29, 30, 31}},
    {"spec 3.5: xor(v, 8, 8): lanes 8-15 read 0-7 (earlier group), lanes 0-7 keep their own",
     ShuffleOp::bfly, uniform(8), 8,
     { 0,  1,  2,  3,  4,  5,  6,  7,  0,  1,  2,  3,  4,  5,  6,  7,
      16, 17, 18, 19, 20, 21, 22, 23, 16, 17, 18, 19, 20, 21, 22, 23}},
    {"spec 3.5: shfl(v, 37, 16) reads 5 and 21",
     ShuffleOp::idx, uniform(37), 16,
     { 5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,  5,
      21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21, 21}},
    {"spec 3.5: shfl(v, lane + 40, 8) reads the own lane",
     ShuffleOp::idx, {40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71}, 8,
     { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15,
      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}},
    {"spec 3.5: up(v, 1, 1) keeps every lane's own",
     ShuffleOp::up, uniform(1), 1,
     { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15,
      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}},
    {"PG13 xor: 'each group of width consecutive threads are able to access elements from earlier groups': "
     "xor(v, 1, 1) reads lane - 1 in odd lanes, own in even lanes",
     ShuffleOp::bfly, uniform(1), 1,
     { 0,  0,  2,  2,  4,  4,  6,  6,  8,  8, 10, 10, 12, 12, 14, 14,
      16, 16, 18, 18, 20, 20, 22, 22, 24, 24, 26, 26, 28, 28, 30, 30}},
  };
  return table;
}

// Each lane holds a value that names it, so a result names the lane it came from.
PerLane<uint64_t> lane_values(Type type) { return sweeps::distinct_values(type, 7); }

// --- The model against the literal tables -------------------------------------------------------

class ShuffleDocumentedModel : public ::testing::TestWithParam<Type> {};

TEST_P(ShuffleDocumentedModel, reads_the_documented_source_lane) {
  const Type type = GetParam();
  const PerLane<uint64_t> values = lane_values(type);
  for (const DocumentedExample& ex : documented_examples()) {
    const model::WarpOutcome got =
        model::shuffle(ex.op, type, model::uniform_scene(model::kFullMask), ex.arg, uniform(ex.width), values);
    for (int lane = 0; lane < 32; ++lane) {
      EXPECT_EQ(got[lane].source, ex.source[lane]) << ex.claim << ", lane " << lane;
      EXPECT_EQ(got[lane].bits, values[ex.source[lane]]) << ex.claim << ", lane " << lane;
      EXPECT_NE(got[lane].cls, LaneClass::undefined) << ex.claim << ", lane " << lane;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, ShuffleDocumentedModel, ::testing::ValuesIn(model::kShuffleTypes),
                         [](const auto& info) { return std::string(model::info(info.param).name); });

// --- The model's classes ------------------------------------------------------------------------

struct ClassExample {
  const char* claim;
  ShuffleOp op;
  int32_t arg, width;
  uint32_t mask, exited;
  int lane;
  LaneClass want;
};

TEST(ShuffleClassesModel, follow_where_guide_and_ptx_agree) {
  const ClassExample table[] = {
      {"srcLane in range, width 16", ShuffleOp::idx, 3, 16, model::kFullMask, 0, 20, LaneClass::defined},
      {"srcLane past width wraps as the guide says", ShuffleOp::idx, 37, 16, model::kFullMask, 0, 20, LaneClass::defined},
      {"negative srcLane: C++ % disagrees", ShuffleOp::idx, -1, 16, model::kFullMask, 0, 20, LaneClass::ptx_defined},
      {"width 24 is not a power of two", ShuffleOp::idx, 1, 24, model::kFullMask, 0, 5, LaneClass::ptx_defined},
      {"width 0", ShuffleOp::down, 1, 0, model::kFullMask, 0, 5, LaneClass::ptx_defined},
      {"delta 33: the guide keeps own, PTX moves by 1", ShuffleOp::down, 33, 32, model::kFullMask, 0, 5, LaneClass::ptx_defined},
      {"delta 32: both keep own", ShuffleOp::down, 32, 32, model::kFullMask, 0, 5, LaneClass::defined},
      {"delta 33 at lane 31: both keep own", ShuffleOp::down, 33, 32, model::kFullMask, 0, 31, LaneClass::defined},
      {"up delta 1 at a segment's first lane", ShuffleOp::up, 1, 8, model::kFullMask, 0, 8, LaneClass::defined},
      {"laneMask 40 is outside [0, 31]", ShuffleOp::bfly, 40, 32, model::kFullMask, 0, 3, LaneClass::ptx_defined},
      {"xor into an earlier group", ShuffleOp::bfly, 8, 8, model::kFullMask, 0, 9, LaneClass::defined},
      {"source lane exited", ShuffleOp::idx, 0, 32, model::kFullMask, 0x1, 5, LaneClass::undefined},
      {"source lane outside the mask", ShuffleOp::idx, 0, 32, 0xFFFFFFFE, 0, 5, LaneClass::undefined},
      {"the lane itself exited", ShuffleOp::idx, 0, 32, model::kFullMask, 0x20, 5, LaneClass::not_called},
      {"the lane outside the mask", ShuffleOp::idx, 0, 32, 0x1, 0, 5, LaneClass::not_called},
      {"source lane 31 outside the mask", ShuffleOp::down, 1, 32, 0x7FFFFFFF, 0, 30, LaneClass::undefined},
  };
  const PerLane<uint64_t> values = lane_values(Type::u32);
  for (const ClassExample& ex : table) {
    const auto got = model::shuffle(ex.op, Type::u32, model::uniform_scene(ex.mask, ex.exited), uniform(ex.arg),
                                    uniform(ex.width), values);
    EXPECT_EQ(got[ex.lane].cls, ex.want) << ex.claim << ": got " << model::to_string(got[ex.lane].cls);
  }
}

TEST(ShuffleLoweringModel, moves_64_bit_types_as_two_words_hi_first) {
  EXPECT_EQ(model::word_count(Type::i64), 2);
  EXPECT_EQ(model::word_count(Type::long_), 2);  // LP64: long goes the 64-bit way
  EXPECT_EQ(model::word_of(Type::f64, 0x0123456789ABCDEFull, 0), 0x01234567u);
  EXPECT_EQ(model::word_of(Type::f64, 0x0123456789ABCDEFull, 1), 0x89ABCDEFu);
  const uint32_t words[] = {0x01234567u, 0x89ABCDEFu};
  EXPECT_EQ(model::from_words(Type::u64, words), 0x0123456789ABCDEFull);
}

TEST(ShuffleLoweringModel, moves_16_bit_types_duplicated_in_one_word) {
  EXPECT_EQ(model::word_count(Type::f16), 1);
  EXPECT_EQ(model::word_of(Type::f16, 0xBEEF, 0), 0xBEEFBEEFu);
  EXPECT_EQ(model::word_of(Type::bf16, 0x8000, 0), 0x80008000u);
  const uint32_t word = 0x1234ABCDu;
  EXPECT_EQ(model::from_words(Type::f16, &word), 0xABCDu);
  EXPECT_EQ(model::from_words(Type::f16x2, &word), 0x1234ABCDu);
}

// --- The GPU --------------------------------------------------------------------------------------

class ShuffleDocumentedOnGpu : public check::GpuTest, public ::testing::WithParamInterface<Type> {};

TEST_P(ShuffleDocumentedOnGpu, reads_the_documented_source_lane) {
  const Type type = GetParam();
  for (ShuffleOp op : model::kShuffleOps) {
    gpu::ShuffleBatch b;
    b.op = op;
    b.type = type;
    b.scenes = {model::uniform_scene(model::kFullMask)};
    auto& t = b.tables;
    t.value = {lane_values(type)};
    std::vector<sweeps::DocumentedExample> examples;
    for (const DocumentedExample& ex : documented_examples()) {
      if (ex.op != op) continue;
      gpu::CaseRow<gpu::ShuffleCalls> row;
        row.scene = 0;
      auto& at = row.rows;
      at.lane_arg = static_cast<uint32_t>(t.lane_arg.size());
      at.width = static_cast<uint32_t>(t.width.size());
      b.cases.push_back(row);
      t.lane_arg.push_back(ex.arg);
      t.width.push_back(uniform(ex.width));
      sweeps::DocumentedExample lanes{ex.claim, {}};
      for (int lane = 0; lane < 32; ++lane) lanes.lanes.push_back({lane, t.value[0][ex.source[lane]]});
      examples.push_back(lanes);
    }
    sweeps::expect_gpu_gives_documented(b, examples);
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, ShuffleDocumentedOnGpu, ::testing::ValuesIn(model::kShuffleTypes),
                         [](const auto& info) { return std::string(model::info(info.param).name); });

using SweepParam = check::OpAndType<ShuffleOp>;

std::vector<SweepParam> every_op_and_type() {
  return check::every_op_and_type(model::kShuffleOps, model::kShuffleTypes, [](ShuffleOp, Type) { return true; });
}

std::string sweep_name(const ::testing::TestParamInfo<SweepParam>& info) { return check::op_and_type_name(info); }

void run_and_check(const gpu::ShuffleBatch& b) { sweeps::expect_gpu_agrees(b, sweeps::hex_digits(b.type)); }

class ShuffleSweepOnGpu : public check::GpuTest, public ::testing::WithParamInterface<SweepParam> {};

TEST_P(ShuffleSweepOnGpu, agrees_with_model_over_the_whole_domain) {
  const gpu::ShuffleBatch b = sweeps::sweep_batch(GetParam().op, GetParam().type);
  run_and_check(b);
}

INSTANTIATE_TEST_SUITE_P(EveryOpAndType, ShuffleSweepOnGpu, ::testing::ValuesIn(every_op_and_type()), sweep_name);

// Blocks that leave the last warp partial (its missing lanes act as exited), and 2D and 3D blocks.
class ShuffleBlockShapesOnGpu : public check::GpuTest, public ::testing::WithParamInterface<gpu::LaunchShape> {};

TEST_P(ShuffleBlockShapesOnGpu, agree_with_model) {
  for (const SweepParam& p : every_op_and_type()) {
    const gpu::ShuffleBatch b = sweeps::shaped_batch(p.op, p.type, GetParam());
    run_and_check(b);
  }
}

INSTANTIATE_TEST_SUITE_P(DivergenceShapes, ShuffleBlockShapesOnGpu, ::testing::ValuesIn(sweeps::divergence_shapes()),
                         [](const auto& info) { return sweeps::shape_text(info.param); });

}  // namespace
}  // namespace wc
