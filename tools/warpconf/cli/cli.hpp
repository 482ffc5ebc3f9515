// The `warpconf` command line, callable in-process so that tests can drive it.
#pragma once

#include <ostream>

namespace wc::cli {

// Runs warpconf with argv; returns the exit status (README.md, "Exit statuses"): 2 with one line on
// `err` for bad input, and 1 with one line for anything unexpected: no exception leaves it.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace wc::cli
