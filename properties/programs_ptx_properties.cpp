// The ptx dialect (program.hpp, fixtures/programs/) without a GPU: its generator keeps the dialect's
// rules and makes every feature, none of those switched off by name; its oracle gives hand-worked logs
// for its instructions, memory, block exchanges and long loops; and shrinking its programs keeps them
// valid and emittable both as PTX and as C++. Each rule checker here is shown to catch a program that
// breaks its rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/random_check.hpp"
#include "programs/builders.hpp"
#include "programs/emit.hpp"
#include "programs/features.hpp"
#include "programs/generate.hpp"
#include "programs/instructions.hpp"
#include "programs/model.hpp"
#include "programs/ptx_emit.hpp"
#include "programs/shrink_program.hpp"

namespace wc::program {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using model::LaneClass;

constexpr uint64_t kSeed = 0x7074785EED;
constexpr uint64_t kPrograms = 600;

GenerateOptions ptx_options() {
  GenerateOptions o;
  o.dialect = Dialect::ptx;
  return o;
}

// --- the dialect's rules, checked from scratch -----------------------------------------------------

class PtxRuleCheck {
 public:
  explicit PtxRuleCheck(const Program& p) : p_(p) {}

  std::optional<std::string> run() {
    if (p_.dialect != Dialect::ptx) return violation("a program of the ", name(p_.dialect), " dialect");
    if (p_.uniforms.size() != static_cast<size_t>(kUniformWords)) return violation(p_.uniforms.size(), " uniform words");
    if (const std::string why = ptx_refusal(p_); !why.empty()) return violation("no PTX: ", why);
    try {
      module_source({{&p_, "", {}}});
    } catch (const std::invalid_argument& e) {
      return violation("no C++: ", e.what());
    }
    for (const Helper& h : p_.helpers) helper_multiplicity_.push_back(most_runs(h.body));
    for (const Helper& h : p_.helpers) walk(h.body, 0, 1, true);
    walk(p_.body, 0, 1, false);
    if (problem_) return problem_;
    if (logged_ > kMaxLog) return violation("up to ", logged_, " log entries, past kMaxLog ", kMaxLog);
    return std::nullopt;
  }

 private:
  static int most_runs(const Block& block) {
    int most = 1;
    for (const Stmt& s : block)
      for (const Block& arm : s.arms) most = std::max(most, (s.kind == Kind::loop ? max_trips(s) : 1) * most_runs(arm));
    return most;
  }
  void fail(std::optional<std::string> why) {
    if (why && !problem_) problem_ = std::move(why);
  }

  void walk(const Block& block, int depth, int runs, bool in_helper) {
    for (const Stmt& s : block) {
      const bool logs = (s.kind == Kind::collective && s.call.logged && has_result(s.call.op)) || s.kind == Kind::observe ||
                        (s.kind == Kind::block_exchange && s.call.logged);
      if (logs && in_helper) fail(violation("#", s.id, " logs in a helper, which may run any number of times"));
      if (logs && !in_helper) logged_ += runs;
      if (s.kind == Kind::collective && (is_tile(s.call.op) || is_coalesced(s.call.op)))
        fail(violation("#", s.id, " calls cooperative groups"));
      if (s.kind == Kind::loop && s.trip_limit != 0 && s.trip_limit != 8 && s.trip_limit != 16 && s.trip_limit != 32 && s.trip_limit != 64)
        fail(violation("#", s.id, " loops up to ", s.trip_limit, " times"));
      if (s.kind == Kind::block_exchange && (depth != 0 || in_helper || returned_))
        fail(violation("#", s.id, " exchanges where not every thread of the block reaches it"));
      if (s.kind == Kind::return_) returned_ = true;
      if (s.kind == Kind::call && runs * helper_multiplicity_[static_cast<size_t>(s.helper)] > 256)
        fail(violation("#", s.id, " calls a helper that may run its loops ", runs * helper_multiplicity_[static_cast<size_t>(s.helper)], " times"));
      const int inner = runs * (s.kind == Kind::loop ? max_trips(s) : 1);
      if (inner > 256) fail(violation("#", s.id, " runs its body up to ", inner, " times"));
      for (const Block& arm : s.arms) walk(arm, depth + 1, inner, in_helper);
    }
  }

  const Program& p_;
  std::vector<int> helper_multiplicity_;
  int logged_ = 0;
  bool returned_ = false;
  std::optional<std::string> problem_;
};

std::optional<std::string> ptx_rule_problem(const Program& p) { return PtxRuleCheck(p).run(); }

// Thread t's input word k is 100 t + k; uniforms 10 + n; parameters 7 and 0x80000000.
Program ptx_program(Block body, int threads = 32, std::vector<Helper> helpers = {}) {
  Program p;
  p.dialect = Dialect::ptx;
  p.threads = threads;
  for (int t = 0; t < threads; ++t)
    for (int k = 0; k < kInputWords; ++k) p.inputs.push_back(static_cast<uint32_t>(100 * t + k));
  for (int n = 0; n < kUniformWords; ++n) p.uniforms.push_back(static_cast<uint32_t>(10 + n));
  p.params = {7, 0x80000000};
  p.helpers = std::move(helpers);
  p.body = std::move(body);
  return p;
}

// Law: every generated program keeps the dialect's rules, under several option sets.
TEST(PtxDialectGenerator, programs_keep_the_dialect_s_rules_and_emit_both_ways) {
  GenerateOptions small = ptx_options(), large = ptx_options(), sm80 = ptx_options();
  small.max_statements = 8;
  large.max_statements = 60;
  sm80.compute_capability = 80;
  for (const GenerateOptions& options : {ptx_options(), small, large, sm80})
    gen::expect_law(kPrograms / 2, [&](Draw& d) -> LawResult {
      const Program p = generate(d, options);
      if (auto why = ptx_rule_problem(p)) return violation(*why, "\n", to_text(p));
      if (options.compute_capability < 90 && calls(p, Op::elect)) return violation("elect on ", options.compute_capability);
      return std::nullopt;
    });
}

// The checker has teeth: each program breaks one rule, and the checker names it.
TEST(PtxDialectGenerator, the_rule_check_catches_each_broken_rule) {
  Helper logging;
  logging.body = {observe(9, var(0))};
  const std::pair<Program, const char*> broken[] = {
      {ptx_program({branch(0, Kind::return_, lane_below(3)), block_exchange(1, 0, tid(), constant(1))}), "exchanges where"},
      {ptx_program({call(0, 0)}, 32, {logging}), "logs in a helper"},
      {ptx_program({collective(0, Op::tile_any, var(0), constant(0), 8)}), "no PTX"},
      {ptx_program({long_loop(0, constant(3), 12, false, {})}), "loops up to 12"},
      {ptx_program({long_loop(0, constant(3), 64, false, {long_loop(1, constant(3), 8, false, {})})}), "runs its body up to 512"},
      {ptx_program({long_loop(0, constant(3), 16, false, {observe(1, var(0)), observe(2, var(1)), observe(3, var(2)), observe(4, var(3))})}),
       "past kMaxLog"},
  };
  for (const auto& [p, why] : broken) {
    const std::optional<std::string> problem = ptx_rule_problem(p);
    ASSERT_TRUE(problem.has_value()) << why << "\n" << to_text(p);
    EXPECT_NE(problem->find(why), std::string::npos) << *problem;
  }
}

// Each feature switched off by name is in none of the programs; with all on, each is in some.
TEST(PtxDialectGenerator, each_feature_switched_off_is_in_no_program) {
  for (int f = 0; f < kFeatures; ++f) {
    const auto feature = static_cast<Feature>(f);
    GenerateOptions o = ptx_options();
    o.without.set(static_cast<size_t>(f));
    for (uint64_t index = 0; index < 150; ++index) {
      const Program p = generate(kSeed, index, o);
      ASSERT_FALSE(features_of(p).test(static_cast<size_t>(f))) << name(feature) << " switched off, but in\n" << to_text(p);
      ASSERT_FALSE(ptx_rule_problem(p).has_value()) << name(feature) << " off: " << *ptx_rule_problem(p);
    }
  }
}

TEST(PtxDialectGenerator, makes_every_feature_instruction_and_kind_and_says_so) {
  Coverage total;
  for (uint64_t index = 0; index < 1000; ++index) {
    const Program p = generate(kSeed, index, ptx_options());
    Coverage c = interpret(p).coverage;
    take_generated(c, generated_coverage(p));
    total.add(c);
  }
  EXPECT_EQ(total.ptx_programs, 1000u);
  for (int f = 0; f < kFeatures; ++f) EXPECT_GT(total.features[static_cast<size_t>(f)], 0u) << name(static_cast<Feature>(f));
  for (int k = 0; k < kInstrs; ++k) {
    EXPECT_GT(total.instrs_generated[static_cast<size_t>(k)], 0u) << name(static_cast<Instr>(k));
    EXPECT_GT(total.instrs_reached[static_cast<size_t>(k)], 0u) << name(static_cast<Instr>(k));
  }
  for (int k = 0; k < kKinds; ++k) EXPECT_GT(total.kinds_reached[static_cast<size_t>(k)], 0u) << name(static_cast<Kind>(k));
  for (int k = 0; k < kOps; ++k) {
    if (is_tile(static_cast<Op>(k)) || is_coalesced(static_cast<Op>(k))) continue;
    EXPECT_GT(total.ops_reached[static_cast<size_t>(k)], 0u) << name(static_cast<Op>(k));
  }
  const std::string text = coverage_text(total);
  EXPECT_NE(text.find("; ptx-dialect programs 1,000; instr generated "), std::string::npos) << text;
  EXPECT_NE(text.find("; feature run-ahead in "), std::string::npos) << text;
  EXPECT_NE(text.find("; prmt generated "), std::string::npos) << text;
  std::printf("%s\n", text.c_str());
}

TEST(PtxDialectGenerator, counts_loops_to_64_with_uniform_counters_and_loops_right_after_divergence) {
  int to_64_uniform = 0, divergent_then_loop = 0, bottom_tested = 0;
  for (uint64_t index = 0; index < 400; ++index) {
    const Program p = generate(kSeed, index, ptx_options());
    const std::function<void(const Block&)> visit = [&](const Block& b) {
      for (size_t k = 0; k < b.size(); ++k) {
        const Stmt& s = b[k];
        if (s.kind == Kind::loop && s.trip_limit == 64 && s.trips.source == Source::constant && s.trips.n == 64) ++to_64_uniform;
        if (s.kind == Kind::loop && s.bottom_tested) ++bottom_tested;
        if (s.kind == Kind::loop && k > 0 && b[k - 1].kind == Kind::if_else && lane_dependent(b[k - 1].cond)) ++divergent_then_loop;
        for (const Block& arm : s.arms) visit(arm);
      }
    };
    visit(p.body);
  }
  EXPECT_GE(to_64_uniform, 5);
  EXPECT_GE(divergent_then_loop, 40);
  EXPECT_GE(bottom_tested, 40);
}

TEST(PtxDialectGenerator, is_a_function_of_seed_and_index_and_its_own_corpus) {
  const Program a = generate(kSeed, 5, ptx_options()), b = generate(kSeed, 5, ptx_options());
  EXPECT_EQ(to_text(a), to_text(b));
  EXPECT_EQ(hash(a), hash(b));
  EXPECT_NE(to_text(a).find(" dialect ptx\n"), std::string::npos);
  EXPECT_NE(hash(generate(kSeed, 5, ptx_options())), hash(generate(kSeed, 5)));
  GenerateOptions classic;
  classic.without.set(static_cast<size_t>(Feature::prmt));
  EXPECT_THROW(generate(kSeed, 0, classic), std::invalid_argument) << "the classic dialect is the goldens' corpus: no --without";
}

TEST(PtxFeatureList, parses_names_and_refuses_an_unknown_one_in_one_line) {
  const FeatureList list = parse_feature_list("run-ahead,prmt,block-exchange");
  EXPECT_TRUE(list.error.empty());
  EXPECT_EQ(list.features.count(), 3u);
  EXPECT_TRUE(list.features.test(static_cast<size_t>(Feature::run_ahead)));
  const FeatureList unknown = parse_feature_list("run-ahead,prmtt");
  EXPECT_EQ(unknown.error, "no generator feature 'prmtt' (warpconf program --help lists them)");
  EXPECT_TRUE(unknown.features.none());
  EXPECT_FALSE(parse_feature_list("").error.empty());
  EXPECT_FALSE(parse_feature_list("prmt,").error.empty());
  const std::string help = feature_help();
  for (int f = 0; f < kFeatures; ++f) EXPECT_NE(help.find(std::string(name(static_cast<Feature>(f))) + ": "), std::string::npos);
}

// --- the oracle on the dialect's constructs, worked by hand ---------------------------------------

// The value and class of thread t's log entry k.
struct Logged {
  uint64_t bits;
  LaneClass cls;
};
Logged logged(const Trace& trace, int t, size_t k) {
  const LogEntry& e = trace.logs.at(static_cast<size_t>(t)).at(k);
  return {e.outcome.bits & e.outcome.care, e.outcome.cls};
}

TEST(PtxOracle, computes_each_instruction_on_converted_operands_under_its_guard) {
  const Program p = ptx_program({
      instr(0, Instr::mul_wide, Type::u32, 0, lane(), constant(0x80000000)),      // w0 = lane * 2^31
      observe(1, wide(0)),
      store(2, Type::u32, 2, constant(1), var(1)),                                    // scratch[2..3] = low 16 bits of 100 t + 1
      instr(3, Instr::add, Type::u32, 2, constant(0x7FFF), lane()),                   // v2 = 0x7FFF + lane
      store(4, Type::u32, 2, constant(2), var(2)),                                    // scratch[4..5] = v2
      load(5, Type::s32, 3, 2, Space::scratch, constant(2)),                          // v3 = sign-extended scratch[4..5]
      observe(6, var(3)),
      guarded(instr(7, Instr::add, Type::u32, 4, var(1), constant(1000)), Guard::when_true, lane_below(16)),
      observe(8, var(4)),
      instr(9, Instr::add, Type::s16, 5, constant(0x7FFF), constant(1)),             // 0x8000 as s16, extended into v5
      observe(10, var(5)),
      load(11, Type::u32, 0, 1, Space::uniforms, constant(5)),                        // uniforms byte 5: 11 >> 8 = 0
      instr(12, Instr::add, Type::u32, 0, uniform(3), param(0)),                      // 13 + 7
      observe(13, var(0)),
      observe(14, lanemask(2)),
  });
  const Trace trace = interpret(p);
  for (int t : {0, 1, 17, 31}) {
    const auto lane = static_cast<uint64_t>(t);
    EXPECT_EQ(logged(trace, t, 0).bits, lane << 31) << "mul.wide.u32 of lane and 2^31, thread " << t;
    EXPECT_EQ(logged(trace, t, 1).bits, (0x7FFF + lane) >= 0x8000 ? 0xFFFF0000 | (0x7FFF + lane) : 0x7FFF + lane)
        << "st.b16 then ld.s16 sign-extends, thread " << t;
    EXPECT_EQ(logged(trace, t, 2).bits, t < 16 ? 100 * lane + 1 + 1000 : 100 * lane) << "@p add: v4 (in[0]) unchanged where p is false";
    EXPECT_EQ(logged(trace, t, 3).bits, 0xFFFF8000u) << "add.s16 wraps to 0x8000, cvt.s32.s16 extends it";
    EXPECT_EQ(logged(trace, t, 4).bits, 20u) << "uniforms[3] + p0";
    EXPECT_EQ(logged(trace, t, 5).bits, (uint64_t{1} << t) - 1) << "%lanemask_lt";
    for (size_t k = 0; k < 6; ++k) EXPECT_EQ(logged(trace, t, k).cls, LaneClass::defined);
  }
}

TEST(PtxOracle, exchanges_between_warps_through_shared_memory) {
  // 64 threads: each stores its tid; thread t reads thread (t % 32)'s slot (warp 1 reads warp 0's), then
  // thread 33's; threads 60-63 return first, so a read of their slot is of nothing this program wrote.
  Stmt from_lane = block_exchange(0, 1, tid(), lane());
  Stmt from_33 = block_exchange(1, 2, tid(), constant(33));
  Stmt late = block_exchange(3, 3, tid(), constant(61));
  const Program p = ptx_program({from_lane, from_33, branch(2, Kind::return_, when(Compare::ge, tid(), constant(60))), late}, 64);
  const Trace trace = interpret(p);
  for (int t : {0, 5, 32, 37, 59}) {
    EXPECT_EQ(logged(trace, t, 0).bits, static_cast<uint64_t>(t % 32)) << t;
    EXPECT_EQ(logged(trace, t, 1).bits, 33u) << t;
    EXPECT_EQ(logged(trace, t, 2).cls, LaneClass::undefined) << "thread 61 returned before it stored, read by " << t;
  }
  EXPECT_EQ(trace.logs[61].size(), 2u) << "a returned thread logs no more";
}

TEST(PtxOracle, runs_long_loops_and_taints_what_an_undefined_result_reaches) {
  Stmt exchange = collective(2, Op::exchange, lane(), constant(20), 32, 0);  // lanes 0-15 read lane 20, not in the mask
  const Program p = ptx_program({
      long_loop(0, constant(64), 64, true, {instr(1, Instr::add, Type::u32, 1, var(1), constant(1))}),
      observe(3, var(1)),
      if_else(4, lane_below(16), {exchange}, {}),
      instr(5, Instr::add, Type::u32, 4, var(0), constant(1)),
      observe(6, var(4)),
      long_loop(7, param(1), 64, false, {observe(8, constant(1))}),  // 0x80000000 % 65 = 63 trips
  });
  const Trace trace = interpret(p);
  EXPECT_EQ(logged(trace, 3, 0).bits, 301u + 64u) << "v1 = 100 t + 1, plus 64 trips";
  EXPECT_EQ(logged(trace, 3, 1).cls, LaneClass::undefined) << "the exchange read a slot its call did not write";
  EXPECT_EQ(logged(trace, 3, 2).cls, LaneClass::undefined) << "v4 = v0 + 1 of that undefined v0";
  EXPECT_EQ(logged(trace, 20, 1).cls, LaneClass::defined) << "lane 20 did not take part: v0 kept its input";
  EXPECT_EQ(trace.logs[3].size(), 3u + 0x80000000u % 65u);
}

TEST(PtxOracle, fixes_no_value_an_unlogged_elect_gave) {
  // Which lane elect.sync elects the documents leave open: the oracle takes it from the GPU's log, so a
  // call that logs nothing (a helper's, or one past the log's room) leaves its variable unknown.
  Stmt unlogged = collective(0, Op::elect, constant(0), constant(0), 32, 1);
  unlogged.call.logged = false;
  Stmt logged_elect = collective(2, Op::elect, constant(0), constant(0), 32, 2);
  const Program p = ptx_program({unlogged, observe(1, var(1)), logged_elect, observe(3, var(2))});
  ObservedLog gpu;
  for (int t = 0; t < 32; ++t) {
    gpu.count.push_back(3);
    gpu.entries.push_back({0x7, 7u | (t == 7 ? uint64_t{1} << 32 : 0), 7});  // the GPU elected lane 7
  }
  const Trace trace = interpret(p, &gpu);
  EXPECT_EQ(logged(trace, 3, 0).cls, LaneClass::undefined) << "the unlogged elect's leader is in no log";
  EXPECT_EQ(logged(trace, 3, 1).bits, 7u | 0u) << "the logged elect's leader is the lane the log names";
  EXPECT_EQ(logged(trace, 3, 2).bits, 7u) << "and its variable holds it";
}

// --- shrinking the dialect's programs --------------------------------------------------------------

// Law: each candidate one step simpler is smaller in shrink_measure and keeps the dialect's rules, so
// that it emits both as PTX and as C++.
TEST(PtxDialectShrink, every_candidate_is_smaller_and_still_emits_both_ways) {
  for (uint64_t index = 0; index < 60; ++index) {
    const Program p = generate(kSeed, index, ptx_options());
    const uint64_t measure = shrink_measure(p);
    for (const Program& c : shrink_candidates(p)) {
      ASSERT_LT(shrink_measure(c), measure) << to_text(c);
      ASSERT_EQ(ptx_refusal(c), "") << to_text(c);
      ASSERT_NO_THROW(module_source({{&c, "", {}}})) << to_text(c);
    }
  }
}

// A shrink whose failure is "the program still holds a guarded funnel shift in a loop of 64 trips"
// ends at that loop and that instruction alone.
TEST(PtxDialectShrink, shrinks_to_the_construct_that_fails) {
  const auto holds = [](const Program& p) {
    bool found = false;
    const std::function<void(const Block&, bool)> visit = [&](const Block& b, bool in_long_loop) {
      for (const Stmt& s : b) {
        found |= in_long_loop && s.kind == Kind::instr && s.inst.op == Instr::shf_l && s.inst.guard != Guard::none;
        for (const Block& arm : s.arms) visit(arm, in_long_loop || (s.kind == Kind::loop && s.trip_limit == 64));
      }
    };
    visit(p.body, false);
    return found;
  };
  std::optional<Program> failing;
  for (uint64_t index = 0; index < 3000 && !failing; ++index) {
    Program p = generate(kSeed, index, ptx_options());
    if (holds(p) && statement_count(p) > 10) failing = std::move(p);
  }
  ASSERT_TRUE(failing.has_value()) << "no generated program holds the construct";
  const ShrinkResult r = shrink(*failing, [&](const std::vector<Program>& candidates) {
    std::vector<bool> fails;
    for (const Program& c : candidates) fails.push_back(holds(c));
    return fails;
  }, 60);
  EXPECT_EQ(statement_count(r.minimal), 2u) << to_text(r.minimal);
  EXPECT_EQ(ptx_refusal(r.minimal), "");
  EXPECT_FALSE(r.stopped_by_limit);
}

}  // namespace
}  // namespace wc::program
