#include "warpconf/run/health_screen.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>

#include "warpconf/report/report.hpp"

extern char** environ;

namespace wc::cli {
namespace {

using Clock = std::chrono::steady_clock;

// Of a screen's output, the tail is kept: its verdict is its last line.
constexpr size_t kKeptOutput = 1 << 16;

// What each status of `warpconf screen` prints last, after "warpconf screen: ".
constexpr const char* kScreenPrefix = "warpconf screen: ";

struct Child {
  pid_t pid = -1;
  int output = -1;  // the read end of its standard output and error; -1 once it closed
  std::string text;
  bool killed = false;  // at the deadline
  bool lost = false;    // its end could not be read
};

// This process's environment for the screen of `gpu`: WARPCONF_DEVICE names it, and ctest's resource
// variables (health run as a ctest test) are left out, for they would name another.
std::vector<std::string> screen_environment(int gpu) {
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string setting = *entry;
    if (setting.rfind("WARPCONF_DEVICE=", 0) != 0 && setting.rfind("CTEST_RESOURCE_GROUP", 0) != 0) env.push_back(setting);
  }
  env.push_back("WARPCONF_DEVICE=" + std::to_string(gpu));
  return env;
}

Child start(const std::vector<std::string>& screen, int gpu) {
  std::vector<std::string> env = screen_environment(gpu);
  std::vector<std::string> args = screen;
  std::vector<char*> argv, envp;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  int pipe[2];
  if (::pipe2(pipe, O_CLOEXEC) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a health check killed must not leave its screens behind
    const int null = ::open("/dev/null", O_RDONLY);
    if (null < 0 || ::dup2(null, STDIN_FILENO) < 0 || ::dup2(pipe[1], STDOUT_FILENO) < 0 || ::dup2(pipe[1], STDERR_FILENO) < 0)
      ::_exit(127);
    ::execve(argv[0], argv.data(), envp.data());
    const std::string why = "cannot run " + screen[0] + ": " + std::strerror(errno) + "\n";
    if (::write(STDERR_FILENO, why.data(), why.size()) < 0) ::_exit(127);
    ::_exit(127);
  }
  ::close(pipe[1]);
  if (pid < 0) {
    ::close(pipe[0]);
    return {};
  }
  return {pid, pipe[0], "", false, false};
}

std::string last_line(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const size_t newline = text.rfind('\n');
  return newline == std::string::npos ? text : text.substr(newline + 1);
}

// The screen's verdict from how it ended and the last line it printed.
ScreenOutcome outcome_of(int gpu, const Child& c, int wait_status, double time_limit_s) {
  const auto could_not_test = [gpu](const std::string& why) { return ScreenOutcome{gpu, kCouldNotTest, "could not test: " + why}; };
  if (c.pid < 0) return could_not_test("cannot start the screen");
  if (c.killed)
    return could_not_test("timed out: the time limit of " + seconds_text(time_limit_s) + " s passed in the screen");
  if (c.lost) return could_not_test("the screen's end could not be read");
  const std::string line = last_line(c.text);
  if (WIFSIGNALED(wait_status))
    return could_not_test("the screen was ended by signal " + std::to_string(WTERMSIG(wait_status)) +
                          (line.empty() ? "" : " after: " + line));
  const int status = WEXITSTATUS(wait_status);
  struct Verdict {
    int status;
    const char* word;
  };
  for (const Verdict v : {Verdict{0, "conforms: "}, Verdict{1, "FAILED: "}, Verdict{kCouldNotTest, "could not test: "}}) {
    const std::string said = std::string(kScreenPrefix) + v.word;
    if (status == v.status && line.rfind(said, 0) == 0 && line.size() > said.size())
      return {gpu, status, line.substr(std::strlen(kScreenPrefix))};
  }
  return could_not_test("the screen exited with status " + std::to_string(status) + " and printed " +
                        (line.empty() ? "nothing" : "'" + line + "'"));
}

}  // namespace

std::vector<ScreenOutcome> run_screens(const std::vector<std::string>& screen, int gpus,
                                       std::optional<Clock::time_point> deadline, double time_limit_s) {
  std::vector<Child> children;
  for (int gpu = 0; gpu < gpus; ++gpu) children.push_back(start(screen, gpu));
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<size_t> of;  // the child of each entry of fds
    for (size_t i = 0; i < children.size(); ++i)
      if (children[i].output >= 0) {
        fds.push_back({children[i].output, POLLIN, 0});
        of.push_back(i);
      }
    if (fds.empty()) break;
    int wait_ms = 1000;
    if (deadline)
      wait_ms = static_cast<int>(std::clamp<Clock::rep>(
          std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()).count(), 0, wait_ms));
    const int ready = ::poll(fds.data(), fds.size(), wait_ms);
    if (ready < 0 && errno != EINTR) break;
    if (deadline && Clock::now() >= *deadline) {
      for (const size_t i : of) {
        ::kill(children[i].pid, SIGKILL);
        ::close(children[i].output);
        children[i].output = -1;
        children[i].killed = true;
      }
      break;
    }
    for (size_t k = 0; k < fds.size(); ++k) {
      if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Child& c = children[of[k]];
      char buf[4096];
      const ssize_t n = ::read(c.output, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(c.output);
        c.output = -1;
        continue;
      }
      c.text.append(buf, static_cast<size_t>(n));
      if (c.text.size() > 2 * kKeptOutput) c.text.erase(0, c.text.size() - kKeptOutput);
    }
  }
  std::vector<ScreenOutcome> outcomes;
  for (size_t gpu = 0; gpu < children.size(); ++gpu) {
    Child& c = children[gpu];
    int status = 0;
    // Its output has ended; it may still run (till the deadline). One killed is not waited for: a
    // process stuck in the driver may not end even when killed.
    while (c.pid > 0 && !c.killed) {
      const pid_t ended = ::waitpid(c.pid, &status, WNOHANG);
      if (ended == c.pid) break;
      if (ended < 0 && errno != EINTR) {
        c.lost = true;  // reaped elsewhere: how it ended is unknown
        break;
      }
      if (deadline && Clock::now() >= *deadline) {
        ::kill(c.pid, SIGKILL);
        c.killed = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    outcomes.push_back(outcome_of(static_cast<int>(gpu), c, status, time_limit_s));
  }
  return outcomes;
}

HealthVerdict with_screens(const HealthVerdict& suite, const std::vector<ScreenOutcome>& screens) {
  if (screens.empty()) return suite;
  const auto worse = [](int a, int b) { return a == 1 || b == 1 ? 1 : a == kCouldNotTest || b == kCouldNotTest ? kCouldNotTest : 0; };
  int status = suite.status;
  std::string parts;
  for (const ScreenOutcome& s : screens) {
    status = worse(status, s.status);
    parts += "screen of GPU " + std::to_string(s.gpu) + ": " + s.line + "; ";
  }
  const std::string prefix = "warpconf: ";
  const std::string suite_part = suite.line.rfind(prefix, 0) == 0 ? suite.line.substr(prefix.size()) : suite.line;
  const char* word = status == 0 ? "conforms" : status == 1 ? "FAILED" : "could not test";
  return {status, prefix + word + ": " + parts + "suite: " + suite_part};
}

}  // namespace wc::cli
