// The programs golden (formats/programs.hpp), without a GPU: what the writer writes reads back the
// same; the reader refuses each kind of bad line with its line number; the comparison with a run
// reports a planted change of a recorded undefined output as a behaviour change, and a golden of
// another corpus as not recorded, never as a pass.
#include <gtest/gtest.h>

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "formats/programs.hpp"

namespace wc {
namespace {

using golden::ProgramLine;
using golden::ProgramOutput;
using golden::ProgramsFile;

// Two programs on sass and sass-debug; the second needs more than jit-75 would give it, so it
// stands for a not-supported line on sass-debug.
ProgramsFile sample() {
  ProgramsFile f;
  f.header.device = "NVIDIA H100 80GB HBM3";
  f.header.compute_capability = "9.0";
  f.header.driver = "580.159.04";
  f.header.seed = 0x77617270636f6e66;
  f.header.first = 5;
  f.header.count = 2;
  f.header.paths = {"sass", "sass-debug"};
  f.header.recorded = "2026-11-22T06:00:00Z";
  const uint64_t first_hash = 0x0123456789abcdef, second_hash = 0xfedcba9876543210;
  f.header.corpus_hash = golden::programs_corpus_hash({first_hash, second_hash});
  f.lines = {
      {5, first_hash, "sass", "pass", {{0, 3, 0x1f}, {0, 4, std::nullopt}, {31, 48, 0}}, 0},
      {5, first_hash, "sass-debug", "pass", {{0, 3, 0x1f}, {0, 4, std::nullopt}, {31, 48, 0}}, 0},
      {6, second_hash, "sass", "pass", {}, 0},
      {6, second_hash, "sass-debug", "not-supported", {}, 0},
  };
  return f;
}

ProgramsFile read(const std::string& text) {
  std::istringstream in(text);
  return golden::read_programs(in, "programs.txt");
}

// `text` with its line `number` (1-based) replaced by `line`.
std::string with_line(const std::string& text, size_t number, const std::string& line) {
  std::istringstream in(text);
  std::string out, current;
  for (size_t n = 1; std::getline(in, current); ++n) out += (n == number ? line : current) + "\n";
  return out;
}

TEST(ProgramGolden, what_the_writer_writes_reads_back_the_same) {
  const ProgramsFile written = sample();
  const std::string text = golden::write_programs(written);
  ProgramsFile reread = read(text);
  for (size_t k = 0; k < reread.lines.size(); ++k) EXPECT_EQ(reread.lines[k].line, 11 + k);
  for (ProgramLine& l : reread.lines) l.line = 0;
  EXPECT_TRUE(reread == written);
  EXPECT_EQ(golden::write_programs(reread), text);
  EXPECT_NE(text.find("\n5 0123456789abcdef sass pass 0.3=1f 0.4=- 31.48=0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nseed: 77617270636f6e66\n"), std::string::npos) << text;
}

TEST(ProgramGolden, the_writer_refuses_a_file_the_reader_would_refuse) {
  ProgramsFile failed = sample();
  failed.lines[2].verdict = "conformance-failure";
  EXPECT_THROW(golden::write_programs(failed), std::invalid_argument);
  ProgramsFile unordered = sample();
  std::swap(unordered.lines[0].outputs[0], unordered.lines[0].outputs[1]);
  EXPECT_THROW(golden::write_programs(unordered), std::invalid_argument);
}

struct BadLine {
  const char* what;
  size_t line;             // the line replaced, and the line the error must name
  std::string text;        // its replacement
  const char* complaint;   // a part of the message
};

class ProgramGoldenReader : public ::testing::TestWithParam<BadLine> {};

TEST_P(ProgramGoldenReader, refuses_the_bad_line_with_its_number) {
  const BadLine& bad = GetParam();
  const std::string text = with_line(golden::write_programs(sample()), bad.line, bad.text);
  try {
    read(text);
    FAIL() << bad.what << ": read without complaint:\n" << text;
  } catch (const golden::FormatError& e) {
    EXPECT_EQ(e.line(), bad.line) << e.what();
    EXPECT_NE(e.message().find(bad.complaint), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

const std::string kLine11 = "5 0123456789abcdef sass pass";
INSTANTIATE_TEST_SUITE_P(
    EachKind, ProgramGoldenReader,
    ::testing::Values(
        BadLine{"another format", 1, "warpconf-golden 1", "not a programs golden"},
        BadLine{"a key out of order", 2, "driver: 580.159.04", "expected the key 'device'"},
        BadLine{"a compute capability with a leading zero", 3, "compute-capability: 09.0", "compute-capability"},
        BadLine{"a seed written with 0x", 5, "seed: 0x77617270636f6e66", "seed"},
        BadLine{"a first with a sign", 6, "first: -5", "first"},
        BadLine{"no programs", 7, "count: 0", "no program"},
        BadLine{"a corpus hash of other programs", 8, "corpus-hash: 0000000000000000", "not the hash of the programs"},
        BadLine{"a short corpus hash", 8, "corpus-hash: 123", "16 lowercase hex digits"},
        BadLine{"an unknown path", 9, "paths: sass, ptx", "not a code path"},
        BadLine{"a path twice", 9, "paths: sass, sass", "twice"},
        BadLine{"a time without its zone", 10, "recorded: 2026-11-22T06:00:00", "recorded"},
        BadLine{"another program's index", 11, "6 0123456789abcdef sass pass", "expected program 5 on sass"},
        BadLine{"the paths in another order", 11, "5 0123456789abcdef sass-debug pass", "expected program 5 on sass"},
        BadLine{"a hash in capitals", 11, "5 0123456789ABCDEF sass pass", "program hash"},
        BadLine{"one program with two hashes", 12, "5 1123456789abcdef sass-debug pass", "has hash"},
        BadLine{"a failure recorded", 11, "5 0123456789abcdef sass trapped", "a golden holds no failure"},
        BadLine{"outputs of a program that did not run", 14, "6 fedcba9876543210 sass-debug not-supported 0.1=0",
                "has no outputs"},
        BadLine{"fields two spaces apart", 11, "5 0123456789abcdef  sass pass", "empty field"},
        BadLine{"a trailing space", 11, kLine11 + " ", "empty field"},
        BadLine{"too few fields", 11, "5 0123456789abcdef sass", "a program line is"},
        BadLine{"an output without a slot", 11, kLine11 + " 0=1f", "is not <thread>.<slot>=<word>"},
        BadLine{"a thread past the block", 11, kLine11 + " 128.0=1", "thread"},
        BadLine{"a slot past the log", 11, kLine11 + " 0.49=1", "slot"},
        BadLine{"a word with a leading zero", 11, kLine11 + " 0.3=01f", "output"},
        BadLine{"outputs out of order", 11, kLine11 + " 0.4=1 0.3=1", "not after the one before it"},
        BadLine{"an output twice", 11, kLine11 + " 0.3=1 0.3=1", "not after the one before it"},
        BadLine{"a tab", 11, kLine11 + "\t", "not printable ASCII"}),
    [](const ::testing::TestParamInfo<BadLine>& info) {
      std::string name = info.param.what;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

TEST(ProgramGolden, the_reader_refuses_a_truncated_file_an_extra_line_and_a_missing_newline) {
  const std::string text = golden::write_programs(sample());
  const std::string without_last = text.substr(0, text.rfind('\n', text.size() - 2) + 1);
  const auto line_of = [](const std::string& t) -> size_t {
    try {
      read(t);
    } catch (const golden::FormatError& e) {
      return e.line();
    }
    return 0;
  };
  EXPECT_EQ(line_of(without_last), 14u);
  EXPECT_EQ(line_of(text + "7 0123456789abcdef sass pass\n"), 15u);
  EXPECT_EQ(line_of(text.substr(0, text.size() - 1)), 14u);
  EXPECT_EQ(line_of(""), 1u);
}

TEST(ProgramGolden, the_same_run_compares_every_recorded_output_and_changes_nothing) {
  const golden::ProgramsComparison c = golden::compare_programs(sample(), sample());
  EXPECT_EQ(c.not_recorded, "");
  ASSERT_EQ(c.paths.size(), 2u);
  for (const golden::PathComparison& p : c.paths) {
    EXPECT_TRUE(p.recorded);
    EXPECT_EQ(p.programs_compared, 2u);
    EXPECT_TRUE(p.changes.empty());
  }
  EXPECT_EQ(c.paths[0].outputs_compared, 3u);
}

TEST(ProgramGolden, a_changed_undefined_output_is_a_behaviour_change_naming_program_path_thread_and_slot) {
  ProgramsFile now = sample();
  now.lines[1].outputs[2].word = 0x7;  // program 5 on sass-debug, thread 31 slot 48
  const golden::ProgramsComparison c = golden::compare_programs(sample(), now);
  ASSERT_EQ(c.not_recorded, "");
  EXPECT_TRUE(c.paths[0].changes.empty());
  ASSERT_EQ(c.paths[1].changes.size(), 1u);
  const golden::ProgramChange& change = c.paths[1].changes.front();
  EXPECT_EQ(change.index, 5u);
  EXPECT_EQ(change.path, "sass-debug");
  EXPECT_EQ(golden::describe(change), "program 5 on sass-debug: thread 31 slot 48 (log entry 47): recorded 0x0, now 0x7");
}

TEST(ProgramGolden, an_output_written_no_more_or_no_longer_recorded_and_a_changed_verdict_are_changes) {
  ProgramsFile now = sample();
  now.lines[0].outputs[1].word = 0x5;      // thread 0 slot 4 wrote nothing when recorded
  now.lines[0].outputs.pop_back();         // thread 31 slot 48 is no longer undefined
  now.lines[3].verdict = "pass";           // program 6 runs on sass-debug now
  const golden::ProgramsComparison c = golden::compare_programs(sample(), now);
  ASSERT_EQ(c.paths[0].changes.size(), 2u);
  EXPECT_EQ(golden::describe(c.paths[0].changes[0]), "program 5 on sass: thread 0 slot 4 (log entry 3): recorded nothing written, now 0x5");
  EXPECT_EQ(golden::describe(c.paths[0].changes[1]),
            "program 5 on sass: thread 31 slot 48 (log entry 47): recorded 0x0, now absent (not an undefined or ptx-defined output)");
  ASSERT_EQ(c.paths[1].changes.size(), 1u);
  EXPECT_EQ(golden::describe(c.paths[1].changes[0]), "program 6 on sass-debug: verdict recorded not-supported, now pass");
}

TEST(ProgramGolden, a_golden_of_another_corpus_or_gpu_is_not_recorded_never_a_pass) {
  struct Other {
    const char* what;
    void (*change)(ProgramsFile&);
    const char* reason;
  };
  const Other others[] = {
      {"seed", [](ProgramsFile& f) { f.header.seed = 1; }, "this run is seed 0x1 first 5 count 2"},
      {"first", [](ProgramsFile& f) { f.header.first = 0; }, "this run is seed 0x77617270636f6e66 first 0"},
      {"count", [](ProgramsFile& f) { f.header.count = 1; }, "count 1"},
      {"generator", [](ProgramsFile& f) { f.lines[2].hash = f.lines[3].hash = 1; }, "program 6 is 0000000000000001"},
      {"gpu", [](ProgramsFile& f) { f.header.compute_capability = "10.0"; }, "this GPU is 10.0"},
  };
  for (const Other& other : others) {
    ProgramsFile now = sample();
    other.change(now);
    const golden::ProgramsComparison c = golden::compare_programs(sample(), now);
    EXPECT_NE(c.not_recorded.find(other.reason), std::string::npos) << other.what << ": " << c.not_recorded;
    EXPECT_TRUE(c.paths.empty()) << other.what;
  }
}

TEST(ProgramGolden, a_path_the_golden_lacks_is_not_recorded) {
  ProgramsFile now = sample();
  now.header.paths = {"sass", "jit-native"};
  for (ProgramLine& l : now.lines)
    if (l.path == "sass-debug") l.path = "jit-native";
  const golden::ProgramsComparison c = golden::compare_programs(sample(), now);
  ASSERT_EQ(c.paths.size(), 2u);
  EXPECT_TRUE(c.paths[0].recorded);
  EXPECT_FALSE(c.paths[1].recorded);
  EXPECT_EQ(c.paths[1].programs_compared, 0u);
}

}  // namespace
}  // namespace wc
