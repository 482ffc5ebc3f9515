// The isolation runner against fake children: plain functions run in the forked child that trap,
// abort, hang, flood, exit early, throw or report a CUDA error on chosen cases. Time limits are small,
// so that the whole suite takes a few seconds.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "core/child_runner.hpp"
#include "core/seconds_since.hpp"

namespace wc::isolation {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<size_t> ids(size_t n) {
  std::vector<size_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

Limits quick(size_t batch_size = 8) {
  Limits l;
  l.timeout_s = 0.5;
  l.output_cap = 64 * 1024;
  l.batch_size = batch_size;
  return l;
}

// A child that reports "v<id>" for every case but does `bad` on case `target`.
template <class Bad>
ChildBody failing_on(size_t target, Bad bad) {
  return [target, bad](const std::vector<size_t>& cases, Journal& j) {
    for (size_t id : cases) {
      j.begin(id);
      if (id == target) bad(id, j);
      j.ran(id, "v" + std::to_string(id));
    }
  };
}

void expect_ran_except(const std::vector<CaseResult>& r, size_t target) {
  for (const CaseResult& c : r) {
    if (c.id == target) continue;
    EXPECT_EQ(c.outcome, Outcome::ran) << "case " << c.id;
    EXPECT_EQ(c.text, "v" + std::to_string(c.id));
  }
}

TEST(IsolationRunner, the_parent_of_these_tests_never_loaded_the_cuda_driver) {
  EXPECT_FALSE(cuda_driver_loaded());
  EXPECT_TRUE(maps_show_cuda_driver("7f00-7f10 r-xp 00000000 08:01 42 /usr/lib/x86_64-linux-gnu/libcuda.so.580.159.04\n"));
  EXPECT_FALSE(maps_show_cuda_driver("7f00-7f10 r-xp 00000000 08:01 42 /usr/local/cuda/lib64/libcudart.so.13\n"));
  EXPECT_FALSE(maps_show_cuda_driver(""));
}

TEST(IsolationRunner, a_good_child_reports_every_case_in_one_batch) {
  std::vector<size_t> children;
  const auto start = Clock::now();
  const std::vector<CaseResult> r = run_isolated(
      ids(20), failing_on(99, [](size_t, Journal&) {}), quick(32),
      [&](const std::vector<size_t>& batch, const ChildRun& run) {
        children.push_back(batch.size());
        EXPECT_EQ(run.end, End::clean);
      });
  ASSERT_EQ(r.size(), 20u);
  expect_ran_except(r, 99);
  for (const CaseResult& c : r) EXPECT_FALSE(c.alone);
  EXPECT_EQ(children, std::vector<size_t>{20});
  EXPECT_LT(seconds_since(start), 10.0) << "one child; generous for a loaded machine";
}

TEST(IsolationRunner, sigill_names_the_case_and_the_rest_continue) {
  const std::vector<CaseResult> r = run_isolated(ids(10), failing_on(4, [](size_t, Journal&) { ::raise(SIGILL); }), quick());
  expect_ran_except(r, 4);
  EXPECT_EQ(r[4].outcome, Outcome::crashed);
  EXPECT_EQ(r[4].signal, SIGILL);
  EXPECT_TRUE(r[4].alone);
  EXPECT_NE(r[4].note.find("crashed"), std::string::npos) << r[4].note;
  EXPECT_FALSE(r[3].alone) << "reported before the crash: kept from the batch";
}

TEST(IsolationRunner, abort_is_a_crash_with_sigabrt) {
  const std::vector<CaseResult> r = run_isolated(ids(6), failing_on(0, [](size_t, Journal&) { std::abort(); }), quick());
  expect_ran_except(r, 0);
  EXPECT_EQ(r[0].outcome, Outcome::crashed);
  EXPECT_EQ(r[0].signal, SIGABRT);
}

TEST(IsolationRunner, a_hanging_case_is_killed_at_the_time_limit_and_named) {
  const auto start = Clock::now();
  const std::vector<CaseResult> r = run_isolated(
      ids(6), failing_on(2, [](size_t, Journal&) { for (;;) std::this_thread::sleep_for(std::chrono::seconds(1)); }),
      quick());
  expect_ran_except(r, 2);
  EXPECT_EQ(r[2].outcome, Outcome::hung);
  EXPECT_TRUE(r[2].alone);
  EXPECT_LT(seconds_since(start), 10.0) << "two children of 0.5 s hang, and two quick ones: not the 30 s default";
}

TEST(IsolationRunner, a_child_that_closes_its_pipes_and_hangs_is_still_killed) {
  const auto start = Clock::now();
  const ChildRun run = run_child({0}, [](const std::vector<size_t>&, Journal&) {
    ::close(STDOUT_FILENO);
    ::close(STDERR_FILENO);
    for (int fd = 3; fd < 1024; ++fd) ::close(fd);
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }, quick());
  EXPECT_EQ(run.end, End::hung);
  EXPECT_EQ(run.signal, SIGKILL);
  EXPECT_LT(seconds_since(start), 10.0);
}

TEST(IsolationRunner, a_flood_of_a_hundred_megabytes_is_cut_at_the_cap) {
  const auto start = Clock::now();
  const std::vector<CaseResult> r = run_isolated(ids(4), failing_on(1, [](size_t, Journal&) {
    const std::string chunk(1 << 20, 'x');
    for (int i = 0; i < 100; ++i)
      if (::write(STDOUT_FILENO, chunk.data(), chunk.size()) < 0) break;
  }), quick());
  expect_ran_except(r, 1);
  EXPECT_EQ(r[1].outcome, Outcome::flooded);
  EXPECT_EQ(r[1].output.substr(0, 10), "xxxxxxxxxx");
  EXPECT_LE(r[1].output.size(), 4096u);
  EXPECT_LT(seconds_since(start), 10.0);
}

TEST(IsolationRunner, exit_zero_without_results_is_exited_early_not_a_pass) {
  const std::vector<CaseResult> r =
      run_isolated(ids(1), [](const std::vector<size_t>&, Journal&) { std::_Exit(0); }, quick());
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].outcome, Outcome::exited_early);
  EXPECT_EQ(r[0].exit_status, 0);
}

TEST(IsolationRunner, a_case_that_exits_before_it_begins_is_found_by_bisection) {
  // The child dies on case 5 before it journals anything for the batch: no case is in flight.
  const ChildBody body = [](const std::vector<size_t>& cases, Journal& j) {
    for (size_t id : cases)
      if (id == 5) std::_Exit(3);
    for (size_t id : cases) {
      j.begin(id);
      j.ran(id, "v" + std::to_string(id));
    }
  };
  int children = 0;
  const std::vector<CaseResult> r =
      run_isolated(ids(8), body, quick(), [&](const std::vector<size_t>&, const ChildRun&) { ++children; });
  expect_ran_except(r, 5);
  EXPECT_EQ(r[5].outcome, Outcome::exited_early);
  EXPECT_EQ(r[5].exit_status, 3);
  EXPECT_TRUE(r[5].alone);
  EXPECT_LE(children, 1 + 2 * 3) << "a bisection of 8 cases";
}

TEST(IsolationRunner, a_cuda_error_is_kept_with_its_code_and_confirmed_alone) {
  const std::vector<CaseResult> r = run_isolated(ids(6), [](const std::vector<size_t>& cases, Journal& j) {
    for (size_t id : cases) {
      j.begin(id);
      if (id == 3) {
        j.cuda_error(id, 715, "cudaErrorIllegalInstruction while downloading the outputs");
        return;  // the context is gone: the child stops
      }
      j.ran(id, "v" + std::to_string(id));
    }
  }, quick());
  expect_ran_except(r, 3);
  EXPECT_EQ(r[3].outcome, Outcome::cuda_error);
  EXPECT_EQ(r[3].cuda_error, 715);
  EXPECT_EQ(r[3].text, "cudaErrorIllegalInstruction while downloading the outputs") << "the words kept apart";
  EXPECT_TRUE(r[3].alone);
  EXPECT_NE(r[3].note.find("cuda-error"), std::string::npos) << r[3].note;
}

TEST(IsolationRunner, a_line_cut_short_by_death_is_not_a_result) {
  const std::vector<CaseResult> r = run_isolated(ids(1), [](const std::vector<size_t>&, Journal& j) {
    const char half[] = "ran 0 v0";  // no newline: the child died writing it
    if (::write(j.fd(), half, sizeof half - 1) < 0) std::_Exit(4);
    std::_Exit(0);
  }, quick());
  EXPECT_EQ(r[0].outcome, Outcome::exited_early);
  EXPECT_EQ(r[0].exit_status, 0);
}

TEST(IsolationRunner, a_throwing_child_exits_early_with_its_message) {
  const ChildRun run = run_child({0}, [](const std::vector<size_t>&, Journal&) { throw std::runtime_error("boom"); },
                                 quick());
  EXPECT_EQ(run.end, End::exited_early);
  EXPECT_EQ(run.problem, "the child's body threw");
  EXPECT_NE(run.output.find("boom"), std::string::npos) << run.output;
}

TEST(IsolationRunner, a_bad_journal_line_stops_the_child) {
  const ChildRun run = run_child({0}, [](const std::vector<size_t>&, Journal& j) { j.ran(7, "not in the batch"); }, quick());
  EXPECT_EQ(run.end, End::exited_early);
  EXPECT_NE(run.problem.find("bad journal line"), std::string::npos) << run.problem;
}

TEST(IsolationRunner, done_without_a_case_is_missing) {
  const std::vector<CaseResult> r =
      run_isolated(ids(2), [](const std::vector<size_t>&, Journal& j) { j.ran(0, "v0"); }, quick());
  EXPECT_EQ(r[0].outcome, Outcome::ran);
  EXPECT_EQ(r[1].outcome, Outcome::missing);
}

TEST(IsolationRunner, parallel_children_run_at_once_and_a_crash_is_still_named_alone) {
  Limits limits = quick(1);
  limits.timeout_s = 5;
  limits.parallel = 4;
  const auto start = Clock::now();
  const std::vector<CaseResult> r = run_isolated(ids(8), failing_on(3, [](size_t, Journal&) { ::raise(SIGILL); }), limits);
  ASSERT_EQ(r.size(), 8u);
  expect_ran_except(r, 3);
  EXPECT_EQ(r[3].outcome, Outcome::crashed);
  EXPECT_EQ(r[3].signal, SIGILL);
  const std::vector<CaseResult> slow = run_isolated(ids(8), [](const std::vector<size_t>& cases, Journal& j) {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    for (size_t id : cases) j.ran(id, "v" + std::to_string(id));
  }, limits);
  expect_ran_except(slow, 8);
  EXPECT_LT(seconds_since(start), 2.4) << "eight children of 0.4 s each, four at a time: two rounds, not eight";
}

TEST(IsolationRunner, a_child_keeps_no_descriptor_but_stdio_and_its_journal) {
  int sibling[2];  // stands for a sibling child's pipe, open in the parent at the fork
  ASSERT_EQ(::pipe(sibling), 0);
  const ChildRun run = run_child({0}, [&sibling](const std::vector<size_t>&, Journal& j) {
    j.ran(0, ::fcntl(sibling[1], F_GETFD) == -1 ? "closed" : "open");
  }, quick());
  ::close(sibling[0]);
  ::close(sibling[1]);
  ASSERT_EQ(run.reports.size(), 1u);
  EXPECT_EQ(run.reports.front().text, "closed");
}

}  // namespace
}  // namespace wc::isolation
