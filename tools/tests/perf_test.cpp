// Performance figures without a GPU: the perf.txt format and its errors at their line, the
// statistics, the change rule, the SASS counts of the timed loops on handwritten cuobjdump listings,
// and `warpconf perf compare|diff|accept` on files and stand-in measurements (docs/perf.md).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/perf/perf_records.hpp"
#include "core/perf/sass.hpp"
#include "core/perf/stats.hpp"
#include "formats/perf.hpp"
#include "harness/scratch_dir.hpp"
#include "cli_run.hpp"
#include "warpconf/cli/cli.hpp"
#include "warpconf/perf/perf_command.hpp"

namespace wc {
namespace {

namespace fs = std::filesystem;
using golden::PerfMetric;
using perf::Outcome;
using perf::Shift;
using perf::Summary;

const std::string kHeader =
    "warpconf-perf 2\n"
    "device: NVIDIA H100 80GB HBM3\n"
    "compute-capability: 9.0\n"
    "driver: 580.159.04\n"
    "runtime: 13.0\n"
    "nvcc: 13.0.88\n"
    "code-path: sass\n"
    "suite-version: 0.1.0\n"
    "recorded: 2026-11-22T06:00:00Z\n";

const std::string kFile = kHeader +
                          "figures: 3\n"
                          "shuffle.shfl.u32.ffffffff latency_cycles median=23.1 mad=0.02 n=30 sass=SHFL:1,ALL:1\n"
                          "shuffle.shfl.u32.ffffffff throughput_per_sm_cycle median=0.4996 mad=0.0001 n=30 "
                          "sass=SHFL:1,ALL:1.00403\n"
                          "bandwidth.copy.f32.1gi bandwidth_gbs median=3012.3 mad=1.5 n=30\n";

golden::PerfFile read(const std::string& text, const std::string& path = "perf.txt") {
  std::istringstream in(text);
  return golden::read_perf(in, path);
}

// The error of reading `text`, "" when it reads.
std::string error_of(const std::string& text) {
  try {
    read(text);
  } catch (const golden::FormatError& e) {
    return e.what();
  }
  return "";
}

TEST(PerfFormat, reads_and_writes_the_same_text) {
  const golden::PerfFile f = read(kFile);
  ASSERT_EQ(f.figures.size(), 3u);
  EXPECT_EQ(f.header.device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(f.figures[1].metric, PerfMetric::throughput_per_sm_cycle);
  EXPECT_DOUBLE_EQ(f.figures[1].median, 0.4996);
  EXPECT_EQ(f.figures[2].repetitions, 30u);
  EXPECT_EQ(f.figures[2].line, 13u);
  ASSERT_EQ(f.figures[1].sass.size(), 2u);
  EXPECT_EQ(f.figures[1].sass[0].instruction, "SHFL");
  EXPECT_DOUBLE_EQ(f.figures[1].sass[1].per_call, 1.00403);
  EXPECT_TRUE(f.figures[2].sass.empty());
  EXPECT_EQ(golden::write_perf(f), kFile);
}

TEST(PerfFormat, a_version_1_file_reads_without_counts_and_is_not_written_again) {
  std::string v1 = kFile;
  v1.replace(0, v1.find('\n'), "warpconf-perf 1");
  for (const char* counts : {" sass=SHFL:1,ALL:1.00403", " sass=SHFL:1,ALL:1"}) v1.erase(v1.find(counts), std::strlen(counts));
  const golden::PerfFile f = read(v1);
  EXPECT_EQ(f.version, 1);
  EXPECT_EQ(f.figures.size(), 3u);
  EXPECT_THROW(golden::write_perf(f), std::invalid_argument) << "a version 2 file holds no chain's figure uncounted";
}

TEST(PerfFormat, numbers_keep_six_significant_digits_in_fixed_notation) {
  EXPECT_EQ(golden::perf_number(0), "0");
  EXPECT_EQ(golden::perf_number(23.1), "23.1");
  EXPECT_EQ(golden::perf_number(2983.4549), "2983.45");
  EXPECT_EQ(golden::perf_number(0.031249999), "0.03125");
  EXPECT_EQ(golden::perf_number(1234567), "1234570");
  EXPECT_EQ(golden::perf_number(999999.7), "1000000");
  EXPECT_EQ(golden::perf_number(1e-7), "0.0000001");
  // Zeros past the sixth digit, not the digits of the double's binary value (999999000000000047497...).
  EXPECT_EQ(golden::perf_number(9.99999e35), "999999000000000000000000000000000000");
  EXPECT_EQ(golden::perf_number(1e39), "1000000000000000000000000000000000000000");
  EXPECT_THROW(golden::perf_number(1e40), std::invalid_argument);
  EXPECT_THROW(golden::perf_number(-1), std::invalid_argument);
  EXPECT_THROW(golden::perf_number(std::nan("")), std::invalid_argument);
  EXPECT_THROW(golden::perf_number(std::numeric_limits<double>::infinity()), std::invalid_argument);
  for (double v : {0.5, 17.25, 3012.3, 0.000123456, 98765.4}) {
    std::string e;
    EXPECT_EQ(golden::parse_perf_number(golden::perf_number(v), e), v) << v;
  }
}

TEST(PerfFormat, names_the_line_of_every_defect) {
  const std::string figures = "figures: 1\n";
  const std::string good = "a.b latency_cycles median=1 mad=0 n=1 sass=SHFL:1,ALL:1\n";
  const std::string latency = kHeader + figures + "a.b latency_cycles median=1 mad=0 n=1";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "perf.txt:1: empty file"},
      {"warpconf-perf 3\n", "perf.txt:1: the first line must be `warpconf-perf 2` (or `warpconf-perf 1`)"},
      {kHeader.substr(0, kHeader.find("driver")), "perf.txt:3: the header ends early"},
      {"warpconf-perf 1\ndevice: x\ncompute-capability: 9\n", "perf.txt:3: compute-capability '9' is not"},
      {"warpconf-perf 1\ndevice: x\ndriver: 1\n", "perf.txt:3: expected the key `compute-capability`"},
      {kHeader + "figures: x\n", "perf.txt:10: figures:"},
      {kHeader + figures, "perf.txt:10: fewer figure lines than `figures:` says"},
      {kHeader + figures + good + good, "perf.txt:12: more lines than `figures:` says"},
      {kHeader + "figures: 2\n" + good + good, "perf.txt:12: figure a.b latency_cycles twice"},
      {kHeader + figures + "a.b latency_cycles median=1 mad=0 n=1", "perf.txt:11: the last line has no newline"},
      {kHeader + figures + "a.b latency_cycles median=1 mad=0\n", "perf.txt:11: a figure line is"},
      {kHeader + figures + "a.b  latency_cycles median=1 mad=0\n", "perf.txt:11: two spaces"},
      {kHeader + figures + "A.b latency_cycles median=1 mad=0 n=1\n", "perf.txt:11: "},
      {kHeader + figures + "a.b latency median=1 mad=0 n=1\n", "perf.txt:11: unknown metric 'latency'"},
      {kHeader + figures + "a.b latency_cycles median=-1 mad=0 n=1\n", "perf.txt:11: median: '-1' is not a number"},
      {kHeader + figures + "a.b latency_cycles median=1e3 mad=0 n=1\n", "perf.txt:11: median: '1e3' is not a number"},
      {kHeader + figures + "a.b latency_cycles median=01 mad=0 n=1\n", "perf.txt:11: median: '01' has a leading zero"},
      {kHeader + figures + "a.b latency_cycles median=1.50 mad=0 n=1\n", "perf.txt:11: median: '1.50' has a trailing zero"},
      {kHeader + figures + "a.b latency_cycles median=1.234567 mad=0 n=1\n", "more than 6 significant digits"},
      {kHeader + figures + "a.b latency_cycles median=nan mad=0 n=1\n", "perf.txt:11: median: 'nan' is not a number"},
      {kHeader + figures + "a.b latency_cycles mad=0 median=1 n=1\n", "perf.txt:11: expected `median=<number>`"},
      {kHeader + figures + "a.b latency_cycles median=1 mad=0 n=0\n", "perf.txt:11: n: at least one repetition"},
      {kHeader + figures + "a.b latency_cycles median=1 mad=0 n=1x\n", "perf.txt:11: n:"},
      {kHeader + figures + "a.b latency_cycles median=1 mad=0 n=1\t\n", "perf.txt:11: "},
      // The counts of the timed loop (version 2): a chain's figure without them, or whose loop lacks
      // the instruction it names, is no figure.
      {latency + "\n", "perf.txt:11: a latency_cycles figure ends with `sass="},
      {latency + " sass=SHFL:0,ALL:3\n", "perf.txt:11: sass: the timed loop holds no SHFL, the instruction the figure names"},
      {latency + " sass=SHFL:1\n", "perf.txt:11: sass: the last count must be ALL"},
      {latency + " sass=shfl:1,ALL:1\n", "perf.txt:11: sass: 'shfl:1' is not `<INSTRUCTION>:<per call>`"},
      {latency + " sass=SHFL:1,SHFL:1,ALL:1\n", "perf.txt:11: sass: SHFL twice"},
      {latency + " sass=SHFL:1.50,ALL:1\n", "perf.txt:11: sass: SHFL: '1.50' has a trailing zero"},
      {latency + " sass=SHFL:1,ALL:1 x=1\n", "perf.txt:11: a figure line is"},
      {latency + " SHFL:1,ALL:1\n", "perf.txt:11: a latency_cycles figure ends with `sass="},
      {kHeader + figures + "a.b bandwidth_gbs median=1 mad=0 n=1 sass=SHFL:1,ALL:1\n",
       "perf.txt:11: a bandwidth figure has no sass= counts"},
      {"warpconf-perf 1" + kHeader.substr(kHeader.find('\n')) + figures + good, "perf.txt:11: a version 1 figure has no sass="},
  };
  for (const auto& [text, want] : cases) {
    const std::string got = error_of(text);
    EXPECT_NE(got.find(want), std::string::npos) << "want '" << want << "', got '" << got << "' for:\n" << text;
  }
}

TEST(PerfFormat, the_writer_refuses_what_the_reader_would_reject) {
  golden::PerfFile f = read(kFile);
  f.figures[0].median = -1;
  EXPECT_THROW(golden::write_perf(f), std::invalid_argument);
  f = read(kFile);
  f.figures[1] = f.figures[0];
  EXPECT_THROW(golden::write_perf(f), std::invalid_argument);
  f = read(kFile);
  f.header.code_path = "jit";
  EXPECT_THROW(golden::write_perf(f), std::invalid_argument);
  f = read(kFile);
  f.figures[0].id = "Bad Id";
  EXPECT_THROW(golden::write_perf(f), std::invalid_argument);
}

TEST(PerfStats, median_and_mad_of_odd_and_even_counts) {
  const Summary odd = perf::summarize({5, 1, 3, 100, 4});
  EXPECT_EQ(odd.median, 4);
  EXPECT_EQ(odd.mad, 1);  // deviations 1 3 1 96 0
  EXPECT_EQ(odd.n, 5u);
  const Summary even = perf::summarize({1, 2, 3, 4});
  EXPECT_EQ(even.median, 2.5);
  EXPECT_EQ(even.mad, 1);  // deviations 1.5 0.5 0.5 1.5
  EXPECT_THROW(perf::summarize({}), std::invalid_argument);
  EXPECT_THROW(perf::summarize({1, std::nan("")}), std::invalid_argument);
}

// A latency of 100 cycles with a MAD of `mad`.
Summary cycles(double median, double mad = 0.1) { return {median, mad, 30}; }

TEST(PerfRule, a_nine_percent_slowdown_is_not_a_change) {
  EXPECT_EQ(perf::shift(PerfMetric::latency_cycles, cycles(100), cycles(109)), Shift::none);
  EXPECT_EQ(perf::outcome(PerfMetric::latency_cycles, cycles(100), cycles(109), cycles(109)), Outcome::unchanged);
}

TEST(PerfRule, eleven_percent_with_a_tiny_mad_is_a_change_when_it_repeats) {
  EXPECT_EQ(perf::shift(PerfMetric::latency_cycles, cycles(100), cycles(111)), Shift::worse);
  EXPECT_EQ(perf::outcome(PerfMetric::latency_cycles, cycles(100), cycles(111), cycles(111.5)), Outcome::performance_change);
}

TEST(PerfRule, eleven_percent_with_a_huge_mad_is_not_a_change) {
  // 11 cycles is within 3 x the larger MAD (4 cycles, now or in the baseline).
  EXPECT_EQ(perf::shift(PerfMetric::latency_cycles, cycles(100, 0.1), cycles(111, 4)), Shift::none);
  EXPECT_EQ(perf::shift(PerfMetric::latency_cycles, cycles(100, 4), cycles(111, 0.1)), Shift::none);
}

TEST(PerfRule, a_single_noisy_measurement_that_is_fine_again_is_not_a_change) {
  EXPECT_EQ(perf::outcome(PerfMetric::latency_cycles, cycles(100), cycles(130), cycles(101)), Outcome::not_repeated);
  EXPECT_EQ(perf::outcome(PerfMetric::latency_cycles, cycles(100), cycles(130), std::nullopt), Outcome::not_repeated);
  // Worse, then better: no change either way.
  EXPECT_EQ(perf::outcome(PerfMetric::latency_cycles, cycles(100), cycles(130), cycles(70)), Outcome::not_repeated);
}

TEST(PerfRule, throughput_and_bandwidth_are_better_higher_and_improvements_count) {
  const Summary base{0.5, 0.001, 30};
  EXPECT_EQ(perf::shift(PerfMetric::throughput_per_sm_cycle, base, {0.44, 0.001, 30}), Shift::worse);
  EXPECT_EQ(perf::shift(PerfMetric::throughput_per_sm_cycle, base, {0.56, 0.001, 30}), Shift::better);
  EXPECT_EQ(perf::outcome(PerfMetric::bandwidth_gbs, {3000, 2, 30}, {3400, 2, 30}, Summary{3390, 2, 30}), Outcome::improvement);
  EXPECT_EQ(perf::outcome(PerfMetric::ratio_to_copy, {1.0, 0.001, 30}, {0.85, 0.001, 30}, Summary{0.86, 0.001, 30}),
            Outcome::performance_change);
  EXPECT_EQ(perf::outcome(PerfMetric::latency_cycles, cycles(100), cycles(80), cycles(81)), Outcome::improvement);
  EXPECT_NEAR(perf::worsening(PerfMetric::bandwidth_gbs, {3000, 2, 30}, {2700, 2, 30}), 0.1, 1e-12);
  EXPECT_NEAR(perf::worsening(PerfMetric::latency_cycles, cycles(100), cycles(90)), -0.1, 1e-12);
}

TEST(PerfRule, a_baseline_of_zero_changes_only_beyond_its_noise) {
  EXPECT_EQ(perf::shift(PerfMetric::latency_cycles, cycles(0, 0.2), cycles(0.5, 0.1)), Shift::none);
  EXPECT_EQ(perf::shift(PerfMetric::latency_cycles, cycles(0, 0.1), cycles(2, 0.1)), Shift::worse);
  EXPECT_TRUE(std::isinf(perf::worsening(PerfMetric::latency_cycles, cycles(0), cycles(2))));
  EXPECT_EQ(perf::worsening(PerfMetric::latency_cycles, cycles(0), cycles(0)), 0);
}

class PerfCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = harness::fresh_test_dir("perf");
    setenv("WARPCONF_RESULTS", (dir_ / "results.jsonl").c_str(), 1);
    setenv("WARPCONF_GOLDEN_DIR", (dir_ / "golden").c_str(), 1);
  }
  void TearDown() override {
    unsetenv("WARPCONF_RESULTS");
    unsetenv("WARPCONF_GOLDEN_DIR");
  }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }
  std::string results() {
    std::ifstream in(dir_ / "results.jsonl");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  fs::path dir_;
};

// kFile with the shfl latency's median replaced.
std::string with_latency(const std::string& median) {
  std::string text = kFile;
  const std::string old = "latency_cycles median=23.1 ";
  text.replace(text.find(old), old.size(), "latency_cycles median=" + median + " ");
  return text;
}

TEST_F(PerfCommand, diff_reports_figures_worse_by_the_rule_and_fails_only_with_strict) {
  const std::string a = write("a/perf.txt", kFile), b = write("b/perf.txt", with_latency("26"));
  CliRun r = run_cli({"perf", "diff", a, b});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("shuffle.shfl.u32.ffffffff latency_cycles: 23.1 (MAD 0.02) -> 26 (MAD 0.02), 12.6 % worse: "
                       "worse by the rule"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 figures worse and 0 better"), std::string::npos) << r.out;
  EXPECT_EQ(run_cli({"perf", "diff", a, b, "--strict"}).status, 1);
  EXPECT_EQ(run_cli({"perf", "diff", a, write("c/perf.txt", with_latency("25"))}).status, 0);  // 8.2 %
}

TEST_F(PerfCommand, diff_of_two_architectures_is_not_recorded) {
  std::string other = kFile;
  other.replace(other.find("compute-capability: 9.0"), 23, "compute-capability: 8.0");
  CliRun r = run_cli({"perf", "diff", write("a/perf.txt", kFile), write("b/perf.txt", other)});
  EXPECT_EQ(r.status, 77);
  EXPECT_NE(r.out.find("not recorded"), std::string::npos) << r.out;
}

TEST_F(PerfCommand, a_malformed_file_exits_2_naming_its_line) {
  CliRun r = run_cli({"perf", "diff", write("a/perf.txt", kFile), write("b/perf.txt", with_latency("2.30"))});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("b/perf.txt:11: median: '2.30' has a trailing zero"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  r = run_cli({"perf", "compare", write("c/perf.txt", "warpconf-perf 1\n")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("c/perf.txt:1: the header ends early"), std::string::npos) << r.err;
}

// A perf.txt with no figure is an input of nothing (2); files that share no figure compared
// nothing (1): neither passes, with --strict or without, and accept installs nothing.
TEST_F(PerfCommand, nothing_to_compare_never_passes) {
  const std::string a = write("a/perf.txt", kFile), empty = write("empty/perf.txt", kHeader + "figures: 0\n");
  std::string other = kFile;
  for (size_t at = other.find("shuffle.shfl."); at != std::string::npos; at = other.find("shuffle.shfl.", at + 1))
    other.replace(at, 13, "shuffle.shfx.");
  other.replace(other.find("bandwidth.copy"), 14, "bandwidth.copz");
  const std::string disjoint = write("other/perf.txt", other);
  for (const std::vector<std::string>& args : {std::vector<std::string>{"perf", "diff", a, empty},
                                              {"perf", "diff", a, empty, "--strict"},
                                              {"perf", "diff", empty, a},
                                              {"perf", "compare", empty}}) {
    const CliRun r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args[1];
    EXPECT_EQ(r.err, "warpconf perf " + args[1] + ": " + empty + ": no figure (figures: 0): nothing to compare\n");
  }
  for (const std::vector<std::string>& args : {std::vector<std::string>{"perf", "diff", a, disjoint},
                                              {"perf", "diff", a, disjoint, "--strict"}}) {
    const CliRun r = run_cli(args);
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("nothing compared: A and B share no figure"), std::string::npos) << r.out;
  }
  write("golden/sm_90/perf.txt", kFile);
  const std::string pending = write("golden/pending/sm_90/perf.txt", kHeader + "figures: 0\n");
  EXPECT_EQ(run_cli({"perf", "accept"}).status, 2);
  EXPECT_TRUE(fs::exists(pending)) << "nothing moved";
  EXPECT_EQ(golden::read_perf_file((dir_ / "golden/sm_90/perf.txt").string()).figures.size(), 3u) << "the baseline kept";
}

TEST_F(PerfCommand, a_repetition_count_a_perf_txt_cannot_hold_is_bad_input) {
  for (const char* n : {"0", "1000001"}) {
    const CliRun r = run_cli({"perf", "compare", "--repetitions", n});
    EXPECT_EQ(r.status, 2) << n;
    EXPECT_EQ(r.err, "warpconf perf compare: --repetitions: '" + std::string(n) + "' is not a decimal number from 1 to 1000000\n");
  }
}

TEST_F(PerfCommand, accept_moves_the_pending_file_after_printing_the_comparison) {
  const std::string pending = write("golden/pending/sm_90/perf.txt", with_latency("30"));
  write("golden/sm_90/perf.txt", kFile);
  CliRun r = run_cli({"perf", "accept"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("23.1 (MAD 0.02) -> 30 (MAD 0.02), 29.9 % worse: worse by the rule"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(pending));
  EXPECT_EQ(golden::read_perf_file((dir_ / "golden/sm_90/perf.txt").string()).figures[0].median, 30);
  EXPECT_EQ(run_cli({"perf", "accept"}).status, 2);  // nothing pending
}

// A pending file replaces the baseline only where it keeps every figure of it, or --retire says the
// figures it lacks are retired: a one-figure file that shared nothing with the baseline once replaced it.
TEST_F(PerfCommand, accept_refuses_to_drop_figures_of_the_baseline_without_retire) {
  const std::string baseline = write("golden/sm_90/perf.txt", kFile);
  for (const auto& [figure, refusal] : std::vector<std::pair<std::string, std::string>>{
           {"bandwidth.copy.f64.1gi bandwidth_gbs median=3000 mad=1 n=30\n",
            "shares no figure with " + baseline + ": nothing compared; `--retire` retires them"},
           {"bandwidth.copy.f32.1gi bandwidth_gbs median=3000 mad=1 n=30\n",
            "lacks 2 of the 3 figures of " + baseline + " (only in the old, above); `--retire` retires them"}}) {
    const std::string pending = write("golden/pending/sm_90/perf.txt", kHeader + "figures: 1\n" + figure);
    CliRun r = run_cli({"perf", "accept"});
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("warpconf perf accept: refused: " + pending + " " + refusal), std::string::npos) << r.out;
    EXPECT_EQ(golden::read_perf_file(baseline).figures.size(), 3u) << "the baseline kept";
    EXPECT_TRUE(fs::exists(pending));
    r = run_cli({"perf", "accept", "--retire"});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(golden::read_perf_file(baseline).figures.size(), 1u) << "retired, as asked";
    EXPECT_FALSE(fs::exists(pending));
    write("golden/sm_90/perf.txt", kFile);
  }
}

// A stand-in for perf::measure: the figures of `file`, with the shfl latency's median taken in turn
// from `latencies`, one per measurement.
cli::Measure stand_in(const golden::PerfFile& file, std::vector<double> latencies, int& calls) {
  return [file, latencies, &calls](const perf::Options& o) {
    std::vector<perf::Figure> out;
    const double latency = latencies.at(static_cast<size_t>(calls++));
    for (const golden::PerfLine& l : file.figures) {
      if (o.select && !o.select(l.id, l.metric)) continue;
      perf::Figure f;
      f.id = l.id;
      f.metric = l.metric;
      f.summary = {l.metric == PerfMetric::latency_cycles ? latency : l.median, l.mad, l.repetitions};
      f.sass = l.sass;
      out.push_back(f);
    }
    return out;
  };
}

// compare against kFile, or against no baseline at all, with the stand-in measuring kFile's figures.
CliRun compare(const std::vector<double>& latencies, bool strict, int& calls, bool with_baseline = true) {
  const golden::PerfFile baseline = read(kFile);
  cli::PerfOptions o;
  o.command = "compare";
  o.strict = strict;
  std::ostringstream out;
  const int status = cli::compare_with_baseline(with_baseline ? std::optional(baseline) : std::nullopt,
                                                "golden/sm_90/perf.txt", baseline.header, o,
                                                stand_in(baseline, latencies, calls), out);
  return {status, out.str(), ""};
}

TEST_F(PerfCommand, compare_measures_a_flagged_figure_again_before_it_calls_a_change) {
  int calls = 0;
  CliRun r = compare({30, 23.2}, false, calls);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("23.1 (MAD 0.02) -> 30 (MAD 0.02), again 23.2 (MAD 0.02): 0.4 % worse: not-repeated"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(results().find("performance-change"), std::string::npos);
  calls = 0;
  r = compare({30, 29}, false, calls);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("25.5 % worse: performance-change"), std::string::npos) << r.out;
  EXPECT_NE(results().find(R"("verdict":"performance-change")"), std::string::npos);
  calls = 0;
  EXPECT_EQ(compare({30, 29}, true, calls).status, 1);
  calls = 0;
  r = compare({23.15}, true, calls);
  EXPECT_EQ(calls, 1);  // nothing flagged, nothing measured again
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("unchanged 3;"), std::string::npos) << r.out;
}

TEST_F(PerfCommand, compare_leaves_its_first_measurement_as_the_pending_baseline) {
  int calls = 0;
  const CliRun r = compare({30, 29}, false, calls);
  const fs::path pending = dir_ / "golden/pending/sm_90/perf.txt";
  ASSERT_TRUE(fs::exists(pending)) << r.out;
  const golden::PerfFile file = golden::read_perf_file(pending.string());
  ASSERT_EQ(file.figures.size(), 3u);
  EXPECT_EQ(file.figures[0].median, 30) << "the first measurement, not the second";
  EXPECT_EQ(file.figures[2].median, 3012.3);
  EXPECT_NE(r.out.find("warpconf perf compare: wrote " + pending.string() + " (3 figures); `warpconf perf accept " +
                       pending.string() + "` moves it to " + (dir_ / "golden/sm_90").string() + "/perf.txt"),
            std::string::npos)
      << r.out;
  write("golden/sm_90/perf.txt", kFile);
  EXPECT_EQ(run_cli({"perf", "accept"}).status, 0);
  EXPECT_EQ(golden::read_perf_file((dir_ / "golden/sm_90/perf.txt").string()).figures[0].median, 30)
      << "accept replaces the baseline";
}

TEST_F(PerfCommand, compare_without_a_baseline_is_not_recorded_and_leaves_the_first_one_pending) {
  int calls = 0;
  const CliRun r = compare({23.15}, true, calls, false);
  EXPECT_EQ(r.status, 77) << r.out;
  EXPECT_EQ(calls, 1);
  EXPECT_NE(r.out.find("not recorded: no baseline golden/sm_90/perf.txt for sm_90"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not-recorded 3;"), std::string::npos) << r.out;
  std::istringstream records(results());
  int not_recorded = 0;
  for (std::string line; std::getline(records, line);)
    not_recorded += nlohmann::json::parse(line)["verdict"] == "not-recorded";
  EXPECT_EQ(not_recorded, 3);
  EXPECT_EQ(run_cli({"perf", "accept"}).status, 0) << "the pending file becomes the first baseline";
  EXPECT_EQ(golden::read_perf_file((dir_ / "golden/sm_90/perf.txt").string()).figures[0].median, 23.15);
}

TEST_F(PerfCommand, warpconf_perf_strict_in_the_environment_is_strict_and_anything_but_0_or_1_is_refused) {
  const std::string a = write("a/perf.txt", kFile), b = write("b/perf.txt", with_latency("26"));
  setenv("WARPCONF_PERF_STRICT", "1", 1);
  EXPECT_EQ(run_cli({"perf", "diff", a, b}).status, 1);
  setenv("WARPCONF_PERF_STRICT", "0", 1);
  EXPECT_EQ(run_cli({"perf", "diff", a, b}).status, 0);
  setenv("WARPCONF_PERF_STRICT", "yes", 1);
  const CliRun r = run_cli({"perf", "diff", a, b});
  unsetenv("WARPCONF_PERF_STRICT");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "warpconf: WARPCONF_PERF_STRICT='yes' is refused: it takes 1 or 0\n");
}

TEST_F(PerfCommand, compare_against_another_architecture_or_code_path_is_not_recorded) {
  const golden::PerfFile baseline = read(kFile);
  golden::PerfHeader now = baseline.header;
  now.code_path = "jit-75";
  int calls = 0;
  std::ostringstream out;
  EXPECT_EQ(cli::compare_with_baseline(baseline, "b", now, {}, stand_in(baseline, {1}, calls), out), 77);
  now = baseline.header;
  now.compute_capability = "10.0";
  EXPECT_EQ(cli::compare_with_baseline(baseline, "b", now, {}, stand_in(baseline, {1}, calls), out), 77);
  EXPECT_EQ(calls, 0);
  EXPECT_NE(out.str().find("not recorded: b is sm_90, this GPU sm_100"), std::string::npos) << out.str();
}

TEST_F(PerfCommand, a_wrong_kernel_fails_compare_and_is_no_figure) {
  const golden::PerfFile baseline = read(kFile);
  cli::PerfOptions o;
  o.command = "compare";
  std::ostringstream out;
  const cli::Measure wrong = [](const perf::Options&) {
    perf::Figure f;
    f.id = "shuffle.shfl.u32.ffffffff";
    f.status = perf::Status::wrong;
    f.problem = "1 of 32 chain values disagree with the model";
    return std::vector<perf::Figure>{f};
  };
  EXPECT_EQ(cli::compare_with_baseline(baseline, "b", baseline.header, o, wrong, out), 1);
  EXPECT_NE(results().find(R"("verdict":"conformance-failure")"), std::string::npos);
  EXPECT_NE(results().find(R"("median":null)"), std::string::npos);
  EXPECT_EQ(cli::compare_with_baseline(std::nullopt, "b", baseline.header, o, wrong, out), 1) << "no baseline either";
  EXPECT_FALSE(fs::exists(dir_ / "golden/pending/sm_90/perf.txt")) << out.str();
  EXPECT_NE(out.str().find("no pending perf.txt written"), std::string::npos) << out.str();
}

TEST_F(PerfCommand, a_kernel_wrong_when_measured_again_leaves_no_pending_baseline) {
  const golden::PerfFile baseline = read(kFile);
  int calls = 0;
  const cli::Measure right_then_wrong = [&](const perf::Options& o) {
    std::vector<perf::Figure> figures = stand_in(baseline, {30, 30}, calls)(o);
    if (calls == 2)
      for (perf::Figure& f : figures) f.status = perf::Status::wrong;
    return figures;
  };
  std::ostringstream out;
  EXPECT_EQ(cli::compare_with_baseline(baseline, "b", baseline.header, {}, right_then_wrong, out), 1);
  EXPECT_EQ(calls, 2);
  EXPECT_NE(out.str().find("WRONG when measured again"), std::string::npos) << out.str();
  EXPECT_FALSE(fs::exists(dir_ / "golden/pending/sm_90/perf.txt")) << out.str();
}


TEST_F(PerfCommand, compare_without_the_sass_counts_writes_no_pending_baseline) {
  const golden::PerfFile baseline = read(kFile);
  int calls = 0;
  const cli::Measure uncounted = [&](const perf::Options& o) {
    std::vector<perf::Figure> figures = stand_in(baseline, {23.1}, calls)(o);
    for (perf::Figure& f : figures) f.sass.clear();
    return figures;
  };
  std::ostringstream out;
  EXPECT_EQ(cli::compare_with_baseline(baseline, "b", baseline.header, {}, uncounted, out), 0) << "the comparison holds";
  EXPECT_NE(out.str().find("no pending perf.txt written: 2 figures were measured without their timed loop's SASS counts"),
            std::string::npos)
      << out.str();
  EXPECT_FALSE(fs::exists(dir_ / "golden/pending/sm_90/perf.txt"));
}

// A cuobjdump -sass listing, as the toolkit prints it, of kernels given as their instructions.
struct ListedKernel {
  std::string name;
  std::vector<std::string> code;  // "BRA @loop" branches back to the instruction after "@loop:"
};

std::string listing(const std::string& architecture, const std::vector<ListedKernel>& kernels) {
  std::string text = "\nFatbin elf code:\n================\narch = " + architecture +
                     "\ncode version = [1,8]\nhost = linux\ncompile_size = 64bit\n\n\tcode for " + architecture + "\n";
  for (const ListedKernel& k : kernels) {
    text += "\t\tFunction : " + k.name + "\n\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n";
    unsigned address = 0, loop = 0;
    char line[160];
    for (const std::string& instruction : k.code) {
      if (instruction == "@loop:") {
        loop = address;
        continue;
      }
      std::string shown = instruction;
      if (const size_t at = shown.find("@loop"); at != std::string::npos) {
        char target[16];
        std::snprintf(target, sizeof target, "0x%x", loop);
        shown.replace(at, 5, target);
      }
      std::snprintf(line, sizeof line, "        /*%04x*/                   %-40s /* 0x000fe200078e00ff */\n", address, (shown + " ;").c_str());
      text += line;
      text += "                                                                          /* 0x000fc80000000f00 */\n";
      address += 0x10;
    }
  }
  return text;
}

// A timed kernel: `body` repeated `calls` times in a loop between two clock reads, as chain_kernel compiles.
ListedKernel timed(const std::string& name, int calls, const std::vector<std::string>& body) {
  ListedKernel k{name, {"LDC R1, c[0x0][0x28]", "CS2R R4, SR_CLOCKLO", "@loop:"}};
  for (int i = 0; i < calls; ++i) k.code.insert(k.code.end(), body.begin(), body.end());
  for (const char* tail : {"IADD3 R0, R0, 0x1, RZ", "ISETP.NE.AND P0, PT, R0, R5, PT", "@P0 BRA @loop", "CS2R R6, SR_CLOCKLO",
                           "STG.E.64 desc[UR4][R8.64], R6", "EXIT", "BRA 0x1000"})
    k.code.emplace_back(tail);
  return k;
}

perf::Figure chain_figure(const std::string& id, const std::string& kernel, const std::string& names) {
  perf::Figure f;
  f.id = id;
  f.intrinsic = "__shfl_xor_sync";
  f.metric = PerfMetric::latency_cycles;
  f.summary = {24.6, 0, 30};
  f.timed = perf::TimedLoop{kernel, "baseline", 31, names};
  return f;
}

perf::SassListing listed(const std::string& text, const std::set<std::string>& wanted) {
  std::istringstream in(text);
  return perf::parse_sass_listing(in, "sm_90", wanted);
}

// One per kind of kernel a chain's figure can meet; the baseline's loop holds only the loop's own instructions.
const std::string kListing =
    listing("sm_75", {timed("kept", 31, {"NOP"})}) +  // another architecture's copy: never read
    listing("sm_90", {timed("baseline", 0, {}),
                      timed("kept", 31, {"SHFL.BFLY PT, R3, R2, 0x1, 0x1f"}),
                      timed("wide", 31, {"SHFL.BFLY PT, R3, R2, 0x1, 0x1f", "SHFL.BFLY PT, R7, R6, 0x1, 0x1f"}),
                      timed("vote", 31, {"ISETP.NE.AND P0, PT, R2, RZ, PT", "VOTE.ANY R2, PT, P0"}),
                      timed("folded", 31, {"LOP3.LUT R2, R2, 0x1, RZ, 0x3c, !PT"}),
                      timed("retried", 31,
                            {"SHFL.BFLY PT, R3, R2, 0x1, 0x1f", "WARPSYNC.COLLECTIVE R9, 0x2000", "SHFL.BFLY PT, R3, R2, 0x1, 0x1f",
                             "ENDCOLLECTIVE"}),
                      {"untimed", {"CS2R R4, SR_CLOCKLO", "SHFL.BFLY PT, R3, R2, 0x1, 0x1f", "CS2R R6, SR_CLOCKLO", "EXIT"}}});

TEST(PerfSass, a_kept_chain_gets_its_instructions_per_call_the_named_one_first_and_all_last) {
  const std::set<std::string> wanted = {"baseline", "kept", "wide", "vote", "retried"};
  const perf::SassListing l = listed(kListing, wanted);
  ASSERT_EQ(l.size(), 5u);
  EXPECT_EQ(l.at("kept").front().text, "LDC R1, c[0x0][0x28]") << "the sm_90 copy, not the sm_75 one";
  const auto counts = [&](const std::string& kernel, const std::string& names) {
    std::string text;
    for (const golden::PerfSass& c : perf::loop_counts(l, {kernel, "baseline", 31, names}))
      text += c.instruction + "=" + golden::perf_number(c.per_call) + " ";
    return text;
  };
  EXPECT_EQ(counts("kept", "SHFL"), "SHFL=1 ALL=1 ");
  EXPECT_EQ(counts("wide", "SHFL"), "SHFL=2 ALL=2 ");
  EXPECT_EQ(counts("vote", "VOTE"), "VOTE=1 ALL=2 ");
  EXPECT_EQ(counts("vote", "ALL"), "VOTE=1 ALL=2 ") << "__fns names no instruction: ALL alone is required";
  EXPECT_EQ(counts("retried", "SHFL"), "SHFL=1 ALL=1 ") << "a warp-collective retry region is not the path timed";
  EXPECT_EQ(perf::instruction_kind("@!P1 VOTEU.ALL UP0, UPT, P0"), "VOTE");
  EXPECT_EQ(perf::instruction_kind("CREDUX.MAX.F32 R1, R2"), "REDUX");
  EXPECT_EQ(perf::instruction_kind("BRA.DIV UR4, 0x300"), "");
}

TEST(PerfSass, a_figure_whose_loop_lacks_its_instruction_is_refused_not_recorded) {
  const std::set<std::string> wanted = {"baseline", "kept", "wide", "folded", "untimed"};
  std::vector<perf::Figure> figures = {chain_figure("shuffle.shfl_xor.u32.ffffffff", "kept", "SHFL"),
                                       chain_figure("shuffle.shfl_xor.u64.ffffffff", "wide", "SHFL"),
                                       chain_figure("shuffle.shfl_xor.u32.0000ffff", "folded", "SHFL"),
                                       chain_figure("vote.all.ffffffff", "kept", "VOTE"),
                                       chain_figure("shuffle.shfl.u32.ffffffff", "untimed", "SHFL"),
                                       chain_figure("shuffle.shfl.u64.ffffffff", "missing", "SHFL")};
  perf::Figure bandwidth;
  bandwidth.id = "bandwidth.copy.f32.1gi";
  bandwidth.metric = PerfMetric::bandwidth_gbs;
  figures.push_back(bandwidth);
  perf::count_sass(figures, listed(kListing, wanted));
  EXPECT_EQ(figures[0].status, perf::Status::measured) << figures[0].problem;
  EXPECT_EQ(figures[1].status, perf::Status::measured);
  EXPECT_EQ(perf::latency_per_instruction(figures[1]), 12.3) << "two SHFL a call: half the call's latency each";
  EXPECT_EQ(perf::latency_per_instruction(figures[0]), std::nullopt) << "one instruction a call";
  const std::vector<std::pair<size_t, std::string>> refused = {
      {2, "refused: its timed loop holds 0 SHFL for 31 calls, fewer than one a call: the figure would time the loop, not "
          "__shfl_xor_sync"},
      {3, "refused: its timed loop holds 0 VOTE for 31 calls"},
      {4, "refused: its timed loop cannot be counted: untimed has no loop between two clock reads"},
      {5, "refused: its timed loop cannot be counted: the SASS listing has no kernel missing"}};
  for (const auto& [i, why] : refused) {
    EXPECT_EQ(figures[i].status, perf::Status::wrong) << figures[i].id;
    EXPECT_EQ(figures[i].problem.rfind(why, 0), 0u) << figures[i].problem;
    EXPECT_TRUE(figures[i].sass.empty());
  }
  EXPECT_EQ(figures[6].status, perf::Status::measured) << "a bandwidth figure times no chain";
  EXPECT_TRUE(figures[6].sass.empty());
  // What a record keeps of them: the counts, and no figure for the refused one.
  const nlohmann::json kept = perf::perf_record(figures[1], "record", perf::measured_verdict(figures[1]));
  EXPECT_EQ(kept["sass"], nlohmann::json::parse(R"([{"instruction":"SHFL","per_call":2.0},{"instruction":"ALL","per_call":2.0}])"));
  EXPECT_EQ(kept["latency_per_instruction"], 12.3);
  const nlohmann::json folded = perf::perf_record(figures[2], "record", perf::measured_verdict(figures[2]));
  EXPECT_EQ(folded["verdict"], "conformance-failure");
  EXPECT_TRUE(folded["median"].is_null());
  EXPECT_TRUE(folded["sass"].is_null());
}

// A library call held to its raw intrinsic (families/warp_shuffle): more SASS instructions a call is
// its own verdict, costlier-than-raw; as many is a pass; a comparison that could not be made says so.
TEST(PerfSass, a_library_call_with_more_instructions_than_its_raw_intrinsic_is_costlier_than_raw) {
  const std::set<std::string> wanted = {"baseline", "kept", "wide"};
  const auto library = [](const std::string& id, const std::string& kernel, const std::string& raw) {
    perf::Figure f = chain_figure(id, kernel, "SHFL");
    f.raw = raw;
    return f;
  };
  std::vector<perf::Figure> figures = {chain_figure("shuffle.shfl_xor.u32.ffffffff", "kept", "SHFL"),
                                       library("warp_shuffle.warp_shuffle_xor.u32.ffffffff", "wide", "shuffle.shfl_xor.u32.ffffffff"),
                                       library("warp_shuffle.warp_shuffle_idx.u32.ffffffff", "kept", "shuffle.shfl_xor.u32.ffffffff"),
                                       library("warp_shuffle.warp_shuffle_up.u32.ffffffff", "kept", "shuffle.shfl_up.u32.ffffffff")};
  figures.push_back(library("warp_shuffle.warp_shuffle_xor.u32.0000ffff", "wide", "shuffle.shfl_xor.u32.ffffffff"));
  figures.back().metric = PerfMetric::throughput_per_sm_cycle;  // the raw figure of its metric is not measured
  perf::count_sass(figures, listed(kListing, wanted));
  EXPECT_EQ(figures[1].vs_raw, perf::RawComparison::costlier) << figures[1].raw_note;
  EXPECT_EQ(figures[1].raw_note, "2 instructions a call (ALL) against 1 for shuffle.shfl_xor.u32.ffffffff");
  EXPECT_EQ(perf::measured_verdict(figures[1]), "costlier-than-raw");
  EXPECT_EQ(figures[2].vs_raw, perf::RawComparison::not_costlier);
  EXPECT_EQ(perf::measured_verdict(figures[2]), "pass");
  EXPECT_EQ(figures[3].vs_raw, perf::RawComparison::not_compared);
  EXPECT_EQ(figures[3].raw_note, "not compared: shuffle.shfl_up.u32.ffffffff was not measured");
  EXPECT_EQ(figures[4].vs_raw, perf::RawComparison::not_compared) << "another metric's raw figure is no comparison";
  EXPECT_EQ(perf::measured_verdict(figures[0]), "pass") << "a raw intrinsic's own figure";
  const nlohmann::json costlier = perf::perf_record(figures[1], "record", perf::measured_verdict(figures[1]));
  EXPECT_EQ(costlier["verdict"], "costlier-than-raw");
  EXPECT_EQ(costlier["raw"]["comparison"], "costlier-than-raw");
  EXPECT_EQ(costlier["raw"]["id"], "shuffle.shfl_xor.u32.ffffffff");
  EXPECT_EQ(perf::perf_record(figures[3], "record", "pass")["raw"]["comparison"], "not-compared");
  EXPECT_FALSE(perf::perf_record(figures[0], "record", "pass").contains("raw"));
}

TEST(PerfSass, a_baseline_whose_empty_loop_was_folded_subtracts_nothing) {
  // As ptxas compiles the empty-asm baseline for sm_90 (an H100's cuobjdump): clock read after clock read,
  // inside the repetition loop only.
  const ListedKernel folded{"baseline", {"IMAD.MOV.U32 R8, RZ, RZ, RZ", "@loop:", "CS2R R6, SR_CLOCKLO",
                                         "CS2R R4, SR_CLOCKLO", "VIADD R8, R8, 0x1", "ISETP.GE.U32.AND P0, PT, R8, 0x2, PT",
                                         "@!P0 BRA @loop", "EXIT"}};
  const perf::SassListing l =
      listed(listing("sm_90", {folded, timed("vote", 31, {"ISETP.NE.AND P0, PT, R2, RZ, PT", "VOTE.ANY R2, PT, P0"})}),
             {"baseline", "vote"});
  std::string text;
  for (const golden::PerfSass& c : perf::loop_counts(l, {"vote", "baseline", 31, "VOTE"}))
    text += c.instruction + "=" + golden::perf_number(c.per_call) + " ";
  EXPECT_EQ(text, "VOTE=1 ALL=2.09677 ") << "the loop's own three instructions are no longer subtracted";
}

TEST(PerfSass, two_loops_between_the_clock_reads_cannot_be_told_apart) {
  ListedKernel k = timed("unrolled", 31, {"SHFL.BFLY PT, R3, R2, 0x1, 0x1f"});
  // A second loop after the first, before the closing clock read: an unrolled loop and its remainder.
  const auto stop = std::find(k.code.begin(), k.code.end(), "CS2R R6, SR_CLOCKLO");
  k.code.insert(stop, {"@loop:", "SHFL.BFLY PT, R3, R2, 0x1, 0x1f", "@P1 BRA @loop"});
  const perf::SassListing l = listed(listing("sm_90", {k, timed("baseline", 0, {})}), {"unrolled", "baseline"});
  try {
    perf::loop_counts(l, {"unrolled", "baseline", 31, "SHFL"});
    ADD_FAILURE() << "counted";
  } catch (const perf::SassError& e) {
    EXPECT_NE(std::string(e.what()).find("unrolled has 2 loops between the clock reads at 0x10 and "), std::string::npos) << e.what();
  }
}

// cuobjdump runs with an argument vector (core/process): a binary in a folder whose name is shell syntax
// is read as it is; a cuobjdump that fails says why in its last line.
TEST(PerfSass, reads_the_listing_that_cuobjdump_prints_of_the_binary_it_is_given) {
  const fs::path dir = harness::fresh_test_dir("perf-sass") / "b'$(touch PWNED)'";
  fs::create_directories(dir);
  const fs::path binary = dir / "binary", cuobjdump = dir / "cuobjdump", failing = dir / "failing";
  std::ofstream(binary) << kListing;  // the stand-in prints the file it is given as that file's listing
  std::ofstream(cuobjdump) << "#!/bin/sh\n[ \"$1\" = -sass ] && [ $# = 2 ] && exec cat \"$2\"\nexit 3\n";
  std::ofstream(failing) << "#!/bin/sh\necho 'cuobjdump fatal   : Could not open input file' >&2\nexit 1\n";
  for (const fs::path& script : {cuobjdump, failing}) fs::permissions(script, fs::perms::owner_all);
  const perf::SassListing l = perf::read_sass({cuobjdump.string(), binary.string(), "sm_90"}, {"kept", "vote"});
  EXPECT_EQ(l.size(), 2u);
  EXPECT_FALSE(fs::exists("PWNED"));
  try {
    perf::read_sass({failing.string(), binary.string(), "sm_90"}, {"kept"});
    ADD_FAILURE() << "read";
  } catch (const perf::SassError& e) {
    EXPECT_EQ(std::string(e.what()), failing.string() + " -sass " + binary.string() +
                                         " failed (exit status 1): cuobjdump fatal   : Could not open input file");
  }
}

TEST(PerfSass, recording_needs_the_sass_of_the_code_that_runs) {
  std::string why;
  EXPECT_EQ(perf::sass_source(75, "driver-jit", why), std::nullopt);
  EXPECT_EQ(why, "the driver compiled the code that runs (code path driver-jit): its SASS is in no file for cuobjdump to read");
  EXPECT_EQ(perf::sass_source(0, "sass", why), std::nullopt);
  const char* path = std::getenv("PATH");
  const std::string saved = path ? path : "";
  setenv("PATH", "/nonexistent", 1);
  const std::optional<perf::SassSource> source = perf::sass_source(90, "sass", why);
  setenv("PATH", saved.c_str(), 1);
  if (source) {
    EXPECT_EQ(source->architecture, "sm_90");  // the build's toolkit or /usr/local/cuda/bin has one
  } else {
    EXPECT_EQ(why.rfind("no cuobjdump (the CUDA toolkit's;", 0), 0u) << why;
  }
}

}  // namespace
}  // namespace wc
