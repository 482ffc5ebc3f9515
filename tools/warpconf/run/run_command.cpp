#include "warpconf/run/run_command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "core/code_paths.hpp"
#include "core/files.hpp"
#include "core/installation.hpp"
#include "core/numbers.hpp"
#include "core/process.hpp"
#include "core/records.hpp"
#include "core/seconds_since.hpp"
#include "core/seed.hpp"
#include "core/temporary_folder.hpp"
#include "warpconf/cli/exit_status.hpp"
#include "warpconf/report/report_inputs.hpp"
#include "warpconf/run/keeper.hpp"
#include "warpconf/run/resource_spec.hpp"
#include "warpconf/run/visible_gpus.hpp"

namespace wc::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kRunning = "killed or crashed before the run finished";
constexpr int kGraceSeconds = 10;  // after forwarding a signal, before all that ctest or the build started is killed

// Signals reach the loop through a pipe: the handler may do nothing else safely. Every signal that would
// end warpconf stops the run (stop_signals(); SIGPIPE also comes of writing progress to a standard output
// nobody reads any more, `warpconf run | head -1`), and so does a fault signal that another process sent.
int g_signal_pipe[2] = {-1, -1};
sigset_t g_fault_signals;
struct sigaction g_before[NSIG];  // a fault signal's handling before the run's (the default, or a sanitizer's)

void on_signal(int signal, siginfo_t* info, void*) {
  // The kernel's (si_code above 0) is a fault of warpconf's own: returning runs the faulting instruction
  // again, which now meets the handling from before, and ends warpconf; its last report says it crashed.
  if (::sigismember(&g_fault_signals, signal) == 1 && info->si_code > 0) {
    ::sigaction(signal, &g_before[signal], nullptr);
    return;
  }
  const unsigned char byte = static_cast<unsigned char>(signal);
  if (::write(g_signal_pipe[1], &byte, 1) < 0) return;
}

void handle_stop_signals() {
  ::sigemptyset(&g_fault_signals);
  struct sigaction action {};
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_SIGINFO;
  for (const int signal : fault_signals()) {
    ::sigaddset(&g_fault_signals, signal);
    ::sigaction(signal, &action, &g_before[signal]);
  }
  for (const int signal : stop_signals()) ::sigaction(signal, &action, nullptr);
}

// What the options resolve to on this machine.
struct Settings {
  fs::path build, out, ctest;  // build: a build tree, or a bundle's tests/
  fs::path test_dir;           // ctest's --test-dir: the build tree, or for a bundle <out>/ctest
  std::string label, variant;
  int jobs = 8;  // without a resource spec, the gpu preset's
  fs::path spec;  // the resource spec ctest gets; none where no GPU is known

  // The build of what is missing of the code paths that a build tree makes apart, which the run
  // starts with; none where nothing is missing or the tests are a bundle's.
  std::vector<std::string> path_build;
  std::string path_build_names;  // "sass-debug, jit-75"
};

// The tests this warpconf belongs to: its bundle's tests/, else the nearest folder above it with a
// CMakeCache.txt (its build tree).
fs::path own_tests() {
  if (const std::optional<fs::path> bundle = check::bundle_root()) return *bundle / "tests";
  if (const std::optional<fs::path> build = check::build_tree()) return *build;
  throw UsageError("this warpconf is neither in a bundle nor inside a build tree: name one with --build-dir");
}

// The value of `key` (CMAKE_COMMAND, ...) in the CMakeCache.txt of `build`; empty where it has none.
std::string cache_value(const fs::path& build, const std::string& key) {
  std::error_code error;
  if (!fs::exists(build / "CMakeCache.txt", error)) return "";  // a bundle has none
  files::InputFile cache((build / "CMakeCache.txt").string());
  const std::string prefix = key + ":INTERNAL=";
  for (std::string line; std::getline(cache, line);)
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  return "";
}

// The ctest of the cmake that configured `build`, else (a bundle) the first one on PATH.
fs::path ctest_of(const fs::path& build) {
  if (const std::string ctest = cache_value(build, "CMAKE_CTEST_COMMAND"); !ctest.empty() && fs::exists(ctest)) return ctest;
  const char* path = std::getenv("PATH");
  for (std::string dirs = path ? path : ""; !dirs.empty();) {
    const size_t colon = std::min(dirs.find(':'), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(0, colon).empty() ? "." : dirs.substr(0, colon)) / "ctest";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    dirs.erase(0, colon + 1);
  }
  throw UsageError("no ctest on PATH: install CMake 3.21 or newer, which runs the bundle's tests");
}

std::string variant_of(const RunOptions& o) { return o.perf ? "perf" : o.sanitize ? "sanitize" : o.path; }

// The code paths a run asks for.
std::vector<const CodePath*> paths_of(const RunOptions& o) {
  std::vector<const CodePath*> paths;
  for (const CodePath& p : kCodePaths)
    if (o.path == "all" || o.path == p.name) paths.push_back(&p);
  return paths;
}

// The ctest label of a code path's tests: the sass path's are the gpu label's (the probes and the golden
// verification run there too).
std::string label_of(const CodePath& p) { return p.name == "sass" ? "gpu" : std::string(p.name); }

// The paths that can run here. Those whose binaries a build tree makes apart (target warpconf_path_<name>)
// go in one build with the cmake that configured the tree (s.path_build); a bundle carries none of them.
std::vector<const CodePath*> ready_paths(const RunOptions& o, Settings& s, bool bundle, std::ostream& out) {
  std::vector<const CodePath*> ready;
  std::vector<std::string> targets;
  std::string names;
  for (const CodePath* p : paths_of(o)) {
    // A bundle's own binaries embed compute_75 PTX: its jit-75 tests run them.
    if (p->own_build || (bundle && p->name == "jit-75")) {
      ready.push_back(p);
    } else if (bundle && o.path != "all") {
      throw UsageError("a bundle carries the sass, jit-native and jit-75 paths: the " + std::string(p->name) +
                       " path needs a build tree (cmake --build <dir> --target " + code_path_target(*p) + ")");
    } else if (bundle) {
      out << "warpconf run: a bundle has no " << p->name << " binaries; that path is left out\n";
    } else {
      ready.push_back(p);
      targets.push_back(code_path_target(*p));
      names += (names.empty() ? "" : ", ") + std::string(p->name);
    }
  }
  if (targets.empty()) return ready;
  const std::string cmake = cache_value(s.build, "CMAKE_COMMAND");
  if (cmake.empty()) throw UsageError((s.build / "CMakeCache.txt").string() + " names no CMAKE_COMMAND");
  s.path_build = {cmake, "--build", s.build.string(), "--target"};
  s.path_build.insert(s.path_build.end(), targets.begin(), targets.end());
  s.path_build_names = names;
  return ready;
}

// The report folder, made if missing: --out, else <build>/report, or for a bundle, which may be
// read-only or shared by several nodes, warpconf-report/ in the current directory.
fs::path report_folder(const RunOptions& o, const fs::path& build, bool bundle) {
  const fs::path default_out = bundle ? fs::current_path() / "warpconf-report" : build / "report";
  const fs::path out = fs::absolute(o.out.empty() ? default_out : fs::path(o.out)).lexically_normal();
  std::error_code error;
  fs::create_directories(out, error);
  if (error || ::access(out.c_str(), W_OK) != 0)
    throw UsageError("cannot write to " + out.string() + ": " + (error ? error.message() : std::strerror(errno)));
  return out;
}

// The tests that --build-dir (or this warpconf's own tree) names: a build tree, or a bundle's tests/,
// named by the bundle or by its tests/ folder.
struct TestTree {
  fs::path dir;
  bool bundle = false;
};
TestTree test_tree(const RunOptions& o) {
  fs::path dir = fs::absolute(o.build_dir.empty() ? own_tests() : fs::path(o.build_dir)).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "dir/" is dir, whose parent is looked at next
  if (check::is_bundle(dir)) return {dir / "tests", true};
  return {dir, check::is_bundle(dir.parent_path())};
}

// Every finished test's output, as ctest logs it in <test dir>/Testing/Temporary/LastTest.log, which is
// LastTest.log.tmp until ctest ends: the newest of them written since `since`, copied to `to`, so that a
// stopped run keeps its tests' output too (its --output-log holds the progress lines alone).
void keep_tests_output(const fs::path& test_dir, fs::file_time_type since, const fs::path& to) {
  std::error_code e;
  std::optional<fs::path> newest;
  fs::file_time_type newest_time = since;
  for (const fs::directory_entry& entry : fs::directory_iterator(test_dir / "Testing" / "Temporary", e)) {
    const std::string name = entry.path().filename().string();
    if (name != "LastTest.log" && name.rfind("LastTest.log.tmp", 0) != 0) continue;
    const fs::file_time_type written = entry.last_write_time(e);
    if (!e && written >= newest_time) {
      newest = entry.path();
      newest_time = written;
    }
  }
  if (newest) fs::copy_file(*newest, to, fs::copy_options::overwrite_existing, e);
}

// An earlier run's files, which must not pass for this run's.
void clear_folder(const fs::path& out) {
  for (const char* stale : {"results.jsonl", "report.json", "report.md", "report.html", "junit.xml", "ctest.log",
                            "progress.log", "tests.log", "build.log"})
    fs::remove(out / stale);
  for (const auto& [number, dir] : round_dirs(out.string()))
    if (fs::path(dir) != out) fs::remove_all(dir);
}

// A bundle carries no resources.json: its GPUs are those of the node it runs on, known only there.
// The spec of the GPUs visible now, as configure writes it, goes into the run's own ctest folder
// (the bundle may be read-only); none where no GPU is visible, as in a build tree configured without one.
fs::path bundle_resource_spec(const fs::path& test_dir, std::ostream& out) {
  const fs::path spec = test_dir / "resources.json";
  const int gpus = visible_gpus_now();
  if (gpus == 0) {
    fs::remove(spec);  // an earlier run's, for GPUs that are gone
    return {};
  }
  std::ofstream file(spec, std::ios::trunc);
  file << resource_spec_text(gpus, kGpuSlots);
  if (!file.flush()) throw UsageError("cannot write " + spec.string());
  out << "warpconf run: " << gpus << (gpus == 1 ? " GPU" : " GPUs") << " visible (nvidia-smi -L, CUDA_VISIBLE_DEVICES), "
      << kGpuSlots << " GPU tests at once on each: " << spec.string() << "\n";
  return spec;
}

Settings resolve(const RunOptions& o, std::ostream& out) {
  check_options(o);
  Settings s;
  const TestTree tree = test_tree(o);
  s.build = tree.dir;
  if (!fs::exists(s.build / "CTestTestfile.cmake"))
    throw UsageError(s.build.string() + " has no CTestTestfile.cmake: not a configured build tree or a bundle");
  s.out = report_folder(o, s.build, tree.bundle);
  s.ctest = ctest_of(s.build);
  s.test_dir = s.build;
  if (tree.bundle) {
    // ctest writes Testing/ into its --test-dir, and a bundle may be read-only: it reads the bundle's
    // tests through a ctest file of its own under --out.
    s.test_dir = s.out / "ctest";
    fs::create_directories(s.test_dir);
    std::ofstream file(s.test_dir / "CTestTestfile.cmake", std::ios::trunc);
    file << "# Written by warpconf run: the tests of the bundle at " << s.build.parent_path().string() << "\n"
         << "subdirs([==[" << s.build.string() << "]==])\n";
    if (!file.flush()) throw UsageError("cannot write " + (s.test_dir / "CTestTestfile.cmake").string());
  }
  s.variant = variant_of(o);
  if (o.perf || o.sanitize) {
    s.label = o.perf ? "^perf$" : "^sanitize$";
  } else {
    std::string labels;
    for (const CodePath* p : ready_paths(o, s, tree.bundle, out)) labels += (labels.empty() ? "" : "|") + label_of(*p);
    s.label = "^(" + labels + ")$";
  }
  if (tree.bundle) s.spec = bundle_resource_spec(s.test_dir, out);
  else if (fs::exists(s.build / "resources.json")) s.spec = s.build / "resources.json";
  if (!s.spec.empty()) {
    files::InputFile spec(s.spec.string());
    s.jobs = spec_slots(spec, spec.path());  // as many as the GPUs take at once
  }
  return s;
}

// "1:05"
std::string clock_text(double seconds) {
  char buf[32];
  const long s = static_cast<long>(seconds);
  std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

// A file descriptor closed when it goes out of scope, unless closed before.
struct OwnedFd {
  int fd = -1;
  void close() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  ~OwnedFd() { close(); }
};

class Runner {
 public:
  // A perf run's devices, and those of a run of all code paths, take their variant from the code path, so
  // that a merge puts a perf run's figures in the column of the same GPU's conformance run.
  Runner(const RunOptions& o, Settings s, std::ostream& out, std::ostream& err)
      : options_(o), s_(std::move(s)), out_(out), err_(err), sink_(report_, o.perf || o.path == "all" ? "" : s_.variant),
        reader_((s_.out / "results.jsonl").string()), tty_(::isatty(STDOUT_FILENO) == 1) {}

  int run();
  const Report& report() const { return report_; }

 private:
  bool build_paths();
  void rounds();
  // `jit_cache`: the run's JIT cache folder, which the keeper removes should warpconf be killed.
  bool round(int number, const std::string& seed, const fs::path& jit_cache);
  int supervise(const std::vector<std::string>& argv, const fs::path& jit_cache,
                const std::function<void(const std::string&)>& on_line, const std::function<void()>& tick);
  void line(const std::string& text, CtestProgress& progress, int number);
  void ingest();
  void take(const nlohmann::json& record);
  void refuse(const std::string& text, const std::string& why);
  void publish(bool finished);
  void draw(const CtestProgress& progress, int number);
  void stop(int signal, Keeper& keeper);
  bool time_up();
  int exit_status();

  const RunOptions& options_;
  const Settings s_;
  std::ostream& out_;
  std::ostream& err_;
  Report report_;
  RecordSink sink_;
  RecordReader reader_;
  const bool tty_;
  std::ofstream log_;
  uint64_t offset_ = 0;
  const Clock::time_point start_ = Clock::now();
  const std::optional<Clock::time_point> deadline_ =
      options_.time_limit_s > 0 ? std::optional(numbers::deadline_after(start_, options_.time_limit_s)) : std::nullopt;
  std::string last_test_, last_output_;
  RunStop stop_;  // no cause while the run goes on
  std::string during_;  // what a stop's detail adds while the run is not in ctest: " while building ..."
  std::set<std::string> in_flight_;
  // Who wrote what, so that a malformed line is the error of the test that wrote it: the test
  // whose end ctest just reported while results.jsonl is read, and the test and pid of the records.
  std::string just_finished_;
  std::map<long long, std::string> test_of_pid_;
  std::map<std::string, long long> pid_of_test_;
  const RecordReader::Each take_ = [this](const nlohmann::json& r) { take(r); };
  const RecordReader::Refuse refuse_ = [this](const std::string& text, const std::string& why) { refuse(text, why); };
  int signals_ = 0;
  bool stdout_closed_ = false;  // nobody reads standard output any more: the run stops as on SIGPIPE
  Clock::time_point kill_at_;
  bool write_failed_ = false;
};

int Runner::run() {
  clear_folder(s_.out);
  report_.run.warpconf = warpconf_version();
  report_.run.command = "run";
  report_.run.argv = options_.argv;
  report_.run.budget = options_.budget;
  report_.run.variant = s_.variant;
  report_.run.status = "running";
  report_.run.start = check::utc_now();
  if (::pipe2(g_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) throw std::runtime_error("cannot make a pipe");
  handle_stop_signals();
  publish(false);
  try {
    if (build_paths()) rounds();
  } catch (const std::exception& e) {
    // Whatever the build or ctest started has ended with its keeper; the final report says what went wrong.
    stop_ = {"error", 0, e.what()};
    publish(true);
    throw;
  }
  if (const int cut = reader_.finish(take_, refuse_))
    refuse("", (s_.out / "results.jsonl").string() + ":" + std::to_string(cut) +
                   ": a record cut off mid-way (its writer was killed?)");
  if (stop_.cause.empty()) stop_ = {"finished", 0, ""};
  publish(true);
  const int status = exit_status();
  out_ << (tty_ ? "\r\033[K" : "") << summary_line(report_) << "\n";
  for (const std::string& line : code_path_lines(report_)) out_ << "  " << line << "\n";
  for (const std::string& line : coverage_lines(report_)) out_ << "SM coverage: " << line << "\n";
  for (const auto& [id, device] : report_.devices)
    if (const std::string note = code_note(device); !note.empty()) out_ << device_label(report_, id) << ": " << note << "\n";
  if (report_.tests.empty()) out_ << "warpconf run: no test ran (label " << s_.label << " in " << s_.build.string() << ")\n";
  out_ << "report: " << (s_.out / "report.html").string() << "\n";
  return status;
}

// The build of what is missing of the code paths, as part of the run: under a keeper, the run's signals
// and its time limit, its output in build.log; false where the run stopped during it.
bool Runner::build_paths() {
  if (s_.path_build.empty()) return true;
  const std::string names = s_.path_build_names, command = check::command_text(s_.path_build);
  out_ << "warpconf run: building what is missing of the " << names << " path(s): " << command << "\n" << std::flush;
  const fs::path log_file = s_.out / "build.log";
  std::ofstream log(log_file, std::ios::trunc);
  std::string last;
  const auto start = Clock::now();
  during_ = " while building the " + names + " path(s)";
  const int status = supervise(
      s_.path_build, {},
      [&](const std::string& text) {
        log << text << "\n" << std::flush;
        if (text.find_first_not_of(' ') != std::string::npos) last = text;
      },
      [] {});
  during_.clear();
  if (!stop_.cause.empty()) return false;
  if (const check::ProcessEnd end = check::process_end(status); !end.succeeded())
    throw std::runtime_error("building the " + names + " path(s) failed (" + end.text() + ")" +
                             (last.empty() ? "" : ": " + last) + "; its output is in " + log_file.string());
  out_ << "warpconf run: the " << names << " path(s) are built ("
       << static_cast<long>(seconds_since(start)) << " s)\n";
  return true;
}

// ctest once, or in soak rounds until the soak's minutes or the time limit have passed.
void Runner::rounds() {
  ::setenv("WARPCONF_REQUIRE_GPU", "1", 1);
  ::setenv("WARPCONF_RESULTS", (s_.out / "results.jsonl").c_str(), 1);
  ::setenv("WARPCONF_BUDGET", options_.budget.c_str(), 1);
  // The driver's JIT cache, empty and the run's own: the JIT paths' kernels are compiled by the first process
  // of the run that loads them, and no other run's or driver's output serves it (each process compiling
  // every kernel of its binary took 923 of a --path all run's 1,733 test-seconds).
  const check::TemporaryFolder jit_cache("warpconf-run-jit-cache");
  ::setenv("CUDA_CACHE_PATH", jit_cache.path().c_str(), 1);
  ::setenv("CUDA_CACHE_MAXSIZE", "4294967296", 1);  // the driver's largest: every binary's kernels fit
  if (options_.strict) ::setenv("WARPCONF_PERF_STRICT", "1", 1);
  else ::unsetenv("WARPCONF_PERF_STRICT");
  const bool soak = options_.budget == "soak";
  for (int number = 1;; ++number) {
    const std::string seed = soak ? check::seed_text(check::fresh_seed()) : "";
    if (soak) ::setenv("WARPCONF_SEED", seed.c_str(), 1);
    const bool go_on = round(number, seed, jit_cache.path());
    const double minutes = seconds_since(start_) / 60;
    if (!go_on || !soak || minutes >= options_.soak_minutes || time_up()) break;
  }
}

// One ctest run; false when the run must stop (a signal, or ctest ended abnormally).
bool Runner::round(int number, const std::string& seed, const fs::path& jit_cache) {
  const fs::path dir = options_.budget == "soak" ? s_.out / ("round-" + std::to_string(number)) : s_.out;
  fs::create_directories(dir);
  log_ = std::ofstream(dir / "progress.log", std::ios::trunc);
  std::vector<std::string> args = {s_.ctest.string(), "--test-dir", s_.test_dir.string(), "-L", s_.label, "-j",
                                   std::to_string(s_.jobs), "--no-tests=error", "--output-junit",
                                   (dir / "junit.xml").string(), "--output-log", (dir / "ctest.log").string()};
  if (!s_.spec.empty()) args.insert(args.end(), {"--resource-spec-file", s_.spec.string()});
  if (options_.budget == "quick") args.insert(args.end(), {"-E", kQuickExclude});
  args.insert(args.end(), options_.ctest_args.begin(), options_.ctest_args.end());
  report_.run.rounds.push_back({number, seed, ""});
  if (!seed.empty()) out_ << (tty_ ? "\r\033[K" : "") << "round " << number << ": WARPCONF_SEED=" << seed << "\n";

  const fs::file_time_type started = fs::file_time_type::clock::now();
  CtestProgress progress;
  const int status = supervise(
      args, jit_cache, [&](const std::string& text) { line(text, progress, number); },
      [&] { draw(progress, number); });
  keep_tests_output(s_.test_dir, started, dir / "tests.log");
  report_.run.rounds.back().summary = progress.summary();
  in_flight_ = progress.in_flight();
  if (!progress.summary().empty()) {
    // Every test had ended when ctest summed up: one whose end line was not read ("...Subprocess
    // killed***Exception:" of a test killed by SIGKILL) is a failure, not dropped.
    for (const std::string& name : in_flight_)
      report_.tests.push_back({name, "failed", "its end line in ctest.log was not read", 0, number, "", "", ""});
    in_flight_.clear();
  }
  annotate_from_junit(report_.tests, number, fs::exists(dir / "junit.xml") ? files::read_input((dir / "junit.xml").string()) : "");
  ingest();
  if (stop_.cause.empty() && WIFSIGNALED(status))
    stop_ = {"ctest", WTERMSIG(status), "ctest was killed by signal " + std::to_string(WTERMSIG(status))};
  if (stop_.cause.empty() && progress.summary().empty())
    stop_ = {"ctest", 0,
             "ctest exited with status " + std::to_string(WEXITSTATUS(status)) + " before its summary" +
                 (last_output_.empty() ? "" : ": " + last_output_)};
  return stop_.cause.empty();
}

// Runs `argv` under a keeper until it and every process it started have ended, each line of its output
// to `on_line` and `tick` at least once a second; a signal stops it (stop()), and so does the time limit.
// Its wait status; throws where the keeper was killed, once what it kept has ended too.
int Runner::supervise(const std::vector<std::string>& argv, const fs::path& jit_cache,
                      const std::function<void(const std::string&)>& on_line, const std::function<void()>& tick) {
  int pipe[2];
  if (::pipe2(pipe, O_CLOEXEC) != 0) throw std::runtime_error("cannot make a pipe");
  OwnedFd output{pipe[0]}, output_end{pipe[1]};
  // Leaving this scope in any way, by an exception too, ends every process the command started.
  Keeper keeper(argv, output_end.fd, jit_cache);
  output_end.close();  // the command and what it starts hold it: the output ends when the last of them does

  std::string pending;
  bool keeper_ended = false;
  for (bool open = true; open;) {
    // POLLERR on standard output: its reader is gone (`warpconf run | head -1`), before the next
    // progress line raises SIGPIPE. The keeper's channel: should the keeper be killed, ended() kills
    // what it kept, which holds the output open.
    pollfd fds[4] = {{output.fd, POLLIN, 0},
                     {g_signal_pipe[0], POLLIN, 0},
                     {stdout_closed_ ? -1 : STDOUT_FILENO, 0, 0},
                     {keeper_ended ? -1 : keeper.channel(), POLLIN, 0}};
    int wait_ms = 1000;
    if (deadline_)
      wait_ms = static_cast<int>(std::clamp<Clock::rep>(
          std::chrono::ceil<std::chrono::milliseconds>(*deadline_ - Clock::now()).count(), 0, wait_ms));
    if (::poll(fds, 4, wait_ms) < 0 && errno != EINTR)
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    if (fds[1].revents & POLLIN) {
      unsigned char signal;
      while (::read(g_signal_pipe[0], &signal, 1) == 1) stop(signal, keeper);
    }
    if (fds[2].revents & POLLERR) stop(SIGPIPE, keeper);
    if (fds[3].revents != 0) keeper_ended = keeper.ended();
    if (signals_ > 0 && Clock::now() >= kill_at_) keeper.end();
    if (stop_.cause.empty() && time_up()) keeper.end();
    if (fds[0].revents & (POLLIN | POLLHUP)) {
      char buf[8192];
      const ssize_t n = ::read(output.fd, buf, sizeof buf);
      if (n <= 0) open = n < 0 && errno == EINTR;
      for (ssize_t i = 0; i < n; ++i) {
        if (buf[i] != '\n') {
          pending += buf[i];
          continue;
        }
        on_line(pending);
        pending.clear();
      }
    }
    tick();
  }
  if (!pending.empty()) on_line(pending);
  return keeper.wait();
}

void Runner::line(const std::string& text, CtestProgress& progress, int number) {
  log_ << text << "\n" << std::flush;
  std::optional<TestResult> t = progress.line(text);
  in_flight_ = progress.in_flight();
  if (!t) {
    if (!text.empty() && text.find_first_not_of(' ') != std::string::npos && text.rfind("    Start", 0) != 0)
      last_output_ = text.size() > 300 ? text.substr(0, 300) : text;
    return;
  }
  t->round = number;
  report_.tests.push_back(*t);
  last_test_ = t->name;
  just_finished_ = t->name;
  ingest();
  just_finished_.clear();
  publish(false);
  if (tty_ && t->status == "passed") return;
  const auto done = std::count_if(report_.tests.begin(), report_.tests.end(),
                                  [number](const TestResult& r) { return r.round == number; });
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f s", t->seconds);
  out_ << (tty_ ? "\r\033[K" : "") << "[" << done << "/" << progress.total() << "] " << t->status << " " << t->name
       << " (" << seconds << ")\n"
       << std::flush;
}

// The records appended since the last call; a line still being written waits for the next.
void Runner::ingest() {
  std::error_code error;
  if (!fs::exists(s_.out / "results.jsonl", error)) return;  // no record yet
  files::InputFile in((s_.out / "results.jsonl").string());
  in.seekg(static_cast<std::streamoff>(offset_));
  std::string chunk(1 << 16, '\0');
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    offset_ += static_cast<uint64_t>(in.gcount());
    reader_.feed(std::string_view(chunk.data(), static_cast<size_t>(in.gcount())), take_, refuse_);
  }
}

void Runner::take(const nlohmann::json& record) {
  sink_.add(record);
  const auto test = record.find("test"), pid = record.find("pid");
  if (test == record.end() || !test->is_string() || test->empty() || pid == record.end() || !pid->is_number_integer())
    return;
  test_of_pid_[pid->get<long long>()] = test->get<std::string>();
  pid_of_test_[test->get<std::string>()] = pid->get<long long>();
}

// A line of results.jsonl that is no record is an `error` check of the test that wrote it: the
// test it names, else the test of its pid's records, else the one test that may have written it
// (the one whose end was just reported, or one still running); its device is its pid's.
void Runner::refuse(const std::string& text, const std::string& why) {
  const nlohmann::json r = nlohmann::json::parse(text, nullptr, false);
  const auto text_of = [&r](const char* key) {
    return r.is_object() && r.contains(key) && r[key].is_string() ? r[key].get<std::string>() : std::string();
  };
  long long pid = r.is_object() && r.contains("pid") && r["pid"].is_number_integer() ? r["pid"].get<long long>() : -1;
  std::string writer = text_of("test");
  if (writer.empty() && test_of_pid_.count(pid)) writer = test_of_pid_.at(pid);
  std::set<std::string> running = in_flight_;
  if (!just_finished_.empty()) running.insert(just_finished_);
  if (writer.empty() && running.size() == 1) writer = *running.begin();
  if (pid < 0 && pid_of_test_.count(writer)) pid = pid_of_test_.at(writer);
  std::string by = "written by " + writer;
  if (writer.empty()) {
    by = running.empty() ? "read when no test was running" : "written by one of";
    for (const std::string& test : running) by += (test == *running.begin() ? " " : ", ") + test;
  }
  const std::string family = text_of("family");
  sink_.add({{"schema", check::kResultsSchema}, {"record", "check"}, {"test", writer}, {"pid", pid},
             {"family", family.empty() ? "unknown" : family}, {"intrinsic", "malformed record"}, {"type", ""},
             {"scenario", {{"scenes", ""}}}, {"seed", nullptr}, {"verdict", "error"}, {"cases", 0},
             {"reason", why + " (" + by + ")"}});
}

void Runner::publish(bool finished) {
  report_.run.end = check::utc_now();
  report_.run.seconds = seconds_since(start_);
  const std::string last = last_test_.empty() ? sink_.last_test() : last_test_;
  if (!finished) {
    report_.run.stop = {"running", 0, kRunning};
    report_.aborted = aborted_entry(kRunning, last, in_flight_);
  } else {
    const bool done = stop_.cause == "finished";
    report_.run.stop = stop_;
    report_.run.status = done ? "finished" : "aborted";
    report_.aborted = done ? nlohmann::json(nullptr) : aborted_entry(stop_.detail, last, in_flight_);
  }
  try {
    write_report_files(report_, s_.out.string());
  } catch (const UsageError& e) {
    if (!write_failed_) err_ << (tty_ ? "\r\033[K" : "") << "warpconf run: " << e.what() << "\n";
    write_failed_ = true;
  }
}

void Runner::draw(const CtestProgress& progress, int number) {
  if (!tty_) return;
  const int done = static_cast<int>(std::count_if(report_.tests.begin(), report_.tests.end(),
                                                  [number](const TestResult& t) { return t.round == number; }));
  const int total = progress.total(), width = 30;
  const int filled = total > 0 ? std::min(width, done * width / total) : 0;
  const auto failed = std::count_if(report_.tests.begin(), report_.tests.end(), [](const TestResult& t) {
    return t.status != "passed" && t.status != "skipped" && t.status != "disabled";
  });
  out_ << "\r\033[K[" << std::string(static_cast<size_t>(filled), '#') << std::string(static_cast<size_t>(width - filled), '.')
       << "] " << done << "/" << (total > 0 ? std::to_string(total) : "?") << " tests, " << failed << " failed, "
       << clock_text(seconds_since(start_))
       << (options_.budget == "soak" ? ", round " + std::to_string(number) : "")
       << (signals_ > 0 ? ", stopping" : "") << std::flush;
}

// A first signal asks the group of ctest (or of the build) to stop (SIGINT as it is, the others as
// SIGTERM); a second, or no end within kGraceSeconds, kills everything it started.
void Runner::stop(int signal, Keeper& keeper) {
  if (signal == SIGPIPE && stdout_closed_) return;  // each progress line raises it again: the first counts
  stdout_closed_ = stdout_closed_ || signal == SIGPIPE;
  if (stop_.cause.empty()) stop_ = {"signal", signal, "interrupted by " + signal_name(signal) + during_};
  if (++signals_ > 1) {
    keeper.end();
    kill_at_ = Clock::now();
    return;
  }
  keeper.forward(signal == SIGINT ? SIGINT : SIGTERM);
  kill_at_ = Clock::now() + std::chrono::seconds(kGraceSeconds);
}

// Whether the time limit has passed; the first time it has, the run's stop says so.
bool Runner::time_up() {
  if (!deadline_ || Clock::now() < *deadline_) return false;
  if (stop_.cause.empty())
    stop_ = {"time-limit", 0, "stopped at the time limit of " + seconds_text(options_.time_limit_s) + " s" + during_};
  return true;
}

int Runner::exit_status() {
  const bool failed = write_failed_ || stop_.cause != "finished" || report_.tests.empty() ||
                      report_fails(report_, options_.strict);
  return failed ? 1 : 0;
}

}  // namespace

void check_options(const RunOptions& o) {
  if (o.budget != "quick" && o.budget != "default" && o.budget != "soak")
    throw UsageError("unknown budget '" + o.budget + "': quick, default or soak");
  if (o.soak_minutes_given && o.budget != "soak") throw UsageError("--soak-minutes needs --budget soak");
  if (!(o.soak_minutes >= kSoakMinutes.least && o.soak_minutes <= kSoakMinutes.most))
    throw UsageError("--soak-minutes must be " + numbers::describe(kSoakMinutes));
  if (o.path != "all" && find_code_path(o.path) == nullptr)
    throw UsageError("unknown code path '" + o.path + "': " + code_path_names() + " or all");
  if (o.sanitize && o.path != "sass") throw UsageError("--sanitize runs the sass path under compute-sanitizer: not with --path");
  // The perf label is a run of its own: its one test takes no budget and runs the sass path.
  if (o.perf && (o.path != "sass" || o.sanitize || o.budget != "default"))
    throw UsageError("--perf runs the perf tests alone: not with --path, --sanitize or --budget");
  if (o.strict && !o.perf) throw UsageError("--strict goes with --perf: it makes a performance change fail");
  if (!(o.time_limit_s >= kTimeLimit.least && o.time_limit_s <= kTimeLimit.most))
    throw UsageError("--time-limit must be " + numbers::describe(kTimeLimit));
}

RunOutcome run_suite(const RunOptions& o, std::ostream& out, std::ostream& err) {
  RunOutcome outcome;
  std::optional<Runner> runner;
  // Its own boundary: `health` reads the status and the report of a run that failed.
  outcome.status = with_exit_status("warpconf run", err, [&] {
    runner.emplace(o, resolve(o, out), out, err);
    return runner->run();
  });
  if (runner) outcome.report = runner->report();
  return outcome;
}

void write_untested_report(const RunOptions& o, const std::string& why) {
  // --out needs no build tree: the tree may be what is missing.
  const TestTree tree = o.out.empty() ? test_tree(o) : TestTree{};
  const fs::path out = report_folder(o, tree.dir, tree.bundle);
  clear_folder(out);
  Report r;
  r.run.warpconf = warpconf_version();
  r.run.command = "run";
  r.run.argv = o.argv;
  r.run.budget = o.budget;
  r.run.variant = variant_of(o);
  r.run.start = r.run.end = check::utc_now();
  r.run.status = "aborted";
  r.run.stop = {"could-not-test", 0, why};
  r.aborted = aborted_entry("could not test: " + why, "", {});
  write_report_files(r, out.string());
}

}  // namespace wc::cli
