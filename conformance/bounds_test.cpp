// The bounded comparator's own tests: NaN, signed zeros, infinities, denormals, and a value one ulp
// outside the bound, in every format.
#include <gtest/gtest.h>

#include <cmath>

#include "core/bounds.hpp"

namespace wc {
namespace {

using check::Bound;
using check::Number;
using check::within;

TEST(Bounds, match_nan_only_with_nan_and_infinity_only_with_itself) {
  const Bound loose{Number::f32, 1e30, 1.0, 1000};
  EXPECT_TRUE(within(loose, 0x7FC00000, 0xFFC00001)) << "any NaN matches a NaN";
  EXPECT_FALSE(within(loose, 0x7FC00000, 0x3F800000)) << "NaN is not 1.0, whatever the bound";
  EXPECT_FALSE(within(loose, 0x3F800000, 0x7FC00000));
  EXPECT_TRUE(within(loose, 0x7F800000, 0x7F800000));
  EXPECT_FALSE(within(loose, 0xFF800000, 0x7F800000)) << "-inf is not +inf";
  EXPECT_FALSE(within(loose, 0x7F7FFFFF, 0x7F800000)) << "the largest float is not +inf";
}

TEST(Bounds, count_signed_zeros_as_one_value) {
  EXPECT_TRUE(within(Bound{Number::f32}, 0x80000000, 0x00000000)) << "-0 and +0 are 0 apart";
  EXPECT_EQ(check::ulp_distance(Number::f32, 0x80000001, 0x00000001), 2u) << "-min denormal to +min denormal";
  EXPECT_EQ(check::ulp_distance(Number::f64, 0x8000000000000000, 0x0000000000000001), 1u);
}

TEST(Bounds, step_over_denormals_one_ulp_at_a_time) {
  EXPECT_EQ(check::ulp_distance(Number::f32, 0x007FFFFF, 0x00800000), 1u) << "largest denormal to smallest normal";
  EXPECT_EQ(check::ulp_distance(Number::f16, 0x03FF, 0x0400), 1u);
  EXPECT_EQ(check::ulp_distance(Number::bf16, 0x007F, 0x0080), 1u);
}

TEST(Bounds, reject_one_ulp_past_the_bound) {
  const uint32_t one = 0x3F800000;  // 1.0f
  EXPECT_TRUE(within(Bound{Number::f32, 0, 0, 2}, one + 2, one));
  EXPECT_FALSE(within(Bound{Number::f32, 0, 0, 2}, one + 3, one));
  EXPECT_FALSE(within(Bound{Number::f32, 0, 0, 2}, one - 3, one));
  // rel 2^-23: the bound is exactly one ulp of 1.0f; the next float up is inside, two ulps out.
  EXPECT_TRUE(within(Bound{Number::f32, 0, 0x1p-23, 0}, one + 1, one));
  EXPECT_FALSE(within(Bound{Number::f32, 0, 0x1p-23, 0}, one + 2, one));
  EXPECT_TRUE(within(Bound{Number::f16, 0x1p-10, 0, 0}, 0x3C01, 0x3C00)) << "1 + 2^-10 in half";
  EXPECT_FALSE(within(Bound{Number::f16, 0x1p-10, 0, 0}, 0x3C02, 0x3C00));
  EXPECT_TRUE(within(Bound{Number::bf16, 0, 0, 1}, 0x3F81, 0x3F80));
  EXPECT_FALSE(within(Bound{Number::bf16, 0, 0, 1}, 0x3F82, 0x3F80));
  EXPECT_FALSE(within(Bound{Number::f64, 0, 0, 0}, 0x3FF0000000000001, 0x3FF0000000000000));
}

TEST(Tolerances, hold_a_value_to_its_distance_from_the_exact_one) {
  using model::Tolerance;
  using model::Type;
  const double nan = std::nan(""), inf = HUGE_VAL;
  const Tolerance third{Type::f32, 1.0 / 3.0, 0x1p-25};  // 0x3EAAAAAB rounds 1/3 within 2^-26
  EXPECT_TRUE(within(third, 0x3EAAAAAB));
  EXPECT_FALSE(within(third, 0x3EAAAAAD)) << "two ulps of 1/3 lie 1.5 * 2^-25 from it";
  EXPECT_FALSE(within(third, 0x7FC00000)) << "a NaN is never near a number";
  EXPECT_TRUE(within(Tolerance{Type::f32, nan, 0}, 0xFFC00001)) << "any NaN matches a NaN";
  EXPECT_FALSE(within(Tolerance{Type::f32, nan, 1e30}, 0x3F800000));
  EXPECT_TRUE(within(Tolerance{Type::f16, inf, 0}, 0x7C00));
  EXPECT_FALSE(within(Tolerance{Type::f16, inf, 1e30}, 0x7BFF)) << "the largest half is not +inf";
  EXPECT_FALSE(within(Tolerance{Type::f32, 1e38, 1e38}, 0x7F800000)) << "an infinity is not near a finite value";
  EXPECT_TRUE(within(Tolerance{Type::bf16, 0, 0}, 0x8000)) << "-0 is 0";
  EXPECT_TRUE(within(Tolerance{Type::f32, 0x1p-149, 0}, 0x00000001)) << "the smallest denormal, exactly";
  EXPECT_FALSE(within(Tolerance{Type::f32, 0x1p-149, 0x1p-150}, 0x00000002));
  EXPECT_TRUE(within(Tolerance{Type::f64, 1.0, 0x1p-52}, 0x3FF0000000000001)) << "one ulp above 1, on the bound";
  EXPECT_FALSE(within(Tolerance{Type::f64, 1.0, 0x1p-53}, 0x3FF0000000000001)) << "one ulp outside a half-ulp bound";
}

}  // namespace
}  // namespace wc
