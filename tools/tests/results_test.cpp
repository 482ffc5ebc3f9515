// `warpconf results`: sums of a results file per family, and exit status 2 with one line for a file
// that is not one.
#include <gtest/gtest.h>

#include <sstream>

#include "warpconf/numbers.hpp"
#include "warpconf/results.hpp"

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

}  // namespace
}  // namespace wc
