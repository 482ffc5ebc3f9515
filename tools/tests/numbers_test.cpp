// The one reader of numbers and durations from outside (core/number_text.hpp), the command line's
// number parsers and the model's value conversions they rely on.
#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <limits>
#include <optional>

#include "core/number_text.hpp"
#include "core/numbers.hpp"
#include "core/types.hpp"

namespace wc {
namespace {

using model::Type;
constexpr uint64_t kAll = std::numeric_limits<uint64_t>::max();

struct NumberRow {
  const char* text;
  numbers::NumberRange range;
  std::optional<uint64_t> value;  // nothing: refused
};

std::ostream& operator<<(std::ostream& os, const NumberRow& r) { return os << "'" << r.text << "'"; }

class NumberReader : public ::testing::TestWithParam<NumberRow> {};

// A number is what it reads as in decimal (or 0x-hex where the range takes it), or nothing: never an
// octal, a wrapped negative or a value clamped to 2^64-1.
TEST_P(NumberReader, reads_exactly_the_documented_form) {
  EXPECT_EQ(numbers::read_number(GetParam().text, GetParam().range), GetParam().value);
}

INSTANTIATE_TEST_SUITE_P(
    Table, NumberReader,
    ::testing::Values(NumberRow{"0", {}, 0}, NumberRow{"7", {}, 7}, NumberRow{"18446744073709551615", {}, kAll},
                      NumberRow{"0x10", {0, kAll, true}, 16}, NumberRow{"0XfF", {0, kAll, true}, 255},
                      NumberRow{"0xffffffffffffffff", {0, kAll, true}, kAll},
                      // What CLI11's and std::stoull's conversions took: octal, sign, wrap, clamp.
                      NumberRow{"010", {}, std::nullopt}, NumberRow{"00", {}, std::nullopt},
                      NumberRow{"-1", {}, std::nullopt}, NumberRow{"+5", {}, std::nullopt},
                      NumberRow{"18446744073709551616", {}, std::nullopt},
                      NumberRow{"99999999999999999999", {}, std::nullopt},
                      NumberRow{"0x10000000000000000", {0, kAll, true}, std::nullopt},
                      NumberRow{"0x10", {}, std::nullopt}, NumberRow{"0x", {0, kAll, true}, std::nullopt},
                      NumberRow{"", {}, std::nullopt}, NumberRow{" 1", {}, std::nullopt}, NumberRow{"1 ", {}, std::nullopt},
                      NumberRow{"1e3", {}, std::nullopt}, NumberRow{"1_000", {}, std::nullopt},
                      // The range, both ends included.
                      NumberRow{"1", {1, 1024, false}, 1}, NumberRow{"1024", {1, 1024, false}, 1024},
                      NumberRow{"0", {1, 1024, false}, std::nullopt}, NumberRow{"1025", {1, 1024, false}, std::nullopt}));

struct DurationRow {
  const char* text;
  std::optional<double> seconds;  // nothing: refused
};

std::ostream& operator<<(std::ostream& os, const DurationRow& r) { return os << "'" << r.text << "'"; }

class DurationReader : public ::testing::TestWithParam<DurationRow> {};

constexpr numbers::DurationRange kUpToAMillion{"seconds", 0, 1'000'000, "none"};

// A duration is plain decimal to the millisecond within its range: no exponent, infinity, NaN or
// sign, and nothing too small to be a millisecond read as 0 (none).
TEST_P(DurationReader, reads_exactly_the_documented_form) {
  EXPECT_EQ(numbers::read_duration(GetParam().text, kUpToAMillion), GetParam().seconds);
}

INSTANTIATE_TEST_SUITE_P(
    Table, DurationReader,
    ::testing::Values(DurationRow{"0", 0.0}, DurationRow{"30", 30.0}, DurationRow{"1.5", 1.5}, DurationRow{"0.25", 0.25},
                      DurationRow{"0.001", 0.001}, DurationRow{"1000000", 1e6}, DurationRow{"999999.999", 999999.999},
                      DurationRow{"1e10", std::nullopt}, DurationRow{"1e-300", std::nullopt},
                      DurationRow{"0.0001", std::nullopt}, DurationRow{"1000000.001", std::nullopt},
                      DurationRow{"9300000000", std::nullopt}, DurationRow{"inf", std::nullopt},
                      DurationRow{"nan", std::nullopt}, DurationRow{"-1", std::nullopt}, DurationRow{"+1", std::nullopt},
                      DurationRow{"", std::nullopt}, DurationRow{".5", std::nullopt}, DurationRow{"1.", std::nullopt},
                      DurationRow{"1.2.3", std::nullopt}, DurationRow{"1.-2", std::nullopt}, DurationRow{"08", std::nullopt},
                      DurationRow{"0x10", std::nullopt}, DurationRow{" 1", std::nullopt},
                      DurationRow{"99999999999999999999", std::nullopt}));

TEST(Numbers, a_range_says_in_words_what_it_takes) {
  EXPECT_EQ(numbers::describe(numbers::NumberRange{1, 1024, false}), "a decimal number from 1 to 1024");
  EXPECT_EQ(numbers::describe(numbers::NumberRange{0, 255, true}), "a number from 0 to 255, decimal or 0x-hexadecimal");
  EXPECT_EQ(numbers::describe(numbers::DurationRange{"minutes", 0.001, 1.5, ""}),
            "a number of minutes from 0.001 to 1.5, decimal with at most 3 decimals");
  EXPECT_EQ(numbers::describe(kUpToAMillion), "a number of seconds from 0 to 1000000 (0: none), decimal with at most 3 decimals");
  try {
    cli::parse_number("--count", "-1", {1, 100, false});
    ADD_FAILURE() << "--count -1 taken";
  } catch (const cli::UsageError& e) {
    EXPECT_STREQ(e.what(), "--count: '-1' is not a decimal number from 1 to 100");
  }
}

// A deadline past the clock's range is its last time point, never a signed overflow into the past
// (`run --time-limit 1e10` once stopped at once, and UBSan saw the overflow).
TEST(Numbers, a_deadline_cannot_overflow) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point now = Clock::now();
  EXPECT_EQ(numbers::deadline_after(now, 2.5), now + std::chrono::milliseconds(2500));
  EXPECT_EQ(numbers::deadline_after(now, numbers::kLongestSeconds), now + std::chrono::seconds(10'000'000));
  for (const double seconds : {1e10, 9.3e9, 1e300, std::numeric_limits<double>::infinity()})
    EXPECT_EQ(numbers::deadline_after(now, seconds), Clock::time_point::max()) << seconds;
  for (const double seconds : {0.0, -1.0, std::nan("")}) EXPECT_EQ(numbers::deadline_after(now, seconds), now) << seconds;
}

TEST(Numbers, parse_masks_in_hex_and_decimal) {
  EXPECT_EQ(cli::parse_mask("--mask", "0xffffffff"), 0xFFFFFFFFu);
  EXPECT_EQ(cli::parse_mask("--mask", "4294967295"), 0xFFFFFFFFu);
  EXPECT_EQ(cli::parse_mask("--mask", "0X10"), 16u);
  EXPECT_THROW(cli::parse_mask("--mask", "0x"), cli::UsageError);
  EXPECT_THROW(cli::parse_mask("--mask", ""), cli::UsageError);
  EXPECT_THROW(cli::parse_mask("--mask", "12abc"), cli::UsageError);
}

TEST(Numbers, parse_integers_signed_where_the_range_is) {
  EXPECT_EQ(cli::parse_integer("--lane", "-1", -1, 31), -1);
  EXPECT_EQ(cli::parse_integer("--lane", "0x1f", -1, 31), 31);
  EXPECT_EQ(cli::parse_integer("--arg", "-9223372036854775808", INT64_MIN, INT64_MAX), INT64_MIN);
  for (const char* refused : {"010", "+1", "-0x1", "32", "-2", "", "1e1"})
    EXPECT_THROW(cli::parse_integer("--lane", refused, -1, 31), cli::UsageError) << refused;
  EXPECT_THROW(cli::parse_integer("--width", "-1", 1, 32), cli::UsageError);
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
