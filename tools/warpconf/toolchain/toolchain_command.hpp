// `warpconf toolchain`: PTX through every optimisation level of ptxas and of the driver's JIT
// (fixtures/toolchain), from the known-bug fixtures (--known) or from random ptx-dialect programs
// (--random, fixtures/programs/ptx_fuzz.hpp): each path's outputs against the PTX ISA's, findings
// deduplicated by signature, written as reproducers, and compared with golden/sm_XX/toolchain-bugs.txt
// (docs/toolchain.md, docs/programs.md).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/number_text.hpp"

namespace wc::cli {

inline constexpr numbers::DurationRange kToolchainShrinkLimit{"seconds", 0, 86400, ""};
inline constexpr numbers::DurationRange kToolchainChildTimeout{"seconds", 0.001, 86400, ""};
// Each program's outputs on every path stay in memory for its batch (up to 50 kB a program and path).
inline constexpr numbers::NumberRange kRandomCount{1, 100'000, false};
inline constexpr numbers::NumberRange kProgramsPerModule{1, 4096, false};
inline constexpr numbers::NumberRange kMaxShrunk{0, 1000, false};

struct ToolchainArgs {
  bool known = false;
  bool random = false;
  std::vector<std::string> paths;     // default: every path (ptxas-O0..O3, jit-O0..O4); with --compile-only the ptxas ones
  std::string offline = "nvjitlink";  // or ptxas: the toolkit's binary
  std::string arch;                   // default: the GPU's sm_XX (sm_90 with --compile-only)
  bool compile_only = false;
  std::string record;                 // write the findings as a toolchain-bugs.txt
  std::optional<std::string> verify;  // compare with one; "" for golden/sm_XX/toolchain-bugs.txt
  std::string findings;               // write each finding's reproducer under this folder
  bool shrink = false;                // --known: shrink each finding's PTX first
  double shrink_limit_s = 120;
  double timeout_s = 60;
  // --random
  std::optional<uint64_t> seed;       // default: the process seed (core/seed.hpp)
  std::optional<uint64_t> index;      // one program
  std::optional<uint64_t> count;      // default 1,000 a batch (10 under the quick budget)
  uint64_t first = 0;
  std::string without;                // generator features switched off, "a,b"
  uint64_t programs_per_module = 0;   // 0 for the default (programs/ptx_fuzz.hpp)
  std::optional<double> soak_minutes; // batches of fresh programs until this many minutes have passed
  std::string plant;                  // uniform-counter: planted on one level (ptxas-O3 where it runs)
  bool no_shrink = false;
  uint64_t max_shrunk = 8;            // findings shrunk a batch
  bool emit = false;                  // print the one program's PTX and .cu, no GPU needed
  std::string out;                    // with --emit: write kernel.ptx and repro.cu into this folder
};

void add_toolchain_options(CLI::App& cmd, ToolchainArgs& args);

// Exit status: 0 when something was checked and every finding is recorded (a toolchain bug, or one
// fixed since: a behaviour change), and with --plant when the planted miscompile was caught; 1 on a
// finding not recorded, an oracle disagreement (a conformance failure), or where nothing was checked;
// 2 with one line on bad input; 77 without a GPU (1 with WARPCONF_REQUIRE_GPU=1) unless --compile-only
// or --emit, and with --verify where no toolchain-bugs.txt exists for the GPU.
int run_toolchain_command(const ToolchainArgs&, std::ostream& out, std::ostream& err);

}  // namespace wc::cli
