// The toolchain paths without a GPU: PTX text, signatures and their deduplication, the shrinker on a
// stand-in compiler, toolchain-bugs.txt and its comparison, the fixtures' derivations, every fixture
// through ptxas at -O0..-O3 (the binary and nvJitLink, where the toolkit has them), and a reproducer
// that nvcc builds.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/process.hpp"
#include "core/temporary_folder.hpp"
#include "formats/golden.hpp"
#include "toolchain/bugs_file.hpp"
#include "toolchain/findings.hpp"
#include "toolchain/known_bugs.hpp"
#include "toolchain/ptx_text.hpp"
#include "toolchain/runner.hpp"

namespace wc::toolchain {
namespace {

const char* kTwoKernels = R"(.version 8.0
.target sm_90
.address_size 64

.visible .entry first(.param .u64 in, .param .u64 out, .param .u64 uniforms)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 3;
LOOP:
  sub.u32 %r2, %r2, 1;  // counts down
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra LOOP;
  st.global.u32 [%rd1], %r2;
  ret;
}

.visible .entry second(.param .u64 in, .param .u64 out, .param .u64 uniforms)
{
  .reg .b32 %r<2>;
  ret;
}
)";

ToolchainPath ptxas(int level) { return {Compiler::ptxas, level}; }
ToolchainPath jit(int level) { return {Compiler::driver_jit, level}; }

TEST(ToolchainPtxText, finds_each_entry_and_its_instructions) {
  const std::optional<PtxLayout> l = layout(kTwoKernels);
  ASSERT_TRUE(l);
  ASSERT_EQ(l->entries.size(), 2u);
  EXPECT_EQ(l->entries[0].name, "first");
  EXPECT_EQ(l->entries[1].name, "second");
  std::vector<std::string> ops;
  for (size_t i : instruction_lines(*l, l->entries[0])) ops.push_back(opcode(l->lines[i]));
  EXPECT_EQ(ops, (std::vector<std::string>{"ld.param.u64", "cvta.to.global.u64", "mov.u32", "mov.u32", "sub.u32", "setp.ne.u32",
                                           "bra", "st.global.u32", "ret"}));
}

TEST(ToolchainPtxText, a_kernel_alone_keeps_the_directives_and_drops_the_other_entries) {
  const std::optional<std::string> alone = kernel_alone(kTwoKernels, "second");
  ASSERT_TRUE(alone);
  EXPECT_NE(alone->find(".target sm_90"), std::string::npos);
  EXPECT_NE(alone->find(".entry second"), std::string::npos);
  EXPECT_EQ(alone->find(".entry first"), std::string::npos);
  EXPECT_FALSE(kernel_alone(kTwoKernels, "third"));
  EXPECT_FALSE(layout(".visible .entry open(.param .u64 in)\n{\n  ret;\n"));
}

TEST(ToolchainPtxText, an_opcode_keeps_its_modifiers_and_drops_guard_and_operands) {
  EXPECT_EQ(opcode("  @!%p1 ld.global.cg.u16 %r1, [%rd2];"), "ld.global.cg.u16");
  EXPECT_EQ(opcode("vsub4.u32.u32.u32 %r3, %r2, %r1, %r1;"), "vsub4.u32.u32.u32");
  EXPECT_EQ(opcode("\tret;"), "ret");
}

TEST(ToolchainSignature, the_same_bug_in_other_registers_immediates_and_labels_has_the_same_shape_and_signature) {
  std::string renamed = kTwoKernels;
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{{"%r2", "%r3"}, {"LOOP", "AGAIN"}, {", 3;", ", 17;"}})
    for (size_t at; (at = renamed.find(from)) != std::string::npos;) renamed.replace(at, from.size(), to);
  EXPECT_EQ(shape(kTwoKernels, "first"), "back-edge bra mov.u32 setp.ne.u32 st.global.u32 sub.u32");
  EXPECT_EQ(shape(renamed, "first"), shape(kTwoKernels, "first"));
  const std::vector<ToolchainPath> levels{ptxas(1), ptxas(2), jit(4)};
  EXPECT_EQ(signature({"wrong-output"}, levels, shape(renamed, "first")), signature({"wrong-output"}, levels, shape(kTwoKernels, "first")));
}

TEST(ToolchainSignature, a_shape_holds_the_opcodes_of_the_functions_its_kernel_calls) {
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64

.func (.param .b32 helper_ret) helper(.param .b32 helper_x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [helper_x];
  prmt.b32 %r2, %r1, %r1, 0x3210;
  st.param.b32 [helper_ret], %r2;
  ret;
}

.func unused(.param .b32 unused_x)
{
  .reg .b32 %r<2>;
  popc.b32 %r1, %r1;
  ret;
}

.visible .entry caller(.param .u64 in, .param .u64 out, .param .u64 uniforms)
{
  .reg .b32 %r<3>;
  mov.u32 %r1, %tid.x;
  {
  .param .b32 x;
  st.param.b32 [x], %r1;
  .param .b32 r;
  call (r), helper, (x);
  ld.param.b32 %r2, [r];
  }
  ret;
}
)";
  const std::optional<PtxLayout> l = layout(ptx);
  ASSERT_TRUE(l);
  ASSERT_EQ(l->functions.size(), 2u);
  EXPECT_EQ(l->functions[0].name, "helper");
  EXPECT_EQ(l->functions[1].name, "unused");
  EXPECT_EQ(shape(ptx, "caller"), "call mov.u32 prmt.b32 st.param.b32");
}

TEST(ToolchainSignature, other_levels_kinds_or_opcodes_make_another_signature) {
  const std::string s = shape(kTwoKernels, "first");
  const uint64_t base = signature({"wrong-output"}, {ptxas(1), ptxas(2)}, s);
  EXPECT_NE(base, signature({"wrong-output"}, {ptxas(2)}, s));
  EXPECT_NE(base, signature({"wrong-output"}, {ptxas(1), ptxas(2), jit(1)}, s));
  EXPECT_NE(base, signature({"compiler-crash"}, {ptxas(1), ptxas(2)}, s));
  EXPECT_NE(base, signature({"wrong-output"}, {ptxas(1), ptxas(2)}, s + " vsub4.u32.u32.u32"));
}

TEST(ToolchainSignature, deduplication_keeps_the_first_of_each_signature) {
  Finding a, b, c;
  a.kernel_name = "a";
  a.signature = 1;
  b.kernel_name = "b";
  b.signature = 2;
  c.kernel_name = "c";
  c.signature = 1;
  const std::vector<Finding> kept = deduplicated({a, b, c});
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].kernel_name, "a");
  EXPECT_EQ(kept[1].kernel_name, "b");
}

// One kernel of four output words on a few paths, each path's outcome given: what compare() makes of it.
struct CompareRow {
  std::string name;
  std::vector<ToolchainPath> paths;
  std::vector<KernelOutcome> outcomes;    // one per path
  std::optional<std::vector<uint32_t>> expected;
  std::vector<bool> fixed;                // empty: every word
  std::vector<ToolchainPath> finding;     // the levels of the finding, none for no finding
  std::vector<std::string> kinds;
  std::string reference;                  // the finding's
  std::vector<ToolchainPath> disagreement;  // the levels of the oracle disagreement, none for none
  bool levels_agree = false;
  uint64_t open_differences = 0;
};
std::ostream& operator<<(std::ostream& os, const CompareRow& r) { return os << r.name; }

KernelOutcome ran(std::vector<uint32_t> words) {
  KernelOutcome o;
  o.verdict = KernelVerdict::ran;
  o.output = std::move(words);
  return o;
}
KernelOutcome did(KernelVerdict v) {
  KernelOutcome o;
  o.verdict = v;
  return o;
}
KernelOutcome not_repeating(std::vector<uint32_t> words) {
  KernelOutcome o = ran(std::move(words));
  o.deterministic = false;
  return o;
}

const std::vector<uint32_t> kRight{1, 2, 3, 4}, kWrong{1, 9, 3, 4}, kOpenOther{1, 2, 7, 4};
const std::vector<bool> kFirstTwoFixed{true, true, false, false};

class ToolchainCompare : public ::testing::TestWithParam<CompareRow> {};

INSTANTIATE_TEST_SUITE_P(
    Table, ToolchainCompare,
    ::testing::Values(
        CompareRow{"a_level_that_disagrees_where_O0_agrees_is_a_finding", {ptxas(0), ptxas(3), jit(4)},
                   {ran(kRight), ran(kWrong), ran(kRight)}, kRight, {}, {ptxas(3)}, {"wrong-output"}, "oracle", {}, false, 0},
        CompareRow{"an_open_word_that_differs_is_counted_never_a_finding", {ptxas(0), ptxas(3)},
                   {ran(kRight), ran(kOpenOther)}, kRight, kFirstTwoFixed, {}, {}, "", {}, false, 1},
        CompareRow{"a_fixed_word_that_differs_is_a_finding_beside_open_ones", {ptxas(0), ptxas(3)},
                   {ran(kRight), ran({1, 9, 7, 4})}, kRight, kFirstTwoFixed, {ptxas(3)}, {"wrong-output"}, "oracle", {}, false, 1},
        CompareRow{"O0_disagreeing_too_is_an_oracle_disagreement_not_a_finding", {ptxas(0), ptxas(3), jit(0)},
                   {ran(kWrong), ran(kWrong), ran(kWrong)}, kRight, {}, {}, {}, "", {ptxas(0), ptxas(3), jit(0)}, true, 0},
        CompareRow{"levels_that_disagree_with_each_other_and_the_oracle_say_so", {ptxas(0), ptxas(3)},
                   {ran(kWrong), ran(kRight)}, kRight, {}, {}, {}, "", {ptxas(0)}, false, 0},
        CompareRow{"O0_trapping_is_an_oracle_disagreement", {ptxas(0), ptxas(3)},
                   {did(KernelVerdict::trapped), ran(kRight)}, kRight, {}, {}, {}, "", {ptxas(0)}, true, 0},
        CompareRow{"O0_not_repeating_is_an_oracle_disagreement", {ptxas(0), ptxas(3)},
                   {not_repeating(kRight), ran(kRight)}, kRight, {}, {}, {}, "", {ptxas(0)}, true, 0},
        CompareRow{"no_O0_level_leaves_a_disagreement_untold", {ptxas(3)},
                   {ran(kWrong)}, kRight, {}, {}, {}, "", {ptxas(3)}, true, 0},
        CompareRow{"a_refusal_is_a_finding_whatever_the_outputs", {ptxas(0), jit(4)},
                   {ran(kWrong), did(KernelVerdict::compile_refusal)}, kRight, {}, {jit(4)}, {"compile-refusal"}, "oracle",
                   {ptxas(0)}, true, 0},
        CompareRow{"jit_O0_is_the_reference_where_ptxas_O0_refused", {ptxas(0), ptxas(3), jit(0)},
                   {did(KernelVerdict::compiler_crash), ran(kWrong), ran(kRight)}, kRight, {}, {ptxas(0), ptxas(3)},
                   {"compiler-crash", "wrong-output"}, "oracle", {}, false, 0},
        CompareRow{"without_an_oracle_O0_is_the_reference", {ptxas(0), ptxas(2), jit(1)},
                   {ran(kRight), ran(kRight), ran(kWrong)}, std::nullopt, {}, {jit(1)}, {"wrong-output"}, "ptxas-O0", {}, false, 0}),
    [](const ::testing::TestParamInfo<CompareRow>& info) { return info.param.name; });

TEST_P(ToolchainCompare, classes_each_level_against_the_oracle_and_the_reference_level) {
  const CompareRow& row = GetParam();
  PtxModule module{".visible .entry k(.param .u64 in, .param .u64 out, .param .u64 uniforms)\n{\n  ret;\n}\n", {}};
  PtxKernel kernel;
  kernel.name = "k";
  kernel.output_words = 4;
  kernel.expected = row.expected;
  kernel.fixed = row.fixed;
  module.kernels.push_back(kernel);
  RunResult run;
  run.paths = row.paths;
  run.outcomes = {{row.outcomes}};
  const Comparison c = compare({module}, run);
  if (row.finding.empty()) {
    EXPECT_TRUE(c.findings.empty());
  } else {
    ASSERT_EQ(c.findings.size(), 1u);
    EXPECT_EQ(c.findings[0].levels, row.finding);
    EXPECT_EQ(c.findings[0].kinds, row.kinds);
    EXPECT_EQ(c.findings[0].reference, row.reference);
  }
  if (row.disagreement.empty()) {
    EXPECT_TRUE(c.oracle_disagreements.empty());
  } else {
    ASSERT_EQ(c.oracle_disagreements.size(), 1u);
    EXPECT_EQ(c.oracle_disagreements[0].levels, row.disagreement);
    EXPECT_EQ(c.oracle_disagreements[0].levels_agree, row.levels_agree);
  }
  EXPECT_EQ(c.open_differences, row.open_differences);
  EXPECT_EQ(c.first_open_differences.size(), row.open_differences);
}

TEST(ToolchainCompare, counts_the_fixed_words_compared_and_the_open_ones_apart) {
  PtxModule module{".visible .entry k(.param .u64 in, .param .u64 out, .param .u64 uniforms)\n{\n  ret;\n}\n", {}};
  PtxKernel kernel;
  kernel.name = "k";
  kernel.output_words = 4;
  kernel.expected = kRight;
  kernel.fixed = kFirstTwoFixed;
  module.kernels.push_back(kernel);
  RunResult run;
  run.paths = {ptxas(0), ptxas(3), jit(4)};
  run.outcomes = {{{ran(kRight), ran(kOpenOther), ran(kRight)}}};
  const Comparison c = compare({module}, run);
  EXPECT_EQ(c.outputs_compared, 6u);  // two fixed words on each of three levels
  EXPECT_EQ(c.open_compared, 4u);     // two open words on each level but the reference
  ASSERT_EQ(c.first_open_differences.size(), 1u);
  EXPECT_EQ(c.first_open_differences[0].word, 2u);
  EXPECT_EQ(c.first_open_differences[0].path, ptxas(3));
  EXPECT_EQ(c.first_open_differences[0].word_there, 7u);
}

TEST(ToolchainShrink, deletes_every_instruction_the_stand_in_compiler_does_not_need) {
  // The stand-in "miscompiles" while the kernel still holds the loop's sub and its store.
  const StillFails still = [](const std::vector<std::string>& candidates) {
    std::vector<bool> fails;
    for (const std::string& c : candidates)
      fails.push_back(c.find("sub.u32 %r2, %r2, 1") != std::string::npos && c.find("st.global.u32") != std::string::npos);
    return fails;
  };
  const PtxShrink s = shrink_ptx(kTwoKernels, "first", still, 60);
  EXPECT_EQ(s.instructions_before, 9u);
  EXPECT_EQ(s.instructions_after, 2u);
  EXPECT_NE(s.minimal.find("sub.u32 %r2, %r2, 1"), std::string::npos);
  EXPECT_NE(s.minimal.find("st.global.u32"), std::string::npos);
  EXPECT_EQ(s.minimal.find("bra LOOP"), std::string::npos);
  EXPECT_NE(s.minimal.find(".entry second"), std::string::npos);  // the other kernel is not its business
  EXPECT_FALSE(s.stopped_by_limit);
}

TEST(ToolchainShrink, sets_a_register_to_zero_where_deleting_its_definition_would_leave_it_unwritten) {
  // The stand-in fails once %r2 is set to 0 before the store: only the zeroing of its mov gets there.
  const StillFails still = [](const std::vector<std::string>& candidates) {
    std::vector<bool> fails;
    for (const std::string& c : candidates)
      fails.push_back(c.find("mov.b32 %r2, 0;") != std::string::npos && c.find("st.global.u32") != std::string::npos);
    return fails;
  };
  const PtxShrink s = shrink_ptx(kTwoKernels, "first", still, 60);
  EXPECT_NE(s.minimal.find("mov.b32 %r2, 0;"), std::string::npos) << s.minimal;
}

BugsFile sample_file() {
  BugsFile f;
  f.device = "NVIDIA H100 80GB HBM3";
  f.compute_capability = "9.0";
  f.paths = all_toolchain_paths();
  f.recorded = "2026-12-08T10:00:00Z";
  BugRecord b;
  b.reproducer = "known/m014-vsub4-divergent-branch";
  b.kinds = {"wrong-output"};
  b.levels = {ptxas(1), ptxas(2), ptxas(3), jit(1), jit(2), jit(3), jit(4)};
  b.shape = "bra mov.u32 setp.ne.u32 st.global.u32 vsub4.u32.u32.u32";
  b.signature = signature(b.kinds, b.levels, b.shape);
  b.ptxas = "13.0.88";
  b.driver = "13.0";
  f.bugs.push_back(b);
  return f;
}

TEST(ToolchainBugsFile, reads_back_what_it_writes) {
  const BugsFile f = sample_file();
  const std::string text = write_bugs(f);
  std::istringstream in(text);
  EXPECT_EQ(read_bugs(in, "t"), f);
  EXPECT_NE(text.find("levels: ptxas-O1, ptxas-O2, ptxas-O3, jit-O1, jit-O2, jit-O3, jit-O4\n"), std::string::npos);
}

struct Malformed {
  std::string name, from, to, message;
};

class ToolchainBugsFileRefuses : public ::testing::TestWithParam<Malformed> {};

TEST_P(ToolchainBugsFileRefuses, with_one_line_naming_the_line) {
  std::string text = write_bugs(sample_file());
  const size_t at = text.find(GetParam().from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, GetParam().from.size(), GetParam().to);
  std::istringstream in(text);
  try {
    read_bugs(in, "bugs.txt");
    FAIL() << "read " << GetParam().name;
  } catch (const golden::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(GetParam().message), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, ToolchainBugsFileRefuses,
    ::testing::Values(Malformed{"magic", "warpconf-toolchain-bugs 1", "warpconf-toolchain-bugs 2", "bugs.txt:1: the first line"},
                      Malformed{"unknown_level", "levels: ptxas-O1,", "levels: ptxas-O7,", "unknown level 'ptxas-O7'"},
                      Malformed{"levels_out_of_order", "levels: ptxas-O1, ptxas-O2", "levels: ptxas-O2, ptxas-O1", "out of order"},
                      Malformed{"unknown_kind", "kinds: wrong-output", "kinds: slow", "unknown kind"},
                      Malformed{"signature_of_other_fields", "shape: bra", "shape: add.u32 bra", "the signature is not that of"},
                      Malformed{"short_signature", "signature: ", "signature: 0", "16 lowercase hex digits"},
                      Malformed{"key_order", "kinds: wrong-output\nlevels:", "levels:", "expected the key 'kinds'"},
                      Malformed{"missing_blank", "Z\n\nreproducer", "Z\nreproducer", "expected an empty line"},
                      Malformed{"no_newline_at_end", "driver: 13.0\n", "driver: 13.0", "does not end with a newline"},
                      Malformed{"block_cut_short", "ptxas: 13.0.88\ndriver: 13.0\n", "ptxas: 13.0.88\n", "ends before its key 'driver'"},
                      Malformed{"reproducer_with_space", "reproducer: known/m014", "reproducer: known m014", "may hold only"},
                      Malformed{"level_not_run", "paths: ptxas-O0, ptxas-O1, ptxas-O2, ptxas-O3, jit-O0, jit-O1, jit-O2, jit-O3, jit-O4",
                                "paths: ptxas-O0, ptxas-O1, ptxas-O2, ptxas-O3", "is not one of the header's paths"}),
    [](const auto& info) { return info.param.name; });

TEST(ToolchainBugsFile, refuses_a_signature_recorded_twice) {
  BugsFile f = sample_file();
  f.bugs.push_back(f.bugs.front());
  EXPECT_THROW(write_bugs(f), std::invalid_argument);
}

BugRecord finding_now(std::vector<ToolchainPath> levels) {
  BugRecord b = sample_file().bugs.front();
  b.levels = std::move(levels);
  b.signature = signature(b.kinds, b.levels, b.shape);
  return b;
}

TEST(ToolchainBugsCompare, a_recorded_bug_reproduced_is_known_and_one_not_recorded_is_new) {
  const BugsFile recorded = sample_file();
  BugRecord other = finding_now({ptxas(3)});
  other.reproducer = "known/m001-divergent-loop-entry";
  other.shape = "add.u32 bra";
  other.signature = signature(other.kinds, other.levels, other.shape);
  const BugsComparison c = compare_bugs(recorded, {recorded.bugs.front(), other}, all_toolchain_paths(),
                                        {"known/m014-vsub4-divergent-branch", "known/m001-divergent-loop-entry"}, "13.2.78", "13.1");
  EXPECT_EQ(c.known, (std::vector<size_t>{0}));
  EXPECT_EQ(c.fresh, (std::vector<size_t>{1}));
  EXPECT_TRUE(c.fixed.empty());
}

TEST(ToolchainBugsCompare, a_recorded_bug_that_no_longer_reproduces_is_fixed_in_this_ptxas_and_driver) {
  const BugsComparison c = compare_bugs(sample_file(), {}, all_toolchain_paths(), {"known/m014-vsub4-divergent-branch"}, "13.2.78", "13.1");
  ASSERT_EQ(c.fixed.size(), 1u);
  EXPECT_EQ(c.fixed[0].text, "fixed in ptxas 13.2.78 on ptxas-O1, ptxas-O2, ptxas-O3; driver 13.1 on jit-O1, jit-O2, jit-O3, jit-O4");
}

TEST(ToolchainBugsCompare, fewer_levels_of_a_recorded_bug_are_known_and_the_rest_fixed) {
  const BugsComparison c = compare_bugs(sample_file(), {finding_now({ptxas(1), ptxas(2), ptxas(3)})}, all_toolchain_paths(),
                                        {"known/m014-vsub4-divergent-branch"}, "13.0.88", "13.1");
  EXPECT_EQ(c.known.size(), 1u);
  EXPECT_TRUE(c.fresh.empty());
  ASSERT_EQ(c.fixed.size(), 1u);
  EXPECT_EQ(c.fixed[0].text, "fixed in driver 13.1 on jit-O1, jit-O2, jit-O3, jit-O4");
}

TEST(ToolchainBugsCompare, more_levels_than_recorded_is_a_new_finding) {
  const BugsComparison c = compare_bugs(sample_file(), {finding_now({ptxas(0), ptxas(1), ptxas(2), ptxas(3), jit(1), jit(2), jit(3), jit(4)})},
                                        all_toolchain_paths(), {"known/m014-vsub4-divergent-branch"}, "13.0.88", "13.0");
  EXPECT_EQ(c.fresh.size(), 1u);
}

TEST(ToolchainBugsCompare, only_the_paths_that_ran_and_the_reproducers_that_ran_are_checked) {
  // A host run compiles on ptxas only: the recorded bug's ptxas levels are what it is held to.
  const BugsComparison ptxas_only = compare_bugs(sample_file(), {finding_now({ptxas(1), ptxas(2), ptxas(3)})}, ptxas_paths(),
                                                 {"known/m014-vsub4-divergent-branch"}, "13.0.88", "none");
  EXPECT_EQ(ptxas_only.known.size(), 1u);
  EXPECT_TRUE(ptxas_only.fixed.empty());
  const BugsComparison not_run = compare_bugs(sample_file(), {}, all_toolchain_paths(), {}, "13.0.88", "13.0");
  EXPECT_TRUE(not_run.fixed.empty());
  EXPECT_EQ(not_run.recorded_checked, 0u);
}

// A random program's finding recorded with its minimal kernel's shape: the program replayed (its whole
// kernel) or another program shrunk (a minimal kernel that holds a few more opcodes).
BugsFile random_file() {
  BugsFile f = sample_file();
  BugRecord& b = f.bugs.front();
  b.reproducer = "ptx/0x5eed/17";
  b.levels = {ptxas(2), ptxas(3)};
  b.shape = "bra mov.u32 prmt.b32 st.global.u32";
  b.signature = signature(b.kinds, b.levels, b.shape);
  return f;
}

BugRecord random_now(const std::string& reproducer, std::vector<ToolchainPath> levels, const std::string& shape) {
  BugRecord b = random_file().bugs.front();
  b.reproducer = reproducer;
  b.levels = std::move(levels);
  b.shape = shape;
  b.signature = signature(b.kinds, b.levels, b.shape);
  return b;
}

TEST(ToolchainBugsCompare, a_replayed_program_holding_its_recorded_shape_reproduces_it_or_is_fixed_on_the_levels_it_lost) {
  const std::string whole = "add.u32 bra mov.u32 prmt.b32 setp.lt.u32 st.global.u32";
  const BugsComparison same = compare_bugs(random_file(), {random_now("ptx/0x5eed/17", {ptxas(2), ptxas(3)}, whole)},
                                           all_toolchain_paths(), {"ptx/0x5eed/17"}, "13.0.88", "13.0");
  EXPECT_EQ(same.known, (std::vector<size_t>{0}));
  EXPECT_TRUE(same.fixed.empty());
  const BugsComparison fewer = compare_bugs(random_file(), {random_now("ptx/0x5eed/17", {ptxas(3)}, whole)}, all_toolchain_paths(),
                                            {"ptx/0x5eed/17"}, "13.2.78", "13.0");
  EXPECT_EQ(fewer.known, (std::vector<size_t>{0}));
  ASSERT_EQ(fewer.fixed.size(), 1u);
  EXPECT_EQ(fewer.fixed[0].text, "fixed in ptxas 13.2.78 on ptxas-O2");
  // Another program's whole kernel is no replay: the same levels and a larger shape are a new finding.
  const BugsComparison other = compare_bugs(random_file(), {random_now("ptx/0x5eed/18", {ptxas(2), ptxas(3)}, whole)},
                                            all_toolchain_paths(), {"ptx/0x5eed/17"}, "13.0.88", "13.0");
  EXPECT_EQ(other.fresh, (std::vector<size_t>{0}));
}

TEST(ToolchainBugsCompare, a_shrunk_finding_holding_a_recorded_shape_on_its_levels_is_that_bug) {
  const BugRecord shrunk = random_now("ptx/0x77/3", {ptxas(2), ptxas(3)}, "bra mov.u32 prmt.b32 selp.b32 st.global.u32");
  const BugsComparison as_minimal = compare_bugs(random_file(), {shrunk}, all_toolchain_paths(), {}, "13.0.88", "13.0", {true});
  EXPECT_EQ(as_minimal.known, (std::vector<size_t>{0}));
  const BugsComparison not_minimal = compare_bugs(random_file(), {shrunk}, all_toolchain_paths(), {}, "13.0.88", "13.0", {false});
  EXPECT_EQ(not_minimal.fresh, (std::vector<size_t>{0}));
  const BugRecord lacking = random_now("ptx/0x77/3", {ptxas(2), ptxas(3)}, "bra mov.u32 selp.b32 st.global.u32");
  EXPECT_EQ(compare_bugs(random_file(), {lacking}, all_toolchain_paths(), {}, "13.0.88", "13.0", {true}).fresh, (std::vector<size_t>{0}));
  const BugRecord elsewhere = random_now("ptx/0x77/3", {ptxas(1), ptxas(2), ptxas(3)}, "bra mov.u32 prmt.b32 st.global.u32 xor.b32");
  EXPECT_EQ(compare_bugs(random_file(), {elsewhere}, all_toolchain_paths(), {}, "13.0.88", "13.0", {true}).fresh, (std::vector<size_t>{0}));
}

const KnownBug& known(const std::string& id) {
  for (const KnownBug& b : known_bugs())
    if (b.id == id) return b;
  throw std::logic_error("no fixture " + id);
}

uint32_t expected(const std::string& id, size_t word) { return known(id).module.kernels.front().expected->at(word); }

TEST(ToolchainKnownBugs, their_expected_outputs_are_the_derivations_written_beside_them) {
  EXPECT_EQ(expected("m001-divergent-loop-entry", 0), 100u);
  EXPECT_EQ(expected("m001-divergent-loop-entry", 31), 131u);
  EXPECT_EQ(expected("m014-vsub4-divergent-branch", 9), 0xf7u);
  EXPECT_EQ(expected("m014-vsub4-divergent-branch", 8), 0u);
  EXPECT_EQ(expected("m042-vsub4-if-converted-else", 5), 0x23u * (0x882a34e1u + 5 * 0x01010101u) + 46474u);
  EXPECT_EQ(expected("m042-vsub4-if-converted-else", 6), 6u);
  EXPECT_EQ(expected("m073-cached-load-loop-entry", 2), 0x2b0cu);
  EXPECT_EQ(expected("m076-predicated-mad-loop-live-out", 0), 0xfffffffeu);
  EXPECT_EQ(expected("m076-predicated-mad-loop-live-out", 30), 0x80000000u);
  EXPECT_EQ(expected("m076-predicated-mad-loop-live-out", 31), 0u);
  EXPECT_EQ(expected("m079-predicated-packed-add", 11), 0x5bu);
  EXPECT_EQ(expected("m079-predicated-packed-add", 10), 0x14u);
  EXPECT_EQ(expected("m080-ldu-signed-branch", 0), 0xefeafaeau);
  EXPECT_EQ(expected("m080-ldu-signed-branch", 1), 8u);
  EXPECT_EQ(expected("m019-uniform-loop-counters", 4), 5u);
  EXPECT_EQ(expected("m084-optimizer-crash", 0), kUnwritten);
  EXPECT_EQ(expected("m084-optimizer-crash", 2), 0x7c203c20u);
  for (const KnownBug& b : known_bugs()) {
    const PtxKernel& k = b.module.kernels.front();
    EXPECT_EQ(k.expected->size(), k.output_words) << b.id;
    EXPECT_TRUE(layout(b.module.text) && layout(b.module.text)->entries.size() == 1) << b.id;
  }
}

// Every fixture through ptxas at each level, in forked children as the runner does: valid PTX is
// never refused; -O0 always compiles; a crash at a higher level (m084's class) is a finding, not a
// refusal. Skipped where the toolkit's compiler is not here. One child at a time: under the asan
// preset (GCC 12's libasan, whose allocator is not locked around fork) a child forked while another
// lane's thread allocated waited on the allocator's lock until the runner's time limit, four times
// a run (240 s of the self-test), then ran again and passed.
void compiles_every_fixture(OfflineCompiler compiler) {
  std::string why_not;
  if (offline_compiler_version(compiler, {}, why_not).empty()) GTEST_SKIP() << why_not;
  RunOptions o;
  o.offline = compiler;
  o.compile_only = true;
  o.arch = "sm_90";
  o.paths = ptxas_paths();
  o.parallel = 1;
  std::vector<PtxModule> modules;
  for (const KnownBug& b : known_bugs()) modules.push_back(b.module);
  const RunResult run = run_toolchain(modules, o);
  EXPECT_EQ(run.timings.kernels_compiled, 4 * modules.size());
  for (size_t m = 0; m < modules.size(); ++m)
    for (size_t p = 0; p < run.paths.size(); ++p) {
      const KernelOutcome& out = run.outcomes[m][0][p];
      SCOPED_TRACE(known_bugs()[m].id + " " + name(run.paths[p]) + ": " + out.detail);
      EXPECT_NE(out.verdict, KernelVerdict::compile_refusal);
      if (run.paths[p].level == 0) {
        EXPECT_EQ(out.verdict, KernelVerdict::not_run);  // compiled, and nothing runs
      }
      std::cout << known_bugs()[m].id << " " << name(run.paths[p]) << " "
                << (out.verdict == KernelVerdict::not_run ? "compiled" : std::string(name(out.verdict))) << " in " << out.compile_ms << " ms\n";
    }
}

TEST(ToolchainCompile, every_fixture_through_the_ptxas_binary_at_each_level) { compiles_every_fixture(OfflineCompiler::ptxas_binary); }
TEST(ToolchainCompile, every_fixture_through_nvjitlink_at_each_level) { compiles_every_fixture(OfflineCompiler::nvjitlink); }

TEST(ToolchainCompile, a_refusal_is_named_by_its_kernel) {
  if (std::string why_not; offline_compiler_version(OfflineCompiler::ptxas_binary, {}, why_not).empty()) GTEST_SKIP() << why_not;
  PtxModule m{kTwoKernels, {}};
  std::string broken = kTwoKernels;
  broken.replace(broken.rfind("  ret;"), 6, "  frobnicate.u32 %r1;");
  m.text = broken;
  PtxKernel first, second;
  first.name = "first";
  second.name = "second";
  m.kernels = {first, second};
  RunOptions o;
  o.offline = OfflineCompiler::ptxas_binary;
  o.compile_only = true;
  o.arch = "sm_90";
  o.paths = {ptxas(0)};
  o.parallel = 2;
  const RunResult run = run_toolchain({m}, o);
  EXPECT_EQ(run.outcomes[0][0][0].verdict, KernelVerdict::not_run);  // first compiles alone
  EXPECT_EQ(run.outcomes[0][1][0].verdict, KernelVerdict::compile_refusal);
}

// The reproducer of one fixture builds with nvcc alone (linking against the driver's stub here).
TEST(ToolchainReproducer, builds_with_nvcc) {
  const std::filesystem::path nvcc = std::filesystem::path(WARPCONF_PTXAS_FOR_TESTS).parent_path() / "nvcc";
  if (!std::filesystem::exists(nvcc)) GTEST_SKIP() << "no nvcc beside ptxas";
  const KnownBug& b = known("m014-vsub4-divergent-branch");
  Finding f;
  f.kernel_name = b.module.kernels.front().name;
  f.reference = "oracle";
  f.levels = {ptxas(1), ptxas(2), ptxas(3), jit(4)};
  f.kinds = {"wrong-output"};
  f.shape = shape(b.module.text, f.kernel_name);
  f.signature = signature(f.kinds, f.levels, f.shape);
  const check::TemporaryFolder scratch("warpconf-repro");
  const std::string dir = (scratch.path() / "m014").string();
  write_reproducer(dir, f, b.module.text, b.module.kernels.front(), {{"oracle", *b.module.kernels.front().expected}},
                   {"13.0.88", "13.0", "none", "sm_90"}, {});
  for (const char* file : {"kernel.ptx", "repro.cu", "NOTES.txt"}) EXPECT_TRUE(std::filesystem::exists(dir + "/" + file)) << file;
  const std::string lib = nvcc.parent_path().parent_path().string() + "/lib64";
  const check::ProcessOutput build = check::run_process_output(
      {nvcc.string(), "-o", dir + "/repro", dir + "/repro.cu", "-L" + lib, "-L" + lib + "/stubs", "-lcuda", "-lnvJitLink"});
  EXPECT_TRUE(build.end.succeeded()) << build.end.text() << ": " << build.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/repro"));
}

}  // namespace
}  // namespace wc::toolchain
