// The command line's number parsers and the model's value conversions they rely on.
#include <gtest/gtest.h>

#include <climits>

#include "core/numbers.hpp"
#include "core/types.hpp"

namespace wc {
namespace {

using model::Type;

TEST(Numbers, parse_masks_in_hex_and_decimal) {
  EXPECT_EQ(cli::parse_mask("--mask", "0xffffffff"), 0xFFFFFFFFu);
  EXPECT_EQ(cli::parse_mask("--mask", "4294967295"), 0xFFFFFFFFu);
  EXPECT_EQ(cli::parse_mask("--mask", "0X10"), 16u);
  EXPECT_THROW(cli::parse_mask("--mask", "0x"), cli::UsageError);
  EXPECT_THROW(cli::parse_mask("--mask", ""), cli::UsageError);
  EXPECT_THROW(cli::parse_mask("--mask", "12abc"), cli::UsageError);
}

TEST(Numbers, parse_one_or_32_lane_ints) {
  const auto one = cli::parse_lane_ints("--arg", "-64", INT_MIN, UINT_MAX);
  for (int32_t v : one) EXPECT_EQ(v, -64);
  EXPECT_EQ(cli::parse_lane_ints("--arg", "4294967295", INT_MIN, UINT_MAX)[7], -1);  // UINT_MAX keeps its bits
  EXPECT_EQ(cli::parse_lane_ints("--arg", "-2147483648", INT_MIN, UINT_MAX)[0], INT_MIN);
  EXPECT_THROW(cli::parse_lane_ints("--arg", "1,,3", INT_MIN, UINT_MAX), cli::UsageError);
}

// Paths go into JSON records and reports: what nlohmann's writer would refuse is refused first.
TEST(Numbers, tell_valid_utf8_from_invalid) {
  for (const char* valid : {"", "golden/sm_90", "caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf"})
    EXPECT_TRUE(cli::is_utf8(valid)) << valid;
  for (const char* invalid : {"g\xff", "\xc3", "\xc0\x80", "\xe0\x80\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                              "\xf8\x88\x80\x80\x80", "\x80", "a\xe2\x82"})
    EXPECT_FALSE(cli::is_utf8(invalid)) << invalid;
  EXPECT_NO_THROW(cli::require_utf8_path("--out", "caf\xc3\xa9"));
  try {
    cli::require_utf8_path("--out", "a/b\xff/c");
    ADD_FAILURE() << "accepted a\\xff";
  } catch (const cli::UsageError& e) {
    EXPECT_STREQ(e.what(), "--out: 'a/b\\xff/c' is not valid UTF-8 (result records and reports are JSON)");
  }
}

TEST(Values, parse_and_print_every_type) {
  struct Row {
    Type type;
    const char* text;
    uint64_t bits;
    const char* printed;
  };
  const Row table[] = {
      {Type::i32, "-1", 0xFFFFFFFF, "-1"},
      {Type::u32, "4294967295", 0xFFFFFFFF, "4294967295"},
      {Type::long_, "-2", 0xFFFFFFFFFFFFFFFE, "-2"},
      {Type::u64, "0x8000000000000000", 0x8000000000000000, "9223372036854775808"},
      {Type::f32, "-0", 0x80000000, "-0"},
      {Type::f32, "1.5", 0x3FC00000, "1.5"},
      {Type::f32, "0x7fc00001", 0x7FC00001, "nan"},
      {Type::f64, "0.1", 0x3FB999999999999A, "0.1"},
      {Type::f16, "65504", 0x7BFF, "65504"},
      {Type::f16, "5.960464477539063e-08", 0x0001, "5.9604645e-08"},
      {Type::f16, "-0", 0x8000, "-0"},
      {Type::bf16, "1", 0x3F80, "1"},
      {Type::f16x2, "1:-2", 0xC0003C00, "(1, -2)"},
      {Type::bf16x2, "0x7fc1ff80", 0x7FC1FF80, "(-inf, nan)"},
  };
  for (const Row& r : table) {
    const auto bits = model::parse_value(r.type, r.text);
    ASSERT_TRUE(bits.has_value()) << r.text;
    EXPECT_EQ(*bits, r.bits) << r.text;
    EXPECT_EQ(model::format_value(r.type, r.bits), r.printed) << r.text;
  }
}

TEST(Values, reject_what_does_not_fit_the_type) {
  EXPECT_FALSE(model::parse_value(Type::i32, "2147483648"));
  EXPECT_FALSE(model::parse_value(Type::u32, "-1"));
  EXPECT_FALSE(model::parse_value(Type::f16, "0x10000"));
  EXPECT_FALSE(model::parse_value(Type::f16x2, "1.5"));
  EXPECT_FALSE(model::parse_value(Type::f32, "one"));
}

TEST(Values, round_halves_to_nearest_even) {
  EXPECT_EQ(model::double_to_half(1.0 + 1.0 / 2048), 0x3C00);      // a tie goes to the even 1.0
  EXPECT_EQ(model::double_to_half(1.0 + 3.0 / 2048), 0x3C02);      // a tie goes up to even
  EXPECT_EQ(model::double_to_half(65520.0), 0x7C00);               // rounds past the largest half
  EXPECT_EQ(model::double_to_bfloat(1.0 + 1.0 / 256), 0x3F80);     // tie to even
  EXPECT_EQ(model::half_to_double(0x3555), 0.333251953125);
}

}  // namespace
}  // namespace wc
