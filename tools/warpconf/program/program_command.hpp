// `warpconf program`: random warp programs (fixtures/programs/run_programs.hpp) from a seed, on one code
// path or several, compared with the oracle and between paths; --emit prints one program's CUDA source.
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

inline constexpr numbers::NumberRange kProgramSeed{0, std::numeric_limits<uint64_t>::max(), true};
inline constexpr numbers::NumberRange kProgramIndex{0, std::numeric_limits<uint64_t>::max(), false};
// Each program's outputs and trace stay in memory for the whole run (up to 50 kB a program).
inline constexpr numbers::NumberRange kProgramCount{1, 100'000, false};
inline constexpr numbers::DurationRange kShrinkLimit{"seconds", 0, 86400, ""};

struct ProgramArgs {
  std::optional<uint64_t> seed;           // default: the process seed (core/seed.hpp)
  std::optional<uint64_t> index;          // one program
  std::optional<uint64_t> count;          // default: 2000, a hundredth under the quick budget (WARPCONF_BUDGET)
  uint64_t first = 0;
  std::vector<std::string> paths;         // names, or "all" (default: sass, sass-debug, jit-native)
  bool emit = false;
  std::string out_file;
  std::string plant;                      // hoist, sink, merge, drop-syncwarp
  bool violate = false;
  bool no_shrink = false;
  double shrink_limit_s = 120;
  bool coverage = false;
  std::string record;                 // write the run as a programs golden (docs/golden-format.md)
  std::optional<std::string> verify;  // compare with one; "" for golden/sm_XX/programs.txt
};

void add_program_options(CLI::App& cmd, ProgramArgs& args);

// Exit status: 0 when something was compared and nothing failed (a planted run: its miscompile was
// caught); 1 on a failure; 77 without a GPU unless WARPCONF_REQUIRE_GPU=1, and with --verify where no
// golden of this corpus and GPU was compared (behaviour changes are not failures). Bad input is thrown:
// cli::run makes it status 2.
int run_program_command(const ProgramArgs&, std::ostream& out, std::ostream& err);

}  // namespace wc::cli
