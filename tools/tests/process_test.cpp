// core/process: programs run with an argument vector, never through a shell; their output, how they
// ended, the command text a message shows, and the process table's children.
#include "core/process.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/scratch_dir.hpp"

namespace wc {
namespace {

namespace fs = std::filesystem;

// Words a shell would read as commands, quotes, expansions and separators.
std::vector<std::string> shell_syntax(const fs::path& dir) {
  const std::string marker = (dir / "PWNED").string();
  return {"$(touch " + marker + ")", "`touch " + marker + "`", "a'b", "\"quoted\"", "; touch " + marker,
          "two words", "", "*", "~", "$HOME", "back\\slash", "line\nbreak", "-n"};
}

TEST(Process, passes_every_argument_as_it_is_to_no_shell) {
  const fs::path dir = harness::fresh_test_dir("process");
  const std::vector<std::string> words = shell_syntax(dir);
  std::vector<std::string> argv = {"printf", "%s\\n"};
  argv.insert(argv.end(), words.begin(), words.end());
  const check::ProcessOutput run = check::run_process_output(argv);
  EXPECT_TRUE(run.end.succeeded()) << run.end.text();
  std::string want;
  for (const std::string& word : words) want += word + "\n";
  EXPECT_EQ(run.output, want);
  EXPECT_FALSE(fs::exists(dir / "PWNED"));
}

// The one shell here is the oracle: command_text must read back as the same words.
TEST(Process, command_text_reads_back_as_the_same_words_in_a_shell) {
  const fs::path dir = harness::fresh_test_dir("process");
  const std::vector<std::string> words = shell_syntax(dir);
  const check::ProcessOutput run =
      check::run_process_output({"/bin/sh", "-c", "printf '%s\\n' " + check::command_text(words)});
  std::string want;
  for (const std::string& word : words) want += word + "\n";
  EXPECT_EQ(run.output, want);
  EXPECT_FALSE(fs::exists(dir / "PWNED"));
  EXPECT_EQ(check::command_text({"/usr/bin/cmake", "--build", "/b", "--target", "warpconf_path_sass-debug"}),
            "/usr/bin/cmake --build /b --target warpconf_path_sass-debug");
}

TEST(Process, tells_how_the_program_ended) {
  EXPECT_EQ(check::run_process_output({"/bin/sh", "-c", "exit 3"}).end.text(), "exit status 3");
  const check::ProcessEnd killed = check::run_process_output({"/bin/sh", "-c", "kill -9 $$"}).end;
  EXPECT_EQ(killed.signal, SIGKILL);
  EXPECT_FALSE(killed.succeeded());
  EXPECT_TRUE(check::run_process_output({"true"}).end.succeeded()) << "looked up on PATH";
}

TEST(Process, hands_over_every_line_and_the_last_one_without_a_line_break) {
  std::vector<std::string> lines;
  check::run_process({"printf", "one\n\nthree"}, [&lines](std::string_view line) { lines.emplace_back(line); });
  EXPECT_EQ(lines, (std::vector<std::string>{"one", "", "three"}));
}

TEST(Process, runs_in_the_environment_it_is_given) {
  const check::ProcessOutput run = check::run_process_output({"/usr/bin/env"});
  EXPECT_NE(run.output.find("PATH="), std::string::npos) << "this process's, where none is given";
  std::vector<std::string> lines;
  check::ProcessOptions options;
  options.environment = std::vector<std::string>{"ONLY=this"};
  check::run_process({"/usr/bin/env"}, [&lines](std::string_view line) { lines.emplace_back(line); }, options);
  EXPECT_EQ(lines, std::vector<std::string>{"ONLY=this"});
}

TEST(Process, refuses_a_program_it_cannot_start) {
  try {
    check::run_process_output({"/nonexistent/program", "--flag"});
    ADD_FAILURE() << "ran";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot run /nonexistent/program: No such file or directory");
  }
}

// A deadline ends a program that does not end, with what it printed before; one that ends in time is
// read as without one.
TEST(Process, kills_a_program_at_its_deadline_and_keeps_what_it_printed) {
  using Clock = std::chrono::steady_clock;
  std::vector<std::string> lines;
  check::ProcessOptions options;
  options.deadline = Clock::now() + std::chrono::milliseconds(300);
  const Clock::time_point start = Clock::now();
  const check::ProcessEnd end = check::run_process(
      {"/bin/sh", "-c", "echo started; exec sleep 60"}, [&lines](std::string_view line) { lines.emplace_back(line); }, options);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10)) << "not the sleeper's 60 s";
  EXPECT_TRUE(end.timed_out);
  EXPECT_FALSE(end.succeeded());
  EXPECT_EQ(end.text(), "killed at its deadline");
  EXPECT_EQ(lines, std::vector<std::string>{"started"});
  options.deadline = Clock::now() + std::chrono::seconds(30);
  const check::ProcessEnd in_time = check::run_process({"/bin/sh", "-c", "exit 3"}, [](std::string_view) {}, options);
  EXPECT_FALSE(in_time.timed_out);
  EXPECT_EQ(in_time.text(), "exit status 3");
}

// A program that dies with its starter does not outlive a starter killed with SIGKILL, which runs no
// code of its own to end it; without the option it would run on under init.
TEST(Process, a_program_that_dies_with_its_starter_ends_when_the_starter_is_killed) {
  const fs::path pid_file = harness::fresh_test_dir("process") / "pid";
  const pid_t starter = ::fork();
  if (starter == 0) {
    check::ProcessOptions options;
    options.dies_with_its_starter = true;
    check::run_process({"/bin/sh", "-c", "echo $$ > '" + pid_file.string() + "'; exec sleep 60"}, [](std::string_view) {},
                       options);
    ::_exit(0);
  }
  ASSERT_GT(starter, 0);
  pid_t sleeper = 0;
  for (int tries = 0; tries < 500 && sleeper == 0; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream(pid_file) >> sleeper;
  }
  ASSERT_GT(sleeper, 0) << "the program never started";
  ::kill(starter, SIGKILL);
  ::waitpid(starter, nullptr, 0);
  bool gone = false;
  for (int tries = 0; tries < 500 && !gone; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    gone = ::kill(sleeper, 0) != 0 && errno == ESRCH;
  }
  if (!gone) ::kill(sleeper, SIGKILL);
  EXPECT_TRUE(gone) << "pid " << sleeper << " outlived its killed starter";
}

TEST(Process, a_program_that_dies_with_its_starter_is_refused_as_the_others_where_it_cannot_start) {
  check::ProcessOptions options;
  options.dies_with_its_starter = true;
  try {
    check::run_process({"/nonexistent/program"}, [](std::string_view) {}, options);
    ADD_FAILURE() << "ran";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot run /nonexistent/program: No such file or directory");
  }
  EXPECT_THROW(check::run_process({"sh", "-c", "true"}, [](std::string_view) {}, options), std::invalid_argument)
      << "a name to look up on PATH";
}

TEST(Process, children_of_reads_the_process_table) {
  const pid_t child = ::fork();
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  ASSERT_GT(child, 0);
  const std::vector<pid_t> children = check::children_of(::getpid());
  EXPECT_NE(std::find(children.begin(), children.end(), child), children.end());
  EXPECT_EQ(check::children_of(child), std::vector<pid_t>{});
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
}

}  // namespace
}  // namespace wc
