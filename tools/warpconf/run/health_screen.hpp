// `warpconf health --screen`: the short SM screen (`warpconf screen --level short`) of every visible
// GPU, each in a child process of its own (WARPCONF_DEVICE chooses its GPU), all at once and within
// health's time limit, before the suite runs (a screen needs its GPU to itself: a kernel of another
// process on it breaks the one block per SM); and their verdicts joined with the suite's in one line.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "warpconf/run/health.hpp"

namespace wc::cli {

// One GPU's screen, as health read it.
struct ScreenOutcome {
  int gpu = 0;                 // the CUDA ordinal its WARPCONF_DEVICE named
  int status = kCouldNotTest;  // 0 conforms, 1 a failure, kCouldNotTest
  std::string line;            // "conforms: ...", "FAILED: ...", "could not test: ..."
};

// Runs `screen` (an argument vector, argv[0] a path) once for each of GPUs 0 to gpus - 1, all at once,
// each with WARPCONF_DEVICE=<gpu> and without ctest's resource variables (which would choose for it).
// A screen still running at `deadline` is killed and could not test; so is one that ended by a signal,
// with a status other than 0, 1 and 77, or without the one line that goes with its status.
std::vector<ScreenOutcome> run_screens(const std::vector<std::string>& screen, int gpus,
                                       std::optional<std::chrono::steady_clock::time_point> deadline,
                                       double time_limit_s);

// The suite's verdict with the screens' (none: the suite's as it is): a failure anywhere fails, else
// could not test anywhere could not test, else it conforms; the line names each screen's and then the
// suite's, "warpconf: FAILED: screen of GPU 0: conforms: ...; screen of GPU 1: FAILED: ...; suite: conforms: ...".
HealthVerdict with_screens(const HealthVerdict& suite, const std::vector<ScreenOutcome>& screens);

}  // namespace wc::cli
