// The ptx dialect's instructions as the oracle computes them (programs/instructions.hpp), against
// literal examples: the PTX ISA's own where it gives values (prmt's, through CUB's documented PRMT),
// else worked by hand from the rule the row quotes. One table row per example, every instruction its
// own test, so that a failure names the instruction.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "programs/instructions.hpp"

namespace wc::program {
namespace {

struct Example {
  Instr op;
  Type type;
  uint8_t mode;  // shf: 0 clamp, 1 wrap
  uint64_t a, b, c, d;
  bool cond;
  uint64_t want;
  const char* why;  // the rule applied, or where the example comes from
};

constexpr Example kExamples[] = {
    {Instr::add, Type::u32, 0, 0xFFFFFFFF, 1, 0, 0, false, 0, "d = a + b wraps at 32 bits"},
    {Instr::add, Type::u16, 0, 0xFFFF, 2, 0, 0, false, 1, "d = a + b wraps at 16 bits"},
    {Instr::add, Type::s64, 0, 0x7FFFFFFFFFFFFFFF, 1, 0, 0, false, 0x8000000000000000, "past the largest s64"},
    {Instr::sub, Type::u32, 0, 0, 1, 0, 0, false, 0xFFFFFFFF, "0 - 1"},
    {Instr::sub, Type::s16, 0, 0x8000, 1, 0, 0, false, 0x7FFF, "the smallest s16 - 1"},
    {Instr::mul_lo, Type::u32, 0, 0x10000, 0x10000, 0, 0, false, 0, "t<31..0> of 2^32"},
    {Instr::mul_lo, Type::s16, 0, 0xFFFF, 3, 0, 0, false, 0xFFFD, "-1 * 3 = -3 in 16 bits"},
    {Instr::mul_lo, Type::u64, 0, 0x100000000, 0x100000000, 0, 0, false, 0, "t<63..0> of 2^64"},
    {Instr::mul_hi, Type::u32, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, false, 0xFFFFFFFE, "t = 0xFFFFFFFE00000001, t<63..32>"},
    {Instr::mul_hi, Type::s32, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, false, 0, "-1 * -1 = 1: high half 0"},
    {Instr::mul_hi, Type::s32, 0, 0x80000000, 2, 0, 0, false, 0xFFFFFFFF, "-2^31 * 2 = -2^32: high half -1"},
    {Instr::mul_hi, Type::u16, 0, 0xFFFF, 0xFFFF, 0, 0, false, 0xFFFE, "t = 0xFFFE0001, t<31..16>"},
    {Instr::mul_hi, Type::u64, 0, 0xFFFFFFFFFFFFFFFF, 2, 0, 0, false, 1, "t = 2^65 - 2, t<127..64>"},
    {Instr::mul_hi, Type::s64, 0, 0xFFFFFFFFFFFFFFFF, 2, 0, 0, false, 0xFFFFFFFFFFFFFFFF, "-1 * 2 = -2: high half -1"},
    {Instr::mul_wide, Type::u16, 0, 0xFFFF, 0xFFFF, 0, 0, false, 0xFFFE0001, "'16*16 bits yields 32 bits'"},
    {Instr::mul_wide, Type::s16, 0, 0xFFFF, 0x7FFF, 0, 0, false, 0xFFFF8001, "-1 * 32767 = -32767 in 32 bits"},
    {Instr::mul_wide, Type::u32, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, false, 0xFFFFFFFE00000001, "32*32 bits yields 64 bits"},
    {Instr::mul_wide, Type::s32, 0, 0x80000000, 0x80000000, 0, 0, false, 0x4000000000000000, "(-2^31)^2 = 2^62"},
    {Instr::mad_lo, Type::u32, 0, 0x10000, 0x10000, 5, 0, false, 5, "t<31..0> + c = 0 + 5"},
    {Instr::mad_lo, Type::s32, 0, 3, 0xFFFFFFFF, 10, 0, false, 7, "3 * -1 + 10"},
    {Instr::mad_hi, Type::u32, 0, 0xFFFFFFFF, 0xFFFFFFFF, 3, 0, false, 1, "t<63..32> + c = 0xFFFFFFFE + 3 wraps"},
    {Instr::mad_hi, Type::s16, 0, 0x8000, 0x8000, 1, 0, false, 0x4001, "(-2^15)^2 = 2^30: t<31..16> = 0x4000, + 1"},
    {Instr::add_cc, Type::u64, 0, 0x00000001FFFFFFFF, 1, 0, 0, false, 0x0000000200000000, "the low halves' carry goes into the high"},
    {Instr::add_cc, Type::u64, 0, 0xFFFFFFFFFFFFFFFF, 1, 0, 0, false, 0, "the high half's carry out is dropped"},
    {Instr::sub_cc, Type::u64, 0, 0x0000000200000000, 1, 0, 0, false, 0x00000001FFFFFFFF, "the low halves' borrow comes from the high"},
    {Instr::sub_cc, Type::s64, 0, 0, 1, 0, 0, false, 0xFFFFFFFFFFFFFFFF, "0 - 1 through the borrow"},
    {Instr::addc, Type::u32, 0, 0xFFFFFFFF, 1, 7, 0, false, 8, "a + b carries out: c + 1"},
    {Instr::addc, Type::u32, 0, 1, 2, 7, 0, false, 7, "no carry out: c"},
    {Instr::addc, Type::u64, 0, 0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF, 0, false, 0, "c + 1 wraps"},
    {Instr::subc, Type::u32, 0, 1, 2, 7, 0, false, 6, "a - b borrows: c - 1"},
    {Instr::subc, Type::u32, 0, 2, 1, 7, 0, false, 7, "no borrow: c"},
    {Instr::subc, Type::s32, 0, 0, 1, 0, 0, false, 0xFFFFFFFF, "0 - borrow: the borrow is of the unsigned difference"},
    {Instr::min, Type::u32, 0, 0xFFFFFFFF, 1, 0, 0, false, 1, "unsigned: 1 is less"},
    {Instr::min, Type::s32, 0, 0xFFFFFFFF, 1, 0, 0, false, 0xFFFFFFFF, "signed: -1 is less"},
    {Instr::min, Type::s16, 0, 0x8000, 0x7FFF, 0, 0, false, 0x8000, "signed: the smallest s16"},
    {Instr::max, Type::u32, 0, 0x80000000, 1, 0, 0, false, 0x80000000, "unsigned: 2^31 is more"},
    {Instr::max, Type::s32, 0, 0x80000000, 1, 0, 0, false, 1, "signed: 1 is more"},
    {Instr::max, Type::s64, 0, 0xFFFFFFFFFFFFFFFF, 0, 0, 0, false, 0, "signed: 0 is more than -1"},
    {Instr::and_, Type::u32, 0, 0xF0F0, 0xFF00, 0, 0, false, 0xF000, "d = a & b"},
    {Instr::and_, Type::s64, 0, 0xFFFFFFFF00000000, 0x8000000080000000, 0, 0, false, 0x8000000000000000, "d = a & b of 64"},
    {Instr::or_, Type::u16, 0, 0x00F0, 0x0F00, 0, 0, false, 0x0FF0, "d = a | b"},
    {Instr::or_, Type::u32, 0, 0x80000000, 1, 0, 0, false, 0x80000001, "d = a | b"},
    {Instr::xor_, Type::u64, 0, 0xFFFF0000FFFF0000, 0xFFFFFFFF00000000, 0, 0, false, 0x0000FFFFFFFF0000, "d = a ^ b"},
    {Instr::xor_, Type::s16, 0, 0xFFFF, 0x00FF, 0, 0, false, 0xFF00, "d = a ^ b in 16 bits"},
    {Instr::not_, Type::u16, 0, 0x00FF, 0, 0, 0, false, 0xFF00, "d = ~a in 16 bits"},
    {Instr::not_, Type::s32, 0, 0, 0, 0, 0, false, 0xFFFFFFFF, "d = ~a in 32 bits"},
    {Instr::shl, Type::u32, 0, 1, 31, 0, 0, false, 0x80000000, "d = a << b"},
    {Instr::shl, Type::u32, 0, 1, 32, 0, 0, false, 0, "an amount of N clamps to N: all shifted out"},
    {Instr::shl, Type::u32, 0, 1, 0xFFFFFFFF, 0, 0, false, 0, "amounts past N clamp to N, not wrap"},
    {Instr::shl, Type::u16, 0, 0x0101, 8, 0, 0, false, 0x0100, "16 bits"},
    {Instr::shl, Type::u64, 0, 1, 64, 0, 0, false, 0, "an amount of 64 clamps to 64"},
    {Instr::shr, Type::u32, 0, 0x80000000, 31, 0, 0, false, 1, "unsigned: fills with 0"},
    {Instr::shr, Type::u32, 0, 0x80000000, 32, 0, 0, false, 0, "unsigned, clamped to 32"},
    {Instr::shr, Type::s32, 0, 0x80000000, 31, 0, 0, false, 0xFFFFFFFF, "signed: fills with the sign bit"},
    {Instr::shr, Type::s32, 0, 0x80000000, 40, 0, 0, false, 0xFFFFFFFF, "signed, clamped to 32: all sign"},
    {Instr::shr, Type::s32, 0, 0x40000000, 100, 0, 0, false, 0, "signed, positive, clamped: 0"},
    {Instr::shr, Type::s16, 0, 0x8000, 4, 0, 0, false, 0xF800, "signed 16 bits"},
    {Instr::shr, Type::s64, 0, 0x8000000000000000, 64, 0, 0, false, 0xFFFFFFFFFFFFFFFF, "signed 64 bits, clamped"},
    {Instr::shf_l, Type::u32, 0, 0x12345678, 0x9ABCDEF0, 8, 0, false, 0xBCDEF012, "(b << n) | (a >> (32-n)), n = 8"},
    {Instr::shf_l, Type::u32, 0, 0x12345678, 0x9ABCDEF0, 40, 0, false, 0x12345678, ".clamp: n = min(40, 32): the 32 msbs are a"},
    {Instr::shf_l, Type::u32, 1, 0x12345678, 0x9ABCDEF0, 40, 0, false, 0xBCDEF012, ".wrap: n = 40 & 0x1f = 8"},
    {Instr::shf_l, Type::u32, 0, 0x12345678, 0x9ABCDEF0, 0, 0, false, 0x9ABCDEF0, "n = 0: b"},
    {Instr::shf_r, Type::u32, 0, 0x12345678, 0x9ABCDEF0, 8, 0, false, 0xF0123456, "(b << (32-n)) | (a >> n), n = 8"},
    {Instr::shf_r, Type::u32, 0, 0x12345678, 0x9ABCDEF0, 33, 0, false, 0x9ABCDEF0, ".clamp: n = 32: b"},
    {Instr::shf_r, Type::u32, 1, 0x12345678, 0x9ABCDEF0, 33, 0, false, 0x091A2B3C, ".wrap: n = 1"},
    {Instr::bfe, Type::u32, 0, 0x12345678, 4, 8, 0, false, 0x67, "bits 4..11"},
    {Instr::bfe, Type::s32, 0, 0x000000F0, 4, 4, 0, false, 0xFFFFFFFF, "signed: sbit = a[pos+len-1] pads"},
    {Instr::bfe, Type::s32, 0, 0x80000000, 40, 8, 0, false, 0xFFFFFFFF, "pos past the msb: all sbit = a[min(47, 31)]"},
    {Instr::bfe, Type::u32, 0, 0x12345678, 4, 0, 0, false, 0, "len 0: 0"},
    {Instr::bfe, Type::u32, 0, 0x12345678, 0x104, 8, 0, false, 0x67, "pos = b & 0xff"},
    {Instr::bfe, Type::s64, 0, 0x8000000000000000, 60, 8, 0, false, 0xFFFFFFFFFFFFFFF8, "a field cut at the msb, sign a[63]"},
    {Instr::bfi, Type::u32, 0, 0xF, 0, 4, 4, false, 0xF0, "f[pos+i] = a[i], 4 bits at 4"},
    {Instr::bfi, Type::u32, 0, 0, 0xFFFFFFFF, 28, 8, false, 0x0FFFFFFF, "a field cut at the msb"},
    {Instr::bfi, Type::u32, 0, 0xFF, 0x1234, 4, 0, false, 0x1234, "len 0: b"},
    {Instr::bfi, Type::u32, 0, 0xFF, 0x1234, 40, 8, false, 0x1234, "pos past the msb: b"},
    {Instr::bfi, Type::u64, 0, 1, 0, 63, 1, false, 0x8000000000000000, "64 bits"},
    {Instr::prmt, Type::u32, 0, 0x03020100, 0x07060504, 0x7531, 0, false, 0x07050301,
     "CUB's documented PRMT: 'PRMT(0x03020100, 0x07060504, 0x7531) // 0x07050301'"},
    {Instr::prmt, Type::u32, 0, 0x0000807F, 0x000000AB, 0x4498, 0, false, 0xABABFF00,
     "msb set replicates the byte's sign: 0x7F -> 0x00, 0x80 -> 0xFF; nibble 4 picks b's byte 0"},
    {Instr::prmt, Type::u32, 0, 0x12345678, 0, 0x3210, 0, false, 0x12345678, "0x3210 picks a's bytes in place"},
    {Instr::popc, Type::u32, 0, 0x80000001, 0, 0, 0, false, 2, "one bits"},
    {Instr::popc, Type::u32, 0, 0xFFFFFFFF, 0, 0, 0, false, 32, "one bits"},
    {Instr::popc, Type::u64, 0, 0xFFFFFFFFFFFFFFFF, 0, 0, 0, false, 64, "one bits of 64"},
    {Instr::clz, Type::u32, 0, 0, 0, 0, 0, false, 32, "'between 0 and 32, inclusively'"},
    {Instr::clz, Type::u32, 0, 1, 0, 0, 0, false, 31, "leading zeros"},
    {Instr::clz, Type::u32, 0, 0x80000000, 0, 0, 0, false, 0, "leading zeros"},
    {Instr::clz, Type::u64, 0, 0, 0, 0, 0, false, 64, "'between 0 and 64, inclusively'"},
    {Instr::clz, Type::u64, 0, 0x0000000100000000, 0, 0, 0, false, 31, "leading zeros of 64"},
    {Instr::brev, Type::u32, 0, 1, 0, 0, 0, false, 0x80000000, "d[i] = a[msb-i]"},
    {Instr::brev, Type::u32, 0, 0x12345678, 0, 0, 0, false, 0x1E6A2C48, "d[i] = a[msb-i]"},
    {Instr::brev, Type::u64, 0, 1, 0, 0, 0, false, 0x8000000000000000, "d[i] = a[msb-i] of 64"},
    {Instr::selp, Type::u32, 0, 5, 9, 0, 0, true, 5, "c == 1: a"},
    {Instr::selp, Type::u32, 0, 5, 9, 0, 0, false, 9, "c == 0: b"},
    {Instr::selp, Type::s16, 0, 0x8000, 9, 0, 0, true, 0x8000, "16 bits"},
};

std::string instruction_name(Instr op) {
  std::string text(name(op));
  std::replace(text.begin(), text.end(), '.', '_');
  return text;
}

std::vector<Instr> computed_instructions() {
  std::vector<Instr> ops;
  for (int k = 0; k < kInstrs; ++k)
    if (static_cast<Instr>(k) != Instr::load && static_cast<Instr>(k) != Instr::store) ops.push_back(static_cast<Instr>(k));
  return ops;
}

uint64_t run(const Example& e) { return execute(e.op, e.type, e.mode, Operands{e.a, e.b, e.c, e.d, e.cond}); }

}  // namespace

// How GoogleTest prints an instruction parameter: its PTX name.
void PrintTo(Instr op, std::ostream* os) { *os << name(op); }

namespace {

class PtxInstruction : public ::testing::TestWithParam<Instr> {};

TEST_P(PtxInstruction, gives_each_example_s_result) {
  int examples = 0;
  for (const Example& e : kExamples) {
    if (e.op != GetParam()) continue;
    ++examples;
    ASSERT_TRUE(allows(e.op, e.type)) << name(e.op) << " on " << name(e.type);
    EXPECT_EQ(run(e), e.want) << name(e.op) << "." << name(e.type) << " a 0x" << std::hex << e.a << " b 0x" << e.b << " c 0x" << e.c
                              << " d 0x" << e.d << ": " << e.why;
  }
  EXPECT_GE(examples, 2) << name(GetParam()) << " needs examples of its own";
  EXPECT_FALSE(rule(GetParam()).empty());
}

INSTANTIATE_TEST_SUITE_P(Every, PtxInstruction, ::testing::ValuesIn(computed_instructions()),
                         [](const auto& info) { return instruction_name(info.param); });

// The table has teeth: a shift that takes its amount mod N, as C++ and the classic dialect do, fails it.
TEST(PtxInstructionTable, catches_a_shift_that_wraps_its_amount) {
  int caught = 0;
  for (const Example& e : kExamples) {
    if (e.op != Instr::shl) continue;
    const uint64_t n = static_cast<uint64_t>(bits(e.type));
    const uint64_t wrapping = (e.a << (e.b % n)) & width_mask(static_cast<int>(n));
    caught += wrapping != e.want;
  }
  EXPECT_GE(caught, 2);
}

struct Conversion {
  uint64_t value;
  bool wide;
  Type type;
  uint64_t want;
  const char* why;
};

constexpr Conversion kOperands[] = {
    {0xFFFFFFFF, false, Type::u16, 0xFFFF, "cvt.u16.u32 keeps the low 16 bits"},
    {0xFFFFFFFF, false, Type::s64, 0xFFFFFFFFFFFFFFFF, "cvt.s64.s32 sign-extends"},
    {0xFFFFFFFF, false, Type::u64, 0x00000000FFFFFFFF, "cvt.u64.u32 zero-extends"},
    {0x123456789, true, Type::u32, 0x23456789, "cvt.u32.u64 keeps the low 32 bits"},
    {0x123456789, true, Type::s64, 0x123456789, "a 64-bit value as it is"},
};

TEST(PtxOperand, converts_as_cvt_does) {
  for (const Conversion& c : kOperands) EXPECT_EQ(to_operand(c.value, c.wide, c.type), c.want) << c.why;
}

TEST(PtxResult, a_16_bit_result_extends_by_its_type) {
  EXPECT_EQ(to_variable(0x8000, Type::s16), 0xFFFF8000u) << "cvt.s32.s16";
  EXPECT_EQ(to_variable(0x8000, Type::u16), 0x8000u) << "cvt.u32.u16";
  EXPECT_EQ(to_variable(0x123456789, Type::u32), 0x23456789u);
  EXPECT_EQ(result_type(Instr::popc, Type::u64), Type::u32) << "'destination d has type .u32'";
  EXPECT_EQ(result_type(Instr::mul_wide, Type::s16), Type::s32);
  EXPECT_EQ(result_type(Instr::mul_wide, Type::u32), Type::u64);
}

TEST(PtxLoad, extends_a_narrow_load_by_its_type) {
  EXPECT_EQ(loaded_value(0x80, 1, Type::s32), 0xFFFFFF80u) << "ld.s8 into a 32-bit register sign-extends";
  EXPECT_EQ(loaded_value(0x80, 1, Type::u32), 0x80u) << "ld.u8 zero-extends";
  EXPECT_EQ(loaded_value(0x8000, 2, Type::s64), 0xFFFFFFFFFFFF8000u);
  EXPECT_EQ(loaded_value(0x1FF, 1, Type::u16), 0xFFu) << "only the bytes loaded";
  EXPECT_EQ(space_bytes(Space::scratch), kScratchBytes);
  EXPECT_EQ(space_bytes(Space::input), 4 * kInputWords);
  EXPECT_EQ(space_bytes(Space::uniforms), 4 * kUniformWords);
}

TEST(PtxLanemask, sets_the_bits_its_name_says) {
  EXPECT_EQ(lanemask(0, 3), 0x8u) << "%lanemask_eq";
  EXPECT_EQ(lanemask(1, 3), 0xFu) << "%lanemask_le";
  EXPECT_EQ(lanemask(2, 3), 0x7u) << "%lanemask_lt";
  EXPECT_EQ(lanemask(3, 3), 0xFFFFFFF8u) << "%lanemask_ge";
  EXPECT_EQ(lanemask(4, 3), 0xFFFFFFF0u) << "%lanemask_gt";
  EXPECT_EQ(lanemask(4, 31), 0u) << "no lane above 31";
  EXPECT_EQ(lanemask(2, 0), 0u) << "no lane below 0";
}

TEST(PtxInstructions, take_the_types_the_isa_lists) {
  EXPECT_FALSE(allows(Instr::bfe, Type::u16)) << "bfe.type = {.u32, .u64, .s32, .s64}";
  EXPECT_FALSE(allows(Instr::shf_l, Type::u64)) << "shf.l.mode.b32";
  EXPECT_FALSE(allows(Instr::prmt, Type::s32)) << "prmt.b32";
  EXPECT_FALSE(allows(Instr::mul_wide, Type::u64)) << "no 128-bit result";
  EXPECT_FALSE(allows(Instr::add_cc, Type::u32)) << "the chain's own type is the 64-bit sum";
  EXPECT_TRUE(allows(Instr::addc, Type::s64)) << "addc.type = {.u32, .s32, .u64, .s64}";
  EXPECT_EQ(operand_count(Instr::bfi), 4);
  EXPECT_EQ(operand_kind(Instr::shl, 1), Operand::u32) << "'the amount specified by unsigned 32-bit value in b'";
  EXPECT_EQ(operand_kind(Instr::load, 0), Operand::none);
}

}  // namespace
}  // namespace wc::program
