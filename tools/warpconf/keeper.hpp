// A command run under a keeper: a process of its own that starts the command and owns every
// process the command starts, so that none outlives `warpconf run`, however that ends.
//
// ctest keeps its tests in its own process group, but a test may start processes in groups or
// sessions of their own (the isolation runner's children are), and ctest killed leaves its tests
// running. So the keeper is a child subreaper (orphans are handed to it) in a process group of its
// own, the command in another. When the command ends, when warpconf asks, or when warpconf is gone
// (its end of the channel closes: SIGKILL included), the keeper kills the command's group and
// every process handed to it until none is left, then sends the command's wait status.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace wc::cli {

class Keeper {
 public:
  // Starts `argv` (searched on PATH) under a keeper, standard input /dev/null and standard output
  // and error `output_fd`; throws std::runtime_error when it cannot. Where warpconf is gone, the keeper
  // also removes `abandoned_folder` (the run's JIT cache), which warpconf would have removed itself.
  Keeper(const std::vector<std::string>& argv, int output_fd, const std::filesystem::path& abandoned_folder = {});
  // Ends every process the command started and waits for them, if wait() was not called.
  ~Keeper();
  Keeper(const Keeper&) = delete;
  Keeper& operator=(const Keeper&) = delete;

  // The command's process group gets `signal`.
  void forward(int signal);
  // Kills the command and every process it started, now.
  void end();
  // The command's wait status, once it and every process it started have ended; throws
  // std::runtime_error when the keeper ended without it (it was killed).
  int wait();

 private:
  pid_t keeper_ = -1;
  int channel_ = -1;  // a socket: signal numbers to the keeper, the command's wait status back
};

}  // namespace wc::cli
