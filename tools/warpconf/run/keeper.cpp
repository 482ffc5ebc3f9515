#include "warpconf/run/keeper.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "core/process.hpp"

namespace wc::cli {
namespace {

constexpr int kCannotStart = 127;  // the exit status of a process that could not start what it was to run

// The signals by name; the real-time ones (SIGRTMIN to SIGRTMAX, known only at run time) apart.
struct NamedSignal {
  int signal;
  const char* name;
};
constexpr NamedSignal kAsynchronous[] = {
    {SIGHUP, "SIGHUP"},       {SIGINT, "SIGINT"},       {SIGQUIT, "SIGQUIT"},     {SIGUSR1, "SIGUSR1"},
    {SIGUSR2, "SIGUSR2"},     {SIGPIPE, "SIGPIPE"},     {SIGALRM, "SIGALRM"},     {SIGTERM, "SIGTERM"},
    {SIGSTKFLT, "SIGSTKFLT"}, {SIGXCPU, "SIGXCPU"},     {SIGXFSZ, "SIGXFSZ"},     {SIGVTALRM, "SIGVTALRM"},
    {SIGPROF, "SIGPROF"},     {SIGIO, "SIGIO"},         {SIGPWR, "SIGPWR"}};
constexpr NamedSignal kFaults[] = {{SIGILL, "SIGILL"},   {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},
                                   {SIGFPE, "SIGFPE"},   {SIGSEGV, "SIGSEGV"}, {SIGSYS, "SIGSYS"}};

[[noreturn]] void exec_command(const std::vector<std::string>& args, int output_fd, pid_t keeper) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // should the keeper itself be killed
  if (::getppid() != keeper) ::_exit(kCannotStart);
  // Ignored signals and the blocked mask would pass on to ctest and its tests through exec.
  for (const int signal : stop_signals()) ::signal(signal, SIG_DFL);
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  const int null = ::open("/dev/null", O_RDONLY);
  ::dup2(null, STDIN_FILENO);
  ::dup2(output_fd, STDOUT_FILENO);
  ::dup2(output_fd, STDERR_FILENO);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  std::fprintf(stderr, "cannot run %s: %s\n", argv[0], std::strerror(errno));
  ::_exit(kCannotStart);
}

// Reaps the children that ended other than `command`; true once `command` has ended, left
// unreaped so that its process group cannot vanish and its number be reused before the kill.
bool command_ended(pid_t command) {
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) return false;
    if (info.si_pid == command) return true;
    ::waitpid(info.si_pid, nullptr, 0);
  }
}

// Kills the command's group, then every process handed to the keeper, until it has no child left;
// the command's wait status.
int end_everything(pid_t command) {
  ::kill(-command, SIGKILL);
  int command_status = 0;
  for (;;) {
    for (const pid_t child : check::children_of(::getpid())) ::kill(child, SIGKILL);
    int status = 0;
    const pid_t ended = ::waitpid(-1, &status, 0);
    if (ended == command) command_status = status;
    if (ended < 0 && errno == ECHILD) return command_status;
  }
}

// Forwards warpconf's signals to the command's group until the command ends, warpconf says to
// end it (SIGKILL) or warpconf is gone (`abandoned` then); then ends everything.
int keep(pid_t command, int channel, int child_events, bool& abandoned) {
  for (;;) {
    pollfd fds[2] = {{channel, POLLIN, 0}, {child_events, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[0].revents != 0) {
      unsigned char signal = 0;
      const ssize_t n = ::recv(channel, &signal, 1, 0);
      if (n < 0 && errno == EINTR) continue;
      abandoned = n == 0;
      if (n <= 0 || signal == SIGKILL) break;
      ::kill(-command, signal);
    }
    if (fds[1].revents != 0) {
      signalfd_siginfo info;
      while (::read(child_events, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
      }
      if (command_ended(command)) break;
    }
  }
  return end_everything(command);
}

[[noreturn]] void keeper_main(const std::vector<std::string>& args, int output_fd, int channel,
                              const std::filesystem::path& abandoned_folder) {
  ::setpgid(0, 0);  // apart from warpconf's group, so that a kill of that group leaves it to clean up
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  // Only warpconf's word, or warpconf gone, ends the keeper (SIGKILL aside): a signal sent to every
  // process of a job (Slurm's scancel) must leave it to end what it keeps.
  for (const int signal : stop_signals()) ::signal(signal, SIG_IGN);
  // warpconf's handlers of the fault signals came with the fork: one sent here must end the keeper.
  for (const int signal : fault_signals()) ::signal(signal, SIG_DFL);
  sigset_t child;
  ::sigemptyset(&child);
  ::sigaddset(&child, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &child, nullptr);
  const int child_events = ::signalfd(-1, &child, SFD_NONBLOCK | SFD_CLOEXEC);
  const pid_t keeper = ::getpid();
  const pid_t command = child_events < 0 ? -1 : ::fork();
  if (command == 0) exec_command(args, output_fd, keeper);
  ::close(output_fd);
  if (command > 0) {
    ::setpgid(command, command);  // also here, against the race with the command's own call
    bool abandoned = false;
    const int status = keep(command, channel, child_events, abandoned);
    std::error_code ignored;
    if (abandoned && !abandoned_folder.empty()) std::filesystem::remove_all(abandoned_folder, ignored);
    ::send(channel, &status, sizeof status, MSG_NOSIGNAL);
    ::_exit(0);
  }
  ::_exit(kCannotStart);
}

}  // namespace

const std::vector<int>& stop_signals() {
  static const std::vector<int> signals = [] {
    std::vector<int> all;
    for (const NamedSignal& s : kAsynchronous) all.push_back(s.signal);
    for (int signal = SIGRTMIN; signal <= SIGRTMAX; ++signal) all.push_back(signal);
    return all;
  }();
  return signals;
}

const std::vector<int>& fault_signals() {
  static const std::vector<int> signals = [] {
    std::vector<int> all;
    for (const NamedSignal& s : kFaults) all.push_back(s.signal);
    return all;
  }();
  return signals;
}

std::string signal_name(int signal) {
  for (const NamedSignal& s : kAsynchronous)
    if (s.signal == signal) return s.name;
  for (const NamedSignal& s : kFaults)
    if (s.signal == signal) return s.name;
  if (signal >= SIGRTMIN && signal <= SIGRTMAX)
    return signal == SIGRTMIN ? "SIGRTMIN" : "SIGRTMIN+" + std::to_string(signal - SIGRTMIN);
  return "signal " + std::to_string(signal);
}

Keeper::Keeper(const std::vector<std::string>& argv, int output_fd, const std::filesystem::path& abandoned_folder)
    : command_(std::filesystem::path(argv.at(0)).filename().string()) {
  // Should the keeper be killed, what it kept comes here, not to init, and ended() kills it.
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
    throw std::runtime_error(std::string("cannot become a child subreaper: ") + std::strerror(errno));
  int channel[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, channel) != 0)
    throw std::runtime_error(std::string("cannot make a socket pair: ") + std::strerror(errno));
  keeper_ = ::fork();
  if (keeper_ == 0) {
    ::close(channel[0]);
    keeper_main(argv, output_fd, channel[1], abandoned_folder);
  }
  ::close(channel[1]);
  if (keeper_ < 0) {
    ::close(channel[0]);
    throw std::runtime_error(std::string("cannot fork: ") + std::strerror(errno));
  }
  channel_ = channel[0];
  ::setpgid(keeper_, keeper_);
}

Keeper::~Keeper() {
  if (channel_ < 0) return;
  end();
  try {
    wait();
  } catch (const std::runtime_error&) {
    // Its status is of no use to a caller already unwinding; every process is gone all the same.
  }
}

void Keeper::forward(int signal) {
  const unsigned char byte = static_cast<unsigned char>(signal);
  // MSG_NOSIGNAL: a keeper already gone must not raise SIGPIPE, which warpconf reads as its stdout closed.
  while (::send(channel_, &byte, 1, MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
}

void Keeper::end() { forward(SIGKILL); }

void Keeper::read_channel(bool block) {
  while (!gone_ && status_bytes_ < sizeof status_) {
    const ssize_t n = ::recv(channel_, reinterpret_cast<char*>(&status_) + status_bytes_, sizeof status_ - status_bytes_,
                             block ? 0 : MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      gone_ = errno != EAGAIN && errno != EWOULDBLOCK;
      return;
    }
    gone_ = n == 0;
    status_bytes_ += static_cast<size_t>(n);
  }
}

void Keeper::end_what_it_kept() {
  for (;;) {
    for (const pid_t child : check::children_of(::getpid())) ::kill(child, SIGKILL);
    int status = 0;
    const pid_t ended = ::waitpid(-1, &status, 0);
    if (ended == keeper_) keeper_status_ = status;
    if (ended < 0 && errno == ECHILD) return;
  }
}

bool Keeper::ended() {
  read_channel(false);
  const bool told = status_bytes_ == sizeof status_;
  if (gone_ && !told) end_what_it_kept();
  return gone_ || told;
}

int Keeper::wait() {
  read_channel(true);
  const bool told = status_bytes_ == sizeof status_;
  if (!told) end_what_it_kept();
  ::close(channel_);
  channel_ = -1;
  if (!keeper_status_) {
    int status = 0;
    while (::waitpid(keeper_, &status, 0) < 0 && errno == EINTR) {
    }
    keeper_status_ = status;
  }
  if (told) return status_;
  if (WIFSIGNALED(*keeper_status_))
    throw std::runtime_error("the keeper of " + command_ + " was killed by signal " +
                             std::to_string(WTERMSIG(*keeper_status_)));
  throw std::runtime_error("the keeper could not start " + command_);
}

}  // namespace wc::cli
