// SM coverage (results_coverage.hpp): the lanes each family compared on each SM, summed from the
// records' sm_lanes by `warpconf results` and by the report alike, the SMs missed as ranges, records
// without the field read as before, and the matrix in report.json, report.md and report.html.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/usage_error.hpp"
#include "warpconf/run/health.hpp"
#include "warpconf/report/report.hpp"
#include "warpconf/report/results.hpp"
#include "warpconf/report/results_coverage.hpp"

namespace wc {
namespace {

std::string device_record(int pid, int sms) {
  return R"({"schema":"warpconf.results/1","record":"device","pid":)" + std::to_string(pid) +
         R"(,"device":{"present":true,"name":"GPU","uuid":"GPU-1","compute_capability":"9.0","multiprocessors":)" +
         std::to_string(sms) + R"(,"driver":"13.0","runtime":"13.0"},"build":{"nvcc":"13.0.88","code_path":"sass"}})" + "\n";
}

// A check record of `family`; `sm_lanes` is the field's JSON, or "" for a record without it.
std::string check_record(int pid, const std::string& family, const std::string& sm_lanes,
                         const std::string& verdict = "pass", uint64_t defined = 32) {
  return R"({"schema":"warpconf.results/1","record":"check","pid":)" + std::to_string(pid) + R"(,"family":")" + family +
         R"(","verdict":")" + verdict + R"(","seed":null,"cases":1,"lanes":{"defined":)" + std::to_string(defined) +
         R"(,"ptx-defined":0,"undefined":0,"not-called":0},"mismatches":{"defined":0,"ptx-defined":0,"undefined":0,"not-called":0},"known_deviations":[])" +
         (sm_lanes.empty() ? "" : R"(,"sm_lanes":)" + sm_lanes) + "}\n";
}

// "[[0, 1], [1, 1], ...]" over the SMs [0, sms) but `left_out`.
std::string every_sm_but(int sms, int left_out) {
  std::string pairs;
  for (int sm = 0; sm < sms; ++sm)
    if (sm != left_out) pairs += (pairs.empty() ? "[" : ",") + std::string("[") + std::to_string(sm) + ",1]";
  return pairs + "]";
}

cli::SmCoverage from_results(const std::string& records) {
  std::istringstream in(records);
  const cli::ResultsSummary s = cli::summarize_results(in, "results.jsonl");
  return s.coverage.count("unknown") ? s.coverage.at("unknown") : s.coverage.begin()->second;
}

cli::Report report_of(const std::string& records) {
  cli::Report r;
  r.run.command = "report";
  cli::RecordSink sink(r, "");
  cli::RecordReader reader("results.jsonl");
  std::istringstream in(records);
  reader.read_all(in, [&sink](const nlohmann::json& record) { sink.add(record); });
  return r;
}

cli::SmCoverage from_report(const std::string& records) { return report_of(records).coverage.begin()->second; }

// Both readers of records sum coverage alike.
struct Reader {
  const char* name;
  std::function<cli::SmCoverage(const std::string&)> coverage_of;
};
std::ostream& operator<<(std::ostream& os, const Reader& r) { return os << r.name; }

class CoverageFromRecords : public ::testing::TestWithParam<Reader> {};

TEST_P(CoverageFromRecords, sums_lanes_per_sm_and_family_leaving_planted_bugs_out) {
  const cli::SmCoverage c = GetParam().coverage_of(
      device_record(7, 4) + check_record(7, "shuffle", "[[0,10],[1,20]]") + check_record(7, "shuffle", "[[1,5],[2,7]]") +
      check_record(7, "vote", "[[0,3]]") + check_record(7, "shuffle", "[[3,99]]", "planted-caught"));
  EXPECT_EQ(c.multiprocessors, 4);
  EXPECT_EQ(c.families.at("shuffle"), (cli::LanesBySm{{0, 10}, {1, 25}, {2, 7}}));
  EXPECT_EQ(c.families.at("vote"), (cli::LanesBySm{{0, 3}}));
  EXPECT_EQ(cli::coverage_text(c), "of 4 SMs, shuffle missed 3; vote missed 1-3");
}

// The planted bug of the accounting: one SM of 132 dropped must be named, the last included.
TEST_P(CoverageFromRecords, names_the_one_sm_a_family_missed) {
  for (const int missed : {0, 57, 131}) {
    const cli::SmCoverage c = GetParam().coverage_of(device_record(7, 132) + check_record(7, "vote", every_sm_but(132, missed)));
    EXPECT_FALSE(cli::every_sm_covered(c)) << missed;
    EXPECT_EQ(cli::missed_sms(c.families.at("vote"), 132), std::vector<uint32_t>{static_cast<uint32_t>(missed)});
    EXPECT_EQ(cli::coverage_text(c), "of 132 SMs, vote missed " + std::to_string(missed));
  }
  const cli::SmCoverage all = GetParam().coverage_of(device_record(7, 132) + check_record(7, "vote", every_sm_but(132, -1)));
  EXPECT_TRUE(cli::every_sm_covered(all));
  EXPECT_EQ(cli::coverage_text(all), "every one of 132 SMs verified lanes of each of 1 family");
}

TEST_P(CoverageFromRecords, says_which_families_were_not_placed_and_which_ids_pass_the_count) {
  const cli::SmCoverage c = GetParam().coverage_of(device_record(7, 2) + check_record(7, "vote", "[[0,1],[1,1],[140,1]]") +
                                                   check_record(7, "softmax", "") + check_record(7, "fns", "", "not-supported", 0));
  EXPECT_EQ(cli::matrix_sms(c), (std::vector<uint32_t>{0, 1, 140}));
  EXPECT_EQ(cli::coverage_text(c),
            "every one of 2 SMs verified lanes of each of 1 family; SM ids past the count: 140; not placed: softmax")
      << "fns compared no lane: nothing of it was left unplaced";
}

TEST_P(CoverageFromRecords, reads_records_written_before_sm_lanes_as_unplaced) {
  const cli::SmCoverage c = GetParam().coverage_of(device_record(7, 132) + check_record(7, "shuffle", ""));
  EXPECT_FALSE(c.placed());
  EXPECT_EQ(c.unplaced, std::set<std::string>{"shuffle"});
}

INSTANTIATE_TEST_SUITE_P(Readers, CoverageFromRecords,
                         ::testing::Values(Reader{"results", from_results}, Reader{"report", from_report}),
                         [](const auto& info) { return std::string(info.param.name); });

struct Ranges {
  std::vector<uint32_t> ids;
  const char* text;
};
class IdRanges : public ::testing::TestWithParam<Ranges> {};
TEST_P(IdRanges, joins_consecutive_ids_into_ranges) { EXPECT_EQ(cli::id_ranges(GetParam().ids), GetParam().text); }
INSTANTIATE_TEST_SUITE_P(Table, IdRanges,
                         ::testing::Values(Ranges{{}, ""}, Ranges{{3}, "3"}, Ranges{{3, 4, 5, 6, 7, 12}, "3-7,12"},
                                           Ranges{{0, 2, 4}, "0,2,4"}, Ranges{{130, 131}, "130-131"},
                                           Ranges{{0, 1, 2, 131}, "0-2,131"}));

// A malformed sm_lanes is bad input: one line naming the record's line and the pair.
struct BadSmLanes {
  const char* sm_lanes;
  const char* why;
};
class RefusedSmLanes : public ::testing::TestWithParam<BadSmLanes> {};
TEST_P(RefusedSmLanes, names_the_line_and_the_pair) {
  std::istringstream in(device_record(7, 4) + check_record(7, "vote", GetParam().sm_lanes));
  try {
    cli::summarize_results(in, "results.jsonl");
    ADD_FAILURE() << "accepted " << GetParam().sm_lanes;
  } catch (const cli::UsageError& e) {
    EXPECT_EQ(std::string(e.what()), std::string("results.jsonl:2: ") + GetParam().why);
  }
}
INSTANTIATE_TEST_SUITE_P(Table, RefusedSmLanes,
                         ::testing::Values(BadSmLanes{R"({"0":1})", "sm_lanes: not a list of [sm, lanes]"},
                                           BadSmLanes{"[[1]]", "sm_lanes[0]: not [sm, lanes], two counts"},
                                           BadSmLanes{"[[0,1],[1,-2]]", "sm_lanes[1]: not [sm, lanes], two counts"},
                                           BadSmLanes{"[[0,1e30]]", "sm_lanes[0]: not [sm, lanes], two counts"},
                                           BadSmLanes{"[[8388608,1]]", "sm_lanes[0]: SM 8388608 is past the last a placement holds"},
                                           BadSmLanes{"[[1,1],[1,2]]", "sm_lanes[1]: SM 1 given twice"}));

const std::string kMissingLast = device_record(7, 132) + check_record(7, "vote", every_sm_but(132, 131)) +
                                 check_record(7, "shuffle", every_sm_but(132, -1));

TEST(CoverageReport, keeps_the_matrix_in_report_json_and_reads_a_report_without_it) {
  const cli::Report r = report_of(kMissingLast);
  const nlohmann::json j = cli::to_json(r);
  ASSERT_EQ(j["sm_coverage"].size(), 1u);
  EXPECT_EQ(j["sm_coverage"][0]["multiprocessors"], 132);
  EXPECT_EQ(j["sm_coverage"][0]["missed"]["vote"], "131");
  EXPECT_EQ(j["sm_coverage"][0]["missed"]["shuffle"], "");
  EXPECT_EQ(j["sm_coverage"][0]["families"]["vote"][130], nlohmann::json::parse("[130, 1]"));
  EXPECT_FALSE(j["sm_coverage"][0]["every_sm_covered"].get<bool>());
  const cli::Report back = cli::report_from_json(j, "report.json");
  EXPECT_EQ(back.coverage.begin()->second.families, r.coverage.begin()->second.families);
  // Merged with itself, the lanes add up.
  cli::Report twice = back;
  twice.merge(back);
  EXPECT_EQ(twice.coverage.begin()->second.families.at("vote").at(0), 2u);
  nlohmann::json old = j;
  old.erase("sm_coverage");
  EXPECT_TRUE(cli::report_from_json(old, "report.json").coverage.empty());
  nlohmann::json bad = j;
  bad["sm_coverage"][0]["families"]["vote"][0] = "SM 0";
  EXPECT_THROW(cli::report_from_json(bad, "report.json"), cli::UsageError);
}

TEST(CoverageReport, writes_the_matrix_in_markdown_and_a_heatmap_in_html) {
  const cli::Report r = report_of(kMissingLast);
  std::ostringstream md, html;
  cli::write_markdown(r, md);
  cli::write_html(r, html);
  EXPECT_NE(md.str().find("## SM coverage"), std::string::npos);
  EXPECT_NE(md.str().find("of 132 SMs, vote missed 131."), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("| SM | shuffle | vote |"), std::string::npos);
  EXPECT_NE(md.str().find("| 131 | 1 | - |"), std::string::npos);
  EXPECT_NE(html.str().find("<svg class=\"chart heatmap\""), std::string::npos);
  const auto count = [&html](const std::string& what) {
    size_t n = 0;
    for (size_t at = html.str().find(what); at != std::string::npos; at = html.str().find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<rect class=\"missed\""), 1u);
  EXPECT_EQ(count("<rect class=\"covered\""), 2u * 132 - 1);
  EXPECT_NE(html.str().find("<title>SM 131, vote: no lane compared</title>"), std::string::npos);
  // A report whose checks recorded no SM has no such section.
  std::ostringstream unplaced;
  cli::write_html(report_of(device_record(7, 132) + check_record(7, "vote", "")), unplaced);
  EXPECT_EQ(unplaced.str().find("SM coverage"), std::string::npos);
}

TEST(CoverageReport, health_s_line_says_which_sms_a_family_missed) {
  cli::Report r = report_of(kMissingLast);
  r.tests.push_back({"VoteOnGpu", "passed", "Passed", 1, 1, "", "", ""});
  r.run.stop = {"finished", 0, ""};
  const cli::HealthVerdict v = cli::health_verdict({0, r}, 50, "");
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.line, "warpconf: conforms: " + cli::summary_line(r) + "; SMs: GPU (GPU-1, sass): of 132 SMs, vote missed 131");
}

}  // namespace
}  // namespace wc
