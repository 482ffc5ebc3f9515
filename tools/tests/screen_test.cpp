// fixtures/screen without a GPU: the batch and its model hashes, the comparison that places a
// disagreement on its SM, warp slot, lane and case (on stand-in kernel outputs), the coverage
// check, --plant's reader, and the Prometheus and JSON verdict writers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/files.hpp"
#include "core/process.hpp"
#include "core/usage_error.hpp"
#include "harness/scratch_dir.hpp"
#include "screen/screen.hpp"
#include "screen/verdict.hpp"

namespace wc {
namespace {

using screen::kVariantCount;

constexpr uint64_t kSeed = 0x5eed;
constexpr size_t kPerVariant = 8;

const screen::Batch& batch() {
  static const screen::Batch b = screen::make_batch(kSeed, kPerVariant, 90);
  return b;
}

// What a conforming kernel gives: every block and slot holds the model's hash.
screen::HashGrid conforming_grid(std::vector<uint32_t> smids, size_t slots) {
  const screen::ExpectedHashes e = screen::expected_hashes(batch());
  screen::HashGrid g;
  g.blocks = smids.size();
  g.slots = slots;
  g.smids = std::move(smids);
  g.hashes.resize(g.blocks * slots * kVariantCount * model::kWarpSize);
  for (size_t block = 0; block < g.blocks; ++block)
    for (size_t slot = 0; slot < slots; ++slot)
      for (size_t v = 0; v < kVariantCount; ++v)
        for (int lane = 0; lane < model::kWarpSize; ++lane) g.hashes[g.at(block, slot, v, lane)] = e.hash[v][lane];
  return g;
}

// The lane-by-lane results a conforming kernel keeps of `smids`.
screen::Captured conforming_capture(std::vector<uint32_t> smids, size_t slots) {
  const screen::Batch& b = batch();
  screen::Captured c;
  c.slots = slots;
  c.cases = b.cases.size();
  c.smids = std::move(smids);
  c.results.assign(c.smids.size() * slots * c.cases * model::kWarpSize, ~uint64_t{0});
  for (size_t k = 0; k < c.smids.size(); ++k)
    for (size_t slot = 0; slot < slots; ++slot)
      for (size_t pos = 0; pos < c.cases; ++pos)
        for (int lane = 0; lane < model::kWarpSize; ++lane) c.results[c.at(k, slot, pos, lane)] = b.cases[pos].expected[lane];
  return c;
}

// A case of `variant` whose `lane` is compared: where a planted fault on that lane shows.
size_t compared_case(size_t variant, int lane) {
  const screen::Batch& b = batch();
  for (size_t pos = b.first[variant]; pos < b.first[variant + 1]; ++pos)
    if (model::has_lane(b.cases[pos].compared, lane)) return pos;
  ADD_FAILURE() << "no case of variant " << variant << " compares lane " << lane;
  return 0;
}

TEST(ScreenBatch, is_a_function_of_its_seed_grouped_by_variant_with_compared_lanes_inside_the_mask) {
  const screen::Batch& b = batch();
  const screen::Batch again = screen::make_batch(kSeed, kPerVariant, 90);
  ASSERT_EQ(b.cases.size(), kVariantCount * kPerVariant);
  uint64_t compared = 0;
  for (size_t v = 0; v < kVariantCount; ++v) {
    EXPECT_EQ(b.first[v + 1] - b.first[v], kPerVariant) << "variant " << v;
    for (size_t pos = b.first[v]; pos < b.first[v + 1]; ++pos) {
      const screen::Case& c = b.cases[pos];
      EXPECT_EQ(c.variant, v);
      EXPECT_EQ(c.index, pos);
      EXPECT_EQ(c.compared & ~c.mask, 0u) << "case " << pos << ": a lane outside the mask is compared";
      EXPECT_EQ(c.expected, again.cases[pos].expected);
      EXPECT_EQ(c.value, again.cases[pos].value);
      compared += static_cast<uint64_t>(__builtin_popcount(c.compared));
    }
  }
  EXPECT_GT(compared, b.cases.size() * 16) << "most lanes of most cases are compared";
  EXPECT_NE(screen::make_batch(kSeed + 1, kPerVariant, 90).cases[0].value, b.cases[0].value);
}

TEST(ScreenBatch, has_no_redux_case_for_code_below_compute_capability_8_0) {
  const screen::Batch b = screen::make_batch(kSeed, kPerVariant, 75);
  for (const screen::Case& c : b.cases) EXPECT_NE(screen::kVariants[c.variant].family, screen::Family::reduce);
  for (size_t v = 0; v < kVariantCount; ++v)
    if (screen::kVariants[v].family == screen::Family::reduce) {
      EXPECT_EQ(b.first[v], b.first[v + 1]);
    }
  EXPECT_EQ(b.cases.size(), 16 * kPerVariant);
}

TEST(ScreenBatch, only_case_keeps_one_case_under_its_index_and_refuses_one_it_lacks) {
  const std::optional<screen::Batch> one = screen::only_case(batch(), 42);
  ASSERT_TRUE(one);
  ASSERT_EQ(one->cases.size(), 1u);
  EXPECT_EQ(one->cases[0].index, 42u);
  const size_t v = one->cases[0].variant;
  EXPECT_EQ(one->first[v], 0u);
  EXPECT_EQ(one->first[v + 1], 1u);
  EXPECT_FALSE(screen::only_case(batch(), static_cast<uint32_t>(batch().cases.size())));
  EXPECT_EQ(screen::round_seed(kSeed, 0), kSeed);
  EXPECT_NE(screen::round_seed(kSeed, 1), kSeed);
}

TEST(ScreenCompare, a_conforming_grid_has_no_disagreement) {
  EXPECT_TRUE(screen::compare_hashes(conforming_grid({0, 1, 2, 3}, 4), screen::expected_hashes(batch()), std::nullopt).empty());
}

// One SM, warp slot and lane of one variant disagreeing, and where the comparison must place it.
struct Planted {
  const char* name;
  size_t block, slot;
  int lane;
  size_t variant;
};

class ScreenPlaced : public testing::TestWithParam<Planted> {};

TEST_P(ScreenPlaced, a_flipped_lane_is_placed_on_its_sm_slot_lane_variant_and_case) {
  const Planted& p = GetParam();
  const std::vector<uint32_t> smids = {5, 0, 131, 64};  // blocks land on SMs in any order
  screen::HashGrid g = conforming_grid(smids, 4);
  g.hashes[g.at(p.block, p.slot, p.variant, p.lane)] ^= 1;
  const std::vector<screen::HashDisagreement> found = screen::compare_hashes(g, screen::expected_hashes(batch()), std::nullopt);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].smid, smids[p.block]);
  EXPECT_EQ(found[0].slot, p.slot);
  EXPECT_EQ(found[0].lane, p.lane);
  EXPECT_EQ(found[0].variant, p.variant);
  EXPECT_FALSE(found[0].shared);

  screen::Captured lanes = conforming_capture({smids[p.block]}, 4);
  const size_t pos = compared_case(p.variant, p.lane);
  lanes.results[lanes.at(0, p.slot, pos, p.lane)] ^= 1;
  const std::optional<screen::LaneMismatch> m =
      screen::first_mismatch(lanes, batch(), smids[p.block], p.slot, p.lane, p.variant);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->case_index, batch().cases[pos].index);
  EXPECT_EQ(m->got ^ m->want, 1u);
  EXPECT_FALSE(screen::first_mismatch(lanes, batch(), smids[p.block], p.slot, (p.lane + 1) % 32, p.variant));
}

INSTANTIATE_TEST_SUITE_P(Table, ScreenPlaced,
                         testing::Values(Planted{"first_block_shuffle", 0, 0, 0, 0},
                                         Planted{"last_sm_vote_ballot", 2, 3, 31, 11},
                                         Planted{"middle_sm_match_f32", 3, 1, 17, 14},
                                         Planted{"one_slot_reduce_i32_min", 1, 2, 5, 20}),
                         [](const testing::TestParamInfo<Planted>& i) { return std::string(i.param.name); });

TEST(ScreenCompare, a_wrong_hash_on_most_copies_is_the_devices_conformance_not_one_sm) {
  screen::HashGrid g = conforming_grid({0, 1, 2}, 2);
  for (size_t block = 0; block < 3; ++block)
    for (size_t slot = 0; slot < 2; ++slot) g.hashes[g.at(block, slot, 3, 9)] ^= 4;
  const auto found = screen::compare_hashes(g, screen::expected_hashes(batch()), std::nullopt);
  ASSERT_EQ(found.size(), 6u);
  for (const screen::HashDisagreement& d : found) EXPECT_TRUE(d.shared);
}

TEST(ScreenCompare, only_sm_compares_that_sms_blocks_alone) {
  screen::HashGrid g = conforming_grid({0, 1, 2}, 2);
  g.hashes[g.at(0, 0, 0, 0)] ^= 1;  // SM 0: not the one replayed, its block returned at once
  EXPECT_TRUE(screen::compare_hashes(g, screen::expected_hashes(batch()), 1u).empty());
  EXPECT_EQ(screen::compare_hashes(g, screen::expected_hashes(batch()), 0u).size(), 1u);
}

TEST(ScreenCompare, a_replay_on_one_sm_with_every_slot_wrong_is_that_sms_fault_not_the_devices) {
  screen::HashGrid g = conforming_grid({0, 1, 2}, 2);
  for (size_t slot = 0; slot < 2; ++slot) g.hashes[g.at(1, slot, 4, 7)] ^= 1;
  const auto found = screen::compare_hashes(g, screen::expected_hashes(batch()), 1u);
  ASSERT_EQ(found.size(), 2u);
  for (const screen::HashDisagreement& d : found) EXPECT_FALSE(d.shared) << "slot " << d.slot;
}

TEST(ScreenSample, compares_every_compared_lane_of_the_captured_sms_and_finds_a_flip) {
  screen::Captured c = conforming_capture({0, 77}, 2);
  uint64_t compared = 0;
  EXPECT_TRUE(screen::check_sample(c, batch(), 10, compared).empty());
  uint64_t want = 0;
  for (const screen::Case& k : batch().cases) want += 2 * 2 * static_cast<uint64_t>(__builtin_popcount(k.compared));
  EXPECT_EQ(compared, want);
  const size_t pos = compared_case(8, 4);
  c.results[c.at(1, 1, pos, 4)] ^= 2;
  const std::vector<screen::LaneMismatch> found = screen::check_sample(c, batch(), 10, compared);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].smid, 77u);
  EXPECT_EQ(found[0].slot, 1u);
  EXPECT_EQ(found[0].lane, 4);
  EXPECT_EQ(found[0].case_index, batch().cases[pos].index);
}

TEST(ScreenDescribe, names_sm_slot_lane_intrinsic_type_case_seed_and_both_values) {
  const screen::LaneMismatch m{17, 3, 5, 4, 412, 0x3f800001, 0x3f800000};
  EXPECT_EQ(screen::describe(m, 0x1234),
            "SM 17, warp slot 3, lane 5, __shfl_sync (float), case 412, seed 0x0000000000001234: got 0x3f800001, want 0x3f800000");
}

struct CoverageRow {
  const char* name;
  std::vector<uint32_t> smids;
  std::optional<uint32_t> only_sm;
  size_t covered;
  std::vector<uint32_t> missing, doubled;
  size_t moved;
};

class ScreenCoverage : public testing::TestWithParam<CoverageRow> {};

TEST_P(ScreenCoverage, counts_the_sms_that_ran_one_block_and_names_the_others) {
  const CoverageRow& r = GetParam();
  const screen::Coverage c = screen::sm_coverage(r.smids, 4, r.only_sm);
  EXPECT_EQ(c.covered, r.covered);
  EXPECT_EQ(c.missing, r.missing);
  EXPECT_EQ(c.doubled, r.doubled);
  EXPECT_EQ(c.moved, r.moved);
  EXPECT_EQ(c.complete(), r.missing.empty() && r.doubled.empty() && r.moved == 0);
}

INSTANTIATE_TEST_SUITE_P(
    Table, ScreenCoverage,
    testing::Values(CoverageRow{"every_sm_once", {3, 1, 0, 2}, std::nullopt, 4, {}, {}, 0},
                    CoverageRow{"four_sms_numbered_with_gaps", {0, 9, 130, 7}, std::nullopt, 4, {}, {}, 0},
                    CoverageRow{"one_sm_twice_one_missed", {0, 1, 1, 3}, std::nullopt, 3, {2}, {1}, 0},
                    CoverageRow{"a_block_moved", {0, 1, screen::kMovedBlock, 3}, std::nullopt, 3, {2}, {}, 1},
                    CoverageRow{"only_sm_present", {0, 1, 2, 3}, 2u, 1, {}, {}, 0},
                    CoverageRow{"only_sm_absent", {0, 1, 1, 3}, 2u, 0, {2}, {}, 0}),
    [](const testing::TestParamInfo<CoverageRow>& i) { return std::string(i.param.name); });

TEST(ScreenPlant, reads_sm_lane_slot_and_family_and_names_an_sm_among_those_seen) {
  std::vector<uint32_t> h100(132);
  for (uint32_t id = 0; id < 132; ++id) h100[id] = id;
  const screen::Plant p = screen::parse_plant("sm=last,lane=31,slot=7,op=vote");
  EXPECT_EQ(screen::plant_sm(p, h100), 131u);
  EXPECT_EQ(p.lane, 31);
  EXPECT_EQ(p.slot, 7);
  EXPECT_EQ(p.family, screen::Family::vote);
  EXPECT_EQ(screen::plant_sm(screen::parse_plant("sm=middle,lane=0"), h100), 66u);
  EXPECT_EQ(screen::plant_sm(screen::parse_plant("lane=0,sm=first"), h100), 0u);
  EXPECT_EQ(screen::plant_sm(screen::parse_plant("sm=12,lane=0"), h100), 12u);
  EXPECT_EQ(screen::parse_plant("sm=12,lane=0").slot, -1);
  EXPECT_FALSE(screen::plant_sm(screen::parse_plant("sm=132,lane=0"), h100));
  // %smid need not count from 0 without gaps: first, middle and last are of the SMs seen.
  const std::vector<uint32_t> gaps = screen::seen_sms({9, 2, screen::kMovedBlock, 5, 2});
  EXPECT_EQ(gaps, (std::vector<uint32_t>{2, 5, 9}));
  EXPECT_EQ(screen::plant_sm(screen::parse_plant("sm=first,lane=0"), gaps), 2u);
  EXPECT_EQ(screen::plant_sm(screen::parse_plant("sm=middle,lane=0"), gaps), 5u);
  EXPECT_EQ(screen::plant_sm(screen::parse_plant("sm=last,lane=0"), gaps), 9u);
  EXPECT_FALSE(screen::plant_sm(screen::parse_plant("sm=0,lane=0"), gaps));
}

class ScreenPlantRefused : public testing::TestWithParam<const char*> {};

TEST_P(ScreenPlantRefused, is_bad_input) { EXPECT_THROW(screen::parse_plant(GetParam()), cli::UsageError); }

INSTANTIATE_TEST_SUITE_P(Table, ScreenPlantRefused,
                         testing::Values("", "sm=0", "lane=3", "sm=0,lane=32", "sm=0,lane=-1", "sm=x,lane=0",
                                         "sm=0,lane=0,op=shfl", "sm=0,lane=0,slot=32", "sm=0,lane=0,sm=1",
                                         "sm=0,lane=0,colour=red", "sm=0;lane=0"));

screen::Verdict sample_verdict() {
  screen::Verdict v;
  v.status = 1;
  v.line = "warpconf screen: FAILED: 1 disagreement";
  v.ordinal = 0;
  v.uuid = "GPU-01234567-89ab-cdef-0123-456789abcdef";
  v.name = "A \"quoted\" GPU\\ with\nlines";
  v.level = "short";
  v.seed = 0x1234;
  v.rounds = 3;
  v.sms = 132;
  v.sms_covered = 132;
  v.warp_slots = 32;
  v.variants = 25;
  v.lanes_verified = 123456789012;
  v.lanes_unverified = 42;
  v.failures = 1;
  v.seconds = 4.25;
  v.findings = {"SM 17, warp slot 3, lane 5, ..."};
  return v;
}

TEST(ScreenPrometheus, every_metric_has_help_type_and_one_sample_with_escaped_labels) {
  const std::string text = screen::prometheus_text(sample_verdict());
  const std::regex sample(R"(^(warpconf_screen_[a-z_]+)\{gpu="0",uuid="GPU-[0-9a-f-]+",name="A \\"quoted\\" GPU\\\\ with\\nlines",level="short"\} (-?[0-9.e+]+)$)");
  std::istringstream in(text);
  std::set<std::string> helped, typed, sampled;
  std::map<std::string, std::string> values;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (line.rfind("# HELP ", 0) == 0) helped.insert(line.substr(7, line.find(' ', 7) - 7));
    else if (line.rfind("# TYPE ", 0) == 0) {
      EXPECT_EQ(line.substr(line.rfind(' ') + 1), "gauge");
      typed.insert(line.substr(7, line.find(' ', 7) - 7));
    } else if (std::regex_match(line, m, sample)) {
      EXPECT_TRUE(sampled.insert(m[1]).second) << "two samples of " << m[1];
      values[m[1]] = m[2];
    } else {
      ADD_FAILURE() << "not a line of the text format: " << line;
    }
  }
  EXPECT_EQ(helped, sampled);
  EXPECT_EQ(typed, sampled);
  EXPECT_EQ(values["warpconf_screen_status"], "1");
  EXPECT_EQ(values["warpconf_screen_conforms"], "0");
  EXPECT_EQ(values["warpconf_screen_sms_covered"], "132");
  EXPECT_EQ(values["warpconf_screen_lanes_verified"], "123456789012");
  EXPECT_EQ(values["warpconf_screen_failures"], "1");
  EXPECT_EQ(values["warpconf_screen_seconds"], "4.25");
}

// promtool check metrics, Prometheus's own linter of the text format, where Debian's prometheus
// package put it; Skipped (never passed) without it.
TEST(ScreenPrometheus, passes_promtool_check_metrics) {
  // The file reaches the shell as an argument ("$1"), never inside the command's text.
  const auto promtool_accepts = [](const std::string& file) {
    return check::run_process_output({"/bin/sh", "-c", "promtool check metrics < \"$1\"", "sh", file});
  };
  if (!check::run_process_output({"/bin/sh", "-c", "command -v promtool"}).end.succeeded())
    GTEST_SKIP() << "no promtool (Debian: apt-get install prometheus)";
  const std::filesystem::path dir = harness::fresh_test_dir("screen-promtool");
  const std::string file = (dir / "screen.prom").string();
  files::write_atomically(file, screen::prometheus_text(sample_verdict()));
  const check::ProcessOutput good = promtool_accepts(file);
  EXPECT_TRUE(good.end.succeeded()) << good.output;
  // Its teeth: a metric without HELP text, its series given twice, fails it.
  files::write_atomically(file, "# TYPE m gauge\nm{a=\"1\"} 1\nm{a=\"1\"} 2\n");
  EXPECT_FALSE(promtool_accepts(file).end.succeeded());
}

TEST(ScreenJson, holds_the_verdict_its_counts_and_findings) {
  const nlohmann::json j = nlohmann::json::parse(screen::verdict_json(sample_verdict()).dump());
  EXPECT_EQ(j.at("status"), 1);
  EXPECT_EQ(j.at("verdict"), "failed");
  EXPECT_EQ(j.at("gpu").at("uuid"), "GPU-01234567-89ab-cdef-0123-456789abcdef");
  EXPECT_EQ(j.at("gpu").at("name"), "A \"quoted\" GPU\\ with\nlines");
  EXPECT_EQ(j.at("seed"), "0x0000000000001234");
  EXPECT_EQ(j.at("sms_covered"), 132);
  EXPECT_EQ(j.at("lanes_verified"), 123456789012u);
  EXPECT_EQ(j.at("findings").size(), 1u);
  screen::Verdict conforms = sample_verdict();
  conforms.status = 0;
  EXPECT_EQ(screen::verdict_json(conforms).at("verdict"), "conforms");
  conforms.status = 77;
  EXPECT_EQ(screen::verdict_json(conforms).at("verdict"), "could not test");
}

}  // namespace
}  // namespace wc
