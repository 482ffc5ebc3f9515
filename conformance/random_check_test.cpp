// The random-checking machinery's own tests: cases are a pure function of the seed, failures shrink
// to a minimal case, and a broken law is reported with its seed and a replay command. How variables
// choose the seed: environment_test.cpp.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <chrono>
#include <numeric>
#include <thread>

#include "harness/random_check.hpp"
#include "core/seed.hpp"
#include "core/shrink.hpp"
#include "families/shuffle/family.hpp"
#include "families/vote/family.hpp"

namespace wc {
namespace {

using gen::Choices;
using gen::Draw;

const gpu::ShuffleInputs<gpu::LaneRow>& shuffle_inputs(const gen::WarpCase<gpu::ShuffleCalls>& c) { return c.inputs; }

TEST(Draw, gives_the_same_cases_for_the_same_seed_and_index) {
  for (uint64_t index : {0ull, 1ull, 12345ull}) {
    Draw a(42, index), b(42, index), other(43, index);
    const auto ca = gen::shuffle_case(a, model::ShuffleOp::bfly, model::Type::f64);
    const auto cb = gen::shuffle_case(b, model::ShuffleOp::bfly, model::Type::f64);
    const auto co = gen::shuffle_case(other, model::ShuffleOp::bfly, model::Type::f64);
    EXPECT_EQ(shuffle_inputs(ca).value, shuffle_inputs(cb).value);
    EXPECT_EQ(shuffle_inputs(ca).lane_arg, shuffle_inputs(cb).lane_arg);
    EXPECT_EQ(ca.scene.mask, cb.scene.mask);
    EXPECT_NE(shuffle_inputs(ca).value, shuffle_inputs(co).value);
  }
}

TEST(Draw, replays_recorded_choices_and_reads_zeros_past_their_end) {
  Draw recorded(7, 3, true);
  const auto original = gen::vote_case(recorded, model::VoteOp::ballot);
  Draw replay(recorded.choices());
  const auto again = gen::vote_case(replay, model::VoteOp::ballot);
  EXPECT_EQ(original.inputs.predicate, again.inputs.predicate);
  EXPECT_EQ(original.scene.exited, again.scene.exited);
  Draw empty(Choices{});
  const auto simplest = gen::shuffle_case(empty, model::ShuffleOp::idx, model::Type::i32);
  EXPECT_EQ(simplest.scene.mask[5], model::kFullMask) << "choice 0 of every generator is its simplest value";
  EXPECT_EQ(simplest.scene.exited, 0u);
  EXPECT_EQ(simplest.lanes_launched, 32);
  EXPECT_EQ(shuffle_inputs(simplest).width[0], 32);
  EXPECT_EQ(shuffle_inputs(simplest).lane_arg[9], 0);
}

// Generators shrink toward simple values only if their orders start there: small_int's order must
// start at 0, never grow in magnitude, and visit every int of the range once.
TEST(Draw, orders_small_ints_from_zero_covering_the_range_once) {
  for (const auto& [low, high] : {std::pair{-64, 96}, {-100, 100}, {-34, 34}, {0, 31}, {-5, 0}}) {
    std::set<int32_t> seen;
    int32_t last_magnitude = 0;
    for (int64_t k = 0; k <= int64_t{high} - low; ++k) {
      const int32_t v = gen::nth_smallest(k, low, high);
      EXPECT_TRUE(v >= low && v <= high) << v;
      EXPECT_GE(std::abs(v), last_magnitude) << "k " << k;
      last_magnitude = std::abs(v);
      seen.insert(v);
    }
    EXPECT_EQ(gen::nth_smallest(0, low, high), 0);
    EXPECT_EQ(seen.size(), static_cast<size_t>(high - low + 1)) << low << ".." << high;
  }
}

// Cases drawn on all cores are the cases drawn one by one, and batching them for launch loses none:
// each batch row holds the case its origin names, in a block of its lanes launched.
TEST(RandomCases, are_drawn_on_all_cores_and_batched_without_loss) {
  const gen::CaseGen<gpu::ShuffleCalls> shuffles = [](Draw& d) {
    return gen::shuffle_case(d, model::ShuffleOp::down, model::Type::u64);
  };
  const std::vector<gen::WarpCase<gpu::ShuffleCalls>> cases = gen::detail::draw_cases<gpu::ShuffleCalls>(shuffles, 99, 1000, 5000);
  ASSERT_EQ(cases.size(), 5000u);
  size_t batched = 0;
  for (const gen::CaseBatch<gpu::ShuffleBatch>& cb : gen::to_batches(cases, {"random", "random"})) {
    ASSERT_EQ(cb.origin.size(), cb.batch.cases.size());
    for (size_t row = 0; row < cb.origin.size(); ++row) {
      Draw alone(99, 1000 + cb.origin[row]);
      const auto want = shuffles(alone);
      const auto got = gpu::inputs(cb.batch, row);
      EXPECT_EQ(got.value, shuffle_inputs(want).value);
      EXPECT_EQ(got.lane_arg, shuffle_inputs(want).lane_arg);
      EXPECT_EQ(got.width, shuffle_inputs(want).width);
      EXPECT_EQ(cb.batch.scenes[cb.batch.cases[row].scene].mask, want.scene.mask);
      EXPECT_EQ(cb.batch.block.x, want.lanes_launched == 32 ? 256 : want.lanes_launched);
    }
    batched += cb.origin.size();
  }
  EXPECT_EQ(batched, cases.size());
}

// The shrinker's smaller values are RapidCheck's shrink::integral's, in its order, without its library.
TEST(Shrinking, shrinks_a_choice_as_rapidcheck_shrinks_an_unsigned_integral) {
  for (uint64_t value : {uint64_t{0}, uint64_t{1}, uint64_t{2}, uint64_t{7}, uint64_t{100}, uint64_t{4096},
                         uint64_t{123456789}, ~uint64_t{0}}) {
    std::vector<uint64_t> rapidcheck;
    auto seq = rc::shrink::integral<uint64_t>(value);
    while (auto v = seq.next()) rapidcheck.push_back(*v);
    EXPECT_EQ(gen::smaller_values(value), rapidcheck) << value;
  }
}

// A planted failure: any choice of 100 or more fails. The minimum is one choice of exactly 100.
TEST(Shrinking, finds_the_smallest_failing_choices) {
  const auto fails = [](const Choices& c) {
    return std::any_of(c.begin(), c.end(), [](uint64_t v) { return v >= 100; });
  };
  const Choices failing = {5, 917, 33, 0, 4000, 12};
  const gen::Shrunk shrunk = gen::shrink_choices(failing, [&](const std::vector<Choices>& candidates) {
    for (size_t i = 0; i < candidates.size(); ++i)
      if (fails(candidates[i])) return std::optional<size_t>(i);
    return std::optional<size_t>();
  });
  ASSERT_TRUE(fails(shrunk.choices));
  EXPECT_EQ(std::accumulate(shrunk.choices.begin(), shrunk.choices.end(), uint64_t{0}), 100u);
  EXPECT_EQ(std::count(shrunk.choices.begin(), shrunk.choices.end(), 0u) + 1,
            static_cast<std::ptrdiff_t>(shrunk.choices.size()));
  EXPECT_GT(shrunk.steps, 0);
}

// A long failing case whose choices can all go but one: zeroed blocks take it there in a few dozen
// steps, not one step per choice.
TEST(Shrinking, zeroes_a_long_case_by_blocks) {
  Choices failing(4096, 7);
  failing[3000] = 200;
  const gen::Shrunk shrunk = gen::shrink_choices(failing, [](const std::vector<Choices>& candidates) {
    for (size_t i = 0; i < candidates.size(); ++i)
      if (candidates[i].size() > 3000 && candidates[i][3000] >= 100) return std::optional<size_t>(i);
    return std::optional<size_t>();
  });
  EXPECT_FALSE(shrunk.out_of_time);
  ASSERT_EQ(shrunk.choices.size(), 3001u);
  EXPECT_EQ(shrunk.choices[3000], 100u);
  EXPECT_EQ(std::accumulate(shrunk.choices.begin(), shrunk.choices.end(), uint64_t{0}), 100u);
  EXPECT_LT(shrunk.steps, 40);
}

// The time limit ends a shrink that would go on, keeps the smallest failing case found so far, and
// the summary says that it stopped it.
TEST(Shrinking, stops_at_its_time_limit_and_says_so) {
  const Choices failing(64, 1u << 20);
  int batches = 0;
  const gen::Shrunk shrunk = gen::shrink_choices(
      failing,
      [&](const std::vector<Choices>& candidates) {
        ++batches;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        for (size_t i = 0; i < candidates.size(); ++i)
          if (std::accumulate(candidates[i].begin(), candidates[i].end(), uint64_t{0}) >= 64) return std::optional<size_t>(i);
        return std::optional<size_t>();
      },
      gen::kShrinkSteps, std::chrono::milliseconds(100));
  EXPECT_TRUE(shrunk.out_of_time);
  EXPECT_LE(batches, 6);
  EXPECT_GE(std::accumulate(shrunk.choices.begin(), shrunk.choices.end(), uint64_t{0}), 64u);
  EXPECT_NE(gen::shrink_summary(shrunk).find("stopped by its 0.1 s limit"), std::string::npos) << gen::shrink_summary(shrunk);
}

// A broken law fails the test, shrunk to its simplest case, with the seed and the replay command.
TEST(Laws, a_broken_law_is_shrunk_and_reported_with_its_replay) {
  EXPECT_NONFATAL_FAILURE(gen::expect_law(1000,
                                          [](Draw& d) -> gen::LawResult {
                                            const auto c = gen::shuffle_case(d, model::ShuffleOp::up, model::Type::u32);
                                            const int32_t arg = shuffle_inputs(c).lane_arg[3];
                                            if (arg > 40) return gen::violation("arg ", arg, " at lane 3");
                                            return {};
                                          }),
                          "arg 41 at lane 3");
  EXPECT_NONFATAL_FAILURE(gen::expect_law(1000,
                                          [](Draw& d) -> gen::LawResult {
                                            if (d.below(1000) > 500) return gen::violation("broken");
                                            return {};
                                          }),
                          "replay: WARPCONF_SEED=");
}

TEST(Seeds, of_two_checks_differ_and_of_one_check_repeat) {
  EXPECT_NE(check::check_seed(1, "a"), check::check_seed(1, "b"));
  EXPECT_EQ(check::check_seed(1, "a"), check::check_seed(1, "a"));
}

TEST(Budget, quick_and_the_sanitizer_draw_a_hundredth_of_the_random_cases) {
  using environment::Budget;
  EXPECT_EQ(check::random_case_count(20000, Budget::standard, false), 20000u);
  EXPECT_EQ(check::random_case_count(20000, Budget::soak, false), 20000u);
  EXPECT_EQ(check::random_case_count(20000, Budget::quick, false), 200u);
  EXPECT_EQ(check::random_case_count(20000, Budget::standard, true), 200u);
  EXPECT_EQ(check::random_case_count(20000, Budget::quick, true), 200u) << "the two do not compound";
  EXPECT_EQ(check::random_case_count(50, Budget::quick, false), 1u) << "at least one case";
}

}  // namespace
}  // namespace wc
