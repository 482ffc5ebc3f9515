// What `warpconf toolchain`'s two sources share (toolchain.cpp's --known, toolchain_random.cpp's
// --random): the run's options from the command line, and the verdicts of its findings against
// golden/sm_XX/toolchain-bugs.txt: recorded (a toolchain bug), new (the run fails), or recorded and no
// longer reproducing ("fixed in", a behaviour change).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "toolchain/bugs_file.hpp"
#include "toolchain/runner.hpp"
#include "warpconf/toolchain/toolchain_command.hpp"

namespace wc::cli {

inline constexpr std::string_view kToolchainCommand = "warpconf toolchain";

// A finding's kinds as one list: "wrong-output, compiler-crash".
inline std::string kinds_text(const std::vector<std::string>& kinds) {
  std::string t;
  for (const std::string& k : kinds) t += (t.empty() ? "" : ", ") + k;
  return t;
}

// The paths, compilers and timeouts of the command line; throws UsageError (and golden::FormatError
// for a --verify file that is not one) before anything runs.
toolchain::RunOptions toolchain_run_options(const ToolchainArgs&);

// The toolchain-bugs.txt that --verify names, read before anything runs; nullopt without --verify or
// for its default (read once the GPU's architecture is known).
std::optional<toolchain::BugsFile> given_bugs_file(const ToolchainArgs&);

// What the run knew: its paths, the architecture, the device and the compilers' versions.
struct RunFacts {
  std::vector<toolchain::ToolchainPath> paths;
  std::string arch, device, ptxas, driver;  // driver "none" where nothing ran
};

struct FindingVerdicts {
  std::vector<bool> recorded;                // per finding: recorded (or written by --record)
  std::vector<toolchain::BugChange> fixed;   // recorded bugs that no longer reproduce
  std::string verify_path;                   // the file compared with, "" for none
  bool no_file = false;                      // --verify found no file: nothing was compared with it
  int status = 0;                            // 1 for a finding not recorded
};

// The findings `now` (minimal[i]: its shape is a shrunk kernel's) against the file of --record,
// --verify (`given`, else golden/<arch>/toolchain-bugs.txt) or neither (every finding is new), where
// the run ran `reproducers_run`; prints the comparison's line and each behaviour change. Throws
// UsageError where --record cannot keep or write its file.
FindingVerdicts findings_against_bugs_file(const ToolchainArgs&, const std::optional<toolchain::BugsFile>& given,
                                           const std::vector<toolchain::BugRecord>& now, const std::vector<bool>& minimal,
                                           const std::vector<std::string>& reproducers_run, const RunFacts&, std::ostream& out);

// --random: the PTX fuzzer (toolchain_random.cpp).
int run_random_programs(const ToolchainArgs&, const toolchain::RunOptions&, std::ostream& out, std::ostream& err);

std::string hex16(uint64_t);

}  // namespace wc::cli
