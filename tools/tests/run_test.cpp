// `warpconf run` on a build tree of stand-in tests (tools/tests/data/report/fake_test.sh): the exit
// status, the report it leaves when the run finishes, is interrupted, is killed or reaches its time
// limit, that no process it started outlives it, malformed records, the budget it passes on, soak
// rounds, the code paths and the perf run; and the verdict `warpconf health` reads from such runs.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "core/process.hpp"
#include "harness/scratch_dir.hpp"
#include "report_data.hpp"
#include "warpconf/report/report.hpp"
#include "warpconf/report/report_inputs.hpp"
#include "warpconf/run/health.hpp"
#include "warpconf/run/keeper.hpp"

namespace wc {
namespace {

namespace fs = std::filesystem;


// A stand-in test: its name, label, records file (under kData/run), exit status, output, seconds
// of sleep, the NAME=value it requires of its environment, and the file its pids go to (it then
// sleeps in a child of a session of its own too).
struct FakeTest {
  FakeTest(std::string name_, std::string label_, std::string records_, int status_ = 0, std::string say_ = "",
           std::string sleep_ = "", std::string requires_ = "", std::string pid_file_ = "")
      : name(std::move(name_)), label(std::move(label_)), records(std::move(records_)), status(status_),
        say(std::move(say_)), sleep(std::move(sleep_)), requires_env(std::move(requires_)),
        pid_file(std::move(pid_file_)) {}
  std::string name, label, records;
  int status;
  std::string say, sleep, requires_env, pid_file;
};

// The processes that hold `entry` (NAME=value) in their environment; a zombie shows none.
std::vector<pid_t> processes_with(const std::string& entry) {
  std::vector<pid_t> found;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "environ", std::ios::binary);
    for (std::string variable; std::getline(in, variable, '\0');)
      if (variable == entry) found.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return found;
}

// The JIT cache folders that warpconf run `pid` left.
std::vector<fs::path> jit_caches_of(pid_t pid) {
  const std::string prefix = "warpconf-run-jit-cache-" + std::to_string(pid) + "-";
  std::vector<fs::path> left;
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path()))
    if (e.path().filename().string().rfind(prefix, 0) == 0) left.push_back(e.path());
  return left;
}

std::string command_line(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::replace(text.begin(), text.end(), '\0', ' ');
  return text;
}

class WarpconfRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = harness::fresh_test_dir("run");
    build_tree(dir_ / "build");
  }

  // Makes `build` the stand-in build tree, its CMakeCache.txt naming ctest and `cmake` (where given).
  void build_tree(const fs::path& build, const std::string& cmake = "") {
    build_ = build;
    fs::create_directories(build_);
    std::ofstream(build_ / "CMakeCache.txt") << "CMAKE_CTEST_COMMAND:INTERNAL=" << WARPCONF_CTEST << "\n"
                                             << (cmake.empty() ? "" : "CMAKE_COMMAND:INTERNAL=" + cmake + "\n");
  }

  // A stand-in cmake whose build prints a line and takes 40 s (a child of it sleeps); its path.
  std::string slow_cmake() const {
    const fs::path script = dir_ / "slow_cmake.sh";
    std::ofstream(script) << "#!/bin/sh\necho \"building $*\"\nsleep 40 &\nwait\n";
    fs::permissions(script, fs::perms::owner_all);
    return script.string();
  }

  void tests(const std::vector<FakeTest>& tests) {
    std::ofstream f(build_ / "CTestTestfile.cmake");
    for (const FakeTest& t : tests)
      f << "add_test([==[" << t.name << "]==] /bin/sh " << kData << "/fake_test.sh \""
        << (t.records.empty() ? "" : kData + "/run/" + t.records) << "\" " << t.status << " \"" << t.say << "\" \""
        << t.sleep << "\" \"" << t.requires_env << "\" \"" << t.pid_file << "\")\nset_tests_properties([==["
        << t.name << "]==] PROPERTIES LABELS " << t.label << " SKIP_RETURN_CODE 77)\n";
  }

  // Starts warpconf run in dir_, its output into output.txt (its standard output into `stdout_fd` where
  // one is given), with mark() in its environment, which every process it starts inherits.
  pid_t start(const std::vector<std::string>& extra, int stdout_fd = -1) {
    std::vector<std::string> args = {WARPCONF_BINARY, "run", "--build-dir", build_.string(), "--out",
                                     (dir_ / "report").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const std::string marked = mark();
    const pid_t pid = ::fork();
    if (pid == 0) {
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      const int out = ::open((dir_ / "output.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(stdout_fd >= 0 ? stdout_fd : out, STDOUT_FILENO);
      ::dup2(out, STDERR_FILENO);
      ::putenv(const_cast<char*>(marked.c_str()));
      for (std::string& setting : environment_) ::putenv(setting.data());
      if (::chdir(dir_.c_str()) != 0) ::_exit(127);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    return pid;
  }

  // The environment entry that tells this test's processes from any other's.
  std::string mark() const { return "RUN_TEST_MARK=" + dir_.string() + ":" + std::to_string(::getpid()); }

  // Waits up to `seconds` for every process that warpconf run started to end; kills and names
  // those left.
  void expect_none_left(int seconds) const {
    std::vector<pid_t> left = processes_with(mark());
    for (int i = 0; i < seconds * 20 && !left.empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      left = processes_with(mark());
    }
    for (const pid_t pid : left) {
      ADD_FAILURE() << "left running: " << pid << " " << command_line(pid);
      ::kill(pid, SIGKILL);
    }
  }

  // The exit status of `pid`, or of it killed after `seconds`.
  static int wait_at_most(pid_t pid, int seconds) {
    for (int i = 0; i < seconds * 20; ++i) {
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid)
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "still running after " << seconds << " s";
    ::kill(pid, SIGKILL);
    return wait_for(pid);
  }

  static int wait_for(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  int run(const std::vector<std::string>& extra = {}) { return wait_for(start(extra)); }

  nlohmann::json report() const { return nlohmann::json::parse(std::ifstream(dir_ / "report" / "report.json")); }

  std::string output() const {
    std::ostringstream s;
    s << std::ifstream(dir_ / "output.txt").rdbuf();
    return s.str();
  }

  // Waits until a process that warpconf run started runs a command line that starts with `text`; its pid.
  pid_t wait_for_process(const std::string& text) const {
    for (int i = 0; i < 400; ++i) {
      for (const pid_t pid : processes_with(mark()))
        if (command_line(pid).rfind(text, 0) == 0) return pid;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "no process ran " << text << ": " << output();
    return -1;
  }

  // Waits until the report shows `n` finished tests.
  void wait_for_tests(size_t n) const {
    for (int i = 0; i < 400; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      const nlohmann::json r = nlohmann::json::parse(std::ifstream(dir_ / "report" / "report.json"), nullptr, false);
      if (!r.is_discarded() && r.contains("tests") && r["tests"].size() >= n) return;
    }
    FAIL() << "the report never showed " << n << " tests: " << output();
  }

  fs::path dir_, build_;
  std::vector<std::string> environment_;  // NAME=value settings of the runs start() makes
};

const FakeTest kShuffle{"ShuffleOnGpu", "gpu", "shuffle.jsonl"};
// What a stop's detail adds when the run stops while it builds the sass-debug path.
const std::string kDuringTheBuild = " while building the sass-debug path(s)";
const FakeTest kNotSupported{"ReduceOnGpu", "gpu", "reduce.jsonl", 77,
                             "NotSupported: __reduce_add_sync needs compute capability 8.0, device is 7.5"};

TEST_F(WarpconfRun, fails_on_a_failed_test_and_reports_every_test) {
  tests({kShuffle, kNotSupported, {"Every/AlgorithmSweepOnGpu", "gpu", "algorithm.jsonl", 1, "compare.cpp:257: Failure"}});
  EXPECT_EQ(run(), 1) << output();
  const nlohmann::json r = report();
  EXPECT_TRUE(r["aborted"].is_null());
  EXPECT_EQ(r["run"]["status"], "finished");
  EXPECT_EQ(r["run"]["budget"], "default");
  EXPECT_EQ(r["run"]["tests"], nlohmann::json({{"passed", 1}, {"failed", 1}, {"timeout", 0}, {"not-run", 0},
                                                {"skipped", 1}, {"disabled", 0}}));
  EXPECT_EQ(r["run"]["skipped"], nlohmann::json({{"not-supported", 1}}));
  EXPECT_EQ(r["summary"],
            "NVIDIA H100 80GB HBM3: 3 tests: 1 passed, 1 failed, 1 skipped (1 not-supported); 68,700 lanes compared; 1 "
            "conformance failure; 0 known deviations; 0 behaviour changes");
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& t : r["tests"]) by_name[t["name"].get<std::string>()] = t;
  EXPECT_EQ(by_name.at("ReduceOnGpu")["skip"], "not-supported");
  EXPECT_EQ(by_name.at("Every/AlgorithmSweepOnGpu")["status"], "failed");
  EXPECT_EQ(by_name.at("Every/AlgorithmSweepOnGpu")["reason"], "compare.cpp:257: Failure");
  for (const char* f : {"results.jsonl", "report.json", "report.md", "report.html", "junit.xml", "ctest.log", "progress.log"})
    EXPECT_TRUE(fs::exists(dir_ / "report" / f)) << f;
  EXPECT_NE(output().find("[3/3]"), std::string::npos) << output();
}

TEST_F(WarpconfRun, passes_with_a_not_supported_skip_and_fails_an_unexplained_one) {
  tests({kShuffle, kNotSupported});
  EXPECT_EQ(run(), 0) << output();
  tests({kShuffle, {"FnsOnGpu", "gpu", "", 77, "skipped for no reason given"}});
  EXPECT_EQ(run(), 1) << output();
  const nlohmann::json last = report();  // the loop's range must not be a part of a temporary
  for (const auto& t : last["tests"]) {
    if (t["name"] == "FnsOnGpu") {
      EXPECT_EQ(t["skip"], "unexplained");
    }
  }
}

TEST_F(WarpconfRun, quick_draws_a_hundredth_and_leaves_the_slowest_suites_out) {
  tests({{"ShuffleOnGpu", "gpu", "shuffle.jsonl", 0, "", "", "WARPCONF_BUDGET=quick"}, {"KnownBadOnGpu", "gpu", "", 1},
         {"probe.verify.shuffle", "gpu", "", 1}});
  EXPECT_EQ(run({"--budget", "quick"}), 0) << output();
  EXPECT_EQ(report()["tests"].size(), 1u);
  EXPECT_EQ(report()["run"]["budget"], "quick");
  EXPECT_EQ(run({"--", "-R", "Shuffle"}), 1) << "without quick, WARPCONF_BUDGET is default";
}

TEST_F(WarpconfRun, soaks_in_rounds_of_fresh_seeds_and_sums_them_all) {
  tests({{"ShuffleOnGpu", "gpu", "shuffle.jsonl", 0, "", "0.3"}});
  EXPECT_EQ(run({"--budget", "soak", "--soak-minutes", "0.04"}), 0) << output();
  const cli::Report r = cli::report_from_json(report(), "report.json");
  const size_t rounds = r.run.rounds.size();
  ASSERT_GE(rounds, 2u) << output();
  EXPECT_NE(r.run.rounds[0].seed, r.run.rounds[1].seed);
  EXPECT_EQ(r.tests.size(), rounds);
  const cli::Cell& sweep = r.cells.at({kH100, "shuffle", "__shfl_sync", "int", "structured (14)"});
  EXPECT_EQ(sweep.sums.records, 2 * rounds) << "every round's checks, not the last round's";
  EXPECT_TRUE(fs::exists(dir_ / "report" / ("round-" + std::to_string(rounds)) / "junit.xml"));
  // warpconf report reads the rounds back to the same sums.
  const cli::Report again = cli::report_from_results((dir_ / "report").string(), {});
  EXPECT_EQ(again.tests.size(), rounds);
  EXPECT_EQ(again.totals.records, r.totals.records);
}

TEST_F(WarpconfRun, runs_a_code_path_by_its_label) {
  tests({kShuffle, {"jit-native/ShuffleOnGpu", "jit-native", "shuffle.jsonl"}});
  EXPECT_EQ(run({"--path", "jit-native"}), 0) << output();
  const nlohmann::json r = report();
  ASSERT_EQ(r["tests"].size(), 1u);
  EXPECT_EQ(r["tests"][0]["name"], "jit-native/ShuffleOnGpu");
  EXPECT_EQ(r["run"]["variant"], "jit-native");
  EXPECT_EQ(r["devices"][0]["variant"], "jit-native");
}

TEST_F(WarpconfRun, gives_its_tests_a_jit_cache_of_its_own_and_removes_it) {
  tests({{"jit-native/ShuffleOnGpu", "jit-native", "shuffle.jsonl", 0, "", "", "CUDA_CACHE_MAXSIZE=4294967296"}});
  const pid_t pid = start({"--path", "jit-native"});
  EXPECT_EQ(wait_at_most(pid, 60), 0) << output();
  // The stand-in test fails unless CUDA_CACHE_PATH names a folder; none of this run's is left.
  EXPECT_EQ(jit_caches_of(pid), std::vector<fs::path>{});
}

TEST_F(WarpconfRun, builds_a_path_built_apart_first_and_stops_when_that_fails) {
  const std::vector<FakeTest> debug = {kShuffle, {"sass-debug/ShuffleOnGpu", "sass-debug", "shuffle.jsonl"}};
  for (const char* cmake : {"/bin/true", "/bin/false"}) {
    build_tree(build_, cmake);
    tests(debug);
    const bool builds = std::string(cmake) == "/bin/true";
    EXPECT_EQ(run({"--path", "sass-debug"}), builds ? 0 : 1) << output();
    EXPECT_NE(output().find("--target warpconf_path_sass-debug"), std::string::npos) << output();
    if (builds) {
      EXPECT_EQ(report()["tests"].size(), 1u) << "the sass-debug label alone";
      EXPECT_NE(output().find("the sass-debug path(s) are built"), std::string::npos) << output();
    } else {
      EXPECT_NE(output().find("building the sass-debug path(s) failed (exit status 1); its output is in " +
                              (dir_ / "report" / "build.log").string()),
                std::string::npos)
          << output();
      EXPECT_EQ(report()["run"]["stop"]["cause"], "error") << "the final report says the build failed";
    }
  }
}

// The path build starts cmake with an argument vector: shell syntax in the build tree's name, or in
// the CMAKE_COMMAND of its cache, is no command (a shell would touch PWNED in warpconf's folder).
TEST_F(WarpconfRun, builds_a_path_with_no_shell_between_it_and_its_arguments) {
  const fs::path echo = dir_ / "echo_cmake.sh";  // a stand-in cmake that prints its arguments, one a line
  std::ofstream(echo) << "#!/bin/sh\nprintf '%s\\n' \"$@\"\n";
  fs::permissions(echo, fs::perms::owner_all);
  struct Case {
    std::string build, cmake;
    int status;
  };
  for (const Case& c : std::vector<Case>{{"b'$(touch PWNED)'", echo.string(), 0}, {"build", "/bin/true'; touch PWNED; '", 1}}) {
    build_tree(dir_ / c.build, c.cmake);
    tests({{"sass-debug/ShuffleOnGpu", "sass-debug", "shuffle.jsonl"}});
    EXPECT_EQ(run({"--path", "sass-debug"}), c.status) << output();
    EXPECT_FALSE(fs::exists(dir_ / "PWNED")) << c.build << ", " << c.cmake;
    std::ostringstream log;
    log << std::ifstream(dir_ / "report" / "build.log").rdbuf();
    if (c.status == 0) {
      EXPECT_EQ(log.str(), "--build\n" + (dir_ / c.build).string() + "\n--target\nwarpconf_path_sass-debug\n");
    } else {
      EXPECT_EQ(log.str(), "cannot run " + c.cmake + ": No such file or directory\n");
      EXPECT_NE(output().find("building the sass-debug path(s) failed (exit status 127)"), std::string::npos) << output();
    }
  }
}

TEST_F(WarpconfRun, all_paths_run_every_path_label_with_each_device_s_variant_its_path) {
  build_tree(build_, "/bin/true");
  tests({kShuffle, {"jit-native/ShuffleOnGpu", "jit-native", "shuffle.jsonl"}, {"perf.compare", "perf", "perf.jsonl"}});
  EXPECT_EQ(run({"--path", "all"}), 0) << output();
  const nlohmann::json r = report();
  EXPECT_EQ(r["tests"].size(), 2u) << "the gpu and jit-native labels, not perf";
  EXPECT_EQ(r["run"]["variant"], "all");
  EXPECT_EQ(r["devices"][0]["variant"], "sass") << "each device's from its records' code path";
}

// perf.compare as the perf label's test: the records of a compare on an H100 with one performance change.
const FakeTest kPerfCompare{"perf.compare", "perf", "perf.jsonl"};

TEST_F(WarpconfRun, perf_runs_the_perf_label_alone_and_reports_its_figures) {
  tests({kShuffle, kPerfCompare});
  EXPECT_EQ(run({"--perf"}), 0) << "a performance change without --strict: " << output();
  const nlohmann::json r = report();
  ASSERT_EQ(r["tests"].size(), 1u);
  EXPECT_EQ(r["tests"][0]["name"], "perf.compare");
  EXPECT_EQ(r["run"]["variant"], "perf");
  EXPECT_EQ(r["devices"][0]["variant"], "sass") << "the code path's, as the same GPU's conformance run";
  EXPECT_EQ(r["perf"].size(), 8u);
  EXPECT_TRUE(r["cells"].empty());
  const std::string summary =
      "NVIDIA H100 80GB HBM3: 1 test: 1 passed; 0 lanes compared; 0 conformance failures; 0 known deviations; 0 "
      "behaviour changes; 1 performance change";
  EXPECT_EQ(r["summary"], summary);
  EXPECT_NE(output().find(summary), std::string::npos) << output();
}

TEST_F(WarpconfRun, perf_strict_fails_on_a_performance_change_and_tells_the_tests) {
  tests({kPerfCompare});
  EXPECT_EQ(run({"--perf", "--strict"}), 1) << output();
  // A test that passes only where WARPCONF_PERF_STRICT=1, with no performance change in its records.
  tests({{"perf.compare", "perf", "perf_calm.jsonl", 0, "", "", "WARPCONF_PERF_STRICT=1"}});
  EXPECT_EQ(run({"--perf", "--strict"}), 0) << output();
  EXPECT_NE(report()["summary"].get<std::string>().find("; 0 performance changes"), std::string::npos);
  ::setenv("WARPCONF_PERF_STRICT", "1", 1);  // without --strict, run does not pass on a strictness of its caller's
  EXPECT_EQ(run({"--perf"}), 1) << output();
  ::unsetenv("WARPCONF_PERF_STRICT");
}

TEST_F(WarpconfRun, perf_fails_on_the_figure_of_a_wrong_kernel) {
  tests({{"perf.compare", "perf", "perf_wrong.jsonl"}});
  EXPECT_EQ(run({"--perf"}), 1) << output();
  EXPECT_NE(report()["summary"].get<std::string>().find("; 1 conformance failure;"), std::string::npos);
}

TEST_F(WarpconfRun, perf_without_a_baseline_is_not_recorded_and_no_failure) {
  tests({{"perf.compare", "perf", "", 77,
          "warpconf perf compare: not recorded: no baseline golden/sm_100/perf.txt for sm_100; nothing compared"}});
  EXPECT_EQ(run({"--perf"}), 0) << output();
  EXPECT_EQ(report()["tests"][0]["skip"], "not-recorded");
}

TEST_F(WarpconfRun, perf_refuses_a_variant_a_budget_and_strict_without_it) {
  tests({kPerfCompare});
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--perf", "--path", "jit-75"}, {"--perf", "--sanitize"}, {"--perf", "--budget", "quick"}, {"--strict"}}) {
    EXPECT_EQ(run(args), 2) << args.back();
    const std::string said = output();
    EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
    EXPECT_FALSE(fs::exists(dir_ / "report" / "report.json")) << "nothing ran";
  }
  EXPECT_EQ(run({"--perf", "--budget", "default"}), 0) << output();
}

TEST_F(WarpconfRun, leaves_a_report_of_what_finished_when_killed) {
  tests({kShuffle, {"SlowOnGpu", "gpu", "", 0, "", "30"}});
  const pid_t pid = start({});
  wait_for_tests(1);
  ::kill(pid, SIGKILL);
  wait_for(pid);
  expect_none_left(30);
  EXPECT_EQ(jit_caches_of(pid), std::vector<fs::path>{}) << "the keeper removes the run's JIT cache";
  const nlohmann::json r = report();
  EXPECT_EQ(r["run"]["status"], "running");
  EXPECT_EQ(r["aborted"]["reason"], "killed or crashed before the run finished");
  EXPECT_EQ(r["aborted"]["last_test"], "ShuffleOnGpu");
  EXPECT_EQ(r["aborted"]["in_flight"], nlohmann::json::array({"SlowOnGpu"}));
  EXPECT_EQ(r["summary"].get<std::string>().rfind("UNFINISHED (still running, or killed or crashed): ", 0), 0u);
  // Rebuilt from the folder, the report says why it knows the run did not finish.
  const cli::Report again = cli::report_from_results((dir_ / "report").string(), {});
  EXPECT_NE(cli::field_text(again.aborted, "reason").find("progress.log ends before ctest's summary"), std::string::npos);
}

TEST_F(WarpconfRun, writes_a_final_report_when_interrupted) {
  tests({kShuffle, {"SlowOnGpu", "gpu", "", 0, "", "30"}});
  const pid_t pid = start({});
  wait_for_tests(1);
  const auto asked = std::chrono::steady_clock::now();
  ::kill(pid, SIGTERM);
  EXPECT_EQ(wait_for(pid), 1) << output();
  EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(15)) << "the slow test was stopped";
  const nlohmann::json r = report();
  EXPECT_EQ(r["run"]["status"], "aborted");
  EXPECT_EQ(r["aborted"]["reason"], "interrupted by SIGTERM");
  EXPECT_EQ(r["aborted"]["in_flight"], nlohmann::json::array({"SlowOnGpu"}));
}

// How warpconf run ends on a signal: its exit status, and its last report's run.status, run.stop
// (whose detail is its aborted.reason) and how report.md and report.html show it.
struct Ending {
  std::string name;
  int signal;
  int status;
  std::string run_status;
  nlohmann::json stop;
  std::string shown;
};

void PrintTo(const Ending& ending, std::ostream* os) { *os << ending.name; }

class WarpconfRunSignalled : public WarpconfRun, public ::testing::WithParamInterface<Ending> {};

TEST_P(WarpconfRunSignalled, leaves_no_process_behind_and_a_report_that_says_why_it_stopped) {
  const Ending& ending = GetParam();
  const std::string pids = (dir_ / "pids").string();
  tests({kShuffle, {"SleepsOnGpu", "gpu", "", 0, "", "60", "", pids},
         {"SleepsTooOnGpu", "gpu", "", 0, "", "60", "", pids}});
  const pid_t pid = start({});
  wait_for_tests(1);
  std::vector<pid_t> sleepers;
  for (int i = 0; i < 400 && sleepers.size() < 4; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream in(pids);
    sleepers.assign(std::istream_iterator<pid_t>(in), std::istream_iterator<pid_t>());
  }
  ASSERT_EQ(sleepers.size(), 4u) << "each sleeping test and its child in a session of its own";
  const std::vector<pid_t> marked = processes_with(mark());
  for (const pid_t sleeper : sleepers)
    EXPECT_NE(std::find(marked.begin(), marked.end(), sleeper), marked.end()) << "the mark finds " << sleeper;
  ::kill(pid, ending.signal);
  EXPECT_EQ(wait_at_most(pid, 30), ending.status) << output();
  expect_none_left(10);
  const nlohmann::json r = report();
  EXPECT_EQ(r["run"]["status"], ending.run_status);
  EXPECT_EQ(r["run"]["stop"], ending.stop);
  EXPECT_EQ(r["aborted"]["reason"], ending.stop["detail"]);
  for (const char* file : {"report.md", "report.html"}) {
    std::ostringstream text;
    text << std::ifstream(dir_ / "report" / file).rdbuf();
    EXPECT_NE(text.str().find("stopped: " + ending.shown), std::string::npos) << file;
  }
  EXPECT_EQ(r["aborted"]["last_test"], "ShuffleOnGpu");
  EXPECT_EQ(r["aborted"]["in_flight"], nlohmann::json::array({"SleepsOnGpu", "SleepsTooOnGpu"}));
}

nlohmann::json stop(const std::string& cause, nlohmann::json signal, const std::string& detail) {
  return {{"cause", cause}, {"signal", signal}, {"detail", detail}};
}

// warpconf run stopped by `signal` (its report's name for it `name`), `during` what: " while building ...".
Ending stopped_by(const std::string& name, int signal, const std::string& during = "") {
  const std::string detail = "interrupted by " + name + during;
  return {name, signal, 1, "aborted", stop("signal", signal, detail), "signal " + std::to_string(signal) + ": " + detail};
}

// Nothing handles SIGKILL: the report written after the last finished test is the one left.
const Ending kKilled{"SIGKILL", SIGKILL, 128 + SIGKILL, "running",
                     stop("running", nullptr, "killed or crashed before the run finished"),
                     "running: killed or crashed before the run finished"};

std::string ending_name(const ::testing::TestParamInfo<Ending>& info) {
  std::string name = info.param.name;
  std::replace(name.begin(), name.end(), '+', '_');
  return name;
}

// Every signal that would end warpconf stops it with its report (StopSignals checks the class):
// SIGQUIT, SIGUSR1, SIGALRM and the real-time ones too, and a fault signal that another process sent.
INSTANTIATE_TEST_SUITE_P(EverySignal, WarpconfRunSignalled,
                         ::testing::Values(kKilled, stopped_by("SIGTERM", SIGTERM), stopped_by("SIGHUP", SIGHUP),
                                           stopped_by("SIGPIPE", SIGPIPE), stopped_by("SIGQUIT", SIGQUIT),
                                           stopped_by("SIGUSR1", SIGUSR1), stopped_by("SIGALRM", SIGALRM),
                                           stopped_by("SIGRTMIN+1", SIGRTMIN + 1), stopped_by("SIGSEGV", SIGSEGV)),
                         ending_name);

// The path build is part of the run: a signal stops it as it stops ctest, and nothing it started is left.
class WarpconfRunBuildSignalled : public WarpconfRun, public ::testing::WithParamInterface<Ending> {};

TEST_P(WarpconfRunBuildSignalled, stops_the_path_build_and_leaves_nothing_of_it_running) {
  const Ending& ending = GetParam();
  build_tree(build_, slow_cmake());
  tests({{"sass-debug/ShuffleOnGpu", "sass-debug", "shuffle.jsonl"}});
  const pid_t pid = start({"--path", "sass-debug"});
  ASSERT_GT(wait_for_process("sleep 40"), 0) << "the build's child";
  ::kill(pid, ending.signal);
  EXPECT_EQ(wait_at_most(pid, 30), ending.status) << output();
  expect_none_left(5);
  const nlohmann::json r = report();
  EXPECT_EQ(r["run"]["status"], ending.run_status);
  EXPECT_EQ(r["run"]["stop"], ending.stop);
  EXPECT_TRUE(r["tests"].empty());
}

INSTANTIATE_TEST_SUITE_P(EverySignal, WarpconfRunBuildSignalled,
                         ::testing::Values(kKilled, stopped_by("SIGINT", SIGINT, kDuringTheBuild),
                                           stopped_by("SIGTERM", SIGTERM, kDuringTheBuild),
                                           stopped_by("SIGHUP", SIGHUP, kDuringTheBuild),
                                           stopped_by("SIGUSR1", SIGUSR1, kDuringTheBuild)),
                         ending_name);

TEST_F(WarpconfRun, stops_the_path_build_at_its_time_limit_with_nothing_left_running) {
  build_tree(build_, slow_cmake());
  tests({{"sass-debug/ShuffleOnGpu", "sass-debug", "shuffle.jsonl"}});
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(run({"--path", "sass-debug", "--time-limit", "3"}), 1) << output();
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_GE(took, std::chrono::seconds(3));
  EXPECT_LT(took, std::chrono::seconds(10)) << "not the build's 40 s";
  expect_none_left(5);
  const nlohmann::json r = report();
  EXPECT_EQ(r["run"]["status"], "aborted");
  EXPECT_EQ(r["run"]["stop"], stop("time-limit", nullptr, "stopped at the time limit of 3 s" + kDuringTheBuild));
  EXPECT_TRUE(r["tests"].empty());
  std::ostringstream log;
  log << std::ifstream(dir_ / "report" / "build.log").rdbuf();
  EXPECT_EQ(log.str(), "building --build " + build_.string() + " --target warpconf_path_sass-debug\n");
}

// Which of the run's processes is killed (with SIGKILL, but where said): warpconf, the keeper, ctest, a
// test, or a test's child in a session of its own (fake_test.sh writes the child's pid, then the test's).
enum class Victim { warpconf, keeper, ctest, test, test_in_a_session_of_its_own };

struct Killing {
  std::string name;
  Victim victim;
  int signal;
  std::string sleep;  // seconds the sleeping test and its child sleep
  int status;         // warpconf's exit status
  std::string run_status;
  nlohmann::json stop;
  std::string sleeper;  // the sleeping test's status in a run that finished
};

void PrintTo(const Killing& killing, std::ostream* os) { *os << killing.name; }

// The one child of `parent`; -1 where it has none or several.
pid_t only_child(pid_t parent) {
  const std::vector<pid_t> children = check::children_of(parent);
  return children.size() == 1 ? children.front() : -1;
}

class WarpconfRunProcessKilled : public WarpconfRun, public ::testing::WithParamInterface<Killing> {};

TEST_P(WarpconfRunProcessKilled, leaves_no_process_behind_and_a_report_where_warpconf_lives_on) {
  const Killing& killing = GetParam();
  const std::string pids = (dir_ / "pids").string();
  tests({kShuffle, {"SleepsOnGpu", "gpu", "", 0, "", killing.sleep, "", pids}});
  const pid_t pid = start({});
  wait_for_tests(1);
  std::vector<pid_t> sleepers;
  for (int i = 0; i < 400 && sleepers.size() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream in(pids);
    sleepers.assign(std::istream_iterator<pid_t>(in), std::istream_iterator<pid_t>());
  }
  ASSERT_EQ(sleepers.size(), 2u) << output();
  const pid_t keeper = only_child(pid), ctest = only_child(keeper);
  ASSERT_GT(keeper, 0);
  ASSERT_GT(ctest, 0);
  EXPECT_EQ(command_line(ctest).rfind(WARPCONF_CTEST, 0), 0u) << command_line(ctest);
  const std::map<Victim, pid_t> victims = {{Victim::warpconf, pid},
                                           {Victim::keeper, keeper},
                                           {Victim::ctest, ctest},
                                           {Victim::test, sleepers[1]},
                                           {Victim::test_in_a_session_of_its_own, sleepers[0]}};
  ::kill(victims.at(killing.victim), killing.signal);
  EXPECT_EQ(wait_at_most(pid, 30), killing.status) << output();
  expect_none_left(5);
  const nlohmann::json r = report();
  EXPECT_EQ(r["run"]["status"], killing.run_status);
  EXPECT_EQ(r["run"]["stop"], killing.stop);
  if (killing.sleeper.empty()) return;
  ASSERT_EQ(r["tests"].size(), 2u) << r["tests"];
  EXPECT_EQ(r["tests"][1]["name"], "SleepsOnGpu");
  EXPECT_EQ(r["tests"][1]["status"], killing.sleeper);
}

INSTANTIATE_TEST_SUITE_P(
    EachProcess, WarpconfRunProcessKilled,
    ::testing::Values(
        Killing{"warpconf", Victim::warpconf, SIGKILL, "60", 128 + SIGKILL, "running",
                stop("running", nullptr, "killed or crashed before the run finished"), ""},
        // What the keeper kept comes to warpconf, which ends it and says why the run stopped.
        Killing{"keeper", Victim::keeper, SIGKILL, "60", 1, "aborted",
                stop("error", nullptr, "the keeper of ctest was killed by signal 9"), ""},
        // The keeper does not keep warpconf's handlers: a fault signal sent to it ends it, not the run.
        Killing{"keeper_by_sigsegv", Victim::keeper, SIGSEGV, "60", 1, "aborted",
                stop("error", nullptr, "the keeper of ctest was killed by signal 11"), ""},
        Killing{"ctest", Victim::ctest, SIGKILL, "60", 1, "aborted",
                stop("ctest", SIGKILL, "ctest was killed by signal 9"), ""},
        // The test fails once its child, which holds ctest's end of its output, has ended too.
        Killing{"test", Victim::test, SIGKILL, "5", 1, "finished", stop("finished", nullptr, ""), "failed"},
        Killing{"test_in_a_session_of_its_own", Victim::test_in_a_session_of_its_own, SIGKILL, "5", 0, "finished",
                stop("finished", nullptr, ""), "passed"}),
    [](const ::testing::TestParamInfo<Killing>& info) { return info.param.name; });

// The signals that stop a run are every signal whose default action ends a process, as a child of
// this process shows (left at the default, sent each signal, it ends by it or not), but SIGKILL.
TEST(StopSignals, are_every_signal_that_ends_a_process_but_sigkill) {
  std::set<int> handled(cli::stop_signals().begin(), cli::stop_signals().end());
  handled.insert(cli::fault_signals().begin(), cli::fault_signals().end());
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  std::map<int, pid_t> child_of;  // by the signal it is sent
  for (int signal = 1; signal <= SIGRTMAX; ++signal) {
    if (signal == SIGKILL || signal == SIGSTOP || (signal > SIGSYS && signal < SIGRTMIN)) continue;  // the C library's own
    const pid_t child = ::fork();
    if (child == 0) {
      ::signal(signal, SIG_DFL);
      sigset_t none;
      ::sigemptyset(&none);
      ::sigprocmask(SIG_SETMASK, &none, nullptr);
      if (::write(ready[1], "x", 1) != 1) ::_exit(1);
      for (;;) ::pause();
    }
    ASSERT_GT(child, 0);
    child_of[signal] = child;
  }
  for (size_t started = 0; started < child_of.size(); ++started) {
    char byte;
    ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  }
  ::close(ready[0]);
  ::close(ready[1]);
  for (const auto& [signal, child] : child_of) ::kill(child, signal);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  std::set<int> ending;
  for (const auto& [signal, child] : child_of) {
    int status = 0;
    if (::waitpid(child, &status, WNOHANG) == child && WIFSIGNALED(status) && WTERMSIG(status) == signal) {
      ending.insert(signal);
      continue;
    }
    ::kill(child, SIGKILL);
    ::waitpid(child, &status, 0);
  }
  EXPECT_EQ(handled, ending);
  EXPECT_EQ(cli::signal_name(SIGUSR1), "SIGUSR1");
  EXPECT_EQ(cli::signal_name(SIGRTMIN + 2), "SIGRTMIN+2");
}

// `warpconf run | head -1`: once the reader is gone, the run stops as on SIGPIPE, with its report,
// while a test still sleeps (not at the next progress line, when that test ends).
TEST_F(WarpconfRun, stops_with_a_final_report_when_its_standard_output_is_closed) {
  tests({kShuffle, {"SleepsOnGpu", "gpu", "", 0, "", "60", "", (dir_ / "pids").string()}});
  int pipe[2];
  ASSERT_EQ(::pipe2(pipe, O_CLOEXEC), 0);  // so that warpconf holds no read end of its own
  const pid_t pid = start({}, pipe[1]);
  ::close(pipe[1]);
  std::string first;
  for (char c; ::read(pipe[0], &c, 1) == 1 && c != '\n';) first += c;
  ::close(pipe[0]);
  EXPECT_EQ(first.rfind("[1/2] passed ShuffleOnGpu (", 0), 0u) << first;
  EXPECT_EQ(wait_at_most(pid, 30), 1) << output();
  expect_none_left(10);
  const nlohmann::json r = report();
  EXPECT_EQ(r["run"]["status"], "aborted");
  EXPECT_EQ(r["run"]["stop"], stop("signal", SIGPIPE, "interrupted by SIGPIPE"));
}

TEST_F(WarpconfRun, a_malformed_record_is_an_error_of_the_test_that_wrote_it_and_the_run_goes_on) {
  // One test at a time: a line that names no test was written by the one running.
  tests({{"MalformedOnGpu", "gpu", "malformed.jsonl"}, kShuffle});
  EXPECT_EQ(run({"--", "-j", "1"}), 1) << output();
  const nlohmann::json r = report();
  EXPECT_EQ(r["run"]["status"], "finished");
  EXPECT_EQ(r["run"]["stop"], stop("finished", nullptr, ""));
  EXPECT_TRUE(r["aborted"].is_null());
  EXPECT_EQ(r["tests"].size(), 2u);
  EXPECT_EQ(r["totals"]["verdicts"], nlohmann::json({{"pass", 4}, {"error", 3}})) << "lines 3, 4 and 5 of malformed.jsonl";
  EXPECT_NE(r["summary"].get<std::string>().find("; 3 errors"), std::string::npos) << r["summary"];
  const std::string results = (dir_ / "report" / "results.jsonl").string();
  std::map<std::string, nlohmann::json> malformed;  // by family
  for (const auto& c : r["cells"])
    if (c["intrinsic"] == "malformed record") malformed[c["family"].get<std::string>()] = c;
  ASSERT_EQ(malformed.size(), 2u) << r["cells"];
  // Lines 3 and 4 name no family, test or pid: the test's and its device's are those of the test running.
  EXPECT_EQ(malformed["unknown"]["verdicts"], nlohmann::json({{"error", 2}}));
  EXPECT_EQ(malformed["unknown"]["device"], kH100);
  EXPECT_EQ(malformed["unknown"]["reason"], results + ":3: not a JSON object (written by MalformedOnGpu)");
  // Line 5 names its own: a vote check with a verdict that does not exist.
  EXPECT_EQ(malformed["vote"]["verdicts"], nlohmann::json({{"error", 1}}));
  EXPECT_EQ(malformed["vote"]["device"], kH100);
  EXPECT_EQ(malformed["vote"]["reason"], results + ":5: unknown verdict 'maybe' (written by MalformedOnGpu)");
  std::ostringstream markdown;
  markdown << std::ifstream(dir_ / "report" / "report.md").rdbuf();
  EXPECT_NE(markdown.str().find(results + ":3: not a JSON object (written by MalformedOnGpu)"), std::string::npos)
      << markdown.str();
}

TEST_F(WarpconfRun, a_record_cut_off_at_the_end_is_an_error_not_the_end_of_the_run) {
  tests({{"CutOnGpu", "gpu", "cut.jsonl"}});
  EXPECT_EQ(run(), 1) << output();
  const nlohmann::json r = report();
  EXPECT_EQ(r["run"]["stop"], stop("finished", nullptr, ""));
  EXPECT_EQ(r["totals"]["verdicts"], nlohmann::json({{"error", 1}}));
  ASSERT_EQ(r["cells"].size(), 1u);
  EXPECT_EQ(r["cells"][0]["reason"], (dir_ / "report" / "results.jsonl").string() +
                                         ":2: a record cut off mid-way (its writer was killed?) (read when no test "
                                         "was running)");
}

TEST_F(WarpconfRun, reports_ctest_ending_abnormally) {
  tests({kShuffle});
  EXPECT_EQ(run({"--", "--repeat", "bogus"}), 1) << output();
  EXPECT_EQ(report()["aborted"]["reason"],
            "ctest exited with status 1 before its summary: CMake Error: '--repeat' given invalid value 'bogus'");
}

TEST_F(WarpconfRun, gives_ctest_the_resource_spec_and_refuses_a_malformed_one) {
  tests({kShuffle});
  std::ofstream(build_ / "resources.json")
      << R"({"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 8}, {"id": "1", "slots": 8}]}]})";
  EXPECT_EQ(run(), 0) << output();
  // Specs that ctest refuses once passed and the run said only "no test ran"; a folder once threw
  // basic_filebuf's words, naming no file.
  const std::string spec = (build_ / "resources.json").string();
  for (const auto& [copy, said] : std::vector<std::pair<std::string, std::string>>{
           {"ctest_refuses_no_version.json", "not a ctest resource spec: no version"},
           {"ctest_refuses_uppercase_id.json", "not a ctest resource spec: local[0].gpus[0].id is not a string"},
           {"no_test_runs_on_a_gpu_without_a_slot.json", "not a ctest resource spec: local[0].gpus[0] has no slot"}}) {
    fs::copy_file(fs::path(kData).parent_path() / "resource_specs" / copy, spec, fs::copy_options::overwrite_existing);
    EXPECT_EQ(run(), 2) << copy;
    const std::string printed = output();
    EXPECT_EQ(printed.rfind("warpconf run: " + spec + ": " + said, 0), 0u) << printed;
    EXPECT_EQ(std::count(printed.begin(), printed.end(), '\n'), 1) << printed;
  }
  fs::remove(spec);
  fs::create_directory(spec);
  EXPECT_EQ(run(), 2);
  EXPECT_EQ(output(), "warpconf run: " + spec + ": cannot read: Is a directory\n");
}

// A folder or a file of another shape named warpconf-bundle.json is no bundle: it once made run take
// the tree above for one and look for its tests/.
TEST_F(WarpconfRun, refuses_a_bundle_manifest_that_is_not_one) {
  tests({kShuffle});
  const fs::path manifest = dir_ / "warpconf-bundle.json";
  for (const auto& [make, said] : std::vector<std::pair<std::function<void()>, std::string>>{
           {[&] { fs::create_directory(manifest); }, "cannot read: Is a directory"},
           {[&] { std::ofstream(manifest) << "garbage"; }, "not a warpconf bundle manifest: not JSON"},
           {[&] { std::ofstream(manifest) << R"({"schema": "warpconf.bundle/1", "warpconf": "v1"})"; },
            "not a warpconf bundle manifest: architectures is not a string"}}) {
    fs::remove_all(manifest);
    make();
    EXPECT_EQ(run(), 2);
    EXPECT_EQ(output(), "warpconf run: " + manifest.string() + ": " + said + "\n");
  }
  fs::remove_all(manifest);
  EXPECT_EQ(run(), 0) << output();
}

TEST_F(WarpconfRun, stops_at_its_time_limit_with_nothing_left_running) {
  tests({{"ShuffleOnGpu", "gpu", "shuffle.jsonl", 0, "shuffled every lane"},
         {"SleepsOnGpu", "gpu", "", 0, "", "60", "", (dir_ / "pids").string()}});
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(run({"--time-limit", "2"}), 1) << output();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(15)) << "not the sleeper's 60 s";
  expect_none_left(10);
  const nlohmann::json r = report();
  EXPECT_EQ(r["run"]["status"], "aborted");
  EXPECT_EQ(r["run"]["stop"], stop("time-limit", nullptr, "stopped at the time limit of 2 s"));
  EXPECT_EQ(r["aborted"]["last_test"], "ShuffleOnGpu");
  EXPECT_EQ(r["aborted"]["in_flight"], nlohmann::json::array({"SleepsOnGpu"}));
  // The finished test's output stays, though ctest never finished its log.
  std::ostringstream tests_log;
  tests_log << std::ifstream(dir_ / "report" / "tests.log").rdbuf();
  EXPECT_NE(tests_log.str().find("shuffled every lane"), std::string::npos) << tests_log.str();
}

// A run whose records say where their lanes ran prints a coverage line per device, naming the SMs a
// family missed; report.json keeps the matrix.
TEST_F(WarpconfRun, says_which_sms_a_family_missed) {
  tests({{"VoteOnGpu", "gpu", "placed.jsonl"}});
  EXPECT_EQ(run(), 0) << output();
  EXPECT_NE(output().find("SM coverage: NVIDIA H100 80GB HBM3 (GPU-5e3a9c1d, sass): of 4 SMs, vote missed 2\n"),
            std::string::npos)
      << output();
  EXPECT_EQ(report()["sm_coverage"][0]["missed"]["vote"], "2");
}

// A bundle's run from a folder of its own (the bundle may be read-only): ctest gets the resource spec
// of the GPUs visible at run time, which it writes there, as configure writes a build tree's.
class WarpconfRunFromABundle : public WarpconfRun {
 protected:
  void SetUp() override {
    WarpconfRun::SetUp();
    handed_ = dir_ / "handed.txt";
    build_ = dir_ / "bundle";
    fs::create_directories(build_ / "tests");
    std::ofstream(build_ / "warpconf-bundle.json")
        << R"({"schema": "warpconf.bundle/1", "warpconf": "v1", "gpu": true, "nvcc": "13.0.88", "architectures": "90",)"
        << R"( "sass": ["sm_90"], "ptx": ["compute_90"], "tests": "tests", "golden": "golden"})";
    // Each test writes the GPU that ctest handed it, and sleeps: four at once take more than one GPU's turn.
    const fs::path test = dir_ / "gpu_test.sh";
    std::ofstream(test) << "#!/bin/sh\necho \"${CTEST_RESOURCE_GROUP_0_GPUS:-unassigned}\" >> \"$1\"\n"
                        << "cat " << kData << "/run/shuffle.jsonl >> \"$WARPCONF_RESULTS\"\nsleep 1\n";
    std::ofstream tests(build_ / "tests" / "CTestTestfile.cmake");
    for (int i = 0; i < 4; ++i)
      tests << "add_test(Gpu" << i << "OnGpu /bin/sh " << test.string() << " " << handed_.string() << ")\n"
            << "set_tests_properties(Gpu" << i << "OnGpu PROPERTIES LABELS gpu RESOURCE_GROUPS gpus:1)\n";
    fs::create_directories(dir_ / "bin");
    const char* path = std::getenv("PATH");
    environment_ = {"PATH=" + (dir_ / "bin").string() + ":" + fs::path(WARPCONF_CTEST).parent_path().string() + ":" +
                    (path ? path : "")};
  }

  // nvidia-smi on the run's PATH: it prints `listing` and exits with `status`.
  void nvidia_smi(const std::string& listing, int status = 0) const {
    const fs::path script = dir_ / "bin" / "nvidia-smi";
    std::ofstream(script) << "#!/bin/sh\nprintf '%s' '" << listing << "'\nexit " << status << "\n";
    fs::permissions(script, fs::perms::owner_all);
  }

  // The GPUs in the spec the run left, by id; none where it left no spec.
  std::vector<std::string> spec_gpus() const {
    const fs::path spec = dir_ / "report" / "ctest" / "resources.json";
    std::vector<std::string> ids;
    if (!fs::exists(spec)) return ids;
    const nlohmann::json parsed = nlohmann::json::parse(std::ifstream(spec));  // not a temporary's part as the range
    for (const auto& gpu : parsed["local"][0]["gpus"]) ids.push_back(gpu["id"]);
    return ids;
  }

  // What ctest handed each test of the last run (CTEST_RESOURCE_GROUP_0_GPUS), each once.
  std::set<std::string> handed() {
    std::ifstream in(handed_);
    std::set<std::string> seen;
    for (std::string line; std::getline(in, line);) seen.insert(line);
    fs::remove(handed_);
    return seen;
  }

  fs::path handed_;  // what each test was handed, a line each
};

const std::string kTwoGpusListed =
    "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-aaaa1111-2222-3333-4444-555566667777)\n"
    "GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-bbbb1111-2222-3333-4444-555566667777)\n";

// The bundle once had no spec: on a node of several GPUs, every GPU test ran on GPU 0.
TEST_F(WarpconfRunFromABundle, spreads_its_gpu_tests_over_every_visible_gpu) {
  nvidia_smi(kTwoGpusListed);
  EXPECT_EQ(run(), 0) << output();
  EXPECT_EQ(spec_gpus(), (std::vector<std::string>{"0", "1"})) << "two GPUs visible, two in the spec";
  EXPECT_EQ(handed(), (std::set<std::string>{"id:0,slots:1", "id:1,slots:1"})) << output();
  EXPECT_NE(output().find("warpconf run: 2 GPUs visible (nvidia-smi -L, CUDA_VISIBLE_DEVICES), 8 GPU tests at once on "
                          "each: " + (dir_ / "report" / "ctest" / "resources.json").string() + "\n"),
            std::string::npos)
      << output();
  EXPECT_EQ(report()["tests"].size(), 4u);
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(build_))
    EXPECT_NE(e.path().filename(), "resources.json") << "written into the bundle: " << e.path();
}

TEST_F(WarpconfRunFromABundle, honours_cuda_visible_devices) {
  nvidia_smi(kTwoGpusListed);
  environment_.push_back("CUDA_VISIBLE_DEVICES=1");
  EXPECT_EQ(run(), 0) << output();
  EXPECT_EQ(spec_gpus(), std::vector<std::string>{"0"}) << "CUDA numbers the one GPU it shows 0";
  EXPECT_EQ(handed(), std::set<std::string>{"id:0,slots:1"}) << output();
}

// With no GPU visible the run is as before: no spec (one with no GPU would leave every GPU test not
// run), and the tests run unassigned, where they skip or fail as they do without a GPU.
TEST_F(WarpconfRunFromABundle, writes_no_spec_where_no_gpu_is_visible) {
  nvidia_smi(kTwoGpusListed);
  EXPECT_EQ(run(), 0) << output();
  ASSERT_EQ(spec_gpus().size(), 2u);
  handed();
  for (const auto& [listing, status, visible] : std::vector<std::tuple<std::string, int, std::string>>{
           {kTwoGpusListed, 0, "CUDA_VISIBLE_DEVICES=-1"}, {"No devices were found\n", 6, ""}}) {
    nvidia_smi(listing, status);
    if (!visible.empty()) environment_.push_back(visible);
    EXPECT_EQ(run(), 0) << output();
    EXPECT_EQ(spec_gpus(), std::vector<std::string>{}) << "the earlier run's spec is gone: " << visible;
    EXPECT_EQ(handed(), std::set<std::string>{"unassigned"}) << output();
    EXPECT_EQ(output().find("GPUs visible"), std::string::npos) << output();
    if (!visible.empty()) environment_.pop_back();
  }
}

// warpconf health's verdict on the run that `run` just made, its time limit 50 s.
class WarpconfHealth : public WarpconfRun {
 protected:
  cli::HealthVerdict verdict(int status) const {
    return cli::health_verdict({status, cli::report_from_json(report(), "report.json")}, 50, "");
  }
  std::string summary() const { return report()["summary"].get<std::string>(); }
};

TEST_F(WarpconfHealth, conforms_where_the_run_passed_with_a_not_supported_skip) {
  tests({kShuffle, kNotSupported});
  const cli::HealthVerdict v = verdict(run({"--budget", "quick"}));
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.line, "warpconf: conforms: " + summary());
}

TEST_F(WarpconfHealth, says_which_sms_a_family_missed) {
  tests({{"VoteOnGpu", "gpu", "placed.jsonl"}});
  const cli::HealthVerdict v = verdict(run({"--budget", "quick"}));
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.line, "warpconf: conforms: " + summary() + "; SMs: NVIDIA H100 80GB HBM3 (GPU-5e3a9c1d, sass): of 4 SMs, vote missed 2");
}

TEST_F(WarpconfHealth, names_the_failed_tests) {
  tests({kShuffle, {"Every/AlgorithmSweepOnGpu", "gpu", "algorithm.jsonl", 1}, {"VoteOnGpu", "gpu", "", 1}});
  const cli::HealthVerdict v = verdict(run({"--", "-j", "1"}));  // in the order they finish: one at a time
  EXPECT_EQ(v.status, 1);
  EXPECT_EQ(v.line, "warpconf: FAILED (Every/AlgorithmSweepOnGpu, VoteOnGpu): " + summary());
}

TEST_F(WarpconfHealth, could_not_test_when_the_time_limit_passed_before_a_failure) {
  tests({kShuffle, {"SleepsOnGpu", "gpu", "", 0, "", "60"}});
  const cli::HealthVerdict v = verdict(run({"--time-limit", "2"}));
  EXPECT_EQ(v.status, cli::kCouldNotTest);
  EXPECT_EQ(v.line, "warpconf: could not test: timed out: the time limit of 50 s passed with 1 test finished and 1 running");
}

TEST_F(WarpconfHealth, a_failure_found_before_the_time_limit_is_a_failure) {
  tests({{"VoteOnGpu", "gpu", "", 1}, {"SleepsOnGpu", "gpu", "", 0, "", "60"}});
  const cli::HealthVerdict v = verdict(run({"--time-limit", "2"}));
  EXPECT_EQ(v.status, 1);
  EXPECT_EQ(v.line.rfind("warpconf: FAILED (VoteOnGpu): ABORTED (stopped at the time limit of 2 s", 0), 0u) << v.line;
}

TEST_F(WarpconfHealth, could_not_test_where_the_build_holds_no_gpu_test) {
  tests({{"ModelTest", "model", ""}});
  const cli::HealthVerdict v = verdict(run());
  EXPECT_EQ(v.status, cli::kCouldNotTest);
  EXPECT_EQ(v.line, "warpconf: could not test: no GPU test ran: the build tree holds none");
}

TEST(HealthVerdict, could_not_test_where_the_run_did_not_start_stopped_early_or_wrote_no_report) {
  EXPECT_EQ(cli::health_verdict({2, std::nullopt}, 50,
                                "warpconf run: /b has no CTestTestfile.cmake: not a configured build tree\n")
                .line,
            "warpconf: could not test: /b has no CTestTestfile.cmake: not a configured build tree");
  cli::Report r;
  r.tests.push_back({"ShuffleOnGpu", "passed", "Passed", 1, 1, "", "", ""});
  r.run.stop = {"signal", SIGTERM, "interrupted by SIGTERM"};
  const cli::HealthVerdict interrupted = cli::health_verdict({1, r}, 50, "");
  EXPECT_EQ(interrupted.status, cli::kCouldNotTest);
  EXPECT_EQ(interrupted.line, "warpconf: could not test: interrupted by SIGTERM");
  r.run.stop = {"finished", 0, ""};
  EXPECT_EQ(cli::health_verdict({0, r}, 50, "").status, 0);
  const cli::HealthVerdict unwritten = cli::health_verdict({1, r}, 50, "warpconf run: cannot write report.json\n");
  EXPECT_EQ(unwritten.status, cli::kCouldNotTest) << "a report it could not write is no failure of the GPU";
  EXPECT_EQ(unwritten.line, "warpconf: could not test: cannot write report.json");
}

}  // namespace
}  // namespace wc
