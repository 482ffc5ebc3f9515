// `warpconf explain`, driven in-process: its output for documented calls, and exit status 2 with one
// line for every kind of bad input.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"

namespace wc {
namespace {

nlohmann::json explain_json(std::vector<std::string> args) {
  args.insert(args.begin(), "explain");
  args.push_back("--json");
  const CliRun r = run_cli(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(ExplainTool, reads_lane_2_or_18_for_the_guides_width_16_example) {
  const auto j = explain_json({"shfl", "--type", "i32", "--mask", "0xffffffff", "--arg", "2", "--width", "16"});
  ASSERT_EQ(j["lanes"].size(), 32u);
  for (int lane = 0; lane < 32; ++lane) {
    const auto& l = j["lanes"][lane];
    EXPECT_EQ(l["lane"], lane);
    EXPECT_EQ(l["source"], lane < 16 ? 2 : 18);
    EXPECT_EQ(l["value"], lane < 16 ? "102" : "118");  // default values: lane L holds 100 + L
    EXPECT_EQ(l["bits"], lane < 16 ? "0x00000066" : "0x00000076");
    EXPECT_EQ(l["class"], "defined");
    EXPECT_NE(l["rule"].get<std::string>().find("shfl.idx"), std::string::npos);
  }
}

TEST(ExplainTool, classes_every_lane_of_a_partial_call) {
  // Lanes 0-15 call; lane 0 has exited; shfl_down by 1 reads the next lane.
  const auto j = explain_json({"shfl_down", "--type", "f32", "--mask", "0x0000ffff", "--exited", "0x1", "--arg", "1"});
  EXPECT_EQ(j["lanes"][0]["class"], "not-called");
  EXPECT_TRUE(j["lanes"][0]["source"].is_null());
  EXPECT_TRUE(j["lanes"][0]["bits"].is_null());
  EXPECT_EQ(j["lanes"][3]["class"], "defined");
  EXPECT_EQ(j["lanes"][3]["value"], "104");
  EXPECT_EQ(j["lanes"][15]["class"], "undefined");  // lane 16 is outside the mask
  EXPECT_EQ(j["lanes"][15]["source"], 16);
  EXPECT_EQ(j["lanes"][20]["class"], "not-called");
}

TEST(ExplainTool, follows_a_warp_algorithm_step_by_step) {
  // docs/algorithms.md: a half butterfly over {2048, 1, 1, 1} rounds each step and gives 2050.
  std::string values = "2048,1,1,1";
  for (int lane = 4; lane < 32; ++lane) values += ",0";
  const auto j = explain_json({"reduce_butterfly", "--operator", "sum", "--type", "f16", "--width", "4", "--mask",
                               "0xf", "--values", values});
  for (int lane = 0; lane < 4; ++lane) {
    EXPECT_EQ(j["lanes"][lane]["value"], "2050");
    EXPECT_NE(j["lanes"][lane]["rule"].get<std::string>().find("alg.reduce_butterfly"), std::string::npos);
  }
  EXPECT_EQ(j["lanes"][4]["class"], "not-called");
}

TEST(ExplainTool, prints_one_lanes_order_of_operations) {
  // docs/algorithms.md: lane 2 of a width-4 butterfly reads lane 0 at offset 2, then lane 3 at offset 1.
  const auto j = explain_json({"reduce_butterfly", "--operator", "sum", "--type", "i32", "--width", "4", "--mask",
                               "0xf", "--lane", "2"});
  const auto& steps = j["steps"]["steps"];
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(j["steps"]["lane"], 2);
  EXPECT_EQ(steps[0]["source"], 0);
  EXPECT_EQ(steps[0]["after"], "0x00000004") << "3 + 1";
  EXPECT_EQ(steps[1]["source"], 3);
  EXPECT_EQ(steps[1]["after"], "0x0000000a") << "(3 + 1) + (4 + 2)";
  // reduce folds its participants in lane order: lanes 0, 1 and 4 of mask 0x13.
  const auto fold = explain_json({"reduce", "--operator", "sum", "--type", "i32", "--mask", "0x13"});
  ASSERT_EQ(fold["steps"]["steps"].size(), 3u);
  EXPECT_EQ(fold["steps"]["steps"][2]["source"], 4);
  EXPECT_EQ(fold["steps"]["steps"][2]["after"], "0x00000008") << "1 + 2 + 5";
  const CliRun absent = run_cli({"explain", "reduce", "--operator", "sum", "--type", "i32", "--mask", "0x13", "--lane", "5"});
  EXPECT_EQ(absent.status, 2);
  EXPECT_NE(absent.err.find("--lane: lane 5 makes no call"), std::string::npos) << absent.err;
}

TEST(ExplainTool, shows_either_half_of_a_patterns_outputs) {
  // docs/algorithms.md: compact of the odd lanes of 1..32 stores 2, 4, ... in slots 0-15; each lane counts 16.
  std::string odd = "0";
  for (int lane = 1; lane < 32; ++lane) odd += lane % 2 ? ",1" : ",0";
  const auto slots = explain_json({"compact", "--mask", "0xffffffff", "--flags", odd});
  EXPECT_EQ(slots["lanes"][0]["value"], "2");
  EXPECT_EQ(slots["lanes"][15]["value"], "32");
  EXPECT_EQ(slots["lanes"][16]["class"], "not-called");
  const auto counts = explain_json({"compact", "--mask", "0xffffffff", "--flags", odd, "--show", "counts"});
  EXPECT_EQ(counts["lanes"][7]["value"], "16");
  // docs/algorithms.md: argmax of 1..32 names lane 31 in every lane.
  const auto lanes = explain_json({"argmax", "--type", "f32", "--mask", "0xffffffff", "--show", "lanes"});
  EXPECT_EQ(lanes["lanes"][0]["value"], "31");
}

TEST(ExplainTool, marks_what_only_ptx_decides) {
  const auto j = explain_json({"shfl_down", "--type", "u32", "--mask", "0xffffffff", "--arg", "33"});
  EXPECT_EQ(j["lanes"][4]["class"], "ptx-defined");
  EXPECT_EQ(j["lanes"][4]["source"], 5);
  EXPECT_NE(j["lanes"][4]["rule"].get<std::string>().find("guide.arg-range"), std::string::npos);
}

TEST(ExplainTool, prints_bits_at_the_types_width) {
  auto j = explain_json({"shfl_xor", "--type", "f16", "--mask", "0xffffffff", "--arg", "1"});
  EXPECT_EQ(j["lanes"][0]["bits"], "0x5650");  // 101.0 as an IEEE half (Python: struct.pack("<e", 101.0))
  EXPECT_EQ(j["lanes"][0]["value"], "101");
  j = explain_json({"shfl_xor", "--type", "f64", "--mask", "0xffffffff", "--arg", "1"});
  EXPECT_EQ(j["lanes"][0]["bits"], "0x4059400000000000");
}

TEST(ExplainTool, takes_values_per_lane_and_arguments_per_lane) {
  std::string values, args;
  for (int lane = 0; lane < 32; ++lane) {
    values += (lane ? "," : "") + std::string(lane == 31 ? "-0" : "0x0");
    args += (lane ? "," : "") + std::to_string(31 - lane);
  }
  const auto j = explain_json({"shfl", "--type", "f32", "--mask", "4294967295", "--arg", args, "--values", values});
  EXPECT_EQ(j["lanes"][0]["bits"], "0x80000000");
  EXPECT_EQ(j["lanes"][0]["value"], "-0");
  EXPECT_EQ(j["lanes"][1]["value"], "0");
}

TEST(ExplainTool, prints_a_table_with_the_rules_it_used) {
  const CliRun r = run_cli({"explain", "shfl_up", "--type", "i64", "--mask", "0xff", "--arg", "1", "--width", "24"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("__shfl_up_sync(mask=0x000000ff, long long value, delta=1, width=24)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("rules:"), std::string::npos);
  EXPECT_NE(r.out.find("guide.width"), std::string::npos);
}

struct BadInput {
  std::vector<std::string> args;
  const char* complaint;  // a part of the one line that must say what is wrong
};

TEST(ExplainTool, rejects_bad_input_with_status_2_and_one_line) {
  const std::string too_few = "1,2,3";
  const BadInput table[] = {
      {{"explain", "shfl_sideways", "--type", "i32", "--mask", "1"}, "unknown op 'shfl_sideways'"},
      {{"explain", "shfl", "--type", "i128", "--mask", "1"}, "unknown type 'i128'"},
      {{"explain", "shfl", "--mask", "1"}, "needs --type"},
      {{"explain", "shfl", "--type", "i32"}, "needs --mask"},
      {{"explain", "shfl", "--type", "i32", "--mask", "0x1g"}, "--mask: '0x1g'"},
      {{"explain", "shfl", "--type", "i32", "--mask", "0x100000000"}, "--mask"},
      {{"explain", "shfl", "--type", "i32", "--mask", "-1"}, "--mask"},
      {{"explain", "shfl", "--type", "i32", "--mask", "1", "--width", "1,2"}, "want 1 or 32"},
      {{"explain", "shfl", "--type", "i32", "--mask", "1", "--width", "2147483648"}, "--width"},
      {{"explain", "shfl", "--type", "i32", "--mask", "1", "--arg", "4294967296"}, "--arg"},
      {{"explain", "shfl", "--type", "i32", "--mask", "1", "--values", too_few}, "want 32"},
      {{"explain", "shfl", "--type", "u32", "--mask", "1", "--values", "-1" + std::string(31 * 2, ',').substr(0, 31)},
       "lane 0"},
      {{"explain", "shfl", "--type", "i32", "--mask", "1", "--pred", "1"}, "does not take --pred"},
      {{"explain", "shfl", "--type", "i32", "--mask", "1", "--bogus"}, "--bogus"},
      {{"explain", "reduce_butterfly", "--operator", "sum", "--type", "f16x2", "--mask", "1"}, "not 'f16x2'"},
      {{"explain", "reduce_butterfly", "--operator", "bit_and", "--type", "f32", "--mask", "1"}, "integer types only"},
      {{"explain", "reduce_butterfly", "--operator", "product", "--type", "f32", "--mask", "1"}, "unknown operator"},
      {{"explain", "reduce_butterfly", "--type", "f32", "--mask", "1"}, "needs --operator"},
      {{"explain", "inclusive_scan", "--operator", "sum", "--type", "i32", "--mask", "1", "--width", "12"},
       "not a power of two"},
      {{"explain", "inclusive_scan", "--operator", "sum", "--type", "i32", "--mask", "1", "--width", "64"}, "--width"},
      {{"explain", "reduce", "--operator", "sum", "--type", "i32", "--mask", "1", "--arg", "1"}, "does not take --arg"},
      {{"explain"}, "OP"},
      {{}, "a command is required: explain, results"},
  };
  for (const BadInput& bad : table) {
    const CliRun r = run_cli(bad.args);
    EXPECT_EQ(r.status, 2) << bad.complaint;
    EXPECT_TRUE(r.out.empty()) << bad.complaint << ": " << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(bad.complaint), std::string::npos) << "want '" << bad.complaint << "' in: " << r.err;
  }
}

TEST(ExplainTool, help_exits_0_and_documents_the_default_values) {
  const CliRun r = run_cli({"explain", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("100+L"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace wc

namespace wc {
namespace {

TEST(ExplainTool, explains_a_ballot_over_exited_lanes) {
  const auto j = explain_json({"ballot", "--mask", "0xffffffff", "--exited", "0xffff0000", "--pred", "0xffffffff"});
  EXPECT_EQ(j["lanes"][3]["bits"], "0x0000ffff");
  EXPECT_EQ(j["lanes"][3]["class"], "defined");
  EXPECT_EQ(j["lanes"][20]["class"], "not-called");
}

TEST(ExplainTool, gives_votes_as_0_or_1) {
  auto j = explain_json({"all", "--mask", "0xff", "--pred", "0xff"});
  EXPECT_EQ(j["lanes"][0]["bits"], "0x00000001");
  EXPECT_EQ(j["lanes"][0]["class"], "ptx-defined");  // the guide promises only non-zero
  j = explain_json({"any", "--mask", "0xff", "--pred", "0x100"});
  EXPECT_EQ(j["lanes"][0]["bits"], "0x00000000");
  j = explain_json({"uni", "--mask", "0x3", "--pred", "0x1"});
  EXPECT_EQ(j["lanes"][1]["bits"], "0x00000000");
}

TEST(ExplainTool, gives_match_all_its_predicate) {
  std::string values;
  for (int lane = 0; lane < 32; ++lane) values += (lane ? "," : "") + std::string("7");
  auto j = explain_json({"match_all", "--type", "i32", "--mask", "0xffffffff", "--exited", "0xffff0000", "--values", values});
  EXPECT_EQ(j["lanes"][2]["bits"], "0x0000ffff");
  EXPECT_EQ(j["lanes"][2]["pred"], true);
  EXPECT_EQ(j["lanes"][2]["class"], "ptx-defined");  // the guide says it returns mask
  j = explain_json({"match_any", "--type", "f32", "--mask", "0xffffffff"});
  EXPECT_EQ(j["lanes"][1]["bits"], "0x22222222");  // default values: lane L holds 100 + L % 4
  EXPECT_FALSE(j["lanes"][1].contains("pred"));
}

TEST(ExplainTool, reduces_with_the_overloads_signedness) {
  std::string values;
  for (int lane = 0; lane < 32; ++lane) values += (lane ? "," : "") + std::string(lane == 5 ? "-1" : "3");
  auto j = explain_json({"reduce_min", "--type", "i32", "--mask", "0xffffffff", "--values", values});
  EXPECT_EQ(j["lanes"][0]["value"], "-1");
  EXPECT_EQ(j["lanes"][0]["bits"], "0xffffffff");
  j = explain_json({"reduce_add", "--type", "u32", "--mask", "0xf"});
  EXPECT_EQ(j["lanes"][0]["value"], "406");  // 100 + 101 + 102 + 103
}

TEST(ExplainTool, finds_the_nth_set_bit) {
  auto j = explain_json({"fns", "--mask", "0xaaaaaaaa", "--base", "2", "--arg", "-1"});
  EXPECT_EQ(j["lanes"][0]["bits"], "0x00000001");
  j = explain_json({"fns", "--mask", "0xaaaaaaaa", "--base", "30", "--arg", "2"});
  EXPECT_EQ(j["lanes"][0]["value"], "not found");
  EXPECT_EQ(j["lanes"][0]["class"], "ptx-defined");
}

TEST(ExplainTool, rejects_bad_input_for_the_new_ops_with_status_2) {
  const BadInput table[] = {
      {{"explain", "ballot", "--mask", "1", "--type", "i32"}, "does not take --type"},
      {{"explain", "ballot", "--mask", "1", "--pred", "0x1ffffffff"}, "--pred"},
      {{"explain", "match_any", "--type", "f16", "--mask", "1"}, "takes i32 u32 long ulong i64 u64 f32 f64"},
      {{"explain", "reduce_xor", "--type", "i32", "--mask", "1"}, "u32 only"},
      {{"explain", "reduce_add", "--type", "f32", "--mask", "1"}, "i32 or u32"},
      {{"explain", "fns", "--mask", "1", "--base", "-1"}, "--base"},
      {{"explain", "fns", "--base", "1"}, "needs --mask"},
  };
  for (const BadInput& bad : table) {
    const CliRun r = run_cli(bad.args);
    EXPECT_EQ(r.status, 2) << bad.complaint;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(bad.complaint), std::string::npos) << "want '" << bad.complaint << "' in: " << r.err;
  }
}

// An option that does not apply to the call is refused by name, never ignored.
TEST(ExplainTool, refuses_an_option_that_does_not_apply_naming_it) {
  const std::vector<std::string> sum = {"--operator", "sum", "--type", "i32", "--mask", "0xffffffff"};
  const auto with = [&sum](std::vector<std::string> args) {
    args.insert(args.begin() + 2, sum.begin(), sum.end());
    return args;
  };
  const BadInput table[] = {
      {with({"explain", "reduce", "--initial", "5"}), "--initial applies only to exclusive_scan --library cub"},
      {with({"explain", "exclusive_scan", "--initial", "5"}), "--initial applies only to exclusive_scan --library cub"},
      {with({"explain", "exclusive_scan", "--library", "cg", "--initial", "5"}), "--initial applies only"},
      {with({"explain", "exclusive_scan", "--library", "cub_sum", "--initial", "5"}), "--initial applies only"},
      {with({"explain", "reduce", "--library", "cub", "--initial", "5"}), "--initial applies only"},
      {with({"explain", "reduce", "--library", "cg", "--lane", "3"}), "--lane applies only without --library"},
      {{"explain", "histogram", "--mask", "0xffffffff", "--flags", "1", "--values", "1"},
       "--values applies only to the patterns of values: histogram's bins are its --flags"},
  };
  for (const BadInput& bad : table) {
    const CliRun r = run_cli(bad.args);
    EXPECT_EQ(r.status, 2) << bad.complaint << ": " << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(bad.complaint), std::string::npos) << "want '" << bad.complaint << "' in: " << r.err;
  }
  const auto j = explain_json({"exclusive_scan", "--operator", "sum", "--type", "i32", "--mask", "0xffffffff",
                               "--library", "cub", "--initial", "5"});
  EXPECT_EQ(j["lanes"][0]["value"], "5") << "rank 0 of CUB's ExclusiveScan gets the initial value";
}

TEST(ExplainTool, gives_softmax_per_element_with_its_bound_and_the_row_sum_bound) {
  const auto j = explain_json({"softmax", "--variant", "online", "--type", "f32", "--values", "0,0,-inf,0"});
  ASSERT_EQ(j["elements"].size(), 4u);
  EXPECT_EQ(j["elements"][0]["exact"], "0.333333333");
  EXPECT_GT(j["elements"][0]["bound"].get<double>(), 0);
  EXPECT_LT(j["elements"][0]["bound"].get<double>(), 1e-4);
  EXPECT_EQ(j["elements"][2]["bound"], "bit for bit");
  EXPECT_GT(j["row_sum_bound"].get<double>(), 3 * j["elements"][0]["bound"].get<double>() * 0.99);
  const CliRun text = run_cli({"explain", "softmax", "--variant", "three_pass", "--exp", "__expf", "--values", "1,2"});
  EXPECT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("row sum: |sum_j y_j - 1| <= "), std::string::npos) << text.out;
  for (std::vector<std::string> bad : {std::vector<std::string>{"explain", "softmax", "--values", "1"},
                                       {"explain", "softmax", "--variant", "online", "--exp", "exp2f", "--values", "1"},
                                       {"explain", "softmax", "--variant", "online", "--type", "f64", "--values", "1"},
                                       {"explain", "softmax", "--variant", "online", "--values", "1,,2"},
                                       {"explain", "softmax", "--variant", "online", "--mask", "1", "--values", "1"}}) {
    const CliRun r = run_cli(bad);
    EXPECT_EQ(r.status, 2) << bad.back();
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// A --values longer than a short string's inline buffer: its items were once read after the option's
// text was freed, and printed heap garbage.
TEST(ExplainTool, reads_every_element_of_a_long_softmax_row) {
  std::string row;
  for (int j = 0; j < 40; ++j) row += (j ? "," : "") + std::string("1.5");
  const auto j = explain_json({"softmax", "--variant", "two_pass", "--values", row});
  ASSERT_EQ(j["elements"].size(), 40u);
  for (const auto& e : j["elements"]) {
    EXPECT_EQ(e["input"], "1.5");
    EXPECT_EQ(e["exact"], "0.025");
  }
}

}  // namespace
}  // namespace wc
