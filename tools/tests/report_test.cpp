// Reports from handwritten result records and ctest files (tools/tests/data/report): counts are
// sums over every record, a cell's verdict is the worst of its checks', devices are columns, a cut
// stream is reported as aborted, merges refuse another schema, and the writers escape what they show.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <tuple>

#include "core/numbers.hpp"
#include "harness/scratch_dir.hpp"
#include "report_data.hpp"
#include "warpconf/report/report.hpp"
#include "warpconf/report/report_inputs.hpp"
#include "warpconf/run/run_command.hpp"

namespace wc {
namespace {

namespace fs = std::filesystem;


fs::path fresh_dir(const std::string& name) { return harness::fresh_test_dir("report-" + name); }

const cli::Cell& cell(const cli::Report& r, const std::string& device, const std::string& family,
                      const std::string& intrinsic, const std::string& type, const std::string& scenes) {
  return r.cells.at({device, family, intrinsic, type, scenes});
}

uint64_t at(const std::map<std::string, uint64_t>& m, const std::string& key) {
  const auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

TEST(Report, sums_every_check_of_a_cell) {
  const cli::Report r = cli::report_from_results(kData + "/h100", {"warpconf", "report"});
  ASSERT_EQ(r.devices.size(), 1u) << "three processes, one device";
  const cli::Cell& sweep = cell(r, kH100, "shuffle", "__shfl_sync", "int", "structured (14)");
  EXPECT_EQ(sweep.sums.records, 2u);
  EXPECT_EQ(sweep.sums.cases, 1500u);
  EXPECT_EQ(at(sweep.sums.lanes, "defined"), 45000u);
  EXPECT_EQ(at(sweep.sums.lanes, "not-called"), 750u);
  const cli::Cell& random = cell(r, kH100, "shuffle", "__shfl_sync", "int", "random");
  EXPECT_EQ(random.random_checks, 1u);
  EXPECT_EQ(random.seeds, std::vector<std::string>{"0x00000000000000a1"});
  ASSERT_EQ(r.deviations.size(), 1u);
  const cli::Deviation& d = r.deviations.begin()->second;
  EXPECT_EQ(d.id, "fns.int-min-sm90");
  EXPECT_EQ(d.lanes, 48u) << "32 + 16 over two checks";
  EXPECT_EQ(d.checks, 2u);
  // Planted bugs stay out of the totals; the totals are the sums of all other checks.
  EXPECT_EQ(r.planted.records, 1u);
  EXPECT_EQ(at(r.planted.verdicts, "planted-caught"), 1u);
  EXPECT_EQ(r.totals.records, 12u);
  EXPECT_EQ(at(r.totals.lanes, "defined"), 30000u + 15000 + 6000 + 12800 + 3200 + 20000);
  EXPECT_EQ(at(r.totals.mismatches, "defined"), 3u);
  EXPECT_EQ(r.contracts.size(), 3u);
  ASSERT_EQ(r.behaviour_changes.size(), 2u) << "the golden verify record and the changed probe";
  EXPECT_EQ(r.behaviour_changes[0].lanes, 5u);
  EXPECT_EQ(r.behaviour_changes[1].what, "sass shfl.divergent-outside.1f");
  EXPECT_EQ(r.behaviour_changes[1].was, "ran | 0*32");
  EXPECT_TRUE(r.aborted.is_null());
  EXPECT_EQ(r.run.status, "finished");
  EXPECT_EQ(r.run.start, "2026-11-23T10:00:00Z");
  EXPECT_EQ(r.run.end, "2026-11-23T10:00:13Z");
  EXPECT_EQ(cli::summary_line(r),
            "NVIDIA H100 80GB HBM3: 6 tests: 4 passed, 1 failed, 1 skipped (1 not-supported); 94,772 lanes compared; "
            "1 conformance failure; 1 known deviation; 2 behaviour changes");
}

TEST(Report, gives_a_cell_the_worst_verdict_of_its_checks) {
  const cli::Report r = cli::report_from_results(kData + "/h100", {});
  const cli::Cell& failing = cell(r, kH100, "algorithm", "reduce_butterfly<sum>", "float", "structured and groups (20)");
  EXPECT_EQ(failing.verdict(), "conformance-failure") << "a failure and a pass";
  EXPECT_EQ(cli::field_text(failing.first, "got"), "0x40490fdb");
  EXPECT_EQ(cell(r, kH100, "reduce", "__reduce_add_sync", "", "").verdict(), "not-supported");
  EXPECT_NE(cell(r, kH100, "reduce", "__reduce_add_sync", "", "").reason.find("NotSupported"), std::string::npos);
  // The order, worst first, and a verdict this build does not know.
  for (size_t i = 1; i < std::size(cli::kVerdictOrder); ++i)
    EXPECT_LT(cli::verdict_rank(cli::kVerdictOrder[i - 1]), cli::verdict_rank(cli::kVerdictOrder[i]));
  cli::Cell c;
  for (const auto& [verdicts, worst] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"pass", "not-supported"}, "pass"},
           {{"pass", "known-deviation"}, "known-deviation"},
           {{"known-deviation", "behaviour-change"}, "behaviour-change"},
           {{"not-recorded", "pass"}, "not-recorded"},
           {{"nothing-compared", "conformance-failure", "pass"}, "conformance-failure"},
           {{"pass", "error", "conformance-failure"}, "error"}}) {
    c.sums.verdicts.clear();
    for (const std::string& v : verdicts) c.sums.verdicts[v] = 1;
    EXPECT_EQ(c.verdict(), worst);
  }
  EXPECT_THROW(cli::verdict_rank("passed"), cli::UsageError);
}

TEST(Report, keeps_a_column_per_device_fingerprint) {
  const fs::path dir = fresh_dir("two-devices");
  std::ofstream both(dir / "results.jsonl");
  both << std::ifstream(kData + "/h100/results.jsonl").rdbuf() << std::ifstream(kData + "/t4/results.jsonl").rdbuf();
  both.close();
  const cli::Report r = cli::report_from_results(dir.string(), {});
  ASSERT_EQ(r.devices.size(), 2u);
  const std::string t4 = "GPU-0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0 580.95.05 nvcc 13.0.88 sass sass";
  EXPECT_EQ(r.devices.at(t4).compute_capability, "7.5");
  EXPECT_EQ(cell(r, t4, "shuffle", "__shfl_sync", "int", "structured (14)").sums.cases, 1000u);
  EXPECT_EQ(cell(r, kH100, "shuffle", "__shfl_sync", "int", "structured (14)").sums.cases, 1500u);
  EXPECT_EQ(cli::summary_line(r).rfind("Tesla T4, NVIDIA H100 80GB HBM3; ", 0), 0u) << cli::summary_line(r);
}

TEST(Report, puts_a_check_of_code_compiled_at_run_time_under_its_own_code_path) {
  const fs::path dir = fresh_dir("run-time-code-path");
  std::ifstream in(kData + "/h100/results.jsonl");
  std::string device_line, check_line;
  ASSERT_TRUE(std::getline(in, device_line) && std::getline(in, check_line));
  nlohmann::json on_debug = nlohmann::json::parse(check_line);
  on_debug["code_path"] = "sass-debug";  // as a program compiled with -G by NVRTC in a sass process
  std::ofstream(dir / "results.jsonl") << device_line << "\n" << check_line << "\n" << on_debug.dump() << "\n";
  const cli::Report r = cli::report_from_results(dir.string(), {});
  const std::string debug = "GPU-5e3a9c1d-7b2f-4c1e-9a0b-1f2e3d4c5b6a 580.159.04 nvcc 13.0.88 sass-debug sass";
  ASSERT_EQ(r.devices.size(), 2u);
  EXPECT_EQ(r.devices.at(debug).code_path, "sass-debug");
  EXPECT_EQ(r.devices.at(debug).name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(cell(r, kH100, "shuffle", "__shfl_sync", "int", "structured (14)").sums.cases, 1000u);
  EXPECT_EQ(cell(r, debug, "shuffle", "__shfl_sync", "int", "structured (14)").sums.cases, 1000u);
}

TEST(Report, gives_each_code_path_a_summary_line_whose_sums_add_up_to_the_run_s) {
  const fs::path dir = fresh_dir("code-path-lines");
  {
    std::ifstream in(kData + "/h100/results.jsonl");
    std::ofstream out(dir / "results.jsonl");
    std::string line;
    while (std::getline(in, line)) {
      out << line << "\n";
      nlohmann::json jit = nlohmann::json::parse(line);
      jit["pid"] = jit["pid"].get<int>() + 1000;  // the same checks in the processes of the jit-native path
      if (jit["record"] == "device") {
        jit["build"]["code_path"] = "jit-native";
        jit["build"]["code_path_proof"] = "the driver JIT-compiled compute_90 PTX";
      } else if (jit["record"] == "check" && jit["family"] == "shuffle") {
        jit["code_path"] = "jit-native";
        nlohmann::json debug = jit;
        debug["pid"] = 100;  // and one compiled at run time for sass-debug by a sass process
        debug["code_path"] = "sass-debug";
        out << debug.dump() << "\n";
      }
      out << jit.dump() << "\n";
    }
  }
  cli::Report r = cli::report_from_results(dir.string(), {});
  r.tests.clear();
  for (const auto& [name, status] : std::vector<std::pair<std::string, std::string>>{
           {"ShuffleOnGpu", "passed"}, {"jit-native/ShuffleOnGpu", "failed"}, {"jit-native/ReduceOnGpu", "passed"},
           {"sass.probes_keep_warpsync/sass-debug", "passed"}}) {
    cli::TestResult t;
    t.name = name;
    t.status = status;
    r.tests.push_back(t);
  }
  const std::vector<std::string> lines = cli::code_path_lines(r);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].rfind("sass: NVIDIA H100 80GB HBM3: 2 tests: 2 passed; ", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("sass-debug: NVIDIA H100 80GB HBM3; ", 0), 0u) << "no test of its own: " << lines[1];
  EXPECT_EQ(lines[2].rfind("jit-native: NVIDIA H100 80GB HBM3: 2 tests: 1 passed, 1 failed; ", 0), 0u) << lines[2];
  EXPECT_EQ(lines[0].substr(lines[0].rfind("; ")), "; no proof that it ran was recorded");
  EXPECT_EQ(lines[1].substr(lines[1].rfind("; ")), "; compiled at run time by a process of the sass path");
  EXPECT_EQ(lines[2].substr(lines[2].rfind("; ")), "; the driver JIT-compiled compute_90 PTX");
  // Every check, lane and deviation is on exactly one path.
  cli::FamilySums totals, planted;
  size_t deviations = 0;
  for (const char* path : {"sass", "sass-debug", "jit-native"}) {
    const cli::Report part = cli::part_on_path(r, path);
    totals.add(part.totals);
    planted.add(part.planted);
    deviations += part.deviations.size();
  }
  EXPECT_EQ(totals.records, r.totals.records);
  EXPECT_EQ(at(totals.lanes, "defined"), at(r.totals.lanes, "defined"));
  EXPECT_EQ(at(totals.mismatches, "defined"), at(r.totals.mismatches, "defined"));
  EXPECT_EQ(planted.records, r.planted.records);
  EXPECT_EQ(deviations, r.deviations.size());
  EXPECT_GT(cli::part_on_path(r, "sass-debug").totals.records, 0u);
  EXPECT_EQ(cli::code_path_lines(cli::report_from_json(cli::to_json(r), "r")), lines) << "report.json keeps the proofs";
  for (auto it = r.devices.begin(); it != r.devices.end();)
    it = it->second.code_path == "sass" ? std::next(it) : r.devices.erase(it);
  EXPECT_TRUE(cli::code_path_lines(r).empty()) << "one path: the summary line says it all";
}

// A report of the records of `files` (under kData/run and kData) in one results.jsonl.
cli::Report report_of(const std::string& name, const std::vector<std::string>& files) {
  const fs::path dir = fresh_dir(name);
  {
    std::ofstream all(dir / "results.jsonl");
    for (const std::string& f : files) all << std::ifstream(kData + "/" + f).rdbuf();
  }
  return cli::report_from_results(dir.string(), {});
}

const cli::PerfFigure& figure(const cli::Report& r, const std::string& id, const std::string& metric) {
  const auto it = std::find_if(r.perf.begin(), r.perf.end(),
                               [&](const cli::PerfFigure& f) { return f.id == id && f.metric == metric; });
  if (it == r.perf.end()) throw std::out_of_range("no figure " + id + " " + metric);
  return *it;
}

TEST(Report, turns_perf_records_into_figures_not_cells) {
  const cli::Report t4 = report_of("t4", {"t4/results.jsonl"});
  const cli::Report r = report_of("perf", {"t4/results.jsonl", "run/perf.jsonl"});
  EXPECT_EQ(r.cells.size(), t4.cells.size());
  EXPECT_EQ(r.totals.records, t4.totals.records);
  EXPECT_EQ(r.totals.lanes, t4.totals.lanes);
  EXPECT_EQ(at(r.totals.verdicts, "performance-change"), 0u) << "a figure is no check";
  ASSERT_EQ(r.perf.size(), 8u);
  EXPECT_EQ(r.devices.size(), 2u);
  const cli::PerfFigure& changed = figure(r, "shuffle.shfl_xor.u64.0000ffff", "latency_cycles");
  EXPECT_EQ(changed.device, kH100);
  EXPECT_EQ(changed.family, "shuffle");
  EXPECT_EQ(changed.type, "unsigned long long");
  EXPECT_EQ(changed.mask, "0000ffff");
  EXPECT_EQ(changed.verdict, "performance-change");
  EXPECT_EQ(changed.outcome, "performance-change");
  EXPECT_EQ(changed.median, 31.9027);
  EXPECT_EQ(changed.repetitions, 30u);
  ASSERT_TRUE(changed.baseline);
  EXPECT_EQ(changed.baseline->median, 25.3978);
  EXPECT_EQ(changed.baseline->file, "golden/sm_90/perf.txt");
  EXPECT_EQ(changed.worsening, 0.253609);
  const cli::PerfFigure& throughput = figure(r, "shuffle.shfl.u32.ffffffff", "throughput_per_sm_cycle");
  EXPECT_EQ(cli::field_text(throughput.sm_clock_mhz, "measured"), "1754.2");
  EXPECT_EQ(figure(r, "bandwidth.softmax.online.expf.f32.4096x1024", "ratio_to_copy").one_pass_gbs, 2219.75);
  const cli::PerfFigure& unrecorded = figure(r, "reduce.reduce_add.i32.ffffffff", "latency_cycles");
  EXPECT_EQ(unrecorded.verdict, "not-recorded");
  EXPECT_FALSE(unrecorded.baseline);
  EXPECT_FALSE(unrecorded.worsening);
  EXPECT_EQ(unrecorded.outcome, "");
  EXPECT_EQ(cli::summary_line(r),
            "Tesla T4, NVIDIA H100 80GB HBM3; 31,000 lanes compared; 0 conformance failures; 0 known deviations; 0 "
            "behaviour changes; 1 performance change");
  EXPECT_EQ(cli::summary_line(t4).find("performance"), std::string::npos) << "no figures, no count";
}

TEST(Report, a_performance_change_is_its_own_verdict_and_no_failure) {
  EXPECT_FALSE(cli::is_failure("performance-change"));
  EXPECT_TRUE(cli::is_failure("conformance-failure"));
  EXPECT_LT(cli::verdict_rank("behaviour-change"), cli::verdict_rank("performance-change"));
  EXPECT_LT(cli::verdict_rank("performance-change"), cli::verdict_rank("known-deviation"));
  for (size_t i = 1; i < std::size(cli::kPerfVerdicts); ++i)
    EXPECT_LT(cli::verdict_rank(cli::kPerfVerdicts[i - 1]), cli::verdict_rank(cli::kPerfVerdicts[i]));
}

TEST(Report, counts_the_figure_of_a_wrong_kernel_as_a_conformance_failure) {
  const cli::Report r = report_of("perf-wrong", {"run/perf_wrong.jsonl"});
  const cli::PerfFigure& wrong = figure(r, "match.match_any.u64.ffffffff", "latency_cycles");
  EXPECT_EQ(wrong.verdict, "conformance-failure");
  EXPECT_FALSE(wrong.median);
  EXPECT_NE(wrong.reason.find("lane 7 of chain 0"), std::string::npos);
  EXPECT_EQ(cli::perf_count(r, "conformance-failure"), 1u);
  EXPECT_EQ(cli::summary_line(r),
            "NVIDIA H100 80GB HBM3; 0 lanes compared; 1 conformance failure; 0 known deviations; 0 behaviour changes; 0 "
            "performance changes");
}

TEST(Report, refuses_a_perf_record_it_cannot_read_naming_its_line) {
  const std::string device = R"({"schema":"warpconf.results/1","record":"device","pid":1,"device":{"present":false,"reason":"none"}})";
  for (const auto& [record, message] : std::vector<std::pair<std::string, std::string>>{
           {R"({"schema":"warpconf.results/1","record":"perf","pid":1,"id":"a.b","metric":"latency_cycles","verdict":"planted-caught"})",
            "results.jsonl:2: a perf figure's verdict is 'planted-caught'"},
           {R"({"schema":"warpconf.results/1","record":"perf","pid":1,"id":"a.b","metric":"latency","verdict":"pass"})",
            "results.jsonl:2: unknown perf metric 'latency'"},
           {R"({"schema":"warpconf.results/1","record":"perf","pid":1,"id":"a.b","metric":"latency_cycles","median":-1,"verdict":"pass"})",
            "results.jsonl:2: median: -1 is not a non-negative number"}}) {
    const fs::path dir = fresh_dir("perf-refused");
    std::ofstream(dir / "results.jsonl") << device << "\n" << record << "\n";
    try {
      cli::report_from_results(dir.string(), {});
      ADD_FAILURE() << "accepted " << record;
    } catch (const cli::UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

// A library call whose timed loop holds more instructions than its raw intrinsic's (docs/perf.md): a
// perf verdict of its own, counted in the summary line, no failure.
TEST(Report, counts_a_library_call_costlier_than_its_raw_intrinsic_and_fails_nothing) {
  const fs::path dir = fresh_dir("perf-costlier");
  std::ofstream(dir / "results.jsonl")
      << R"({"schema":"warpconf.results/1","record":"device","pid":1,"device":{"present":false,"reason":"none"}})" << "\n"
      << R"({"schema":"warpconf.results/1","record":"perf","pid":1,"id":"warp_shuffle.warp_shuffle_xor.u32.ffffffff",)"
         R"("family":"warp_shuffle","metric":"latency_cycles","median":30.5,"mad":0.1,"repetitions":30,)"
         R"("raw":{"id":"shuffle.shfl_xor.u32.ffffffff","comparison":"costlier-than-raw","note":"2 instructions a call (ALL) against 1"},)"
         R"("verdict":"costlier-than-raw"})" << "\n";
  const cli::Report r = cli::report_from_results(dir.string(), {});
  EXPECT_EQ(cli::perf_count(r, "costlier-than-raw"), 1u);
  EXPECT_FALSE(cli::is_failure("costlier-than-raw"));
  EXPECT_NE(cli::summary_line(r).find("1 library call costlier than its raw intrinsic"), std::string::npos)
      << cli::summary_line(r);
}

TEST(Report, reports_a_stream_cut_mid_line_as_aborted) {
  const cli::Report r = cli::report_from_results(kData + "/truncated/results.jsonl", {});
  ASSERT_FALSE(r.aborted.is_null());
  EXPECT_NE(cli::field_text(r.aborted, "reason").find("results.jsonl line 3 is cut off mid-record"), std::string::npos)
      << r.aborted.dump();
  EXPECT_EQ(cli::field_text(r.aborted, "last_test"), "EveryOpAndType/ShuffleSweepOnGpu.agrees_with_the_model/shfl_int");
  EXPECT_EQ(r.run.status, "aborted");
  EXPECT_EQ(r.totals.records, 1u) << "the whole lines count, the cut one does not";
  EXPECT_EQ(cli::summary_line(r).rfind("ABORTED (killed or crashed before the run finished (", 0), 0u);
}

TEST(Report, names_the_line_of_a_record_it_cannot_read) {
  try {
    cli::report_from_results(kData + "/bad-line.jsonl", {});
    ADD_FAILURE() << "accepted a malformed line";
  } catch (const cli::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("bad-line.jsonl:2: not a JSON object"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cli::report_from_results(kData + "/nonexistent", {}), cli::UsageError);
}

TEST(Report, reads_the_tests_from_ctest_lines_and_why_from_junit) {
  const cli::Report r = cli::report_from_results(kData + "/h100", {});
  ASSERT_EQ(r.tests.size(), 6u);
  std::map<std::string, const cli::TestResult*> by_name;
  for (const cli::TestResult& t : r.tests) by_name[t.name] = &t;
  const cli::TestResult& skipped = *by_name.at("ReduceOnGpu");
  EXPECT_EQ(skipped.status, "skipped") << "a line that ctest.log broke after the dots";
  EXPECT_EQ(skipped.skip, "not-supported");
  EXPECT_EQ(skipped.reason, "NotSupported: __reduce_add_sync needs compute capability 8.0, the driver runs compute_75 PTX");
  const cli::TestResult& failed = *by_name.at("Every/AlgorithmSweepOnGpu");
  EXPECT_EQ(failed.status, "failed");
  EXPECT_EQ(failed.seconds, 3.1);
  EXPECT_NE(failed.reason.find("reduce_butterfly<sum><float>: 3 bad lanes"), std::string::npos) << failed.reason;
  ASSERT_EQ(r.run.rounds.size(), 1u);
  EXPECT_EQ(r.run.rounds[0].summary, "83% tests passed, 1 tests failed out of 6");
}

// A results folder with one device record and `ctest_log` as its ctest.log (in round folder `round`
// where one is given).
fs::path run_with_log(const std::string& name, const std::string& ctest_log, const std::string& round = "") {
  const fs::path dir = fresh_dir(name);
  std::ofstream(dir / "results.jsonl")
      << R"({"schema":"warpconf.results/1","record":"device","pid":1,"device":{"present":false,"reason":"none"}})" "\n";
  fs::create_directories(dir / round);
  std::ofstream(dir / round / "ctest.log") << ctest_log;
  return dir;
}

// Numbers that do not fit are refused by file, line and field; they once aborted warpconf report.
TEST(Report, names_the_ctest_line_of_a_number_that_does_not_fit) {
  const std::string nines(400, '9');
  for (const auto& [line, message] : std::vector<std::pair<std::string, std::string>>{
           {"1/99999999999 Test #5: X ....   Passed    1.02 sec", "ctest.log:2: the test count '99999999999' does not fit"},
           {"1/9 Test #5: X ....   Passed    . sec", "ctest.log:2: the seconds '.' are not a number of seconds"},
           {"1/9 Test #5: X ....   Passed    1.0.2 sec", "ctest.log:2: the seconds '1.0.2' are not"},
           {"1/9 Test #5: X ....   Passed    " + nines + " sec", "ctest.log:2: the seconds '9999"}}) {
    const fs::path dir = run_with_log("ctest-number", "    Start 5: X\n" + line + "\n");
    try {
      cli::report_from_results(dir.string(), {});
      ADD_FAILURE() << "accepted " << line;
    } catch (const cli::UsageError& e) {
      EXPECT_NE(std::string(e.what()).find((dir / message).string()), std::string::npos) << e.what();
    }
    std::ostringstream out, err;
    EXPECT_EQ(cli::run_report_command(dir.string(), "", {}, out, err), 2) << line;
  }
}

TEST(Report, refuses_a_round_folder_whose_number_does_not_fit) {
  const fs::path dir = run_with_log("round-number", "", "round-99999999999999999999");
  try {
    cli::round_dirs(dir.string());
    ADD_FAILURE() << "accepted round-99999999999999999999";
  } catch (const cli::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("round-99999999999999999999: the round number does not fit an int"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(cli::round_dirs(run_with_log("round-number", "", "round-12").string())[0].first, 12);
}

// A test name of 200,000 characters: ctest's lines are read without a regular expression, whose
// recursion once overflowed the stack on such a line.
TEST(Report, reads_a_ctest_line_of_any_length) {
  const std::string name(200000, 'x');
  const fs::path dir = run_with_log("long-line", "1/1 Test #1: " + name + " ....   Passed    1.02 sec\n"
                                                 "100% tests passed, 0 tests failed out of 1\n");
  const cli::Report r = cli::report_from_results(dir.string(), {});
  ASSERT_EQ(r.tests.size(), 1u);
  EXPECT_EQ(r.tests[0].name, name);
  EXPECT_EQ(r.tests[0].seconds, 1.02);
}

// A report of nothing is no report: exit status 2, as for any input that holds nothing.
TEST(Report, refuses_a_results_file_with_no_record_and_no_test) {
  const fs::path dir = fresh_dir("empty");
  std::ofstream(dir / "results.jsonl").close();
  std::ostringstream out, err;
  EXPECT_EQ(cli::run_report_command(dir.string(), "", {}, out, err), 2);
  EXPECT_NE(err.str().find("results.jsonl: no record, and no test in a ctest file beside it: nothing to report"),
            std::string::npos)
      << err.str();
  EXPECT_FALSE(fs::exists(dir / "report.json"));
  std::ofstream(dir / "ctest.log") << "1/1 Test #1: only ....   Passed    1.02 sec\n100% tests passed out of 1\n";
  EXPECT_EQ(cli::run_report_command(dir.string(), "", {}, out, err), 0) << "a test, and no record: a report";
}

// A folder where a results file, ctest.log or junit.xml belongs is no empty file: it once made a
// report of "0 lanes compared" and exit status 0.
TEST(Report, refuses_a_folder_where_a_file_belongs_naming_it) {
  for (const char* name : {"results.jsonl", "ctest.log", "junit.xml"}) {
    const fs::path dir = fresh_dir("folder-for-file");
    fs::copy(kData + "/h100", dir);
    fs::remove(dir / name);
    fs::create_directory(dir / name);
    std::ostringstream out, err;
    EXPECT_EQ(cli::run_report_command(dir.string(), (dir / "report").string(), {}, out, err), 2) << name << out.str();
    EXPECT_EQ(err.str(), "warpconf report: " + (dir / name).string() + ": cannot read: Is a directory\n");
  }
}

TEST(CtestProgress, reads_every_ending_ctest_prints) {
  cli::CtestProgress p;
  EXPECT_FALSE(p.line("    Start 12: sanitize/memcheck/Every/AlgorithmSweepOnGpu"));
  EXPECT_FALSE(p.line("    Start 13: probe.verify"));
  EXPECT_EQ(p.in_flight(), (std::set<std::string>{"probe.verify", "sanitize/memcheck/Every/AlgorithmSweepOnGpu"}));
  for (const auto& [line, name, status, ctest] : std::vector<std::tuple<std::string, std::string, std::string, std::string>>{
           {"  1/140 Test  #12: sanitize/memcheck/Every/AlgorithmSweepOnGpu ...   Passed    1.50 sec",
            "sanitize/memcheck/Every/AlgorithmSweepOnGpu", "passed", "Passed"},
           {"2/9 Test #2: skip .............................***Skipped   0.03 sec", "skip", "skipped", "Skipped"},
           {"3/9 Test #3: fail .............................***Failed    0.04 sec", "fail", "failed", "Failed"},
           {"4/9 Test #4: slow .............................***Timeout 300.01 sec", "slow", "timeout", "Timeout"},
           {"5/9 Test #5: crash ............................***Exception: SegFault  0.03 sec", "crash", "failed",
            "Exception: SegFault"},
           {"6/9 Test #7: missing ..........................***Not Run   0.00 sec", "missing", "not-run", "Not Run"},
           {"7/9 Test #8: disabled .........................***Not Run (Disabled)   0.00 sec", "disabled", "disabled",
            "Not Run (Disabled)"},
           {"8/9 Test #9: a.b ..............................***Failed  Required regular expression not found. Regex=[x]  0.01 sec",
            "a.b", "failed", "Failed  Required regular expression not found. Regex=[x]"}}) {
    const std::optional<cli::TestResult> t = p.line(line);
    ASSERT_TRUE(t) << line;
    EXPECT_EQ(t->name, name);
    EXPECT_EQ(t->status, status);
    EXPECT_EQ(t->ctest, ctest);
  }
  EXPECT_EQ(p.total(), 9);
  EXPECT_EQ(p.in_flight(), std::set<std::string>{"probe.verify"});
  EXPECT_FALSE(p.line("9/9 Test #13: probe.verify .......................")) << "ctest.log's break after the dots";
  const std::optional<cli::TestResult> joined = p.line("***Not Run   0.00 sec");
  ASSERT_TRUE(joined);
  EXPECT_EQ(joined->name, "probe.verify");
  EXPECT_EQ(joined->status, "not-run");
  EXPECT_EQ(p.summary(), "");
  p.line("78% tests passed, 2 tests failed out of 9");
  EXPECT_EQ(p.summary(), "78% tests passed, 2 tests failed out of 9");
  p.line("100% tests passed out of 60");  // ctest 4.x leaves out "0 tests failed" (measured, CMake 4.4)
  EXPECT_EQ(p.summary(), "100% tests passed out of 60");
}

// Lines of 60,000 characters, a summary and a run of dots (the ctest_files_reader fuzz target's
// seeds), where a regular expression's recursion once overflowed the stack.
TEST(CtestProgress, reads_a_summary_and_a_run_of_dots_of_any_length) {
  cli::CtestProgress p;
  const std::string summary = "100% tests passed, 0 tests failed out of 1" + std::string(60000, 'x');
  EXPECT_FALSE(p.line(summary));
  EXPECT_EQ(p.summary(), summary);
  const std::optional<cli::TestResult> t = p.line("1/1 Test #1: x " + std::string(60000, '.') + "   Passed    1.02 sec");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->name, "x");
  EXPECT_EQ(t->status, "passed");
}

TEST(CtestProgress, tells_a_skip_s_reason_from_its_output) {
  EXPECT_EQ(cli::skip_reason("[ RUN ] a\nx.cpp:1: Skipped\nNotSupported: needs 8.0\n[ SKIPPED ] a\n").first, "not-supported");
  EXPECT_EQ(cli::skip_reason("warpconf probe --verify: not recorded: no golden/sm_80/contracts.txt\n"),
            std::make_pair(std::string("not-recorded"),
                           std::string("warpconf probe --verify: not recorded: no golden/sm_80/contracts.txt")));
  EXPECT_EQ(cli::skip_reason("no GPU here\n"), std::make_pair(std::string("unexplained"), std::string("no GPU here")));
  EXPECT_EQ(cli::skip_reason("").second, "no output");
}

TEST(RecordReader, reads_lines_split_anywhere_and_returns_a_cut_last_line) {
  const std::string text = "{\"schema\":\"warpconf.results/1\",\"record\":\"check\",\"family\":\"vote\",\"verdict\":\"pass\"}\n";
  for (size_t split = 0; split <= text.size(); ++split) {
    int records = 0;
    cli::RecordReader reader("f");
    const cli::RecordReader::Each each = [&records](const nlohmann::json&) { ++records; };
    reader.feed(std::string_view(text).substr(0, split), each);
    reader.feed(std::string_view(text).substr(split), each);
    reader.feed(std::string_view(text).substr(0, 20), each);
    EXPECT_EQ(reader.finish(each), 2) << "the second line stops after 20 bytes";
    EXPECT_EQ(records, 1);
  }
  cli::RecordReader whole("f");
  int records = 0;
  whole.feed(std::string_view(text).substr(0, text.size() - 1), [&records](const nlohmann::json&) { ++records; });
  EXPECT_EQ(whole.finish([&records](const nlohmann::json&) { ++records; }), 0) << "a whole record without its newline";
  EXPECT_EQ(records, 1);
}

// A copy of the results folder `from` as a run a day later: the same checks on the same device.
fs::path a_day_later(const std::string& from, const fs::path& to) {
  fs::create_directories(to);
  for (const fs::directory_entry& e : fs::directory_iterator(from)) {
    std::ifstream in(e.path());
    std::string text(std::istreambuf_iterator<char>(in), {});
    for (size_t at = text.find("\"time\":\"2026-11-2"); at != std::string::npos; at = text.find("\"time\":\"2026-11-2", at + 1))
      ++text[at + 17];  // the day's last digit
    std::ofstream(to / e.path().filename()) << text;
  }
  return to;
}

// A line past kMostRecordBytes is refused once, where it passes the bound, and the reader goes on
// with the next line (warpconf run: an error of the test that wrote it).
TEST(RecordReader, refuses_a_line_longer_than_its_bound_and_reads_on) {
  const std::string record = "{\"schema\":\"warpconf.results/1\",\"record\":\"check\",\"family\":\"vote\",\"verdict\":\"pass\"}\n";
  cli::RecordReader reader("f");
  int records = 0;
  std::vector<std::string> refused;
  const cli::RecordReader::Each each = [&records](const nlohmann::json&) { ++records; };
  const cli::RecordReader::Refuse refuse = [&refused](const std::string&, const std::string& why) { refused.push_back(why); };
  const std::string chunk(1 << 20, 'x');
  for (size_t sent = 0; sent <= cli::kMostRecordBytes; sent += chunk.size()) reader.feed(chunk, each, refuse);
  reader.feed("more of the same line\n" + record, each, refuse);
  EXPECT_EQ(reader.finish(each, refuse), 0);
  EXPECT_EQ(refused, std::vector<std::string>{"f:1: a line longer than 16 MiB, which no record is"});
  EXPECT_EQ(records, 1);
  EXPECT_EQ(reader.lines(), 2);
}

TEST(Merge, puts_each_device_in_its_own_column) {
  const fs::path dir = fresh_dir("merge");
  std::ostringstream out, err;
  ASSERT_EQ(cli::run_report_command(kData + "/h100", (dir / "h100").string(), {}, out, err), 0) << err.str();
  ASSERT_EQ(cli::run_report_command(kData + "/t4", (dir / "t4").string(), {}, out, err), 0) << err.str();
  ASSERT_EQ(cli::run_merge_command({(dir / "h100").string(), (dir / "t4" / "report.json").string()},
                                   (dir / "merged").string(), {}, out, err),
            0)
      << err.str();
  const nlohmann::json merged = nlohmann::json::parse(std::ifstream(dir / "merged" / "report.json"));
  const cli::Report r = cli::report_from_json(merged, "merged");
  EXPECT_EQ(r.devices.size(), 2u);
  EXPECT_EQ(r.run.sources.size(), 2u);
  EXPECT_EQ(r.tests.size(), 6u);
  EXPECT_EQ(r.tests[0].source, (dir / "h100").string());
  EXPECT_EQ(at(r.totals.lanes, "defined"), 87000u + 30000);
  // A report written and read back is the same report.
  EXPECT_EQ(cli::to_json(r), merged);
}

// A device fingerprint's checks, or its perf figures, come from one report: the same device again,
// through a merged report that holds it, a merge into its own --out, or another run of it, would
// count twice (it once did). Its conformance and perf runs are two parts of one column.
TEST(Merge, refuses_a_device_given_twice_and_joins_its_checks_and_figures) {
  const fs::path dir = fresh_dir("merge-device-twice");
  std::ostringstream out, err;
  fs::create_directories(dir / "perf");
  fs::copy_file(kData + "/run/perf.jsonl", dir / "perf" / "results.jsonl");
  for (const auto& [from, to] : std::vector<std::pair<std::string, fs::path>>{
           {kData + "/h100", dir / "h100"}, {kData + "/t4", dir / "t4"}, {(dir / "perf").string(), dir / "perf"},
           {a_day_later(kData + "/h100", dir / "h100-later").string(), dir / "h100-later"}})
    ASSERT_EQ(cli::run_report_command(from, to.string(), {}, out, err), 0) << err.str();
  const std::string h100 = (dir / "h100").string(), t4 = (dir / "t4").string(), fleet = (dir / "fleet").string();
  ASSERT_EQ(cli::run_merge_command({h100, (dir / "perf").string()}, fleet, {}, out, err), 0) << err.str();
  const cli::Report joined = cli::report_from_json(nlohmann::json::parse(std::ifstream(dir / "fleet" / "report.json")), "fleet");
  EXPECT_EQ(joined.devices.size(), 1u) << "the H100's checks and its figures in one column";
  EXPECT_FALSE(joined.cells.empty());
  EXPECT_FALSE(joined.perf.empty());
  const std::string fleet_file = (dir / "fleet" / "report.json").string();
  for (const auto& [inputs, earlier, later, part] :
       std::vector<std::tuple<std::vector<std::string>, std::string, std::string, std::string>>{
           {{fleet, h100}, fleet_file, h100 + "/report.json", "checks"},
           {{h100, (dir / "h100-later").string()}, h100 + "/report.json", (dir / "h100-later" / "report.json").string(),
            "checks"},
           {{fleet, (dir / "perf").string()}, fleet_file, (dir / "perf" / "report.json").string(), "perf figures"}}) {
    std::ostringstream said;
    EXPECT_EQ(cli::run_merge_command(inputs, (dir / "out").string(), {}, out, said), 2) << later;
    EXPECT_EQ(said.str(), "warpconf merge: " + later + ": the " + part + " of NVIDIA H100 80GB HBM3 (" + kH100 +
                              ") are in " + earlier + " too: they would count twice\n");
  }
  EXPECT_FALSE(fs::exists(dir / "out" / "report.json"));
  // Merged into its own --out again: the second time, t4 is already in it.
  ASSERT_EQ(cli::run_merge_command({fleet, t4}, fleet, {}, out, err), 0) << err.str();
  std::ostringstream again;
  EXPECT_EQ(cli::run_merge_command({fleet, t4}, fleet, {}, out, again), 2);
  EXPECT_NE(again.str().find(": the checks of Tesla T4 ("), std::string::npos) << again.str();
}

// The same report twice would count every check twice: as the same folder, a folder and its
// report.json, a link to it, or a copy.
TEST(Merge, refuses_the_same_report_twice_and_a_report_of_nothing) {
  const fs::path dir = fresh_dir("merge-twice");
  std::ostringstream out;
  ASSERT_EQ(cli::run_report_command(kData + "/t4", (dir / "t4").string(), {}, out, out), 0);
  fs::create_directory_symlink(dir / "t4", dir / "link");
  fs::create_directories(dir / "copy");
  fs::copy_file(dir / "t4" / "report.json", dir / "copy" / "report.json");
  const std::string t4 = (dir / "t4").string();
  for (const std::string& again : {t4, t4 + "/report.json", (dir / "link").string(), (dir / "copy").string()}) {
    std::ostringstream err;
    EXPECT_EQ(cli::run_merge_command({t4, again}, (dir / "out").string(), {}, out, err), 2) << again;
    const std::string said = err.str();
    EXPECT_NE(said.find("are the same report: it would count twice"), std::string::npos) << said;
    EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
  }
  EXPECT_FALSE(fs::exists(dir / "out" / "report.json"));
  // A report with no check, test or figure is a merge input of nothing.
  nlohmann::json empty = nlohmann::json::parse(std::ifstream(dir / "t4" / "report.json"));
  empty["cells"] = nlohmann::json::array();
  fs::create_directories(dir / "empty");
  std::ofstream(dir / "empty" / "report.json") << empty.dump();
  std::ostringstream err;
  EXPECT_EQ(cli::run_merge_command({t4, (dir / "empty").string()}, (dir / "out").string(), {}, out, err), 2);
  EXPECT_NE(err.str().find("empty/report.json: no check, test or perf figure: nothing to merge"), std::string::npos)
      << err.str();
}

// A fleet of one node, and a node that could not be tested (warpconf health): its report holds
// nothing and says why, in place of an earlier run's files, and makes the merged report aborted.
TEST(Merge, takes_one_report_and_one_of_a_node_that_could_not_be_tested) {
  const fs::path dir = fresh_dir("merge-untested");
  std::ostringstream out, err;
  ASSERT_EQ(cli::run_report_command(kData + "/h100", (dir / "h100").string(), {}, out, err), 0) << err.str();
  ASSERT_EQ(cli::run_merge_command({(dir / "h100").string()}, (dir / "one").string(), {}, out, err), 0) << err.str();
  const cli::Report one = cli::report_from_json(nlohmann::json::parse(std::ifstream(dir / "one" / "report.json")), "one");
  EXPECT_EQ(one.devices.size(), 1u);
  EXPECT_TRUE(one.aborted.is_null());
  fs::create_directories(dir / "nogpu" / "round-2");
  std::ofstream(dir / "nogpu" / "results.jsonl") << "an earlier run's records\n";
  cli::RunOptions untested;
  untested.out = (dir / "nogpu").string();
  cli::write_untested_report(untested, "no CUDA device: cudaGetDeviceCount returned cudaErrorNoDevice");
  EXPECT_FALSE(fs::exists(dir / "nogpu" / "results.jsonl"));
  EXPECT_FALSE(fs::exists(dir / "nogpu" / "round-2"));
  const nlohmann::json nogpu = nlohmann::json::parse(std::ifstream(dir / "nogpu" / "report.json"));
  EXPECT_EQ(nogpu["run"]["stop"], nlohmann::json({{"cause", "could-not-test"}, {"signal", nullptr},
                                                  {"detail", "no CUDA device: cudaGetDeviceCount returned cudaErrorNoDevice"}}));
  ASSERT_EQ(cli::run_merge_command({(dir / "h100").string(), (dir / "nogpu").string()}, (dir / "fleet").string(), {},
                                   out, err),
            0)
      << err.str();
  const cli::Report fleet =
      cli::report_from_json(nlohmann::json::parse(std::ifstream(dir / "fleet" / "report.json")), "fleet");
  EXPECT_EQ(fleet.run.status, "aborted");
  EXPECT_EQ(cli::field_text(fleet.aborted, "reason"),
            (dir / "nogpu").string() + ": could not test: no CUDA device: cudaGetDeviceCount returned cudaErrorNoDevice");
  EXPECT_EQ(fleet.devices.size(), 1u);
  EXPECT_EQ(fleet.tests.size(), one.tests.size());
  EXPECT_EQ(cli::summary_line(fleet).rfind("ABORTED (" + (dir / "nogpu").string() + ": could not test: ", 0), 0u);
}

TEST(Merge, puts_the_perf_figures_of_two_devices_side_by_side_in_one_table) {
  const fs::path dir = fresh_dir("merge-perf");
  std::ostringstream out, err;
  for (const char* name : {"perf", "perf_h200"}) {
    fs::create_directories(dir / name);
    fs::copy_file(kData + "/run/" + name + ".jsonl", dir / name / "results.jsonl");
    ASSERT_EQ(cli::run_report_command((dir / name).string(), (dir / name).string(), {}, out, err), 0) << err.str();
  }
  ASSERT_EQ(cli::run_merge_command({(dir / "perf").string(), (dir / "perf_h200").string()}, (dir / "merged").string(),
                                   {}, out, err),
            0)
      << err.str();
  const nlohmann::json merged = nlohmann::json::parse(std::ifstream(dir / "merged" / "report.json"));
  const cli::Report r = cli::report_from_json(merged, "merged");
  EXPECT_EQ(r.perf.size(), 8u + 4);
  EXPECT_EQ(cli::to_json(r), merged) << "written and read back, the same report";
  std::ostringstream md;
  cli::write_markdown(r, md);
  const std::string h200 = "NVIDIA H200 (GPU-8a41c0e2, sass)", h100 = "NVIDIA H100 80GB HBM3 (GPU-5e3a9c1d, sass)";
  EXPECT_NE(md.str().find("| figure | metric | " + h100 + " | " + h200 + " |\n|---|---|---|---|\n"), std::string::npos)
      << md.str();
  EXPECT_NE(md.str().find("| `shuffle.shfl.u32.ffffffff` | latency_cycles | 26.3811 \u00b1 0.0002; baseline 26.3803 "
                          "\u00b1 0, 0.0 % worse; **pass** | 26.3803 \u00b1 0; **pass** |\n"),
            std::string::npos)
      << md.str();
  EXPECT_NE(md.str().find("| `vote.ballot.ffffffff` | latency_cycles | 15.2107 \u00b1 0.0001; baseline 17.6931 \u00b1 0, "
                          "14.0 % better; **pass** | |\n"),
            std::string::npos)
      << "a figure one device lacks: an empty cell\n"
      << md.str();
}

TEST(Merge, reads_a_report_without_perf_as_one_without_figures) {
  const fs::path dir = fresh_dir("no-perf");
  std::ostringstream out;
  ASSERT_EQ(cli::run_report_command(kData + "/t4", (dir / "t4").string(), {}, out, out), 0);
  nlohmann::json old = nlohmann::json::parse(std::ifstream(dir / "t4" / "report.json"));
  ASSERT_TRUE(old.contains("perf"));
  old.erase("perf");
  EXPECT_TRUE(cli::report_from_json(old, "old").perf.empty());
  old["perf"] = nlohmann::json::array({{{"device", "x"}, {"id", "a.b"}, {"metric", "latency_cycles"}, {"verdict", "fast"}}});
  EXPECT_THROW(cli::report_from_json(old, "bad-perf"), cli::UsageError);
}

TEST(Merge, reads_why_a_run_stopped_back_and_a_report_without_it_as_no_run) {
  cli::Report r = cli::report_from_results(kData + "/t4", {});
  r.run.stop = {"signal", 1, "interrupted by SIGHUP"};
  nlohmann::json j = cli::to_json(r);
  EXPECT_EQ(j["run"]["stop"], nlohmann::json({{"cause", "signal"}, {"signal", 1}, {"detail", "interrupted by SIGHUP"}}));
  const cli::RunStop back = cli::report_from_json(j, "stopped").run.stop;
  EXPECT_EQ(std::make_tuple(back.cause, back.signal, back.detail), std::make_tuple("signal", 1, "interrupted by SIGHUP"));
  j["run"].erase("stop");
  EXPECT_EQ(cli::report_from_json(j, "older").run.stop.cause, "");
  for (const nlohmann::json& bad : {nlohmann::json(3), nlohmann::json({{"cause", 1}, {"signal", nullptr}, {"detail", ""}}),
                                    nlohmann::json({{"cause", "signal"}, {"signal", -1}, {"detail", ""}}),
                                    nlohmann::json({{"cause", "signal"}, {"signal", 65}, {"detail", ""}}),
                                    nlohmann::json({{"cause", "finished"}, {"signal", nullptr}})}) {
    j["run"]["stop"] = bad;
    EXPECT_THROW(cli::report_from_json(j, "bad-stop"), cli::UsageError) << bad;
  }
}

TEST(Merge, refuses_another_schema_and_malformed_json_naming_the_file) {
  const fs::path dir = fresh_dir("refuse");
  std::ostringstream out;
  ASSERT_EQ(cli::run_report_command(kData + "/t4", (dir / "t4").string(), {}, out, out), 0);
  const std::string ok = (dir / "t4").string();
  for (const auto& [bad, message] : std::vector<std::pair<std::string, std::string>>{
           {kData + "/old-schema.json", "old-schema.json: schema 'warpconf.report/0', this warpconf reads warpconf.report/1"},
           {kData + "/malformed.json", "malformed.json: not JSON"},
           {kData + "/nonexistent.json", kData + "/nonexistent.json: cannot read: No such file or directory"},
           {kData + "/h100/junit.xml", "junit.xml: not JSON"}}) {
    std::ostringstream err;
    EXPECT_EQ(cli::run_merge_command({ok, bad}, (dir / "out").string(), {}, out, err), 2) << bad;
    const std::string said = err.str();
    EXPECT_NE(said.find(message), std::string::npos) << said;
    EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
  }
  nlohmann::json no_cells = nlohmann::json::parse(std::ifstream(dir / "t4" / "report.json"));
  no_cells.erase("cells");
  EXPECT_THROW(cli::report_from_json(no_cells, "no-cells"), cli::UsageError);
}

// A report.json member of another type or out of range is named by its path; a null schema once
// aborted warpconf merge.
TEST(Merge, names_the_member_of_a_report_it_cannot_read) {
  const fs::path dir = fresh_dir("report-members");
  std::ostringstream out;
  fs::create_directories(dir / "perf");
  fs::copy_file(kData + "/run/perf.jsonl", dir / "perf" / "results.jsonl");
  ASSERT_EQ(cli::run_report_command((dir / "perf").string(), "", {}, out, out), 0);
  ASSERT_EQ(cli::run_report_command(kData + "/h100", (dir / "h100").string(), {}, out, out), 0);
  const nlohmann::json h100 = nlohmann::json::parse(std::ifstream(dir / "h100" / "report.json"));
  const nlohmann::json perf = nlohmann::json::parse(std::ifstream(dir / "perf" / "report.json"));
  using Edit = std::function<void(nlohmann::json&)>;
  for (const auto& [edit, message] : std::vector<std::pair<Edit, std::string>>{
           {[](nlohmann::json& j) { j["schema"] = nullptr; }, "r: schema: null is not a string"},
           {[](nlohmann::json& j) { j["run"]["argv"] = {1}; }, "r: run.argv[0]: 1 is not a string"},
           {[](nlohmann::json& j) { j["run"]["seconds"] = 1e300; }, "r: run.seconds: 1e+300 is not from 0 to"},
           {[](nlohmann::json& j) { j["run"]["status"] = "fine"; }, "r: run.status: \"fine\" is not 'running'"},
           {[](nlohmann::json& j) { j["cells"][0]["cases"] = -1; }, "r: cells[0].cases: -1 is not a whole number from 0"},
           {[](nlohmann::json& j) { j["cells"][0]["seeds"] = {nullptr}; }, "r: cells[0].seeds[0]: null is not a string"},
           {[](nlohmann::json& j) { j["devices"][0]["ordinal"] = "0"; }, "r: devices[0].ordinal: \"0\" is not a whole number"},
           {[](nlohmann::json& j) { j["tests"][0]["round"] = 99999999999; },
            "r: tests[0].round: 99999999999 is not a whole number of an int"},
           {[](nlohmann::json& j) { j["tests"][0]["status"] = "fine"; }, "r: tests[0].status: \"fine\" is not 'passed'"},
           {[](nlohmann::json& j) { j["totals"]["verdicts"] = {{"great", 1}}; },
            "r: totals.verdicts: unknown verdict 'great'"},
           {[](nlohmann::json& j) { j["known_deviations"][0]["lanes"] = 1.5; },
            "r: known_deviations[0].lanes: 1.5 is not a whole number from 0"},
           {[](nlohmann::json& j) { j["aborted"] = 5; }, "r: aborted: 5 is not an object"},
           {[](nlohmann::json& j) { j["aborted"] = {{"reason", 1}}; }, "r: aborted.reason: 1 is not a string"},
           {[](nlohmann::json& j) { j.erase("cells"); }, "r: cells: missing"}}) {
    nlohmann::json j = h100;
    edit(j);
    try {
      cli::report_from_json(j, "r");
      ADD_FAILURE() << "accepted: " << message;
    } catch (const cli::UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(message, 0), 0u) << e.what();
    }
  }
  nlohmann::json j = perf;
  j["perf"][0]["repetitions"] = 1e300;
  EXPECT_THROW(cli::report_from_json(j, "r"), cli::UsageError) << "a repetition count is a whole number";
  j = perf;
  j["perf"][0]["device"] = false;
  try {
    cli::report_from_json(j, "r");
    ADD_FAILURE() << "accepted a perf figure's device false";
  } catch (const cli::UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "r: perf[0].device: false is not a string");
  }
}

// A device whose kernels were not the SASS built for its compute capability: the note says what ran.
struct CodeCase {
  const char* name;
  const char* compute_capability;
  const char* architectures;
  const char* code_path;
  int ptx, binary;
  const char* variant;
  const char* note;
};

class CodeNote : public ::testing::TestWithParam<CodeCase> {};

TEST_P(CodeNote, says_what_ran_where_it_was_not_the_device_s_own_sass) {
  const CodeCase& c = GetParam();
  cli::Fingerprint f;
  f.compute_capability = c.compute_capability;
  f.architectures = c.architectures;
  f.code_path = c.code_path;
  f.ptx_version = c.ptx;
  f.binary_version = c.binary;
  f.variant = c.variant;
  EXPECT_EQ(cli::code_note(f), c.note);
}

INSTANTIATE_TEST_SUITE_P(
    Devices, CodeNote,
    ::testing::Values(
        CodeCase{"own_sass", "9.0", "90-real,75-virtual", "sass", 90, 90, "sass", ""},
        CodeCase{"own_sass_and_ptx", "9.0", "75;90", "sass", 90, 90, "sass", ""},
        CodeCase{"no_sass_jit_of_the_newest_ptx", "13.0", "75-real,90-real,75-virtual,121-virtual", "jit-native", 121, 130,
                 "sass",
                 "no sm_130 SASS in the build (architectures 75-real,90-real,75-virtual,121-virtual): the driver "
                 "JIT-compiled the embedded compute_121 PTX"},
        CodeCase{"ptx_only_names_no_sass", "9.0", "75-virtual", "jit-75", 75, 90, "sass",
                 "no sm_90 SASS in the build (architectures 75-virtual): the driver JIT-compiled the embedded compute_75 PTX"},
        CodeCase{"forced_jit_of_the_jit_75_path", "9.0", "90-real,75-virtual", "jit-75", 75, 90, "jit-75", ""},
        CodeCase{"forced_jit_of_the_jit_native_path", "9.0", "90", "jit-native", 90, 90, "jit-native", ""},
        CodeCase{"forced_jit_outside_the_path", "9.0", "90-real,75-virtual", "jit-75", 75, 90, "sass",
                 "the driver JIT-compiled the embedded compute_75 PTX"},
        CodeCase{"older_sass_of_the_same_major", "8.6", "80-real,75-virtual", "sass", 80, 80, "sass",
                 "no sm_86 SASS in the build (architectures 80-real,75-virtual): sm_80 SASS ran on compute capability 8.6"},
        CodeCase{"records_before_the_code_paths", "9.0", "all", "driver-jit", 75, 90, "sass",
                 "the driver JIT-compiled the embedded compute_75 PTX"}),
    [](const ::testing::TestParamInfo<CodeCase>& info) { return std::string(info.param.name); });

TEST(Writers, show_what_ran_where_it_was_not_the_device_s_own_sass) {
  cli::Report r = cli::report_from_results(kData + "/t4", {});
  ASSERT_EQ(r.devices.size(), 1u);
  cli::Fingerprint& t4 = r.devices.begin()->second;
  t4.architectures = "90-real;75-virtual";
  t4.code_path = "jit-75";
  const std::string note = "no sm_75 SASS in the build (architectures 90-real;75-virtual): the driver JIT-compiled "
                           "the embedded compute_75 PTX";
  std::ostringstream html, md;
  cli::write_html(r, html);
  cli::write_markdown(r, md);
  EXPECT_NE(html.str().find(note), std::string::npos) << html.str();
  EXPECT_NE(md.str().find(note), std::string::npos) << md.str();
}

TEST(Writers, escape_what_they_show_and_fetch_nothing) {
  cli::Report r = cli::report_from_results(kData + "/h100", {});
  cli::Cell hostile;
  hostile.device = kH100;
  hostile.family = "shuffle";
  hostile.intrinsic = "<script>alert('x')</script>";
  hostile.type = "a\"b|c`d";
  hostile.sums.records = 1;
  hostile.sums.verdicts["conformance-failure"] = 1;
  hostile.first = {{"case", 1}, {"lane", 2}, {"got", "<b>"}, {"want", "&"}, {"repro", "x | y"}};
  r.cells[{hostile.device, hostile.family, hostile.intrinsic, hostile.type, ""}] = hostile;
  std::ostringstream html, md;
  cli::write_html(r, html);
  cli::write_markdown(r, md);
  EXPECT_EQ(html.str().find("<script"), std::string::npos);
  EXPECT_NE(html.str().find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), std::string::npos);
  for (const char* external : {"http://", "https://", "<link", "@import", "url("})
    EXPECT_EQ(html.str().find(external), std::string::npos) << external;
  EXPECT_NE(md.str().find("`shuffle <script>alert('x')</script><a\"b\\|c'd>`"), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("repro: `warpconf explain reduce_butterfly"), std::string::npos);
  EXPECT_NE(md.str().find("| `shfl.divergent-outside.1f` | **trapped** cudaErrorIllegalInstruction 715 |"),
            std::string::npos) << md.str();
}

// The matrix's rows come from the records, by name: a family no list names (elect, warp_shuffle) has
// its row, and the rows of golden checks and planted bugs come after the families they grade.
TEST(Writers, give_every_family_of_the_records_a_row_by_name_and_golden_and_planted_rows_last) {
  cli::Report r = cli::report_from_results(kData + "/h100", {});
  r.cells.clear();
  const auto add = [&r](const std::string& family, const std::string& intrinsic, const char* verdict) {
    cli::Cell c;
    c.device = kH100;
    c.family = family;
    c.intrinsic = intrinsic;
    c.sums.records = 1;
    c.sums.verdicts[verdict] = 1;
    r.cells[{c.device, c.family, c.intrinsic, c.type, c.scenes}] = c;
  };
  add("warp_shuffle", "cuda::device::warp_shuffle_idx", "pass");
  add("shuffle", "golden verify", "pass");
  add("elect", "elect.sync", "pass");
  add("vote", "__ballot_sync", "planted-caught");
  add("activemask", "__activemask", "pass");
  std::ostringstream html;
  cli::write_html(r, html);
  std::vector<std::string> rows;
  for (size_t at = html.str().find("<tr><td><a href=\"#f-"); at != std::string::npos;
       at = html.str().find("<tr><td><a href=\"#f-", at + 1)) {
    const size_t start = at + std::string("<tr><td><a href=\"#f-").size();
    rows.push_back(html.str().substr(start, html.str().find('"', start) - start));
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"activemask", "elect", "warp_shuffle", "golden verify", "planted bugs"}));
}

// The contract section: a row per probe, a column per code path in the table's order, whatever the
// order of the records; report.md lists the rows that did not run everywhere.
TEST(Writers, show_the_contract_probes_as_a_probe_by_path_matrix) {
  cli::Report r;
  cli::Fingerprint sass;
  sass.name = "NVIDIA H100 80GB HBM3";
  sass.uuid = "GPU-5e3a9c1d-0000";
  sass.code_path = "sass";
  sass.id = "GPU-5e3a9c1d-0000 580.159.04 nvcc 13.0.88 sass sass";
  cli::Fingerprint debug = sass;
  debug.code_path = "sass-debug";
  debug.id = "GPU-5e3a9c1d-0000 580.159.04 nvcc 13.0.88 sass-debug sass";
  r.devices = {{sass.id, sass}, {debug.id, debug}};
  const auto contract = [](const cli::Fingerprint& f, const std::string& id, const std::string& outcome, const std::string& detail) {
    return cli::Contract{f.id, id, "shuffle", "__shfl_sync", "", "ffff", outcome, detail, "not-recorded", "", f.code_path};
  };
  r.contracts = {contract(debug, "shfl.synccheck-branch.ffff", "trapped", "cudaErrorIllegalInstruction 715"),
                 contract(sass, "shfl.synccheck-branch.ffff", "ran", "64*17 -*15"),
                 contract(sass, "shfl.control.ffffffff", "ran", "65*32"),
                 contract(debug, "shfl.control.ffffffff", "ran", "65*32")};
  const std::vector<cli::ContractMatrix> matrices = cli::contract_matrices(r);
  ASSERT_EQ(matrices.size(), 1u);
  const cli::ContractMatrix& m = matrices.front();
  EXPECT_EQ(m.gpu, "NVIDIA H100 80GB HBM3 (GPU-5e3a9c1d)");
  EXPECT_EQ(m.paths, (std::vector<std::string>{"sass", "sass-debug"}));
  EXPECT_EQ(m.probes, (std::vector<std::string>{"shfl.synccheck-branch.ffff", "shfl.control.ffffffff"}));
  EXPECT_FALSE(m.ran_everywhere("shfl.synccheck-branch.ffff"));
  EXPECT_TRUE(m.ran_everywhere("shfl.control.ffffffff"));
  std::ostringstream html, md;
  cli::write_html(r, html);
  cli::write_markdown(r, md);
  EXPECT_NE(md.str().find("NVIDIA H100 80GB HBM3 (GPU-5e3a9c1d): 2 probes, 1 ran on every path.\n\n| probe | sass | sass-debug |\n"
                          "|---|---|---|\n| `shfl.synccheck-branch.ffff` | ran | **trapped** cudaErrorIllegalInstruction 715 |\n"),
            std::string::npos) << md.str();
  EXPECT_EQ(md.str().find("| `shfl.control.ffffffff`"), std::string::npos);
  EXPECT_NE(html.str().find("<tr><th>probe</th><th>sass</th><th>sass-debug</th></tr>"), std::string::npos);
  EXPECT_NE(html.str().find("<td class=\"outcome-trapped\" title=\"cudaErrorIllegalInstruction 715\">trapped</td>"),
            std::string::npos);
}

TEST(Writers, draw_one_chart_per_family_with_figures_a_bar_per_figure_and_a_tick_per_baseline) {
  const cli::Report r = report_of("perf-html", {"run/perf.jsonl", "run/perf_wrong.jsonl"});
  std::ostringstream out;
  cli::write_html(r, out);
  const std::string html = out.str();
  const auto count = [&html](const std::string& what) {
    size_t n = 0;
    for (size_t at = html.find(what); at != std::string::npos; at = html.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<svg "), 5u) << "shuffle, reduce, vote, bandwidth, match";
  EXPECT_EQ(count("</svg>"), 5u);
  // perf_wrong.jsonl's shfl latency is perf.jsonl's figure again (the same device): it replaces it.
  EXPECT_EQ(count("<rect "), 8u) << "every measured figure; the wrong one has no bar";
  EXPECT_EQ(count("class=\"tick\""), 7u) << "the figures compared with a baseline";
  EXPECT_EQ(count("class=\"panel\""), 2u + 1 + 1 + 2 + 1) << "a panel per metric of each family";
  EXPECT_NE(html.find(">latency (cycles per call, fewer is better)</text>"), std::string::npos);
  EXPECT_NE(html.find(" class=\"bad\">\u2717 conformance-failure</text>"), std::string::npos);
  EXPECT_NE(html.find(">31.9027 \u2193 performance-change</text>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("<h3 id=\"p-bandwidth\">bandwidth</h3>"), std::string::npos);
  std::ostringstream none;
  cli::write_html(report_of("no-perf-html", {"t4/results.jsonl"}), none);
  EXPECT_EQ(none.str().find("<svg"), std::string::npos);
  EXPECT_NE(none.str().find("No performance figure"), std::string::npos);
}

TEST(Writers, write_the_three_files_whole) {
  const fs::path dir = fresh_dir("files");
  const cli::Report r = cli::report_from_results(kData + "/h100", {});
  cli::write_report_files(r, dir.string());
  for (const char* f : {"report.json", "report.md", "report.html"}) {
    EXPECT_TRUE(fs::exists(dir / f)) << f;
    EXPECT_FALSE(fs::exists(dir / (std::string(f) + ".partial"))) << f;
  }
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(dir / "report.json"))["schema"], "warpconf.report/1");
  EXPECT_THROW(cli::write_report_files(r, (dir / "missing" / "folder").string()), cli::UsageError);
}

}  // namespace
}  // namespace wc
