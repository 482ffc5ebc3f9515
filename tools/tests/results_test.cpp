// `warpconf results`: sums of a results file per family, and exit status 2 with one line for a file
// that is not one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_run.hpp"
#include "core/numbers.hpp"
#include "core/records.hpp"
#include "harness/scratch_dir.hpp"
#include "warpconf/report/results.hpp"
#include "warpconf/report/results_same.hpp"

namespace wc {
namespace {

const char* kRecords =
    R"({"schema":"warpconf.results/1","record":"device","device":{"present":true,"name":"GPU","uuid":"GPU-1","compute_capability":"9.0","driver":"13.0","runtime":"13.0"},"build":{"nvcc":"13.0.88","code_path":"sass"}})"
    "\n"
    R"({"schema":"warpconf.results/1","record":"check","family":"shuffle","verdict":"pass","seed":null,"cases":10,"lanes":{"defined":300,"ptx-defined":10,"undefined":5,"not-called":5},"mismatches":{"defined":0,"ptx-defined":0,"undefined":0,"not-called":0},"known_deviations":[]})"
    "\n"
    R"({"schema":"warpconf.results/1","record":"check","family":"shuffle","verdict":"pass","seed":"0x1","cases":4,"lanes":{"defined":128,"ptx-defined":0,"undefined":0,"not-called":0},"mismatches":{"defined":0,"ptx-defined":0,"undefined":0,"not-called":0},"known_deviations":[]})"
    "\n"
    R"({"schema":"warpconf.results/1","record":"check","family":"algorithm","verdict":"planted-caught","seed":"0x2","cases":7,"lanes":{"defined":224,"ptx-defined":0,"undefined":0,"not-called":0},"mismatches":{"defined":9,"ptx-defined":0,"undefined":0,"not-called":0},"known_deviations":[]})"
    "\n"
    R"({"schema":"warpconf.results/1","record":"check","family":"fns","verdict":"known-deviation","seed":null,"cases":1,"lanes":{"defined":0,"ptx-defined":32,"undefined":0,"not-called":0},"mismatches":{"defined":0,"ptx-defined":0,"undefined":0,"not-called":0},"known_deviations":[{"id":"fns.int-min","lanes":32}]})"
    "\n"
    R"({"schema":"warpconf.results/1","record":"perf","id":"shuffle.shfl.u32.ffffffff","metric":"latency_cycles","median":23.1,"verdict":"performance-change"})"
    "\n";

TEST(ResultsTool, sums_records_per_family_and_in_total) {
  std::istringstream in(kRecords);
  const cli::ResultsSummary s = cli::summarize_results(in, "results.jsonl");
  ASSERT_EQ(s.devices.size(), 1u);
  EXPECT_NE(s.devices[0].find("GPU GPU-1, compute capability 9.0"), std::string::npos);
  const cli::FamilySums& shuffle = s.families.at("shuffle");
  EXPECT_EQ(shuffle.records, 2u);
  EXPECT_EQ(shuffle.cases, 14u);
  EXPECT_EQ(shuffle.random_cases, 4u);
  EXPECT_EQ(shuffle.lanes.at("defined"), 428u);
  EXPECT_EQ(s.total.records, 3u);
  EXPECT_EQ(s.total.verdicts.at("pass"), 2u);
  EXPECT_EQ(s.total.verdicts.at("known-deviation"), 1u);
  EXPECT_EQ(s.total.deviation_lanes.at("fns.int-min"), 32u);
  std::ostringstream text;
  cli::print_results_text(s, text);
  EXPECT_NE(text.str().find("known deviation fns.int-min: 32 lanes"), std::string::npos) << text.str();
  // A planted bug's check stays out of the families and the total, whose bad lanes stay 0.
  EXPECT_EQ(s.families.count("algorithm"), 0u);
  EXPECT_EQ(s.total.mismatches.at("defined"), 0u);
  EXPECT_EQ(s.planted.records, 1u);
  EXPECT_EQ(s.planted.verdicts.at("planted-caught"), 1u);
  EXPECT_NE(text.str().find("planted-caught 1; 7 cases"), std::string::npos) << text.str();
  // A perf record is summed apart: a performance change is no check's verdict.
  EXPECT_EQ(s.perf.records, 1u);
  EXPECT_EQ(s.total.verdicts.count("performance-change"), 0u);
  EXPECT_NE(text.str().find("performance figures (perf records, not in the rows above): 1; performance-change 1;"),
            std::string::npos)
      << text.str();
}

// --same-as: the proof that a change of structure kept every behaviour. The same records in another
// order and other timings are the same; a case more, a verdict moved or a record lost is named by its
// call; files without a check record prove nothing.
class SameSums : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = harness::fresh_test_dir("same-sums"); }
  std::string file(const std::string& name, const std::string& text) {
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  static std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
  }
  std::filesystem::path dir_;
};

TEST_F(SameSums, are_the_same_for_the_same_checks_in_another_order_with_other_timings) {
  std::istringstream lines(kRecords);
  std::vector<std::string> records;
  for (std::string line; std::getline(lines, line);) records.push_back(line);
  std::string reordered = records.front() + "\n";  // the device record first: it names the checks' code path
  for (size_t i = records.size() - 1; i > 0; --i) reordered += records[i] + "\n";
  reordered = replaced(reordered, R"("median":23.1)", R"("median":29.4)");
  const CliRun r = run_cli({"results", file("a.jsonl", kRecords), "--same-as", file("b.jsonl", reordered)});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "the same: 3 calls (family x intrinsic x type x verdict x code path), 4 check records in each\n");
}

TEST_F(SameSums, name_each_call_whose_sums_differ_and_fail) {
  const std::string a = file("a.jsonl", kRecords);
  // One case and 32 lanes less in a pass of shuffle, and fns's known deviation become a pass.
  std::string changed = replaced(kRecords, R"("cases":10,"lanes":{"defined":300)", R"("cases":9,"lanes":{"defined":268)");
  changed = replaced(changed, R"("verdict":"known-deviation")", R"("verdict":"pass")");
  const CliRun r = run_cli({"results", a, "--same-as", file("b.jsonl", changed)});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "fns  (no type) known-deviation sass: only in " + a +
                " (cases 1, deviation fns.int-min 32, lanes ptx-defined 32, records 1)\n"
                "fns  (no type) pass sass: only in " + dir_.string() + "/b.jsonl (cases 1, deviation fns.int-min 32, lanes ptx-defined 32, records 1)\n"
                "shuffle  (no type) pass sass: cases 14 -> 13, lanes defined 428 -> 396\n"
                "3 of 4 calls differ (4 check records in " + a + ", 4 in " + dir_.string() + "/b.jsonl)\n");
}

TEST_F(SameSums, prove_nothing_where_neither_file_holds_a_check) {
  std::istringstream lines(kRecords);
  std::string device;
  std::getline(lines, device);
  const std::string only_device = file("device.jsonl", device + "\n");
  const CliRun r = run_cli({"results", only_device, "--same-as", only_device});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "no check record in either file: nothing compared, no proof\n");
  const CliRun lost = run_cli({"results", file("a.jsonl", kRecords), "--same-as", only_device});
  EXPECT_EQ(lost.status, 1) << "every call only in the first";
  const CliRun bad = run_cli({"results", only_device, "--same-as", (dir_ / "missing.jsonl").string()});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err.find('\n'), bad.err.size() - 1) << "one line: " << bad.err;
  EXPECT_EQ(run_cli({"results", only_device, "--same-as", only_device, "--json"}).status, 2) << "--json excludes it";
}

TEST(ResultsTool, names_the_line_that_is_not_a_record) {
  for (const auto& [content, message] : std::vector<std::pair<std::string, std::string>>{
           {"not json\n", "f:1: not a JSON object"},
           {R"({"schema":"warpconf.results/0","record":"check"})" "\n", "f:1: schema 'warpconf.results/0'"},
           {R"({"schema":"warpconf.results/1","record":"other"})" "\n", "f:1: unknown record 'other'"},
           {"", "f: no records"},
           {R"({"schema":"warpconf.results/1","record":"device","device":{"present":false,"reason":"none"}})" "\n"
            R"({"schema":"warpconf.results/1","record":"che)",
            "f:2: a record cut off mid-way"}}) {
    std::istringstream in(content);
    try {
      cli::summarize_results(in, "f");
      ADD_FAILURE() << "accepted: " << content;
    } catch (const cli::UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

// The records warpconf golden and probe write, members the readers do not use included, are read.
TEST(ResultsTool, reads_golden_and_contract_records_as_they_are_written) {
  std::istringstream in(
      R"({"schema":"warpconf.results/1","record":"check","family":"fns","verdict":"conformance-failure","seed":null,)"
      R"("cases":3,"outputs_per_case":32,"golden":{"command":"check","dir":"golden/sm_90","behaviour_changes":0,)"
      R"("class_mismatches":0,"stale_deviations":["fns.int-min"]}})" "\n"
      R"({"schema":"warpconf.results/1","record":"check","family":"contract","verdict":"pass","seed":null,)"
      R"("contract":{"id":"shfl.control.ffffffff","lim":32,"outcome":"ran","detail":"0*32","golden":"same"}})" "\n");
  const cli::ResultsSummary s = cli::summarize_results(in, "f");
  EXPECT_EQ(s.total.records, 2u);
  EXPECT_EQ(s.total.verdicts.at("conformance-failure"), 1u);
}

// A check record as the suite's writer makes it, with a family's own fields (the program family's),
// reads back; a family field that would replace one of the suite's is refused where it is written.
TEST(ResultsTool, reads_a_check_record_from_the_writer_with_family_fields) {
  check::CheckInfo info;
  info.family = "program";
  info.intrinsic = "random programs";
  info.seed = 0x77617270636f6e66ull;
  info.extra = {{"first_index", 0}, {"count", 2000}, {"failure_hashes", nlohmann::json::array()},
                {"trapped", 0}, {"not_supported", 0}, {"coverage", "programs 2,000"}};
  info.code_path = "jit-native";  // compiled at run time for its path, whatever the process's own
  nlohmann::json record = check::check_record(info, check::Verdict::pass);
  EXPECT_EQ(record["code_path"], "jit-native");
  record["cases"] = 2000;
  record["lanes"] = {{"defined", 10}, {"ptx-defined", 0}, {"undefined", 0}, {"not-called", 0}};
  record["mismatches"] = {{"defined", 0}, {"ptx-defined", 0}, {"undefined", 0}, {"not-called", 0}};
  record["known_deviations"] = nlohmann::json::array();
  EXPECT_EQ(record["seed"], "0x77617270636f6e66");
  std::istringstream in(record.dump() + "\n");
  const cli::ResultsSummary s = cli::summarize_results(in, "f");
  EXPECT_EQ(s.families.at("program").cases, 2000u);

  info.extra["seed"] = 0x77617270636f6e66ull;  // the number the program family once wrote over the suite's text
  EXPECT_THROW(check::check_record(info, check::Verdict::pass), std::logic_error);
}

// A member of another type, or a number out of range, is named with its line; none aborted warpconf.
TEST(ResultsTool, names_the_line_and_member_of_the_wrong_type) {
  const std::string check = R"({"schema":"warpconf.results/1","record":"check","family":"vote","verdict":"pass")";
  const std::string device = R"({"schema":"warpconf.results/1","record":"device","device":)";
  for (const auto& [content, message] : std::vector<std::pair<std::string, std::string>>{
           {R"({"schema":1,"record":"check"})", "f:1: schema: 1 is not a string"},
           {R"({"schema":null,"record":"check"})", "f:1: schema: null is not a string"},
           {R"({"record":"check"})", "f:1: schema: missing"},
           {R"({"schema":"warpconf.results/1","record":5})", "f:1: record: 5 is not a string"},
           {R"({"schema":"warpconf.results/1","record":"check","family":7,"verdict":"pass"})", "f:1: family: 7 is not a string"},
           {R"({"schema":"warpconf.results/1","record":"check","family":"vote","verdict":["pass"]})",
            "f:1: verdict: [\"pass\"] is not a string"},
           {check + R"(,"cases":-1})", "f:1: cases: -1 is not a whole number from 0"},
           {check + R"(,"cases":1e400})", "f:1: not a JSON object"},
           {check + R"(,"cases":"10"})", "f:1: cases: \"10\" is not a whole number from 0"},
           {check + R"(,"lanes":{"defined":2.5}})", "f:1: lanes: {\"defined\":2.5} is not an object of whole numbers"},
           {check + R"(,"known_deviations":5})", "f:1: known_deviations: 5 is not an array"},
           {check + R"(,"known_deviations":[{"id":1,"lanes":2}]})", "f:1: known_deviations[0].id: 1 is not a string"},
           {check + R"(,"known_deviations":[{"id":"x"}]})", "f:1: known_deviations[0].lanes: missing"},
           {check + R"(,"seed":12})", "f:1: seed: 12 is not a string"},
           {check + R"(,"golden":{"behaviour_changes":"many"}})", "f:1: golden.behaviour_changes: \"many\" is not"},
           {check + R"(,"time":20261123})", "f:1: time: 20261123 is not a string"},
           {check + R"(,"pid":99999999999})", "f:1: pid: 99999999999 is not a whole number of an int"},
           {device + R"({"present":"yes"}})", "f:1: device.present: \"yes\" is not true or false"},
           {device + R"({"present":true,"name":null}})", "f:1: device.name: null is not a string"},
           {device + R"("GPU"})", "f:1: device: \"GPU\" is not an object"},
           {device + R"({"present":true},"build":[]})", "f:1: build: [] is not an object"},
           {check + R"(,"cases":18446744073709551615})" "\n" + check + R"(,"cases":1})",
            "f:2: a sum of counts passes 2^64 - 1"}}) {
    std::istringstream in(content + "\n");
    try {
      cli::summarize_results(in, "f");
      ADD_FAILURE() << "accepted: " << content;
    } catch (const cli::UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
}

// What a command said after "warpconf <command>: ", the same for every command that reads results.
std::string refusal(const CliRun& run, const std::string& command) {
  const std::string prefix = "warpconf " + command + ": ";
  return run.err.rfind(prefix, 0) == 0 ? run.err.substr(prefix.size()) : "(no refusal) " + run.err;
}

// Every command that reads results.jsonl reads it through one RecordReader: `warpconf results` and
// `warpconf report` take the same records and refuse the same ones in the same words (results once
// summed a check of verdict "qass" and perf records no report could hold, exit status 0).
TEST(RecordReaders, results_and_report_take_and_refuse_the_same_records) {
  const std::filesystem::path dir = harness::fresh_test_dir("readers-agree");
  const std::string device =
      R"({"schema":"warpconf.results/1","record":"device","pid":1,"device":{"present":true,"name":"GPU","uuid":"GPU-1"}})";
  const std::string check =
      R"({"schema":"warpconf.results/1","record":"check","pid":1,"family":"vote","intrinsic":"__ballot_sync","cases":1,"verdict":)";
  const std::string perf = R"({"schema":"warpconf.results/1","record":"perf","pid":1,"id":"vote.ballot.ffffffff",)";
  const std::string file = (dir / "results.jsonl").string();
  for (const auto& [record, refused] : std::vector<std::pair<std::string, std::string>>{
           {check + R"("pass"})", ""},
           {check + R"("qass"})", ":2: unknown verdict 'qass'"},
           {check + R"("performance-change"})", ":2: unknown verdict 'performance-change'"},
           {perf + R"("metric":"latency_cycles","median":23.1,"mad":0.1,"repetitions":30,"verdict":"pass"})", ""},
           {perf + R"("metric":"latency_cycles","median":null,"verdict":"not-supported"})", ""},
           {perf + R"("metric":"latency_cycles","verdict":"totally-fine"})", ":2: a perf figure's verdict is 'totally-fine'"},
           {perf + R"("metric":"furlongs","verdict":"pass"})", ":2: unknown perf metric 'furlongs'"},
           {perf + R"("metric":"latency_cycles","median":-1,"verdict":"pass"})", ":2: median: -1 is not a non-negative number"},
           {perf + R"("metric":"latency_cycles","repetitions":1e300,"verdict":"pass"})",
            ":2: repetitions: 1e+300 is not a whole number"}}) {
    std::ofstream(file) << device << "\n" << record << "\n";
    const CliRun results = run_cli({"results", file}), report = run_cli({"report", file, "--out", (dir / "report").string()});
    if (refused.empty()) {
      EXPECT_EQ(results.status, 0) << record << "\n" << results.err;
      EXPECT_EQ(report.status, 0) << record << "\n" << report.err;
      continue;
    }
    EXPECT_EQ(results.status, 2) << record;
    EXPECT_EQ(report.status, 2) << record;
    EXPECT_EQ(refusal(results, "results"), refusal(report, "report")) << record;
    EXPECT_EQ(refusal(results, "results").rfind(file + refused, 0), 0u) << refusal(results, "results");
  }
}

// A line with no end (/dev/zero) is refused at 16 MiB, not read for ever; a directory is no results file.
TEST(RecordReaders, refuse_an_endless_line_and_a_directory) {
  const CliRun zero = run_cli({"results", "/dev/zero"});
  EXPECT_EQ(zero.status, 2);
  EXPECT_EQ(zero.err, "warpconf results: /dev/zero:1: a line longer than 16 MiB, which no record is\n");
  const std::filesystem::path dir = harness::fresh_test_dir("readers-directory");
  const CliRun folder = run_cli({"results", dir.string()});
  EXPECT_EQ(folder.status, 2);
  EXPECT_EQ(folder.err, "warpconf results: " + dir.string() + ": cannot read: Is a directory\n");
}

}  // namespace
}  // namespace wc
