#include "warpconf/keeper.hpp"

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
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace wc::cli {
namespace {

constexpr int kCannotStart = 127;  // the exit status of a process that could not start what it was to run

// What the keeper ignores: only warpconf's word, or warpconf gone, ends it (SIGKILL aside).
constexpr int kIgnoredByKeeper[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT};

// The processes whose parent is `parent`, from /proc/<pid>/stat ("pid (comm) state ppid ...").
std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> children;
  std::error_code error;  // the keeper throws nothing: it has no caller to catch it
  for (std::filesystem::directory_iterator it("/proc", error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(it->path() / "stat");
    std::string text;
    std::getline(stat, text);
    const size_t comm_end = text.rfind(')');
    char state = 0;
    int ppid = 0;
    if (comm_end != std::string::npos && std::sscanf(text.c_str() + comm_end + 1, " %c %d", &state, &ppid) == 2 &&
        ppid == parent)
      children.push_back(static_cast<pid_t>(std::strtol(name.c_str(), nullptr, 10)));
  }
  return children;
}

[[noreturn]] void exec_command(const std::vector<std::string>& args, int output_fd, pid_t keeper) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // should the keeper itself be killed
  if (::getppid() != keeper) ::_exit(kCannotStart);
  // Ignored signals and the blocked mask would pass on to ctest and its tests through exec.
  for (const int signal : kIgnoredByKeeper) ::signal(signal, SIG_DFL);
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
    for (const pid_t child : children_of(::getpid())) ::kill(child, SIGKILL);
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
  for (const int signal : kIgnoredByKeeper) ::signal(signal, SIG_IGN);
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

Keeper::Keeper(const std::vector<std::string>& argv, int output_fd, const std::filesystem::path& abandoned_folder) {
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

int Keeper::wait() {
  int status = 0;
  size_t got = 0;
  while (got < sizeof status) {
    const ssize_t n = ::recv(channel_, reinterpret_cast<char*>(&status) + got, sizeof status - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  ::close(channel_);
  channel_ = -1;
  int keeper_status = 0;
  while (::waitpid(keeper_, &keeper_status, 0) < 0 && errno == EINTR) {
  }
  if (got == sizeof status) return status;
  if (WIFSIGNALED(keeper_status))
    throw std::runtime_error("the keeper of ctest was killed by signal " + std::to_string(WTERMSIG(keeper_status)));
  throw std::runtime_error("the keeper could not start ctest");
}

}  // namespace wc::cli
