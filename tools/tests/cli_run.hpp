// The warpconf command line run in this process, as the tool tests drive it.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "warpconf/cli/cli.hpp"

namespace wc {

struct CliRun {
  int status;
  std::string out, err;
};

// `warpconf <args...>`: its exit status and what it printed.
inline CliRun run_cli(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"warpconf"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int status = cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  return {status, out.str(), err.str()};
}

}  // namespace wc
