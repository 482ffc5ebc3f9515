// `warpconf screen` end to end on a stand-in GPU: a kernel emulated on the host from the model's
// results (as launch.cu would hash and keep them, planted fault included), so that the command's
// placing, replay lines, statuses and files are checked without a GPU. The kernel itself is the
// gpu-labelled screen.* tests'.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/batch.hpp"
#include "core/files.hpp"
#include "harness/scratch_dir.hpp"
#include "warpconf/screen/screen_command.hpp"

namespace wc {
namespace {

using screen::kVariantCount;

// The stand-in: `smids[b]` is the SM block b lands on; results are the model's, bit 0 flipped where
// the plant says, as screen_kernel does it.
struct FakeGpu {
  std::vector<uint32_t> smids = {3, 0, 7, 1, 6, 2, 5, 4};
  uint32_t slots = 4;
  int capability = 90;
  gpu::DeviceStatus status = [] {
    gpu::DeviceStatus d;
    d.present = true;
    d.info.ordinal = 0;
    d.info.name = "Stand-in GPU";
    d.info.uuid = "GPU-00000000-0000-0000-0000-000000000000";
    return d;
  }();

  screen::GridRun run(const screen::GridRequest& r) const {
    const screen::Batch& b = *r.batch;
    screen::GridRun out;
    out.hashes.blocks = smids.size();
    out.hashes.slots = slots;
    out.hashes.smids = smids;
    out.hashes.hashes.assign(smids.size() * slots * kVariantCount * model::kWarpSize, 0);
    out.captured.slots = slots;
    out.captured.cases = b.cases.size();
    out.captured.smids = r.capture_sms;
    out.captured.results.assign(r.capture_sms.size() * slots * b.cases.size() * model::kWarpSize, ~uint64_t{0});
    for (size_t block = 0; block < smids.size(); ++block) {
      const uint32_t sm = smids[block];
      if (r.only_sm && sm != *r.only_sm) continue;
      const std::optional<size_t> capture = out.captured.capture_of(sm);
      for (uint32_t slot = 0; slot < slots; ++slot)
        for (size_t v = 0; v < kVariantCount; ++v)
          for (int lane = 0; lane < model::kWarpSize; ++lane) {
            const bool flip = r.plant && r.plant->sm == sm && r.plant->lane == lane &&
                              (r.plant->slot < 0 || r.plant->slot == static_cast<int>(slot)) &&
                              (r.plant->family < 0 || r.plant->family == static_cast<int>(screen::kVariants[v].family));
            uint64_t hash = screen::kHashStart;
            for (size_t pos = b.first[v]; pos < b.first[v + 1]; ++pos) {
              const screen::Case& c = b.cases[pos];
              if (!model::has_lane(c.mask, lane)) continue;
              const uint64_t result = c.expected[lane] ^ (flip ? 1u : 0u);
              if (model::has_lane(c.compared, lane)) hash = screen::hash_step(hash, c.index, result);
              if (capture) out.captured.results[out.captured.at(*capture, slot, pos, lane)] = result;
            }
            out.hashes.hashes[out.hashes.at(block, slot, v, lane)] = hash;
          }
    }
    return out;
  }

  cli::ScreenGpu seam() const {
    return {[this]() -> const gpu::DeviceStatus& { return status; },
            [this] { return screen::GridShape{static_cast<uint32_t>(smids.size()), slots}; },
            [this] { return capability; }, [this](const screen::GridRequest& r) { return run(r); }};
  }
};

struct Ran {
  int status;
  std::string out, err;
};

Ran screen_on(const FakeGpu& gpu, std::vector<std::string> args) {
  CLI::App app;
  cli::ScreenArgs a;
  cli::add_screen_options(app, a);
  std::reverse(args.begin(), args.end());
  app.parse(args);
  std::ostringstream out, err;
  const int status = cli::run_screen_command(a, out, err, gpu.seam());
  return {status, out.str(), err.str()};
}

std::vector<std::string> lines_with(const std::string& text, const std::string& start) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(start, 0) == 0) found.push_back(line);
  return found;
}

TEST(ScreenCommand, conforms_on_every_sm_and_writes_both_files) {
  const std::filesystem::path dir = harness::fresh_test_dir("screen-command");
  const std::string prom = (dir / "screen.prom").string(), json = (dir / "screen.json").string();
  const Ran r = screen_on(FakeGpu{}, {"--seed", "7", "--rounds", "2", "--prometheus", prom, "--json", json});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("warpconf screen: conforms: 8 of 8 SMs x 4 warp slots x 25 collectives, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 rounds from seed 0x0000000000000007"), std::string::npos) << r.out;
  EXPECT_NE(files::read_input(prom).find("\nwarpconf_screen_conforms{gpu=\"0\",uuid=\"GPU-00000000-0000-0000-0000-000000000000\","
                                        "name=\"Stand-in GPU\",level=\"short\"} 1\n"),
            std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(files::read_input(json));
  EXPECT_EQ(j.at("verdict"), "conforms");
  EXPECT_EQ(j.at("sms_covered"), 8);
  EXPECT_EQ(j.at("rounds"), 2);
  EXPECT_GT(j.at("lanes_verified").get<uint64_t>(), 2u * 8 * 4 * 25 * 64 * 16);
}

struct PlantRow {
  const char* name;
  const char* plant;
  uint32_t sm;
  int lane;
  int slot;  // -1: any slot
  size_t disagreements;  // SM x slot x variant copies wrong
};

class ScreenCommandPlanted : public testing::TestWithParam<PlantRow> {};

TEST_P(ScreenCommandPlanted, is_caught_and_placed_on_its_sm_and_lane_alone_and_its_replay_fails_there_again) {
  const PlantRow& p = GetParam();
  const FakeGpu gpu;
  const Ran r = screen_on(gpu, {"--seed", "0x5eed", "--rounds", "1", "--plant", p.plant});
  ASSERT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("planted: SM " + std::to_string(p.sm) + ", lane " + std::to_string(p.lane)), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAILED: " + std::to_string(p.disagreements) + " disagreements"), std::string::npos) << r.out;
  const std::string slot = p.slot < 0 ? "[0-9]+" : std::to_string(p.slot);
  const std::regex placed("warpconf screen: disagreement: SM " + std::to_string(p.sm) + ", warp slot " + slot + ", lane " +
                          std::to_string(p.lane) + ", __[a-z_]+ \\([a-z ]+\\), case [0-9]+, seed 0x[0-9a-f]+: got 0x[0-9a-f]+, want 0x[0-9a-f]+");
  const std::vector<std::string> found = lines_with(r.out, "warpconf screen: disagreement: ");
  ASSERT_EQ(found.size(), std::min<size_t>(p.disagreements, 10));
  for (const std::string& line : found) EXPECT_TRUE(std::regex_match(line, placed)) << line;

  const std::vector<std::string> replays = lines_with(r.out, "  replay: warpconf screen ");
  ASSERT_EQ(replays.size(), found.size());
  std::istringstream words(replays.front().substr(std::string("  replay: warpconf screen ").size()));
  std::vector<std::string> args{std::istream_iterator<std::string>(words), {}};
  ASSERT_NE(std::find(args.begin(), args.end(), "--only-sm"), args.end());
  const Ran again = screen_on(gpu, args);
  ASSERT_EQ(again.status, 1) << again.out;
  const std::vector<std::string> replayed = lines_with(again.out, "warpconf screen: disagreement: ");
  ASSERT_FALSE(replayed.empty());
  for (const std::string& line : replayed) EXPECT_TRUE(std::regex_match(line, placed)) << line;
  // One case of one collective on one lane: one disagreement a warp slot the plant acts on.
  const std::string want = p.slot < 0 ? "FAILED: 4 disagreements" : "FAILED: 1 disagreement (";
  EXPECT_NE(again.out.find(want), std::string::npos) << again.out;
}

// The stand-in's SMs are 0 to 7 (first 0, middle 4, last 7); 25 collectives (9 of them reduce, 4 match).
INSTANTIATE_TEST_SUITE_P(Table, ScreenCommandPlanted,
                         testing::Values(PlantRow{"first_sm", "sm=first,lane=0", 0, 0, -1, 25 * 4},
                                         PlantRow{"middle_sm_vote", "sm=middle,lane=13,op=vote", 4, 13, -1, 4 * 4},
                                         PlantRow{"last_sm", "sm=last,lane=31", 7, 31, -1, 25 * 4},
                                         PlantRow{"warp_slot_match", "sm=5,lane=9,slot=2,op=match", 5, 9, 2, 4},
                                         PlantRow{"warp_slot_reduce", "sm=last,lane=3,slot=3,op=reduce", 7, 3, 3, 9}),
                         [](const testing::TestParamInfo<PlantRow>& i) { return std::string(i.param.name); });

TEST(ScreenCommand, an_sm_that_ran_two_blocks_and_one_that_ran_none_fail_the_coverage) {
  FakeGpu gpu;
  gpu.smids = {0, 1, 1, 3};
  const Ran r = screen_on(gpu, {"--seed", "1", "--rounds", "1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("disagreement: coverage, seed 0x0000000000000001: 3 SMs ran a block, not 4; no block ran on SM 2; "
                       "more than one block ran on SM 1;"),
            std::string::npos)
      << r.out;
}

TEST(ScreenCommand, code_below_compute_capability_8_0_runs_no_redux_and_says_so) {
  FakeGpu gpu;
  gpu.capability = 75;
  const Ran r = screen_on(gpu, {"--seed", "1", "--rounds", "1"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("x 16 collectives"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("NotSupported: 9 redux.sync variants"), std::string::npos) << r.out;
}

TEST(ScreenCommand, a_cuda_error_is_a_failure_and_no_gpu_a_skip) {
  FakeGpu broken;
  cli::ScreenGpu seam = broken.seam();
  seam.run = [](const screen::GridRequest&) -> screen::GridRun { throw gpu::CudaFailure("cudaErrorIllegalInstruction"); };
  CLI::App app;
  cli::ScreenArgs a;
  cli::add_screen_options(app, a);
  app.parse(std::vector<std::string>{"1", "--rounds"});
  std::ostringstream out, err;
  EXPECT_EQ(cli::run_screen_command(a, out, err, seam), 1);
  EXPECT_EQ(out.str(), "warpconf screen: FAILED: cudaErrorIllegalInstruction\n");

  FakeGpu absent;
  absent.status.present = false;
  absent.status.reason = "no CUDA device";
  const Ran r = screen_on(absent, {"--rounds", "1"});
  EXPECT_EQ(r.status, 77);
  EXPECT_EQ(r.out, "warpconf screen: could not test: no CUDA device\n");
}

TEST(ScreenCommand, an_sm_or_case_the_device_or_batch_lacks_is_bad_input) {
  const Ran sm = screen_on(FakeGpu{}, {"--only-sm", "8"});
  EXPECT_EQ(sm.status, 2);
  EXPECT_EQ(sm.err, "warpconf screen: --only-sm 8: no block ran there; the SMs seen are 0, 1, 2, 3, 4, 5, 6, 7\n");
  const Ran plant = screen_on(FakeGpu{}, {"--plant", "sm=9,lane=0"});
  EXPECT_EQ(plant.status, 2);
  const Ran slot = screen_on(FakeGpu{}, {"--plant", "sm=0,lane=0,slot=4"});
  EXPECT_EQ(slot.status, 2);
  EXPECT_EQ(slot.err, "warpconf screen: --plant slot=4: a block has warp slots 0 to 3\n");
  const Ran c = screen_on(FakeGpu{}, {"--case", "1600"});
  EXPECT_EQ(c.status, 2);
  EXPECT_EQ(c.err, "warpconf screen: --case 1600: the short level's batch has cases 0 to 1599\n");
}

}  // namespace
}  // namespace wc
