// The golden and deviations file formats (fixtures/golden, docs/golden-format.md): exact round
// trips, and every class of defect reported as a FormatError at its file and line.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/seconds_since.hpp"
#include "formats/deviations.hpp"
#include "formats/golden.hpp"

namespace wc::golden {
namespace {

constexpr const char* golden_path = "golden/sm_90/shuffle.golden";
constexpr const char* deviations_path = "golden/sm_90/deviations.txt";

// A canonical golden file of three cases, one line per entry (line n is entry n - 1).
std::vector<std::string> golden_lines() {
  return {"warpconf-golden 1",
          "device: NVIDIA H100 80GB HBM3",
          "compute-capability: 9.0",
          "driver: 580.159.04",
          "runtime: 13.0",
          "nvcc: 13.0.88",
          "code-path: sass",
          "suite-version: 0.8.0",
          "corpus-version: 1",
          "corpus-hash: 0123456789abcdef",
          "family: shuffle",
          "cases: 3",
          "recorded: 2026-11-22T06:00:00Z",
          "0 shfl i32 mask=ffffffff src=3 width=32 | 1f*30 - 0 | d*30 u n",
          "1 shfl i32 mask=1 src=0 | 0 -*31 | d n*31",
          "2 shfl u64 mask=3 src=1 width=2 | ffffffffffffffff*2 ab | p*2 d"};
}

std::string join(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + '\n';
  return text;
}

// The file with line `number` (1-based) replaced.
std::string with_line(size_t number, const std::string& line) {
  auto lines = golden_lines();
  lines.at(number - 1) = line;
  return join(lines);
}

std::string without_line(size_t number) {
  auto lines = golden_lines();
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(number - 1));
  return join(lines);
}

std::string with_lines_swapped(size_t a, size_t b) {
  auto lines = golden_lines();
  std::swap(lines.at(a - 1), lines.at(b - 1));
  return join(lines);
}

std::string with_line_inserted(size_t before, const std::string& line) {
  auto lines = golden_lines();
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(before - 1), line);
  return join(lines);
}

GoldenFile read_text(const std::string& text) {
  std::istringstream in(text);
  return read_golden(in, golden_path);
}

TEST(GoldenFormat, reads_every_field_of_a_canonical_file) {
  const GoldenFile file = read_text(join(golden_lines()));
  const Header& h = file.header;
  EXPECT_EQ(h.device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(h.compute_capability, "9.0");
  EXPECT_EQ(h.driver, "580.159.04");
  EXPECT_EQ(h.runtime, "13.0");
  EXPECT_EQ(h.nvcc, "13.0.88");
  EXPECT_EQ(h.code_path, "sass");
  EXPECT_EQ(h.suite_version, "0.8.0");
  EXPECT_EQ(h.corpus_version, 1);
  EXPECT_EQ(h.corpus_hash, "0123456789abcdef");
  EXPECT_EQ(h.family, "shuffle");
  EXPECT_EQ(h.cases, 3u);
  EXPECT_EQ(h.recorded, "2026-11-22T06:00:00Z");
  ASSERT_EQ(file.cases.size(), 3u);

  const CaseLine& first = file.cases[0];
  EXPECT_EQ(first.index, 0u);
  EXPECT_EQ(first.line, 14u);
  EXPECT_EQ(first.inputs, "shfl i32 mask=ffffffff src=3 width=32");
  ASSERT_EQ(first.outputs.size(), 32u);
  EXPECT_EQ(first.outputs[29], std::optional<uint64_t>(0x1f));
  EXPECT_EQ(first.outputs[30], std::nullopt);
  EXPECT_EQ(first.outputs[31], std::optional<uint64_t>(0));
  EXPECT_EQ(first.classes, std::string(30, 'd') + "un");

  const CaseLine& last = file.cases[2];
  EXPECT_EQ(last.line, 16u);
  EXPECT_EQ(last.outputs, (std::vector<std::optional<uint64_t>>{~uint64_t{0}, ~uint64_t{0}, 0xab}));
  EXPECT_EQ(last.classes, "ppd");
}

TEST(GoldenFormat, canonical_text_writes_back_byte_for_byte) {
  const std::string text = join(golden_lines());
  const GoldenFile file = read_text(text);
  EXPECT_EQ(write_golden(file), text);
  std::ostringstream out;
  write_golden(out, file);
  EXPECT_EQ(out.str(), text);
  EXPECT_EQ(read_text(out.str()), file);
}

TEST(GoldenFormat, split_runs_are_read_and_written_as_maximal_runs) {
  const GoldenFile file = read_text(with_line(14, "0 shfl i32 mask=ffffffff src=3 width=32 | 1f*2 1f*27 1f - 0 | d*29 d u n"));
  EXPECT_EQ(write_golden(file), join(golden_lines()));
}

TEST(GoldenFormat, any_file_the_writer_accepts_reads_back_equal) {
  GoldenFile file = read_text(join(golden_lines()));
  file.header.corpus_version = std::numeric_limits<int>::max();
  file.header.code_path = "sass-ptxas-O0";
  file.header.recorded = "2028-02-29T23:59:59Z";
  CaseLine wide;
  wide.index = 3;
  wide.line = 17;
  wide.inputs = "x";
  for (size_t i = 0; i < max_outputs_per_case; ++i) {
    wide.outputs.push_back(i % 3 == 0 ? std::nullopt : std::optional<uint64_t>(i / 2));
    wide.classes += "dpun"[i / 7 % 4];
  }
  file.cases.push_back(wide);
  CaseLine single{4, "y", {uint64_t{1} << 63}, "p", 18};
  file.cases.push_back(single);
  file.header.cases = file.cases.size();
  const std::string text = write_golden(file);
  EXPECT_EQ(read_text(text), file);
  EXPECT_EQ(write_golden(read_text(text)), text);
}

TEST(GoldenFormat, the_writer_rejects_what_the_reader_would) {
  const GoldenFile good = read_text(join(golden_lines()));
  const std::vector<std::pair<const char*, void (*)(GoldenFile&)>> defects = {
      {"cases count", [](GoldenFile& f) { f.header.cases = 4; }},
      {"hash", [](GoldenFile& f) { f.header.corpus_hash = "0123"; }},
      {"code path", [](GoldenFile& f) { f.header.code_path = "SASS"; }},
      {"corpus version", [](GoldenFile& f) { f.header.corpus_version = 0; }},
      {"device space", [](GoldenFile& f) { f.header.device = "H100 "; }},
      {"device newline", [](GoldenFile& f) { f.header.device = "H\n100"; }},
      {"index", [](GoldenFile& f) { f.cases[1].index = 2; }},
      {"inputs bar", [](GoldenFile& f) { f.cases[0].inputs = "a | b"; }},
      {"inputs empty", [](GoldenFile& f) { f.cases[0].inputs.clear(); }},
      {"lengths", [](GoldenFile& f) { f.cases[0].classes.pop_back(); }},
      {"class letter", [](GoldenFile& f) { f.cases[0].classes[0] = 'x'; }},
      {"no outputs", [](GoldenFile& f) { f.cases[0].outputs.clear(), f.cases[0].classes.clear(); }},
  };
  for (const auto& [name, spoil] : defects) {
    GoldenFile bad = good;
    spoil(bad);
    EXPECT_THROW(write_golden(bad), std::invalid_argument) << name;
  }
}

// Size, not speed: a timed assertion fails on a loaded machine; the time is printed for reading.
TEST(GoldenFormat, reads_fifty_thousand_cases) {
  std::vector<std::string> lines = golden_lines();
  lines.resize(13);
  constexpr size_t count = 50'000;
  lines[11] = "cases: " + std::to_string(count);
  for (size_t i = 0; i < count; ++i) {
    std::string outputs;
    for (size_t lane = 0; lane < 32; ++lane) outputs += (lane ? " " : "") + std::to_string(1000000 + i * 32 + lane);
    lines.push_back(std::to_string(i) + " shfl i32 mask=ffffffff src=" + std::to_string(i % 32) + " | " + outputs + " | d*32");
  }
  const std::string text = join(lines);
  ASSERT_GT(text.size(), 5u << 20);  // larger than the largest golden file expected
  const auto start = std::chrono::steady_clock::now();
  const GoldenFile file = read_text(text);
  const double seconds = seconds_since(start);
  EXPECT_EQ(file.cases.size(), count);
  std::cout << "read " << text.size() << " bytes, " << count << " cases in " << seconds << " s\n";
}

// One defective golden file: the line its error names and a fragment of the message.
struct BadGolden {
  const char* name;
  std::string text;
  size_t line;
  const char* message;
};

std::ostream& operator<<(std::ostream& out, const BadGolden& bad) { return out << bad.name; }

class GoldenFormatErrors : public ::testing::TestWithParam<BadGolden> {};

// Each instance is named for its defect.
template <class Bad>
std::string defect_name(const ::testing::TestParamInfo<Bad>& info) {
  return info.param.name;
}

TEST_P(GoldenFormatErrors, are_reported_at_their_line) {
  const BadGolden& bad = GetParam();
  try {
    read_text(bad.text);
    ADD_FAILURE() << "read without error";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.path(), golden_path);
    EXPECT_EQ(e.line(), bad.line) << e.what();
    const std::string prefix = std::string(golden_path) + ":" + std::to_string(bad.line) + ": ";
    EXPECT_EQ(std::string(e.what()).substr(0, prefix.size()), prefix) << e.what();
    EXPECT_NE(std::string(e.what()).find(bad.message), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

const std::string full = join(golden_lines());
const std::string case0_head = "0 shfl i32 mask=ffffffff src=3 width=32";

INSTANTIATE_TEST_SUITE_P(GoldenHeader, GoldenFormatErrors, ::testing::Values(
    BadGolden{"empty_file", "", 1, "empty file"},
    BadGolden{"bad_magic", with_line(1, "warpconf-gold 1"), 1, "not a golden file"},
    BadGolden{"other_format_version", with_line(1, "warpconf-golden 2"), 1, "unsupported format version '2'"},
    BadGolden{"crlf_line_end", with_line(1, "warpconf-golden 1\r"), 1, "'\\x0d' at column 18 is not printable"},
    BadGolden{"missing_key", without_line(4), 4, "header key 'driver' missing or out of order: found 'runtime'"},
    BadGolden{"reordered_keys", with_lines_swapped(5, 6), 5, "header key 'runtime' missing or out of order: found 'nvcc'"},
    BadGolden{"duplicated_key", with_line_inserted(4, "device: again"), 4, "duplicated header key 'device' (first on line 2)"},
    BadGolden{"unknown_key", with_line(8, "suite: 0.8.0"), 8, "unknown header key 'suite'"},
    BadGolden{"no_space_after_colon", with_line(2, "device:H100"), 2, "one space after 'device:'"},
    BadGolden{"empty_value", with_line(4, "driver: "), 4, "driver: empty value"},
    BadGolden{"trailing_space", with_line(5, "runtime: 13.0 "), 5, "starts or ends with a space"},
    BadGolden{"compute_capability_shape", with_line(3, "compute-capability: 9"), 3, "not <major>.<minor>"},
    BadGolden{"compute_capability_leading_zero", with_line(3, "compute-capability: 09.0"), 3, "not <major>.<minor>"},
    BadGolden{"code_path", with_line(7, "code-path: ptx"), 7, "is none of sass, sass-debug, sass-ptxas-O0, jit-native, jit-75"},
    BadGolden{"corpus_version_zero", with_line(9, "corpus-version: 0"), 9, "must be positive"},
    BadGolden{"corpus_version_sign", with_line(9, "corpus-version: +1"), 9, "not a decimal number"},
    BadGolden{"corpus_version_too_big", with_line(9, "corpus-version: 2147483648"), 9, "exceeds 2147483647"},
    BadGolden{"hash_too_short", with_line(10, "corpus-hash: 0123456789abcde"), 10, "not 16 hex digits"},
    BadGolden{"hash_uppercase", with_line(10, "corpus-hash: 0123456789ABCDEF"), 10, "not 16 lowercase hex digits"},
    BadGolden{"family_charset", with_line(11, "family: Shuffle"), 11, "family 'Shuffle' may hold only"},
    BadGolden{"cases_zero", with_line(12, "cases: 0"), 12, "at least 1"},
    BadGolden{"cases_huge", with_line(12, "cases: 99999999999"), 12, "exceeds 10000000"},
    BadGolden{"recorded_shape", with_line(13, "recorded: 2026-11-22 06:00:00Z"), 13, "is not a UTC time"},
    BadGolden{"recorded_zone", with_line(13, "recorded: 2026-11-22T06:00:00+01"), 13, "is not a UTC time"},
    BadGolden{"recorded_date", with_line(13, "recorded: 2026-02-29T06:00:00Z"), 13, "not a valid date"},
    BadGolden{"recorded_hour", with_line(13, "recorded: 2026-11-22T24:00:00Z"), 13, "not a valid date"},
    BadGolden{"header_truncated", join({"warpconf-golden 1", "device: x"}), 3, "header has 2 of its 13 lines"}), defect_name<BadGolden>);

INSTANTIATE_TEST_SUITE_P(GoldenCases, GoldenFormatErrors, ::testing::Values(
    BadGolden{"reordered_indices", with_lines_swapped(15, 16), 15, "case index 2 out of order: expected 1"},
    BadGolden{"index_leading_zero", with_line(15, "01 x | 0 | d"), 15, "case index: '01' has a leading zero"},
    BadGolden{"index_not_a_number", with_line(15, "one x | 0 | d"), 15, "case index: 'one' is not a decimal"},
    BadGolden{"fewer_lines_than_cases", without_line(16), 16, "truncated: `cases` (line 12) announces 3 case lines, found 2"},
    BadGolden{"no_newline_at_end", full.substr(0, full.size() - 1), 16, "does not end with a newline"},
    BadGolden{"extra_line", full + "3 x | 0 | d\n", 17, "more case lines than `cases` (3)"},
    BadGolden{"extra_blank_line", full + "\n", 17, "more case lines than `cases` (3)"},
    BadGolden{"one_bar", with_line(15, "1 x | 0 -*31 d n*31"), 15, "with 2 '|', found 1"},
    BadGolden{"three_bars", with_line(15, "1 x|y | 0 -*31 | d n*31"), 15, "with 2 '|', found 3"},
    BadGolden{"bar_without_spaces", with_line(15, "1 x | 0 -*31 |d n*31"), 15, "one space on either side"},
    BadGolden{"no_inputs", with_line(15, "1 | 0 | d"), 15, "expected '<index> <inputs>' before the first '|', found '1'"},
    BadGolden{"index_only", with_line(15, "1  | 0 | d"), 15, "inputs: empty value"},
    BadGolden{"inputs_leading_space", with_line(15, "1  x | 0 | d"), 15, "inputs: value ' x' starts or ends with a space"},
    BadGolden{"tab", with_line(15, "1 x\ty | 0 | d"), 15, "'\\x09' at column 4"},
    BadGolden{"hex_uppercase", with_line(14, case0_head + " | 1F*30 - 0 | d*30 u n"), 14, "outputs: hex word '1F' has an uppercase digit"},
    BadGolden{"hex_leading_zero", with_line(14, case0_head + " | 01f*30 - 0 | d*30 u n"), 14, "hex word '01f' has a leading zero"},
    BadGolden{"hex_seventeen_digits", with_line(14, case0_head + " | 10000000000000000*30 - 0 | d*30 u n"), 14, "more than 16 digits"},
    BadGolden{"hex_prefix", with_line(14, case0_head + " | 0x1f*30 - 0 | d*30 u n"), 14, "not a hex word: '0x1f'"},
    BadGolden{"double_space", with_line(14, case0_head + " | 1f*30  - 0 | d*30 u n"), 14, "empty token"},
    BadGolden{"empty_outputs", with_line(14, case0_head + " |  | d"), 14, "outputs are empty"},
    BadGolden{"bars_one_space_apart", with_line(14, case0_head + " | | d"), 14, "outputs are empty"},
    BadGolden{"run_of_one", with_line(14, case0_head + " | 1f*30 -*1 0 | d*30 u n"), 14, "run count in '-*1' is below 2"},
    BadGolden{"run_of_zero", with_line(14, case0_head + " | 1f*30 - 0*0 0 | d*30 u n"), 14, "run count in '0*0' is below 2"},
    BadGolden{"run_leading_zero", with_line(14, case0_head + " | 1f*030 - 0 | d*30 u n"), 14, "'030' has a leading zero"},
    BadGolden{"run_empty_count", with_line(14, case0_head + " | 1f* - 0 | d*30 u n"), 14, "empty number"},
    BadGolden{"run_two_stars", with_line(14, case0_head + " | 1f*3*10 - 0 | d*30 u n"), 14, "is not a decimal number"},
    BadGolden{"run_overflow", with_line(14, case0_head + " | 1f*99999999999999999999999 | d"), 14, "exceeds 65536"},
    BadGolden{"run_over_limit", with_line(14, case0_head + " | 0*65537 | d*65537"), 14, "exceeds 65536"},
    BadGolden{"runs_over_limit", with_line(14, case0_head + " | 0*65536 1 | d*65537"), 14, "outputs: more than 65536 in one case"},
    BadGolden{"classes_over_limit", with_line(14, case0_head + " | 0*65536 | d*65536 u"), 14, "classes: more than 65536"},
    BadGolden{"fewer_classes", with_line(14, case0_head + " | 1f*30 - 0 | d*30 u"), 14, "32 outputs but 31 classes"},
    BadGolden{"more_classes", with_line(14, case0_head + " | 1f*30 - 0 | d*30 u n n"), 14, "32 outputs but 33 classes"},
    BadGolden{"unknown_class", with_line(14, case0_head + " | 1f*30 - 0 | d*30 x n"), 14, "class 'x' is not one of d p u n"},
    BadGolden{"uppercase_class", with_line(14, case0_head + " | 1f*30 - 0 | D*30 u n"), 14, "class 'D' is not one of d p u n"},
    BadGolden{"class_word", with_line(14, case0_head + " | 1f*30 - 0 | dd*15 u n"), 14, "class 'dd' is not one of"}), defect_name<BadGolden>);

TEST(GoldenFormat, a_huge_cases_count_costs_no_memory_before_the_lines_arrive) {
  // 10 million announced, one present: read as truncated at once, with no vector of 10 million cases.
  auto lines = golden_lines();
  lines.resize(14);
  lines[11] = "cases: 10000000";
  const auto start = std::chrono::steady_clock::now();
  try {
    read_text(join(lines));
    ADD_FAILURE() << "read without error";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.line(), 15u);
    EXPECT_NE(std::string(e.what()).find("announces 10000000 case lines, found 1"), std::string::npos) << e.what();
  }
  EXPECT_LT(seconds_since(start), 0.1);
}

TEST(GoldenFormat, a_missing_file_is_a_format_error_at_line_0) {
  try {
    read_golden_file("/nonexistent/sm_90/shuffle.golden");
    ADD_FAILURE() << "read without error";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.line(), 0u);
    EXPECT_EQ(std::string(e.what()), "/nonexistent/sm_90/shuffle.golden: cannot read: No such file or directory");
  }
  try {
    read_golden_file("/");
    ADD_FAILURE() << "read a directory without error";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()), "/: cannot read: Is a directory");
  }
}

// A deviations file of two blocks, with comments and blank lines around them.
std::string deviations_text() {
  return "# Known deviations on sm_90.\n"
         "\n"
         "\n"
         "id: fns.int-min\n"
         "rule: fns.int-min\n"
         "# a comment inside a block is still a comment\n"
         "case: __fns(mask, base, INT_MIN), every mask and base; warpconf explain fns --offset -2147483648\n"
         "documented: ffffffff\n"
         "observed: 0\n"
         "reason: PTX fns pseudocode searches |offset| = 2^31 set bits, finds none, stores 0xffffffff\n"
         "reference: PTX ISA 9.0 fns; seen on H100 and H200 (sm_90), driver 580.159.04, CUDA 13.0\n"
         "\n"
         "# second\n"
         "id: cub.warp-reduce.i64-sum-width-2\n"
         "rule: cub.warp-reduce.i64-sum-width-2\n"
         "case: x\n"
         "documented: 8000000000000000\n"
         "observed: ffffffffffffffff\n"
         "reason: y: z\n"
         "reference: w\n"
         "\n";
}

std::vector<Deviation> read_deviation_text(const std::string& text) {
  std::istringstream in(text);
  return read_deviations(in, deviations_path);
}

TEST(DeviationsFormat, reads_blocks_between_comments_and_blank_lines) {
  const auto deviations = read_deviation_text(deviations_text());
  ASSERT_EQ(deviations.size(), 2u);
  const Deviation& first = deviations[0];
  EXPECT_EQ(first.id, "fns.int-min");
  EXPECT_EQ(first.rule, "fns.int-min");
  EXPECT_EQ(first.case_text, "__fns(mask, base, INT_MIN), every mask and base; warpconf explain fns --offset -2147483648");
  EXPECT_EQ(first.documented, 0xffffffffu);
  EXPECT_EQ(first.observed, 0u);
  EXPECT_EQ(first.reason, "PTX fns pseudocode searches |offset| = 2^31 set bits, finds none, stores 0xffffffff");
  EXPECT_EQ(first.reference, "PTX ISA 9.0 fns; seen on H100 and H200 (sm_90), driver 580.159.04, CUDA 13.0");
  EXPECT_EQ(first.line, 4u);
  EXPECT_EQ(deviations[1].line, 14u);
  EXPECT_EQ(deviations[1].documented, uint64_t{1} << 63);
  EXPECT_EQ(deviations[1].observed, ~uint64_t{0});
  EXPECT_EQ(deviations[1].reason, "y: z");
}

TEST(DeviationsFormat, empty_and_comment_only_files_hold_no_deviations) {
  EXPECT_TRUE(read_deviation_text("").empty());
  EXPECT_TRUE(read_deviation_text("# none yet\n\n#\n").empty());
  EXPECT_TRUE(read_deviation_text("\n\n").empty());
}

TEST(DeviationsFormat, write_gives_canonical_text_that_reads_back_equal) {
  const auto deviations = read_deviation_text(deviations_text());
  const std::string text = write_deviations(deviations);
  auto again = read_deviation_text(text);
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[1].line, 9u);  // no comments: 7 lines and a blank line per block
  again[0].line = deviations[0].line;
  again[1].line = deviations[1].line;
  EXPECT_EQ(again, deviations);
  EXPECT_EQ(write_deviations(again), text);
  auto duplicated = deviations;
  duplicated[1].id = duplicated[0].id;
  EXPECT_THROW(write_deviations(duplicated), std::invalid_argument);
}

TEST(DeviationsFormat, a_missing_file_is_a_format_error_at_line_0) {
  try {
    read_deviations_file("/nonexistent/deviations.txt");
    ADD_FAILURE() << "read without error";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.line(), 0u);
    EXPECT_EQ(std::string(e.what()), "/nonexistent/deviations.txt: cannot read: No such file or directory");
  }
}

struct BadDeviations {
  const char* name;
  std::string text;
  size_t line;
  const char* message;
};

std::ostream& operator<<(std::ostream& out, const BadDeviations& bad) { return out << bad.name; }

class DeviationsFormatErrors : public ::testing::TestWithParam<BadDeviations> {};

TEST_P(DeviationsFormatErrors, are_reported_at_their_line) {
  const BadDeviations& bad = GetParam();
  try {
    read_deviation_text(bad.text);
    ADD_FAILURE() << "read without error";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.path(), deviations_path);
    EXPECT_EQ(e.line(), bad.line) << e.what();
    const std::string prefix = std::string(deviations_path) + ":" + std::to_string(bad.line) + ": ";
    EXPECT_EQ(std::string(e.what()).substr(0, prefix.size()), prefix) << e.what();
    EXPECT_NE(std::string(e.what()).find(bad.message), std::string::npos) << e.what();
  }
}

// deviations_text() with the text of its line `number` replaced ("" deletes the line).
std::string deviations_with(size_t number, const std::string& replacement) {
  std::istringstream in(deviations_text());
  std::string out, line;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (n != number) out += line + '\n';
    else if (!replacement.empty()) out += replacement + '\n';
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(DeviationBlocks, DeviationsFormatErrors, ::testing::Values(
    BadDeviations{"missing_key_before_blank", deviations_with(11, ""), 11, "deviation 'fns.int-min' (line 4) ends at a blank line before its key 'reference'"},
    BadDeviations{"missing_key_at_end", deviations_text().substr(0, deviations_text().size() - 14), 20, "ends at the end of the file before its key 'reference'"},
    BadDeviations{"missing_middle_key", deviations_with(8, ""), 8, "key 'documented' missing or out of order: found 'observed'"},
    BadDeviations{"wrong_order", deviations_with(5, "case: x"), 5, "key 'rule' missing or out of order: found 'case'"},
    BadDeviations{"duplicated_key", deviations_with(7, "rule: again"), 7, "duplicated key 'rule' in deviation 'fns.int-min'"},
    BadDeviations{"unknown_key", deviations_with(10, "why: x"), 10, "unknown key 'why' where 'reason' belongs"},
    BadDeviations{"duplicate_id", deviations_with(14, "id: fns.int-min"), 14, "duplicate id 'fns.int-min' (first on line 4)"},
    BadDeviations{"id_charset", deviations_with(4, "id: fns_int_min"), 4, "id 'fns_int_min' may hold only"},
    BadDeviations{"rule_charset", deviations_with(5, "rule: Fns"), 5, "rule 'Fns' may hold only"},
    BadDeviations{"hex_uppercase", deviations_with(8, "documented: FFFFFFFF"), 8, "documented: hex word 'FFFFFFFF' has an uppercase digit"},
    BadDeviations{"hex_prefix", deviations_with(9, "observed: 0x0"), 9, "observed: not a hex word: '0x0'"},
    BadDeviations{"hex_leading_zero", deviations_with(9, "observed: 00"), 9, "has a leading zero"},
    BadDeviations{"hex_too_long", deviations_with(9, "observed: 10000000000000000"), 9, "more than 16 digits"},
    BadDeviations{"empty_value", deviations_with(7, "case:"), 7, "case: empty value"},
    BadDeviations{"no_space_after_colon", deviations_with(7, "case:x"), 7, "one space after 'case:'"},
    BadDeviations{"indented_comment", deviations_with(6, " # not a comment"), 6, "expected 'key: value'"},
    BadDeviations{"blank_line_of_spaces", deviations_with(12, "  "), 12, "a blank line must be empty"},
    BadDeviations{"no_blank_between_blocks", deviations_with(12, "# no blank line"), 14, "expected a blank line between deviations"},
    BadDeviations{"no_newline_at_end", deviations_text().substr(0, deviations_text().size() - 2), 20, "does not end with a newline"},
    BadDeviations{"carriage_return", deviations_with(5, "rule: fns.int-min\r"), 5, "'\\x0d' at column 18 is not printable"},
    BadDeviations{"non_ascii_comment", deviations_with(1, "# \xc2\xb1 ulp"), 1, "'\\xc2' at column 3 is not printable"}), defect_name<BadDeviations>);

}  // namespace
}  // namespace wc::golden
