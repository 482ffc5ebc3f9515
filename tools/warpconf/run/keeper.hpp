// A command run under a keeper: a process of its own that starts the command and owns every
// process the command starts, so that none outlives `warpconf run`, however that ends.
//
// ctest keeps its tests in its own process group, but a test may start processes in groups or
// sessions of their own (the isolation runner's children are), and ctest killed leaves its tests
// running. So the keeper is a child subreaper (orphans are handed to it) in a process group of its
// own, the command in another. When the command ends, when warpconf asks, or when warpconf is gone
// (its end of the channel closes: SIGKILL included), the keeper kills the command's group and
// every process handed to it until none is left, then sends the command's wait status. Should the
// keeper itself be killed, the command gets SIGKILL (PR_SET_PDEATHSIG), and what it started is handed
// to warpconf, a child subreaper too, which kills it all (Keeper::ended).
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wc::cli {

// The signals that ask warpconf run to stop, and that the keeper ignores: every one whose default
// action ends the process and that a handler can catch, but those that a fault raises.
const std::vector<int>& stop_signals();
// SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS and SIGABRT: raised by warpconf's own fault or
// abort they must end it (its last report says it crashed); sent by another process they stop the run.
const std::vector<int>& fault_signals();
// "SIGUSR1", "SIGRTMIN+2", "signal 99"
std::string signal_name(int signal);

class Keeper {
 public:
  // Starts `argv` (searched on PATH) under a keeper, standard input /dev/null and standard output
  // and error `output_fd`, and makes this process a child subreaper; throws std::runtime_error when it
  // cannot. Where warpconf is gone, the keeper also removes `abandoned_folder` (the run's JIT cache),
  // which warpconf would have removed itself.
  Keeper(const std::vector<std::string>& argv, int output_fd, const std::filesystem::path& abandoned_folder = {});
  // Ends every process the command started and waits for them, if wait() was not called.
  ~Keeper();
  Keeper(const Keeper&) = delete;
  Keeper& operator=(const Keeper&) = delete;

  // The command's process group gets `signal`.
  void forward(int signal);
  // Kills the command and every process it started, now.
  void end();
  // Readable once the keeper has sent the command's wait status or is gone: to poll.
  int channel() const { return channel_; }
  // Whether the keeper has ended, from what it sent, read without waiting. Where it was killed, the
  // processes it kept come to this process, and are killed here (with every other child of this
  // process: warpconf run has none but its keeper) until none is left.
  bool ended();
  // The command's wait status, once it and every process it started have ended; throws
  // std::runtime_error when the keeper ended without it (it was killed, or could not start it).
  int wait();

 private:
  void read_channel(bool block);
  void end_what_it_kept();

  std::string command_;  // argv[0]'s file name, for messages
  pid_t keeper_ = -1;
  int channel_ = -1;  // a socket: signal numbers to the keeper, the command's wait status back
  int status_ = 0;
  size_t status_bytes_ = 0;  // of status_, received so far
  bool gone_ = false;        // the keeper closed the channel
  std::optional<int> keeper_status_;  // its wait status, once reaped
};

}  // namespace wc::cli
