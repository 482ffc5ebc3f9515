// `warpconf health`: one machine's verdict in one line on standard output, for a scheduler's node
// health check (Slurm's HealthCheckProgram, prolog or epilog; a Kubernetes Job or Node Problem
// Detector plugin). It probes, in a child process, whether this machine can test at all, then, with
// --screen, screens every visible GPU, then runs `warpconf run` (quick budget by default), all under a
// time limit that covers the whole command.
#pragma once

#include <ostream>
#include <string>

#include "warpconf/run/run_command.hpp"

namespace wc::cli {

// The exit status of a machine that could not be tested: no GPU, a driver error, no code in this
// build for its GPU, no build tree, the time limit passed. Node Problem Detector reads any status
// but 0 and 1 as "unknown"; ctest and the rest of warpconf read 77 as a skip: never a pass.
inline constexpr int kCouldNotTest = 77;

struct HealthVerdict {
  int status = kCouldNotTest;  // 0 conforms, 1 a failure, kCouldNotTest
  std::string line;            // "warpconf: conforms: ...", "warpconf: FAILED ...", "warpconf: could not test: ..."
};

// The verdict on a run that went ahead: a failure found is a failure even in a run that did not
// finish; a run that did not finish, or ran no test, could not test. `time_limit_s` is the whole
// command's; `run_error` what the run printed on standard error.
HealthVerdict health_verdict(const RunOutcome& run, double time_limit_s, const std::string& run_error);

struct HealthOptions {
  RunOptions run;       // run.time_limit_s limits the whole command, 0 for no limit
  bool screen = false;  // first the short screen of every visible GPU (health_screen.hpp)
};

// Prints the verdict's line on `out` and returns its status; throws UsageError for bad options.
int run_health(const HealthOptions& o, std::ostream& out);

}  // namespace wc::cli
