// `warpconf health --screen` without a GPU: the screens run and read on a stand-in for `warpconf
// screen`, their verdicts joined with the suite's, and health itself where no GPU is visible.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "core/process.hpp"
#include "harness/scratch_dir.hpp"
#include "warpconf/run/health_screen.hpp"

namespace wc {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A stand-in for `warpconf screen`: it behaves as the GPU its WARPCONF_DEVICE names says.
const char* kStandIn = R"(#!/bin/sh
case "$WARPCONF_DEVICE" in
  0) echo "warpconf screen: conforms: 4 of 4 SMs x 2 warp slots x 30 collectives, ctest's GPU ${CTEST_RESOURCE_GROUP_0_GPUS:-none}"; exit 0 ;;
  1) echo "warpconf screen: disagreement: SM 3, warp slot 0, lane 7"; echo "warpconf screen: FAILED: 1 disagreement"; exit 1 ;;
  2) echo "warpconf screen: could not test: no GPU"; exit 77 ;;
  3) echo "warpconf screen: started"; exit 0 ;;
  4) kill -SEGV $$ ;;
  5) echo "warpconf screen: --level: bad"; exit 2 ;;
  *) exec sleep 60 ;;
esac
)";

class HealthScreens : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = harness::fresh_test_dir("health-screen");
    screen_ = dir_ / "screen.sh";
    std::ofstream(screen_) << kStandIn;
    fs::permissions(screen_, fs::perms::owner_all);
  }
  fs::path dir_, screen_;
};

// Every GPU's screen at once, each read by its status and last line, none passed that did not say so;
// the one that hangs is killed at the deadline, which bounds them all.
TEST_F(HealthScreens, read_each_gpu_s_screen_and_end_at_the_deadline) {
  ::setenv("CTEST_RESOURCE_GROUP_0_GPUS", "id:5,slots:1", 1);  // health under ctest: the screens choose by WARPCONF_DEVICE
  const Clock::time_point start = Clock::now();
  const std::vector<cli::ScreenOutcome> got =
      cli::run_screens({screen_.string()}, 8, start + std::chrono::seconds(2), 2);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  ::unsetenv("CTEST_RESOURCE_GROUP_0_GPUS");
  EXPECT_LT(seconds, 10) << "not the sleepers' 60 s";
  const std::vector<cli::ScreenOutcome> want = {
      {0, 0, "conforms: 4 of 4 SMs x 2 warp slots x 30 collectives, ctest's GPU none"},
      {1, 1, "FAILED: 1 disagreement"},
      {2, 77, "could not test: no GPU"},
      {3, 77, "could not test: the screen exited with status 0 and printed 'warpconf screen: started'"},
      {4, 77, "could not test: the screen was ended by signal 11"},
      {5, 77, "could not test: the screen exited with status 2 and printed 'warpconf screen: --level: bad'"},
      {6, 77, "could not test: timed out: the time limit of 2 s passed in the screen"},
      {7, 77, "could not test: timed out: the time limit of 2 s passed in the screen"}};
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].gpu, want[i].gpu);
    EXPECT_EQ(got[i].status, want[i].status) << got[i].line;
    EXPECT_EQ(got[i].line, want[i].line);
  }
}

TEST_F(HealthScreens, a_screen_that_cannot_start_could_not_test) {
  const std::vector<cli::ScreenOutcome> got = cli::run_screens({(dir_ / "missing").string()}, 1, std::nullopt, 0);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].status, 77);
  EXPECT_EQ(got[0].line, "could not test: cannot start the screen: cannot run " + (dir_ / "missing").string() +
                             ": No such file or directory");
}

struct Joined {
  std::string name;
  cli::HealthVerdict suite;
  std::vector<cli::ScreenOutcome> screens;
  cli::HealthVerdict want;
};

void PrintTo(const Joined& j, std::ostream* os) { *os << j.name; }

class HealthWithScreens : public ::testing::TestWithParam<Joined> {};

// A failure anywhere fails, could-not-test anywhere else could not test: a screen never lifts a suite
// that did not conform, and a suite that conformed never hides a screen that did not.
TEST_P(HealthWithScreens, joins_the_worst_verdict_and_names_each) {
  const Joined& j = GetParam();
  const cli::HealthVerdict got = cli::with_screens(j.suite, j.screens);
  EXPECT_EQ(got.status, j.want.status);
  EXPECT_EQ(got.line, j.want.line);
}

const cli::HealthVerdict kConforms{0, "warpconf: conforms: H100: 54 tests: 54 passed"};
const cli::HealthVerdict kFailed{1, "warpconf: FAILED (VoteOnGpu): H100: 54 tests: 1 failed"};
const cli::HealthVerdict kTimedOut{77, "warpconf: could not test: timed out: the time limit of 50 s passed in the screen"};
const cli::ScreenOutcome kScreenConforms{0, 0, "conforms: 132 of 132 SMs"};
const cli::ScreenOutcome kScreenFailed{1, 1, "FAILED: 1 disagreement"};
const cli::ScreenOutcome kScreenUntested{1, 77, "could not test: timed out"};

INSTANTIATE_TEST_SUITE_P(
    Verdicts, HealthWithScreens,
    ::testing::Values(
        Joined{"no_screen_leaves_the_suite_s", kFailed, {}, kFailed},
        Joined{"both_conform", kConforms, {kScreenConforms, {1, 0, "conforms: 132 of 132 SMs"}},
               {0, "warpconf: conforms: screen of GPU 0: conforms: 132 of 132 SMs; screen of GPU 1: conforms: 132 of 132 "
                   "SMs; suite: conforms: H100: 54 tests: 54 passed"}},
        Joined{"a_screen_fails_a_suite_that_conforms", kConforms, {kScreenConforms, kScreenFailed},
               {1, "warpconf: FAILED: screen of GPU 0: conforms: 132 of 132 SMs; screen of GPU 1: FAILED: 1 disagreement; "
                   "suite: conforms: H100: 54 tests: 54 passed"}},
        Joined{"a_failed_suite_stays_failed", kFailed, {kScreenConforms},
               {1, "warpconf: FAILED: screen of GPU 0: conforms: 132 of 132 SMs; suite: FAILED (VoteOnGpu): H100: 54 "
                   "tests: 1 failed"}},
        Joined{"an_untested_screen_is_no_pass", kConforms, {kScreenConforms, kScreenUntested},
               {77, "warpconf: could not test: screen of GPU 0: conforms: 132 of 132 SMs; screen of GPU 1: could not "
                    "test: timed out; suite: conforms: H100: 54 tests: 54 passed"}},
        Joined{"a_failure_outranks_could_not_test", kTimedOut, {kScreenFailed},
               {1, "warpconf: FAILED: screen of GPU 1: FAILED: 1 disagreement; suite: could not test: timed out: the "
                   "time limit of 50 s passed in the screen"}}),
    [](const ::testing::TestParamInfo<Joined>& info) { return info.param.name; });

// Without a usable GPU, --screen could not test (77), one line: never a pass.
TEST_F(HealthScreens, without_a_gpu_health_with_the_screen_could_not_test) {
  check::ProcessOptions options;
  options.environment = std::vector<std::string>{"CUDA_VISIBLE_DEVICES=-1", "PATH=/usr/bin:/bin"};
  std::string printed;
  const check::ProcessEnd end = check::run_process(
      {WARPCONF_BINARY, "health", "--screen", "--out", (dir_ / "report").string()},
      [&printed](std::string_view line) { printed += std::string(line) + "\n"; }, options);
  EXPECT_EQ(end.exit_status, 77) << printed;
  EXPECT_EQ(printed.rfind("warpconf: could not test: ", 0), 0u) << printed;
  EXPECT_EQ(std::count(printed.begin(), printed.end(), '\n'), 1) << printed;
}

}  // namespace
}  // namespace wc
