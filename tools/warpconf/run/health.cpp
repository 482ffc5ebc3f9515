#include "warpconf/run/health.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "core/files.hpp"
#include "core/numbers.hpp"
#include "core/seconds_since.hpp"
#include "warpconf/run/health_screen.hpp"
#include "warpconf/run/visible_gpus.hpp"

namespace wc::cli {
namespace {

using Clock = std::chrono::steady_clock;

// How long the probe may take where the command has no time limit: starting CUDA on a machine
// whose GPUs are not kept initialised takes seconds per GPU, far less than this.
constexpr double kProbeSeconds = 60;

// Why the GPU that this build's tests would use cannot run them, or "" where it can.
std::string why_untestable() {
  const gpu::DeviceStatus& d = gpu::device();
  if (!d.present) return d.reason;
  const gpu::CodeInfo& code = gpu::code_info();
  if (code.error.empty() && code.not_supported.empty()) return "";
  return "this build's kernels do not run on " + d.info.name + " (compute capability " +
         std::to_string(d.info.cc_major) + "." + std::to_string(d.info.cc_minor) + "; built for " +
         code.architectures + "): " + code.error + code.not_supported;
}

// why_untestable(), asked of a child process so that this one holds no CUDA context (and no GPU
// memory) while its tests run, and a driver that hangs costs at most `seconds`.
std::string probe(double seconds) {
  int pipe[2];
  if (::pipe2(pipe, O_CLOEXEC) != 0) return "cannot make a pipe for the CUDA probe";
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(pipe[0]);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a health check killed must not leave its probe behind
    std::string why;
    try {
      why = why_untestable();
    } catch (const std::exception& e) {
      why = std::string("the CUDA probe failed: ") + e.what();
    }
    why += "\n";  // an answer, even an empty one, ends with a line break: a probe that died wrote none
    files::write_all(pipe[1], why);  // a parent gone has no use for the answer
    ::_exit(0);
  }
  ::close(pipe[1]);
  if (child < 0) {
    ::close(pipe[0]);
    return "cannot start the CUDA probe";
  }
  const auto deadline = numbers::deadline_after(Clock::now(), seconds);
  std::string answer;
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd fd{pipe[0], POLLIN, 0};
    const int ready = left > 0 ? ::poll(&fd, 1, static_cast<int>(std::min<decltype(left)>(left, 1000))) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0 && left > 0) continue;
    if (ready <= 0) {
      // Not waited for: a process stuck in the driver may not end even when killed.
      ::kill(child, SIGKILL);
      ::close(pipe[0]);
      return "the CUDA probe did not answer within " + seconds_text(seconds) + " s";
    }
    char buf[512];
    const ssize_t n = ::read(pipe[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    answer.append(buf, static_cast<size_t>(n));
  }
  ::close(pipe[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (answer.empty() || answer.back() != '\n')
    return WIFSIGNALED(status) ? "the CUDA probe was ended by signal " + std::to_string(WTERMSIG(status))
                               : "the CUDA probe ended without an answer";
  answer.pop_back();
  return answer;
}

// "A, B, C and 2 more": the first tests that failed the run.
std::string failing_tests(const Report& r) {
  constexpr size_t kNamed = 3;
  std::vector<std::string> names;
  for (const TestResult& t : r.tests)
    if (test_fails(t)) names.push_back(t.name);
  std::string text;
  for (size_t i = 0; i < std::min(names.size(), kNamed); ++i) text += (i > 0 ? ", " : "") + names[i];
  if (names.size() > kNamed) text += " and " + std::to_string(names.size() - kNamed) + " more";
  return text;
}

// The first line of what `warpconf run` printed on standard error, without its "warpconf run: ".
std::string first_error(const std::string& run_error) {
  std::string line = run_error.substr(0, run_error.find('\n'));
  const std::string prefix = "warpconf run: ";
  if (line.rfind(prefix, 0) == 0) line.erase(0, prefix.size());
  return line.empty() ? "warpconf run failed without saying why" : line;
}

// "; SMs: <device>: every one of 132 SMs verified lanes of each of 9 families", or the SMs missed;
// "" where no check recorded where it ran.
std::string coverage_clause(const Report& r) {
  std::string clause;
  for (const std::string& line : coverage_lines(r)) clause += "; SMs: " + line;
  return clause;
}

HealthVerdict could_not_test(const std::string& why) { return {kCouldNotTest, "warpconf: could not test: " + why}; }

// The short screen of each GPU visible now (nvidia-smi -L, CUDA_VISIBLE_DEVICES), or where none is
// listed (no nvidia-smi), of the one the CUDA probe found: GPU 0.
std::vector<ScreenOutcome> screen_gpus(std::optional<Clock::time_point> deadline, double limit) {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return {{0, kCouldNotTest, "could not test: cannot find this program (/proc/self/exe): " + error.message()}};
  return run_screens({self.string(), "screen", "--level", "short"}, std::max(visible_gpus_now(), 1), deadline, limit);
}

HealthVerdict check(const HealthOptions& given, Clock::time_point start) {
  const double limit = given.run.time_limit_s;
  const std::string why = probe(limit > 0 ? limit : kProbeSeconds);
  if (!why.empty()) {
    try {
      write_untested_report(given.run, why);
    } catch (const std::exception& e) {
      return could_not_test(why + " (no report: " + e.what() + ")");
    }
    return could_not_test(why);
  }
  std::vector<ScreenOutcome> screens;
  if (given.screen)
    screens = screen_gpus(limit > 0 ? std::optional(numbers::deadline_after(start, limit)) : std::nullopt, limit);
  RunOptions o = given.run;
  if (limit > 0) {
    o.time_limit_s = limit - seconds_since(start);
    if (o.time_limit_s <= 0)
      return with_screens(could_not_test("timed out: the time limit of " + seconds_text(limit) + " s passed in the " +
                                         (given.screen ? "screen" : "CUDA probe")),
                          screens);
  }
  std::ostringstream progress, errors;  // the progress lines stay out of the one line; the report has them all
  return with_screens(health_verdict(run_suite(o, progress, errors), limit, errors.str()), screens);
}

}  // namespace

HealthVerdict health_verdict(const RunOutcome& run, double time_limit_s, const std::string& run_error) {
  if (!run.report) return could_not_test(first_error(run_error));
  const Report& r = *run.report;
  if (report_fails(r, false)) {
    const std::string tests = failing_tests(r);
    return {1, "warpconf: FAILED" + (tests.empty() ? "" : " (" + tests + ")") + ": " + summary_line(r) + coverage_clause(r)};
  }
  const RunStop& stop = r.run.stop;
  if (stop.cause == "time-limit") {
    const auto running = r.aborted.is_object() ? r.aborted.value("in_flight", nlohmann::json::array()).size() : 0;
    return could_not_test("timed out: the time limit of " + seconds_text(time_limit_s) + " s passed with " +
                          std::to_string(r.tests.size()) + (r.tests.size() == 1 ? " test" : " tests") +
                          " finished and " + std::to_string(running) + " running");
  }
  if (stop.cause != "finished") return could_not_test(stop.detail);
  if (r.tests.empty()) return could_not_test("no GPU test ran: the build tree holds none");
  if (run.status != 0) return could_not_test(first_error(run_error));
  return {0, "warpconf: conforms: " + summary_line(r) + coverage_clause(r)};
}

int run_health(const HealthOptions& o, std::ostream& out) {
  const Clock::time_point start = Clock::now();
  check_options(o.run);  // bad options are bad input, not a node that could not be tested
  HealthVerdict verdict;
  try {
    verdict = check(o, start);
  } catch (const std::exception& e) {
    verdict = could_not_test(e.what());  // not 1, which says the GPU failed a test
  }
  out << one_line(verdict.line) << "\n" << std::flush;
  return verdict.status;
}

}  // namespace wc::cli
