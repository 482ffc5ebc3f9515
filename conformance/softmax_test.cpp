// Row softmax, deterministic. SoftmaxModel (no GPU): the bound's terms as docs/softmax-bound.md
// derives them, the rows the contract fixes exactly, and the bound's teeth: host emulations of the
// correct variants stay inside it, each known mistake exceeds it on its row. SoftmaxOnGpu: the
// special rows and every length from 1 to 4097 for every variant, exp and type; the shift relation
// bit for bit. (KnownBadSoftmaxOnGpu, in properties/softmax_properties.cpp, runs the known-bad kernels.)
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "families/softmax/emulation.hpp"
#include "families/softmax/family.hpp"
#include "families/softmax/model.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gpu::SoftmaxImplementation;
using model::ExpFunction;
using model::SoftmaxSpec;
using model::SoftmaxVariant;
using model::Type;

constexpr double kU = 0x1p-24;

std::vector<SoftmaxSpec> every_spec() {
  std::vector<SoftmaxSpec> specs;
  for (SoftmaxVariant v : model::kSoftmaxVariants)
    for (ExpFunction e : model::kExpFunctions)
      for (Type t : model::kSoftmaxTypes) specs.push_back({v, e, t});
  return specs;
}

std::string spec_text(const SoftmaxSpec& s) {
  return gpu::softmax_text({s.variant, s.exp, SoftmaxImplementation::seam}) + "<" + std::string(model::info(s.type).cpp) + ">";
}

// "online_fast_expf_bf16": a test's name says which variant failed.
std::string spec_name(const ::testing::TestParamInfo<SoftmaxSpec>& info) {
  const SoftmaxSpec& s = info.param;
  return std::string(model::op_name(s.variant)) + (s.exp == ExpFunction::expf ? "_expf_" : "_fast_expf_") +
         std::string(model::info(s.type).name);
}

// The rows the emulations run: the special rows, the teeth rows and a spread of lengths.
std::vector<sweeps::NamedRow> emulated_rows(Type type) {
  std::vector<sweeps::NamedRow> rows = sweeps::softmax_special_rows(type);
  for (SoftmaxImplementation bad : {SoftmaxImplementation::half_accumulator, SoftmaxImplementation::no_max_subtraction,
                                    SoftmaxImplementation::no_merge_rescale, SoftmaxImplementation::max_from_zero})
    rows.push_back(sweeps::teeth_row(bad));
  for (int n : {1, 2, 31, 33, 100, 255, 257, 1000, 2049, 4097}) rows.push_back(sweeps::length_row(n));
  return rows;
}

// The emulated outputs against the model, with the one comparison helper.
check::CheckReport compare_emulated(const SoftmaxSpec& spec, SoftmaxImplementation code, const std::vector<uint64_t>& row) {
  const std::vector<uint64_t> got = emulation::softmax(spec, code, row);
  const std::vector<model::LaneOutcome> want = model::softmax_outcomes(spec, row, row.size());
  const std::vector<uint8_t> wrote(row.size(), 1);
  check::CheckReport report;
  check::compare_outputs(0, want.data(), want.size(), got.data(), wrote.data(), report);
  return report;
}

TEST(SoftmaxModel, bound_terms_follow_the_derivation) {
  const SoftmaxSpec three{SoftmaxVariant::three_pass, ExpFunction::expf, Type::f32};
  // A lane folds at most 8 * ceil(n / 256) items, then 5 butterfly levels.
  EXPECT_EQ(model::softmax_items_per_lane(1), 8);
  EXPECT_EQ(model::softmax_items_per_lane(256), 8);
  EXPECT_EQ(model::softmax_items_per_lane(257), 16);
  EXPECT_EQ(model::softmax_bound_terms(three, 4096).sum_depth, 128 - 1 + 5);
  EXPECT_EQ(model::softmax_bound_terms(three, 4096).rescales, 0);
  EXPECT_EQ(model::softmax_bound_terms({SoftmaxVariant::online, ExpFunction::expf, Type::f32}, 4096).rescales, 132);
  // IEEE reciprocal and a product: 2u; __fdividef (2 ulp: 5u) and a product: 6u.
  EXPECT_NEAR(model::softmax_bound_terms(three, 8).division, 2 * kU, kU * 1e-6);
  EXPECT_NEAR(model::softmax_bound_terms({SoftmaxVariant::three_pass, ExpFunction::fast_expf, Type::f32}, 8).division,
              6 * kU, 1e-3 * kU);
  EXPECT_EQ(model::softmax_bound_terms({SoftmaxVariant::three_pass, ExpFunction::expf, Type::f16}, 8).output_u, 0x1p-11);
  EXPECT_EQ(model::softmax_bound_terms({SoftmaxVariant::three_pass, ExpFunction::expf, Type::bf16}, 8).output_u, 0x1p-8);
}

TEST(SoftmaxModel, a_length_one_row_is_one_within_the_division_and_exp_errors) {
  const model::SoftmaxRow row = model::softmax_reference({SoftmaxVariant::three_pass, ExpFunction::expf, Type::f32}, {2.5});
  ASSERT_EQ(row.elements.size(), 1u);
  EXPECT_EQ(row.elements[0].exact, 1.0);
  // a = 5u, s = a + gamma_12 = 17u (k = 8 for any n up to 256), eps_D = 2u: B = (1 + a)(1 + eps_D)/(1 - s) - 1, about 24u.
  EXPECT_GT(row.elements[0].allowed, 23 * kU);
  EXPECT_LT(row.elements[0].allowed, 25 * kU);
  EXPECT_DOUBLE_EQ(row.row_sum_allowed, row.elements[0].allowed);
}

TEST(SoftmaxModel, the_bound_grows_with_fast_exp_rescaling_and_narrow_outputs) {
  const std::vector<double> row = sweeps::length_row(1000).values;
  const auto allowed = [&](SoftmaxVariant v, ExpFunction e, Type t) {
    return model::softmax_reference({v, e, t}, row).elements[10].allowed;
  };
  const double base = allowed(SoftmaxVariant::three_pass, ExpFunction::expf, Type::f32);
  EXPECT_GT(allowed(SoftmaxVariant::three_pass, ExpFunction::fast_expf, Type::f32), base);
  EXPECT_GT(allowed(SoftmaxVariant::online, ExpFunction::expf, Type::f32), base);
  EXPECT_EQ(allowed(SoftmaxVariant::online, ExpFunction::expf, Type::f32),
            allowed(SoftmaxVariant::two_pass, ExpFunction::expf, Type::f32));
  EXPECT_GT(allowed(SoftmaxVariant::three_pass, ExpFunction::expf, Type::f16), base);
  EXPECT_GT(allowed(SoftmaxVariant::three_pass, ExpFunction::expf, Type::bf16),
            allowed(SoftmaxVariant::three_pass, ExpFunction::expf, Type::f16));
}

// docs/softmax-bound.md, "Size of the bound", on a ramp of 1024 fp32 elements from 0 down to -18
// (k = 32, sigma = R = 36; the weighted mean of |t| is about 1). Three-pass: a = 5u + |t| u,
// eps_D = 2u, s = 5u + 1u + gamma_36 (36u), so B is about 49u at the max and 67u at t = -18. The
// two-pass and online sums carry R rescales, (1 + R) 5u + R u more in s; the numerator, computed
// fresh against the final max, carries none: 265u and 283u.
TEST(SoftmaxModel, the_bound_at_1024_elements_counts_the_rescales_in_the_sum_only) {
  std::vector<double> ramp(1024);
  for (size_t i = 0; i < ramp.size(); ++i) ramp[i] = -18.0 * static_cast<double>(i) / 1023;
  const auto bound_in_u = [&](SoftmaxVariant v, size_t j) {
    const model::SoftmaxElement e = model::softmax_reference({v, ExpFunction::expf, Type::f32}, ramp).elements[j];
    return e.allowed / e.exact / kU;
  };
  EXPECT_NEAR(bound_in_u(SoftmaxVariant::three_pass, 0), 49, 1);
  EXPECT_NEAR(bound_in_u(SoftmaxVariant::three_pass, 1023), 67, 1);
  for (SoftmaxVariant v : {SoftmaxVariant::two_pass, SoftmaxVariant::online}) {
    EXPECT_NEAR(bound_in_u(v, 0), 265, 1) << v;
    EXPECT_NEAR(bound_in_u(v, 1023), 283, 1) << v;
  }
}

TEST(SoftmaxModel, the_contract_fixes_special_rows_exactly) {
  const SoftmaxSpec spec{SoftmaxVariant::online, ExpFunction::expf, Type::f32};
  for (const sweeps::NamedRow& row : sweeps::softmax_special_rows(Type::f32)) {
    const std::vector<model::LaneOutcome> want = model::softmax_outcomes(spec, sweeps::row_bits(Type::f32, row.values),
                                                                         row.values.size() + 3);
    const bool nan_row = std::any_of(row.values.begin(), row.values.end(),
                                     [](double v) { return std::isnan(v) || v == INFINITY; }) ||
                         std::all_of(row.values.begin(), row.values.end(), [](double v) { return v == -INFINITY; });
    for (size_t j = 0; j < row.values.size(); ++j) {
      SCOPED_TRACE(row.name + " element " + std::to_string(j));
      ASSERT_EQ(want[j].cls, model::LaneClass::defined);
      if (nan_row) {
        ASSERT_TRUE(want[j].tolerance && std::isnan(want[j].tolerance->exact));
      } else if (row.values[j] == -INFINITY) {
        EXPECT_FALSE(want[j].tolerance);  // bit for bit: +0
        EXPECT_EQ(want[j].bits, 0u);
      } else {
        ASSERT_TRUE(want[j].tolerance);
        EXPECT_GT(want[j].tolerance->allowed, 0);
      }
    }
    for (size_t j = row.values.size(); j < want.size(); ++j) EXPECT_EQ(want[j].cls, model::LaneClass::not_called);
  }
  const auto all_neg_inf = model::softmax_outcomes(spec, sweeps::row_bits(Type::f32, {-INFINITY, -INFINITY}), 2);
  EXPECT_EQ(all_neg_inf[0].rule->id, "softmax.all-neg-inf");
}

TEST(SoftmaxModel, policies_are_named_from_the_outputs) {
  const auto bits = [](std::vector<double> v) { return sweeps::row_bits(Type::f32, v); };
  EXPECT_EQ(model::observed_policy(Type::f32, bits({NAN, NAN})), model::AllNegInfPolicy::nan);
  EXPECT_EQ(model::observed_policy(Type::f32, bits({0, -0.0})), model::AllNegInfPolicy::zero);
  EXPECT_EQ(model::observed_policy(Type::f32, bits({0.25, 0.25, 0.25, 0.25})), model::AllNegInfPolicy::uniform);
  EXPECT_EQ(model::observed_policy(Type::f32, bits({NAN, 0})), model::AllNegInfPolicy::other);
}

TEST(SoftmaxModel, correct_emulations_stay_inside_the_bound) {
  for (const SoftmaxSpec& spec : every_spec())
    for (const sweeps::NamedRow& row : emulated_rows(spec.type)) {
      const check::CheckReport r = compare_emulated(spec, SoftmaxImplementation::seam, sweeps::row_bits(spec.type, row.values));
      EXPECT_TRUE(r.clean()) << spec_text(spec) << " row '" << row.name << "': " << r.bad_lanes()
                             << " elements outside the bound, first element "
                             << (r.first ? r.first->lane : -1);
    }
}

// A known mistake, the variant it claims to be, and the type its row is checked in.
struct Mistake {
  SoftmaxImplementation bad;
  SoftmaxVariant claims;
};
constexpr Mistake kMistakes[] = {
    {SoftmaxImplementation::half_accumulator, SoftmaxVariant::three_pass},
    {SoftmaxImplementation::no_max_subtraction, SoftmaxVariant::three_pass},
    {SoftmaxImplementation::no_merge_rescale, SoftmaxVariant::online},
    {SoftmaxImplementation::max_from_zero, SoftmaxVariant::three_pass},
};

TEST(SoftmaxModel, each_known_mistake_exceeds_the_bound_on_its_row) {
  for (const Mistake& m : kMistakes)
    for (ExpFunction e : model::kExpFunctions)
      for (Type t : model::kSoftmaxTypes) {
      const SoftmaxSpec spec{m.claims, e, t};
      const sweeps::NamedRow row = sweeps::teeth_row(m.bad);
      const std::vector<uint64_t> bits = sweeps::row_bits(t, row.values);
      SCOPED_TRACE(std::string(gpu::implementation_name(m.bad)) + " on '" + row.name + "' with " + spec_text(spec));
      EXPECT_TRUE(compare_emulated(spec, SoftmaxImplementation::seam, bits).clean());
      const check::CheckReport caught = compare_emulated(spec, m.bad, bits);
      EXPECT_GT(caught.wrong_values, 0u);
      std::printf("%s as %s on '%s': %llu of %zu elements outside the bound\n",
                  std::string(gpu::implementation_name(m.bad)).c_str(), spec_text(spec).c_str(), row.name.c_str(),
                  static_cast<unsigned long long>(caught.wrong_values), bits.size());
      }
}

TEST(SoftmaxModel, emulated_row_sums_stay_within_the_row_sum_bound) {
  for (const SoftmaxSpec& spec : every_spec())
    for (const sweeps::NamedRow& named : emulated_rows(spec.type)) {
      const std::vector<uint64_t> bits = sweeps::row_bits(spec.type, named.values);
      const model::SoftmaxRow ref = model::softmax_reference(spec, model::softmax_values(spec.type, bits));
      if (ref.nan_row) continue;
      long double sum = 0;
      for (uint64_t y : emulation::softmax(spec, SoftmaxImplementation::seam, bits)) sum += model::floating_value(spec.type, y);
      EXPECT_LE(std::fabs(static_cast<double>(sum - 1)), ref.row_sum_allowed) << spec_text(spec) << " row " << named.name;
    }
}

// Without a GPU, the GPU path's comparison on results made by the emulation: the correct variant
// agrees, a known-bad one is caught, and an element written past a row's end is a failure.
TEST(SoftmaxModel, the_check_compares_every_element_of_a_batch) {
  const SoftmaxSpec spec{SoftmaxVariant::online, ExpFunction::expf, Type::f32};
  const std::vector<sweeps::NamedRow> rows = {sweeps::teeth_row(SoftmaxImplementation::no_merge_rescale),
                                              {"all_neg_inf", std::vector<double>(40, -INFINITY)},
                                              sweeps::length_row(17)};
  const auto batch_results = [&](SoftmaxImplementation code, gpu::WarpResults& results) {
    gpu::SoftmaxBatch b = sweeps::softmax_batch({spec.variant, spec.exp, code}, spec.type, rows, 260, "emulated");
    results.cases = b.rows();
    results.outputs = static_cast<size_t>(b.stride);
    results.bits.resize(results.cases * results.outputs);
    results.wrote.resize(results.cases * results.outputs);
    for (size_t r = 0; r < b.rows(); ++r) {
      const std::vector<uint64_t> y = emulation::softmax(spec, code, b.row(r));
      for (size_t e = 0; e < results.outputs; ++e) {
        results.bits[r * results.outputs + e] = e < y.size() ? y[e] : gpu::kSentinel;
        results.wrote[r * results.outputs + e] = e < y.size() ? 1 : 0;
      }
    }
    return b;
  };
  gpu::WarpResults good, bad;
  const gpu::SoftmaxBatch good_batch = batch_results(SoftmaxImplementation::seam, good);
  const auto agrees = gen::check_batch(good_batch, good);
  EXPECT_TRUE(agrees.report.clean());
  EXPECT_EQ(agrees.report.tally.cases, 3u);
  EXPECT_GT(agrees.report.worst_bound_fraction, 0);
  EXPECT_LE(agrees.report.worst_bound_fraction, 1);
  ASSERT_TRUE(agrees.observed.policy);
  EXPECT_EQ(*agrees.observed.policy, model::AllNegInfPolicy::nan);
  const gpu::SoftmaxBatch bad_batch = batch_results(SoftmaxImplementation::no_merge_rescale, bad);
  const auto caught = gen::check_batch(bad_batch, bad);
  EXPECT_GT(caught.report.wrong_values, 0u);
  EXPECT_GT(caught.report.worst_bound_fraction, 1);
  good.wrote[17 * 1 + 2 * good.outputs] = 1;  // row 2 is 17 long: element 17 must stay unwritten
  EXPECT_EQ(gen::check_batch(good_batch, good).report.mismatches[static_cast<size_t>(model::LaneClass::not_called)], 1u);
}

// The seam's softmax on the GPU, a test per variant, exp and type.
class SoftmaxOnGpu : public check::GpuTest, public ::testing::WithParamInterface<SoftmaxSpec> {
 protected:
  gpu::SoftmaxOp op() const { return {GetParam().variant, GetParam().exp, SoftmaxImplementation::seam}; }
};

INSTANTIATE_TEST_SUITE_P(EveryVariant, SoftmaxOnGpu, ::testing::ValuesIn(every_spec()), spec_name);

TEST_P(SoftmaxOnGpu, special_rows_agree_with_the_model) {
  const Type type = GetParam().type;
  std::vector<sweeps::NamedRow> rows = sweeps::softmax_special_rows(type);
  for (SoftmaxImplementation bad : {SoftmaxImplementation::half_accumulator, SoftmaxImplementation::no_max_subtraction,
                                    SoftmaxImplementation::no_merge_rescale, SoftmaxImplementation::max_from_zero})
    rows.push_back(sweeps::teeth_row(bad));
  for (int stride : {4096, 4099})  // vector and element-wise access
    sweeps::expect_gpu_agrees(sweeps::softmax_batch(op(), type, rows, stride, "special rows"));
}

TEST_P(SoftmaxOnGpu, every_length_from_1_to_4097_agrees_with_the_model) {
  std::vector<sweeps::NamedRow> rows, short_rows;
  for (int n = 1; n <= 4097; ++n)
    if (n % 32 != 0) rows.push_back(sweeps::length_row(n));
  for (int n = 1; n <= 300; ++n) short_rows.push_back(sweeps::length_row(n));
  sweeps::expect_gpu_agrees(sweeps::softmax_batch(op(), GetParam().type, rows, 4104, "lengths 1..4097, not multiples of 32"));
  sweeps::expect_gpu_agrees(sweeps::softmax_batch(op(), GetParam().type, short_rows, 301, "lengths 1..300, odd stride"));
}

// The whole-row shapes below and the tier each reaches on this device: a lane keeps every chunk in
// registers, or every chunk on chip with some in shared memory, or reads some again on every pass.
constexpr std::pair<int, int> kWholeRowShapes[] = {{64, 1024}, {16, 4096}, {4, 32768}, {2, 131072}};

// Rows 32769 apart: their shared memory holds an SM to a few warps.
constexpr int kWidestSharedStride = 32769;

// Where the seam's softmax keeps rows on this device, for every variant at once.
class SoftmaxTiersOnGpu : public check::GpuTest {};

TEST_F(SoftmaxTiersOnGpu, the_whole_row_shapes_reach_every_tier) {
  for (Type type : model::kSoftmaxTypes) {
    bool registers = false, shared = false, read_again = false;
    for (const auto& [rows, n] : kWholeRowShapes) {
      const gpu::SoftmaxRowHome home = gpu::softmax_row_home(type, n);
      registers |= home.in_registers == home.chunks;
      shared |= home.in_shared_memory > 0 && home.in_registers + home.in_shared_memory == home.chunks;
      read_again |= home.in_registers + home.in_shared_memory < home.chunks;
    }
    EXPECT_TRUE(registers && shared && read_again)
        << model::info(type).cpp << ": in registers " << registers << ", in shared memory " << shared
        << ", read again " << read_again;
  }
}

// Batches whose rows all fill an aligned stride run the kernel form the benchmark times (row length
// and alignment known when compiling), in each tier.
TEST_F(SoftmaxTiersOnGpu, some_type_keeps_the_widest_shared_rows_in_shared_memory) {
  int shared = 0;
  for (Type type : model::kSoftmaxTypes) shared += gpu::softmax_row_home(type, kWidestSharedStride).in_shared_memory > 0;
  EXPECT_GT(shared, 0) << "no type keeps rows " << kWidestSharedStride << " apart in shared memory on this device";
}

TEST_P(SoftmaxOnGpu, whole_rows_of_every_tier_agree_with_the_model) {
  for (const auto& [rows, n] : kWholeRowShapes)
    sweeps::expect_gpu_agrees(sweeps::softmax_batch(op(), GetParam().type, sweeps::whole_rows(rows, n), n, "whole rows"));
}

// Rows past what shared memory holds, of odd lengths at an odd stride: the element-wise path of the
// tier that reads a row again on every pass.
TEST_P(SoftmaxOnGpu, rows_too_long_for_shared_memory_agree_with_the_model) {
  const std::vector<sweeps::NamedRow> rows = {sweeps::length_row(131071), sweeps::length_row(65537), sweeps::length_row(3)};
  sweeps::expect_gpu_agrees(sweeps::softmax_batch(op(), GetParam().type, rows, 131073, "rows too long for shared memory"));
}

// Rows of odd lengths at a stride whose shared memory holds an SM to a few warps, which run the kernel
// that may use 255 registers a thread (where three-pass keeps its 16-bit exponentials): the
// element-wise paths of its register and shared chunks, and rows that end in either.
TEST_P(SoftmaxOnGpu, odd_rows_of_the_widest_shared_rows_agree_with_the_model) {
  std::vector<sweeps::NamedRow> rows;
  for (int n : {kWidestSharedStride, 32767, 16385, 4097, 2049, 33, 1}) rows.push_back(sweeps::length_row(n));
  if (gpu::softmax_row_home(GetParam().type, kWidestSharedStride).in_shared_memory > 0) {
    EXPECT_EQ(gpu::softmax_register_budget(op(), GetParam().type, kWidestSharedStride), 255) << spec_text(GetParam());
  }
  sweeps::expect_gpu_agrees(
      sweeps::softmax_batch(op(), GetParam().type, rows, kWidestSharedStride, "odd rows at a stride of 32769"));
}

// Adding c to a row where every x + c is exact leaves every x - max, so every output bit, unchanged.
TEST_P(SoftmaxOnGpu, shifting_a_row_by_an_exact_constant_keeps_every_bit) {
  const SoftmaxSpec spec = GetParam();
  std::vector<sweeps::NamedRow> rows, shifted;
  for (int n : {1, 7, 33, 200, 1000, 4097}) {
    std::vector<double> row(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) row[static_cast<size_t>(i)] = ((i * 37) % 64 - 32) / 8.0;  // multiples of 1/8
    rows.push_back({"shift base " + std::to_string(n), row});
    for (double& v : row) v += 24;  // |x + 24| < 32: exact in fp16 and bf16 at a spacing of 1/8
    shifted.push_back({"shifted by 24 " + std::to_string(n), row});
  }
  gpu::WarpResults base, moved;
  const gpu::SoftmaxBatch b = sweeps::softmax_batch(op(), spec.type, rows, 4097, "shift relation");
  if (!sweeps::run_or_record_error(b, base) ||
      !sweeps::run_or_record_error(sweeps::softmax_batch(op(), spec.type, shifted, 4097, "shift relation"), moved))
    return;
  size_t compared = 0, differ = 0;
  for (size_t r = 0; r < b.rows(); ++r)
    for (int e = 0; e < b.lengths[r]; ++e, ++compared)
      differ += base.bits[r * base.outputs + static_cast<size_t>(e)] != moved.bits[r * moved.outputs + static_cast<size_t>(e)];
  EXPECT_EQ(differ, 0u) << spec_text(spec) << ": " << differ << " of " << compared << " outputs changed under the shift";
  EXPECT_GT(compared, 0u);
}

}  // namespace
}  // namespace wc
