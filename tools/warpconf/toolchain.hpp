// `warpconf toolchain`: PTX through every optimisation level of ptxas and of the driver's JIT
// (fixtures/toolchain), today the known-bug fixtures (--known): each path's outputs against the
// PTX ISA's, findings deduplicated by signature, written as reproducers, and compared with
// golden/sm_XX/toolchain-bugs.txt (docs/toolchain.md).
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/number_text.hpp"

namespace wc::cli {

inline constexpr numbers::DurationRange kToolchainShrinkLimit{"seconds", 0, 86400, ""};
inline constexpr numbers::DurationRange kToolchainChildTimeout{"seconds", 0.001, 86400, ""};

struct ToolchainArgs {
  bool known = false;
  std::vector<std::string> paths;     // default: every path (ptxas-O0..O3, jit-O0..O4); with --compile-only the ptxas ones
  std::string offline = "nvjitlink";  // or ptxas: the toolkit's binary
  std::string arch;                   // default: the GPU's sm_XX (sm_90 with --compile-only)
  bool compile_only = false;
  std::string record;                 // write the findings as a toolchain-bugs.txt
  std::optional<std::string> verify;  // compare with one; "" for golden/sm_XX/toolchain-bugs.txt
  std::string findings;               // write each finding's reproducer under this folder
  bool shrink = false;
  double shrink_limit_s = 120;
  double timeout_s = 60;
};

void add_toolchain_options(CLI::App& cmd, ToolchainArgs& args);

// Exit status: 0 when something was checked and every finding is recorded (a toolchain bug, or one
// fixed since: a behaviour change); 1 on a finding not recorded, or where nothing was checked; 2 with
// one line on bad input; 77 without a GPU (1 with WARPCONF_REQUIRE_GPU=1) unless --compile-only, and
// with --verify where no toolchain-bugs.txt exists for the GPU.
int run_toolchain_command(const ToolchainArgs&, std::ostream& out, std::ostream& err);

}  // namespace wc::cli
