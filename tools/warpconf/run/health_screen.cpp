#include "warpconf/run/health_screen.hpp"

#include <cstring>
#include <stdexcept>
#include <thread>

#include "core/process.hpp"
#include "warpconf/report/report.hpp"

extern char** environ;

namespace wc::cli {
namespace {

// Of a screen's output, the tail is kept: its verdict is its last line.
constexpr size_t kKeptOutput = 1 << 16;

// What each status of `warpconf screen` prints last, after "warpconf screen: ".
constexpr const char* kScreenPrefix = "warpconf screen: ";

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

std::string last_line(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const size_t newline = text.rfind('\n');
  return newline == std::string::npos ? text : text.substr(newline + 1);
}

// The screen's verdict from how it ended and the last line it printed.
ScreenOutcome outcome_of(int gpu, const check::ProcessEnd& end, const std::string& text, double time_limit_s) {
  const auto could_not_test = [gpu](const std::string& why) { return ScreenOutcome{gpu, kCouldNotTest, "could not test: " + why}; };
  if (end.timed_out)
    return could_not_test("timed out: the time limit of " + seconds_text(time_limit_s) + " s passed in the screen");
  const std::string line = last_line(text);
  if (end.signal != 0)
    return could_not_test("the screen was ended by signal " + std::to_string(end.signal) + (line.empty() ? "" : " after: " + line));
  struct Verdict {
    int status;
    const char* word;
  };
  for (const Verdict v : {Verdict{0, "conforms: "}, Verdict{1, "FAILED: "}, Verdict{kCouldNotTest, "could not test: "}}) {
    const std::string said = std::string(kScreenPrefix) + v.word;
    if (end.exit_status == v.status && line.rfind(said, 0) == 0 && line.size() > said.size())
      return {gpu, end.exit_status, line.substr(std::strlen(kScreenPrefix))};
  }
  return could_not_test("the screen exited with status " + std::to_string(end.exit_status) + " and printed " +
                        (line.empty() ? "nothing" : "'" + line + "'"));
}

// One GPU's screen, run to its end or the deadline; killed with health if health is killed.
ScreenOutcome screen_one(const std::vector<std::string>& screen, int gpu,
                         const std::optional<std::chrono::steady_clock::time_point>& deadline, double time_limit_s) {
  std::string text;
  check::ProcessOptions options;
  options.environment = screen_environment(gpu);
  options.deadline = deadline;
  options.dies_with_its_starter = true;
  try {
    const check::ProcessEnd end = check::run_process(
        screen,
        [&text](std::string_view line) {
          text.append(line);
          text += '\n';
          if (text.size() > 2 * kKeptOutput) text.erase(0, text.size() - kKeptOutput);
        },
        options);
    return outcome_of(gpu, end, text, time_limit_s);
  } catch (const std::exception& e) {
    return {gpu, kCouldNotTest, std::string("could not test: cannot start the screen: ") + e.what()};
  }
}

}  // namespace

std::vector<ScreenOutcome> run_screens(const std::vector<std::string>& screen, int gpus,
                                       std::optional<std::chrono::steady_clock::time_point> deadline,
                                       double time_limit_s) {
  std::vector<ScreenOutcome> outcomes(static_cast<size_t>(gpus));
  {
    // A thread a screen: a screen's parent-death signal follows the thread that started it.
    std::vector<std::thread> screens;
    for (int gpu = 0; gpu < gpus; ++gpu)
      screens.emplace_back([&, gpu] { outcomes[static_cast<size_t>(gpu)] = screen_one(screen, gpu, deadline, time_limit_s); });
    for (std::thread& t : screens) t.join();
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
