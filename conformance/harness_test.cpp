// The comparison helper's own tests: each kind of planted bug must be caught, and exactly.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/compare.hpp"
#include "core/draw.hpp"
#include "core/installation.hpp"
#include "core/known_deviations.hpp"
#include "core/process.hpp"
#include "core/warp_case.hpp"
#include "families/algorithm/family.hpp"
#include "families/cg/family.hpp"
#include "families/fns/family.hpp"
#include "families/fns/model.hpp"
#include "families/pattern/family.hpp"
#include "families/reduce/family.hpp"
#include "families/shuffle/family.hpp"
#include "families/shuffle/model.hpp"
#include "families/vote/family.hpp"
#include "harness/expect.hpp"
#include "harness/gpu_test.hpp"

namespace wc {
namespace {

using model::LaneClass;

// Results as a perfect GPU would write them for `b`, straight from the model.
template <class Batch>
void write_model_results(const Batch& b, gpu::WarpResults& out) {
  out.cases = b.cases.size();
  out.bits.resize(out.cases * 32);
  out.wrote.resize(out.cases * 32);
  for (size_t c = 0; c < out.cases; ++c) {
    const model::WarpOutcome want = gpu::outcome(b, c);
    for (int lane = 0; lane < 32; ++lane) {
      const bool calls = want[lane].cls != LaneClass::not_called;
      // An undefined lane's value is whatever the hardware gives; any value must pass.
      out.bits[c * 32 + lane] = !calls ? gpu::kSentinel : want[lane].cls == LaneClass::undefined ? 0 : want[lane].bits;
      out.wrote[c * 32 + lane] = calls ? 1 : 0;
    }
  }
}

model::WarpOutcome one_defined_lane(uint64_t bits) {
  model::WarpOutcome want{};
  want[0].bits = bits;
  want[0].source = 0;
  want[0].cls = LaneClass::defined;
  return want;
}

check::CheckReport compare_lane0(const model::WarpOutcome& want, uint64_t got, uint8_t wrote) {
  uint64_t bits[32];
  uint8_t wrote_lanes[32] = {};
  std::fill(bits, bits + 32, gpu::kSentinel);
  bits[0] = got;
  wrote_lanes[0] = wrote;
  check::CheckReport report;
  check::compare_warp(0, want, bits, wrote_lanes, report);
  return report;
}

TEST(CompareHarness, tells_minus_zero_from_plus_zero) {
  EXPECT_EQ(compare_lane0(one_defined_lane(0x80000000), 0x00000000, 1).bad_lanes(), 1u);
  EXPECT_EQ(compare_lane0(one_defined_lane(0x8000000000000000), 0x0, 1).bad_lanes(), 1u);
}

TEST(CompareHarness, tells_nan_payloads_apart) {
  EXPECT_EQ(compare_lane0(one_defined_lane(0x7FC00001), 0x7FC00002, 1).bad_lanes(), 1u);
  EXPECT_EQ(compare_lane0(one_defined_lane(0x7FC00001), 0x7FC00001, 1).bad_lanes(), 0u);
}

TEST(CompareHarness, fails_a_calling_lane_that_never_wrote) {
  EXPECT_EQ(compare_lane0(one_defined_lane(gpu::kSentinel), gpu::kSentinel, 0).bad_lanes(), 1u);
  model::WarpOutcome undefined{};
  undefined[0].cls = LaneClass::undefined;
  EXPECT_EQ(compare_lane0(undefined, 0, 0).bad_lanes(), 1u);
  EXPECT_EQ(compare_lane0(undefined, 12345, 1).bad_lanes(), 0u);
}

TEST(CompareHarness, fails_a_lane_that_wrote_without_calling) {
  const model::WarpOutcome nobody_calls{};
  EXPECT_EQ(compare_lane0(nobody_calls, 0, 1).bad_lanes(), 1u);
  EXPECT_EQ(compare_lane0(nobody_calls, 0, 0).bad_lanes(), 1u);  // the sentinel was overwritten
  EXPECT_EQ(compare_lane0(nobody_calls, gpu::kSentinel, 0).bad_lanes(), 0u);
}

TEST(CompareHarness, counts_only_written_wrong_values_as_what_catches_a_planted_bug) {
  EXPECT_EQ(compare_lane0(one_defined_lane(1), gpu::kSentinel, 0).wrong_values, 0u) << "a kernel that never ran";
  EXPECT_EQ(compare_lane0(one_defined_lane(1), 2, 1).wrong_values, 1u);
  EXPECT_EQ(compare_lane0(model::WarpOutcome{}, 0, 1).wrong_values, 1u) << "a write where no call was made";
}

TEST(CompareHarness, holds_a_tolerance_lane_to_its_bound_not_its_bits) {
  model::WarpOutcome want = one_defined_lane(0);
  want[0].tolerance = model::Tolerance{model::Type::f32, 1.0, 0x1p-23};
  EXPECT_EQ(compare_lane0(want, 0x3F800001, 1).bad_lanes(), 0u) << "one ulp above 1.0f, on the bound";
  EXPECT_EQ(compare_lane0(want, 0x3F800002, 1).bad_lanes(), 1u);
  EXPECT_EQ(compare_lane0(want, 0x3F800000, 0).bad_lanes(), 1u) << "a lane that never wrote is never within";
}

TEST(CompareHarness, compares_every_output_of_a_case_whose_lanes_write_several) {
  std::vector<model::LaneOutcome> want(70);
  for (size_t e = 0; e < 64; ++e) {
    want[e].cls = LaneClass::defined;
    want[e].bits = e;
  }
  std::vector<uint64_t> got(70, gpu::kSentinel);
  std::vector<uint8_t> wrote(70, 0);
  for (size_t e = 0; e < 64; ++e) got[e] = e, wrote[e] = 1;
  check::CheckReport report;
  check::compare_outputs(0, want.data(), want.size(), got.data(), wrote.data(), report);
  EXPECT_TRUE(report.clean());
  got[69] = 0, wrote[69] = 1;  // a write past the row's end
  got[40] = 0;
  check::CheckReport bad;
  check::compare_outputs(0, want.data(), want.size(), got.data(), wrote.data(), bad);
  EXPECT_EQ(bad.bad_lanes(), 2u);
  ASSERT_TRUE(bad.first && bad.last);
  EXPECT_EQ(bad.first->lane, 40);
  EXPECT_EQ(bad.last->lane, 69);
}

TEST(CompareHarness, does_not_call_a_check_of_nothing_clean) {
  const check::CheckReport report = compare_lane0(model::WarpOutcome{}, gpu::kSentinel, 0);
  EXPECT_EQ(report.bad_lanes(), 0u);
  EXPECT_FALSE(report.clean());
}

TEST(CompareHarness, finds_one_planted_bad_lane_in_a_sweep_and_names_it) {
  const gpu::ShuffleBatch b = sweeps::sweep_batch(model::ShuffleOp::bfly, model::Type::f16);
  gpu::WarpResults results;
  write_model_results(b, results);
  ASSERT_TRUE(gen::check_batch(b, results).report.clean());

  // Plant a bug in a compared lane far into the batch.
  size_t planted = b.cases.size() * 3 / 4 * 32;
  while (gpu::outcome(b, planted / 32)[planted % 32].cls != LaneClass::ptx_defined) ++planted;
  results.bits[planted] ^= 0x8000;
  const check::CheckReport report = gen::check_batch(b, results).report;
  EXPECT_EQ(report.bad_lanes(), 1u);
  ASSERT_TRUE(report.first.has_value());
  EXPECT_EQ(report.first->case_index, planted / 32);
  EXPECT_EQ(report.first->lane, static_cast<int>(planted % 32));
  const std::string diff = check::diff_text(
      report, [&](size_t c, int lane) { return gpu::describe(b, c, lane); }, sweeps::hex_digits(b.type));
  EXPECT_NE(diff.find("explain shfl_xor --mask"), std::string::npos) << diff;
  EXPECT_NE(diff.find("--type f16 "), std::string::npos) << diff;
  EXPECT_NE(diff.find("lane " + std::to_string(planted % 32)), std::string::npos) << diff;
}

// A GPU whose coalesced_threads() forms a group of one in every lane, and answers consistently
// with it, must fail: the model takes the groups from the branch arms, not from the output.
TEST(CompareHarness, takes_coalesced_groups_from_the_inputs_not_from_the_gpu) {
  const gpu::CoalescedBatch b = sweeps::coalesced_batch(model::CoalescedOp::size, gpu::CoalescedSource::active_threads);
  gpu::WarpResults results;
  write_model_results(b, results);
  ASSERT_TRUE(gen::check_batch(b, results).report.clean());
  for (size_t c = 0; c < results.cases; ++c)
    for (int lane = 0; lane < 32; ++lane)
      if (results.wrote[c * 32 + lane]) results.bits[c * 32 + lane] = (uint64_t{1} << (32 + lane)) | 1u;
  const check::CheckReport report = gen::check_batch(b, results).report;
  EXPECT_GT(report.bad_lanes(), 0u);
  ASSERT_TRUE(report.first.has_value());
  EXPECT_NE(report.first->want.bits >> 32, uint64_t{1} << report.first->lane) << "the model's group is not the GPU's";
}

// A family's named inputs are typed tables: a case reads the row of each table its CaseRow names, a
// table left empty reads as zeros (as the device's copy does), and add_every_case puts the first input
// outermost, the order the golden corpus's cases were recorded in.
TEST(NamedInputs, a_case_reads_the_rows_its_case_row_names) {
  gpu::ShuffleBatch b;
  b.tables.lane_arg = {sweeps::uniform<int32_t>(1), sweeps::uniform<int32_t>(2)};
  b.tables.width = {sweeps::uniform<int32_t>(8), sweeps::uniform<int32_t>(16), sweeps::uniform<int32_t>(32)};
  gpu::CaseRow<gpu::ShuffleCalls> row;
  row.rows.lane_arg = 1;
  row.rows.width = 2;
  b.cases = {row};
  const auto in = gpu::inputs(b, 0);
  EXPECT_EQ(in.lane_arg.row, &b.tables.lane_arg[1]);
  EXPECT_EQ(in.width.row, &b.tables.width[2]);
  EXPECT_EQ(in.value, model::PerLane<uint64_t>{});

  b.cases.clear();
  b.scenes = {model::uniform_scene(model::kFullMask), model::uniform_scene(0xffff)};
  sweeps::add_every_case(b);
  ASSERT_EQ(b.cases.size(), 2u * 2u * 3u * 1u);
  EXPECT_EQ(b.cases[1].rows.width, 1u);
  EXPECT_EQ(b.cases[1].rows.lane_arg, 0u);
  EXPECT_EQ(b.cases[3].rows.lane_arg, 1u);
  EXPECT_EQ(b.cases[3].rows.width, 0u);
  EXPECT_EQ(b.cases[6].scene, 1u);
  EXPECT_EQ(b.cases[6].rows.lane_arg, 0u);

  std::vector<std::string> names;
  gpu::ShuffleInputs<gpu::Table>::each([&](const char* name, const auto&) { names.push_back(name); }, b.tables);
  EXPECT_EQ(names, (std::vector<std::string>{"lane_arg", "width", "value"}));
}

TEST(CompareHarness, counts_every_lane_once_per_class) {
  const gpu::ShuffleBatch b = sweeps::sweep_batch(model::ShuffleOp::idx, model::Type::i32);
  gpu::WarpResults results;
  write_model_results(b, results);
  const check::CheckReport report = gen::check_batch(b, results).report;
  const check::LaneTally& t = report.tally;
  EXPECT_EQ(t.cases, b.cases.size());
  EXPECT_EQ(t.of(LaneClass::defined) + t.of(LaneClass::ptx_defined) + t.of(LaneClass::undefined) +
                t.of(LaneClass::not_called),
            32 * b.cases.size());
  EXPECT_GT(t.of(LaneClass::defined), 0u);
  EXPECT_GT(t.of(LaneClass::ptx_defined), 0u);
  EXPECT_GT(t.of(LaneClass::undefined), 0u);
  EXPECT_GT(t.of(LaneClass::not_called), 0u);
}

// The word a block records of where it ran reads back as its SM and warp slot; a zero word, which is
// what the written flags' memset leaves, reads as a block that recorded nothing.
TEST(Placement, a_word_reads_back_as_the_sm_and_warp_slot_it_holds) {
  for (const auto& [sm, slot] : std::vector<std::pair<uint32_t, uint32_t>>{{0, 0}, {131, 63}, {5, 1}, {0x7FFFFF, 0xFF}}) {
    const std::optional<gpu::Placement> p = gpu::placement_of_word(gpu::placement_word(sm, slot));
    ASSERT_TRUE(p.has_value()) << sm << "/" << slot;
    EXPECT_EQ(p->sm, sm);
    EXPECT_EQ(p->warp_slot, slot);
  }
  EXPECT_FALSE(gpu::placement_of_word(0).has_value());
}

// A sweep's results as if its blocks of `cases_per_block` cases had run on SM (block * 7) % 11, block 1
// recording nothing: each SM must hold the compared lanes of its blocks' cases, and no other.
class SmLanes : public ::testing::TestWithParam<size_t> {
 protected:
  static uint32_t sm_of_block(size_t block) { return static_cast<uint32_t>(block * 7 % 11); }
  void SetUp() override {
    write_model_results(b_, results_);
    results_.cases_per_block = GetParam();
    results_.placement.resize((results_.cases + GetParam() - 1) / GetParam());
    for (size_t block = 0; block < results_.placement.size(); ++block)
      results_.placement[block] = block == 1 ? 0 : gpu::placement_word(sm_of_block(block), 0);
  }
  check::SmLanes expected() const {
    check::SmLanes want(11);
    for (size_t c = 0; c < results_.cases; ++c) {
      if (c / GetParam() == 1) continue;
      const model::WarpOutcome o = gpu::outcome(b_, c);
      for (const model::LaneOutcome& lane : o)
        want[sm_of_block(c / GetParam())] += lane.cls == LaneClass::defined || lane.cls == LaneClass::ptx_defined;
    }
    return want;
  }
  const gpu::ShuffleBatch b_ = sweeps::sweep_batch(model::ShuffleOp::idx, model::Type::i32);
  gpu::WarpResults results_;
};

TEST_P(SmLanes, count_each_case_s_compared_lanes_on_the_sm_its_block_ran_on) {
  const check::CheckReport report = gen::check_batch(b_, results_).report;
  EXPECT_TRUE(report.placed);
  EXPECT_EQ(report.sm_lanes, expected());
  uint64_t placed_lanes = 0;
  for (const uint64_t lanes : report.sm_lanes) placed_lanes += lanes;
  EXPECT_LT(placed_lanes, report.tally.compared()) << "block 1 recorded nothing: its lanes are no SM's";
}

TEST_P(SmLanes, name_the_sm_of_a_bad_lane) {
  // The batch's last defined lane.
  size_t bad = results_.cases * 32;
  do --bad;
  while (gpu::outcome(b_, bad / 32)[bad % 32].cls != LaneClass::defined);
  const size_t bad_case = bad / 32;
  results_.bits[bad] ^= 1;
  const check::CheckReport report = gen::check_batch(b_, results_).report;
  ASSERT_TRUE(report.first.has_value());
  ASSERT_EQ(report.first->case_index, bad_case);
  ASSERT_TRUE(report.first->sm.has_value());
  EXPECT_EQ(*report.first->sm, sm_of_block(bad_case / GetParam()));
}

INSTANTIATE_TEST_SUITE_P(CasesPerBlock, SmLanes, ::testing::Values(size_t{1}, size_t{4}, size_t{32}));

TEST(Placement, results_of_a_launch_that_records_none_count_no_sm) {
  const gpu::ShuffleBatch b = sweeps::sweep_batch(model::ShuffleOp::idx, model::Type::i32);
  gpu::WarpResults results;
  write_model_results(b, results);
  const check::CheckReport report = gen::check_batch(b, results).report;
  EXPECT_FALSE(report.placed);
  EXPECT_TRUE(report.sm_lanes.empty());
  const nlohmann::json record = check::report_record(
      report, [](size_t, int) { return check::CaseText{}; }, 8, gpu::check_info(b), check::verdict_of(report));
  EXPECT_FALSE(record.contains("sm_lanes")) << "a record says nothing of where lanes ran, rather than that none did";
}

// Result records of synthetic checks go to a file of the test's own, never into a real run's.
class ResultRecords : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() / ("warpconf-records-" + std::to_string(getpid()) + ".jsonl");
    std::filesystem::remove(path_);
    setenv("WARPCONF_RESULTS", path_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("WARPCONF_RESULTS");
    std::filesystem::remove(path_);
  }
  std::vector<nlohmann::json> records() const {
    std::vector<nlohmann::json> out;
    std::ifstream in(path_);
    for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
    return out;
  }
  static std::string property(const std::string& key) {
    const ::testing::TestResult* r = ::testing::UnitTest::GetInstance()->current_test_info()->result();
    for (int i = 0; i < r->test_property_count(); ++i)
      if (r->GetTestProperty(i).key() == key) return r->GetTestProperty(i).value();
    return "";
  }
  static check::CaseText no_text(size_t, int) { return {"synthetic", "none"}; }
  std::filesystem::path path_;
};

const check::CheckInfo kSynthetic = [] {
  check::CheckInfo info;
  info.family = "fns";
  info.intrinsic = "__fns";
  info.scenes = "one lane";
  info.arguments = "synthetic";
  info.block = "32x1x1";
  return info;
}();

TEST_F(ResultRecords, sum_the_counts_of_every_check_a_test_makes) {
  check::expect_agrees(compare_lane0(one_defined_lane(5), 5, 1), no_text, 8, kSynthetic);
  check::expect_agrees(compare_lane0(one_defined_lane(7), 7, 1), no_text, 8, kSynthetic);
  check::expect_agrees(compare_lane0(one_defined_lane(9), 9, 1), no_text, 8, kSynthetic);
  EXPECT_EQ(property("cases"), "3") << "GoogleTest keeps the last value of a key: it must be the sum";
  EXPECT_EQ(property("lanes_defined"), "3");
  EXPECT_EQ(property("lanes_not_called"), "93");
  const std::vector<nlohmann::json> r = records();
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0]["record"], "device");
  for (size_t i = 1; i < r.size(); ++i) {
    EXPECT_EQ(r[i]["record"], "check");
    EXPECT_EQ(r[i]["schema"], check::kResultsSchema);
    EXPECT_EQ(r[i]["test"], "ResultRecords.sum_the_counts_of_every_check_a_test_makes");
    EXPECT_EQ(r[i]["intrinsic"], "__fns");
    EXPECT_EQ(r[i]["scenario"]["block"], "32x1x1");
    EXPECT_EQ(r[i]["cases"], 1);
    EXPECT_EQ(r[i]["lanes"]["defined"], 1);
    EXPECT_EQ(r[i]["lanes"]["not-called"], 31);
    EXPECT_EQ(r[i]["verdict"], "pass");
  }
}

TEST_F(ResultRecords, keep_conformance_failures_and_known_deviations_apart) {
  // __fns(mask, 0, INT_MIN): PTX finds nothing (0xffffffff); sm_90 is listed as returning 0.
  check::use_deviations(golden::read_deviations_file(check::golden_root() + "/sm_90/deviations.txt"));
  model::WarpOutcome int_min{};
  int_min[0] = model::fns(0xFFFFFFFF, 0, INT32_MIN);
  const check::CheckReport deviation = compare_lane0(int_min, 0, 1);
  EXPECT_EQ(deviation.bad_lanes(), 0u);
  ASSERT_EQ(deviation.deviations.size(), 1u);
  EXPECT_EQ(deviation.deviations.begin()->first->id, "fns.int-min");
  EXPECT_EQ(check::verdict_of(deviation), check::Verdict::known_deviation);
  const check::CheckReport other_value = compare_lane0(int_min, 1, 1);
  EXPECT_EQ(other_value.bad_lanes(), 1u) << "only the recorded value is the deviation";
  check::expect_agrees(deviation, no_text, 8, kSynthetic);
  EXPECT_NONFATAL_FAILURE(check::expect_agrees(other_value, no_text, 8, kSynthetic), "1 bad lanes (1 ptx-defined)");
  const std::vector<nlohmann::json> r = records();
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[1]["verdict"], "known-deviation");
  EXPECT_EQ(r[1]["known_deviations"][0]["id"], "fns.int-min");
  EXPECT_EQ(r[1]["known_deviations"][0]["lanes"], 1);
  EXPECT_EQ(r[2]["verdict"], "conformance-failure");
  EXPECT_EQ(r[2]["mismatches"]["ptx-defined"], 1);
  EXPECT_EQ(r[2]["first"]["got"], "0x00000001");
  EXPECT_EQ(r[2]["first"]["rule"], "fns.int-min");
  EXPECT_EQ(r[2]["first"]["repro"], "none");
}

TEST_F(ResultRecords, list_the_lanes_each_sm_compared_in_ascending_sm_order) {
  check::CheckReport report = compare_lane0(one_defined_lane(5), 5, 1);
  report.placed = true;
  report.sm_lanes.assign(132, 0);
  report.sm_lanes[0] = 1024;
  report.sm_lanes[5] = 2048;
  report.sm_lanes[131] = 64;
  check::expect_agrees(report, no_text, 8, kSynthetic);
  EXPECT_EQ(records().back()["sm_lanes"], nlohmann::json::parse("[[0, 1024], [5, 2048], [131, 64]]"))
      << "the SMs that compared no lane are left out";
}

TEST_F(ResultRecords, fail_a_check_that_compared_nothing) {
  const check::CheckReport nothing = compare_lane0(model::WarpOutcome{}, gpu::kSentinel, 0);
  EXPECT_EQ(check::verdict_of(nothing), check::Verdict::nothing_compared);
  EXPECT_NONFATAL_FAILURE(check::expect_agrees(nothing, no_text, 8, kSynthetic), "no lane was compared");
  EXPECT_EQ(records().back()["verdict"], "nothing-compared");
}

// Runs a repro line with --json, as the warpconf command and the words after it, and returns the
// lane's "bits", or "" when it did not run.
std::string bits_from_repro(const std::string& repro, int lane) {
  const std::string command = check::warpconf_command() + " ";
  if (repro.rfind(command, 0) != 0) return "";
  std::vector<std::string> argv = {check::warpconf_command()};
  std::istringstream words(repro.substr(command.size()));
  argv.insert(argv.end(), std::istream_iterator<std::string>(words), std::istream_iterator<std::string>());
  argv.emplace_back("--json");
  const check::ProcessOutput run = check::run_process_output(argv);
  const auto j = nlohmann::json::parse(run.output, nullptr, false);
  if (j.is_discarded() || !j["lanes"][lane]["bits"].is_string()) return "";
  return j["lanes"][lane]["bits"].get<std::string>();
}

// The repro line a failure prints must make warpconf explain give the lane the model's bits; tried on
// the first case from `case_index` on with a lane the model fixes.
template <class Batch>
void expect_repro_reproduces(const Batch& b, size_t case_index, int digits) {
  model::WarpOutcome want = gpu::outcome(b, case_index);
  while (std::none_of(want.begin(), want.end(), model::has_value)) want = gpu::outcome(b, ++case_index);
  int checked = 0;
  for (int lane = 0; lane < 32 && checked < 2; ++lane) {
    if (!model::has_value(want[lane])) continue;
    const std::string repro = gpu::describe(b, case_index, lane).repro;
    EXPECT_EQ(bits_from_repro(repro, lane), sweeps::hex_bits(want[lane].bits & 0xFFFFFFFFFFFFFFFFull, digits))
        << repro;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(ReproLines, make_warpconf_explain_give_the_models_bits) {
  const gpu::ShuffleBatch shuffles = sweeps::sweep_batch(model::ShuffleOp::down, model::Type::f64);
  expect_repro_reproduces(shuffles, shuffles.cases.size() / 3, 16);
  const gpu::VoteBatch votes = sweeps::vote_batch(model::VoteOp::ballot);
  expect_repro_reproduces(votes, votes.cases.size() / 2, 8);
  const gpu::ReduceBatch reductions = sweeps::reduce_batch(model::ReduceOp::max, model::Type::i32);
  expect_repro_reproduces(reductions, reductions.cases.size() / 2, 8);
  const gpu::FnsBatch fns = sweeps::fns_batch();
  expect_repro_reproduces(fns, 1234, 8);
  // The library models: CUB's ExclusiveScan with its initial value, cg's reduce with none to give.
  const gpu::AlgorithmBatch cub_scan = sweeps::library_batch(
      {model::WarpAlgorithm::exclusive_scan, model::AlgorithmOp::sum, gpu::Implementation::cub_warp}, model::Type::i32);
  expect_repro_reproduces(cub_scan, cub_scan.cases.size() / 2, 8);
  const gpu::AlgorithmBatch cg_reduce = sweeps::library_batch(
      {model::WarpAlgorithm::reduce, model::AlgorithmOp::sum, gpu::Implementation::cg_tile}, model::Type::i32);
  expect_repro_reproduces(cg_reduce, cg_reduce.cases.size() / 2, 8);
}

// Only two CUDA errors mean "no GPU on this machine"; every other one is a broken driver or device
// that a driver-validation run must see as a failure.
TEST(DeviceSelection, treats_only_no_device_and_insufficient_driver_as_no_gpu) {
  for (int absent : {gpu::kCudaErrorNoDevice, gpu::kCudaErrorInsufficientDriver}) {
    const gpu::DeviceStatus s = gpu::status_for_error(absent, "name", "cudaGetDeviceCount");
    EXPECT_FALSE(s.present);
    EXPECT_FALSE(s.error) << absent;
  }
  // cudaErrorInitializationError, cudaErrorSystemDriverMismatch, cudaErrorDevicesUnavailable, cudaErrorUnknown
  for (int broken : {3, 803, 46, 999}) {
    const gpu::DeviceStatus s = gpu::status_for_error(broken, "cudaErrorSomething", "cudaFree(0)");
    EXPECT_FALSE(s.present);
    EXPECT_TRUE(s.error) << broken;
    EXPECT_NE(s.reason.find("cudaFree(0) failed with cudaErrorSomething"), std::string::npos) << s.reason;
  }
}

TEST(NotSupported, names_the_intrinsic_and_both_compute_capabilities) {
  gpu::DeviceInfo turing;
  turing.cc_major = 7;
  turing.cc_minor = 5;
  EXPECT_EQ(check::not_supported(80, "__reduce_add_sync", turing),
            "NotSupported: __reduce_add_sync needs compute capability 8.0, device is 7.5");
  gpu::DeviceInfo hopper;
  hopper.cc_major = 9;
  EXPECT_FALSE(check::not_supported(80, "__reduce_add_sync", hopper).has_value());
}

}  // namespace
}  // namespace wc
