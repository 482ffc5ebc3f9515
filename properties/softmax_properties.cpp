// Row softmax, properties: laws of the model on random rows (no GPU), the GPU against the model on
// random rows of every variant, exp and type, the exact relations on the GPU's outputs (argmax,
// equal maxima, row sums), and each known-bad softmax caught on its teeth row and on random rows, shrunk.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "harness/random_check.hpp"
#include "families/softmax/emulation.hpp"
#include "families/softmax/family.hpp"
#include "families/softmax/model.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using gpu::SoftmaxImplementation;
using model::ExpFunction;
using model::SoftmaxSpec;
using model::SoftmaxVariant;
using model::Type;

SoftmaxSpec draw_spec(Draw& d) {
  return {model::kSoftmaxVariants[d.below(3)], model::kExpFunctions[d.below(2)], model::kSoftmaxTypes[d.below(3)]};
}

// Law: the host emulation of every variant, in the documented order, lies within the model's bound
// on random rows of every shape.
TEST(SoftmaxLaws, emulated_variants_stay_within_the_bound_on_random_rows) {
  gen::expect_law(600, [](Draw& d) -> LawResult {
    const SoftmaxSpec spec = draw_spec(d);
    const gen::SoftmaxCase c = gen::softmax_case(d, {spec.variant, spec.exp, SoftmaxImplementation::seam}, spec.type);
    const std::vector<uint64_t> got = emulation::softmax(spec, SoftmaxImplementation::seam, c.row);
    const std::vector<model::LaneOutcome> want = model::softmax_outcomes(spec, c.row, c.row.size());
    const std::vector<uint8_t> wrote(c.row.size(), 1);
    check::CheckReport r;
    check::compare_outputs(0, want.data(), want.size(), got.data(), wrote.data(), r);
    if (r.clean()) return {};
    return violation(c, "\n  element ", r.first->lane, " got ", model::format_value(spec.type, r.first->got));
  });
}

// Law: shifting a row by c where every x + c is exact leaves the exact softmax and every bound unchanged.
TEST(SoftmaxLaws, an_exact_shift_leaves_the_reference_and_the_bound_unchanged) {
  gen::expect_law(2000, [](Draw& d) -> LawResult {
    const SoftmaxSpec spec = draw_spec(d);
    const int n = 1 + static_cast<int>(d.below(300));
    std::vector<double> row(static_cast<size_t>(n)), shifted(static_cast<size_t>(n));
    const double c = gen::small_int(d, -16, 16);
    for (int i = 0; i < n; ++i) {
      row[static_cast<size_t>(i)] = gen::small_int(d, -64, 64) / 8.0;  // x and x + c exact in every type
      shifted[static_cast<size_t>(i)] = row[static_cast<size_t>(i)] + c;
    }
    const model::SoftmaxRow a = model::softmax_reference(spec, row), b = model::softmax_reference(spec, shifted);
    for (int i = 0; i < n; ++i) {
      const model::SoftmaxElement &x = a.elements[static_cast<size_t>(i)], &y = b.elements[static_cast<size_t>(i)];
      if (x.exact != y.exact || x.allowed != y.allowed)
        return violation("n=", n, " c=", c, " element ", i, ": exact ", x.exact, " vs ", y.exact, ", allowed ",
                         x.allowed, " vs ", y.allowed);
    }
    return {};
  });
}

class SoftmaxPropertiesOnGpu : public check::GpuTest {};

TEST_F(SoftmaxPropertiesOnGpu, agrees_with_the_model_on_random_rows) {
  for (SoftmaxVariant v : model::kSoftmaxVariants)
    for (ExpFunction e : model::kExpFunctions)
      for (Type t : model::kSoftmaxTypes) {
        const gpu::SoftmaxOp op{v, e, SoftmaxImplementation::seam};
        gen::expect_gpu_agrees_on_random<gpu::SoftmaxCalls>([op, t](Draw& d) { return gen::softmax_case(d, op, t); }, 1500,
                                                 gpu::softmax_text(op) + "<" + std::string(model::info(t).cpp) + ">");
      }
}

// The exact relations on the GPU's outputs of random finite rows: the largest output sits at the
// input's argmax, inputs equal to the max give bit-equal outputs, and the row sums to 1 within the
// row-sum bound.
TEST_F(SoftmaxPropertiesOnGpu, outputs_keep_the_argmax_and_sum_to_one_within_the_bound) {
  for (SoftmaxVariant v : model::kSoftmaxVariants)
    for (ExpFunction e : model::kExpFunctions)
      for (Type t : model::kSoftmaxTypes) {
        const gpu::SoftmaxOp op{v, e, SoftmaxImplementation::seam};
        std::vector<gen::SoftmaxCase> cases;
        for (uint64_t i = 0; i < 500; ++i) {
          Draw d(check::check_seed(check::process_seed().seed, gpu::softmax_text(op) + std::string(model::info(t).name)), i);
          cases.push_back(gen::softmax_case(d, op, t, d.below(2) ? gen::RowShape::colliding : gen::RowShape::small));
        }
        const gpu::SoftmaxBatch b = gpu::SoftmaxCalls::to_batches(cases, {}).front().batch;
        gpu::WarpResults results;
        if (!sweeps::run_or_record_error(b, results)) continue;
        size_t checked = 0;
        for (size_t r = 0; r < b.rows(); ++r) {
          const std::vector<uint64_t> row = b.row(r);
          const std::vector<double> x = model::softmax_values(t, row);
          const uint64_t* got = results.bits.data() + r * results.outputs;
          const size_t argmax = static_cast<size_t>(std::max_element(x.begin(), x.end()) - x.begin());
          const double top = model::floating_value(t, got[argmax]);
          long double sum = 0;
          for (size_t j = 0; j < row.size(); ++j) {
            const double y = model::floating_value(t, got[j]);
            sum += y;
            EXPECT_LE(y, top) << gpu::softmax_text(op) << " row " << r << " element " << j << " above the argmax's";
            if (x[j] == x[argmax]) {
              EXPECT_EQ(got[j], got[argmax]) << gpu::softmax_text(op) << " row " << r << " element " << j;
            }
          }
          const model::SoftmaxRow ref = model::softmax_reference(b.spec(), x);
          EXPECT_LE(std::fabs(static_cast<double>(sum - 1)), ref.row_sum_allowed) << gpu::softmax_text(op) << " row " << r;
          ++checked;
        }
        EXPECT_EQ(checked, cases.size());
      }
}

struct RandomMistake {
  SoftmaxImplementation bad;
  SoftmaxVariant claims;
  gen::RowShape shape;  // rows that can show it
};
constexpr RandomMistake kRandomMistakes[] = {
    {SoftmaxImplementation::half_accumulator, SoftmaxVariant::three_pass, gen::RowShape::small},
    {SoftmaxImplementation::no_max_subtraction, SoftmaxVariant::three_pass, gen::RowShape::uniform_range},
    {SoftmaxImplementation::no_merge_rescale, SoftmaxVariant::online, gen::RowShape::increasing},
    {SoftmaxImplementation::max_from_zero, SoftmaxVariant::three_pass, gen::RowShape::far_below_zero},
};

class KnownBadSoftmaxOnGpu : public check::GpuTest {};

// The rows docs/softmax-bound.md names ("Teeth"); the kernels take fp32 rows, and SoftmaxModel
// shows each mistake exceeding the bound in every type.
TEST_F(KnownBadSoftmaxOnGpu, each_is_caught_on_its_teeth_row) {
  for (const RandomMistake& m : kRandomMistakes)
    for (ExpFunction e : model::kExpFunctions) {
      const sweeps::NamedRow row = sweeps::teeth_row(m.bad);
      sweeps::expect_gpu_catches(sweeps::softmax_batch({m.claims, e, m.bad}, Type::f32, {row},
                                                           static_cast<int>(row.values.size()), "teeth row"));
    }
}

TEST_F(KnownBadSoftmaxOnGpu, each_is_caught_on_random_rows_with_a_shrunk_counterexample) {
  for (const RandomMistake& m : kRandomMistakes) {
    const gpu::SoftmaxOp op{m.claims, ExpFunction::expf, m.bad};
    gen::expect_gpu_catches_on_random<gpu::SoftmaxCalls>([op, m](Draw& d) { return gen::softmax_case(d, op, Type::f32, m.shape); },
                                              2000, gpu::softmax_text(op) + "<float>");
  }
}

}  // namespace
}  // namespace wc
