// The program shrinker, properties: every candidate is a valid program that measures less; a fake
// failure ("holds a ballot inside a loop") shrinks a large program to the minimal one worked out by
// hand; the time limit stops it and says so. Host only; the programs are built here, by hand or from
// a Draw, so that these tests need no other part of the family.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "harness/random_check.hpp"
#include "programs/builders.hpp"
#include "programs/shrink_program.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using program::Block;
using program::Kind;
using program::Op;
using program::Program;
using program::Source;
using program::Stmt;
using program::Value;
using program::assign;
using program::branch;
using program::call;
using program::collective;
using program::constant;
using program::input;
using program::lane;
using program::loop;
using program::loop_index;
using program::switch_on;
using program::var;
using program::when;

std::vector<uint32_t> counting_inputs(int threads) {
  std::vector<uint32_t> in(static_cast<size_t>(threads) * program::kInputWords);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint32_t>(i * 2654435761u);
  return in;
}

// A program of every kind, with a ballot inside two loops, two warps, a helper and nonzero inputs.
Program large_program() {
  using program::Arith;
  using program::Compare;
  Program p;
  p.seed = 7;
  p.index = 11;
  p.threads = 64;
  p.inputs = counting_inputs(p.threads);
  p.helpers = {{{loop(14, input(0), {collective(15, Op::shfl_xor, var(2), constant(1), 16, 1),
                                     branch(16, Kind::break_, when(Compare::gt, lane(), constant(7)))})}}};
  p.body = {
      assign(0, 0, Arith::xor_, var(1), lane()),
      branch(1, Kind::if_else, when(Compare::lt, lane(), constant(16)),
             {{loop(2, input(1),
                    {collective(3, Op::ballot, var(0), constant(0), 32, 2),
                     switch_on(4, lane(), {{collective(5, Op::any, var(1))}, {call(6, 0)}})})},
              {collective(7, Op::match_any, var(3), constant(0), 32, 3)}}),
      loop(8, constant(3),
           {branch(9, Kind::if_else, when(Compare::bit, input(2), constant(4)),
                   {{collective(10, Op::ballot, loop_index(0), constant(0), 8, 4)}, {}}),
            branch(11, Kind::continue_, when(Compare::eq, lane(), constant(5)))}),
      branch(12, Kind::return_, when(Compare::eq, {Source::warp, 0}, constant(1))),
      collective(13, Op::reduce_add, var(4), constant(0), 32, 5),
  };
  return p;
}

// The program as text, one statement a line with its id and fields: what the failures below print.
void outline(const Block& block, int depth, std::ostringstream& out) {
  for (const Stmt& s : block) {
    out << std::string(static_cast<size_t>(depth) * 2, ' ') << s.id << ' ' << static_cast<int>(s.kind);
    const auto value = [&](const Value& v) { out << ' ' << static_cast<int>(v.source) << ':' << v.n; };
    switch (s.kind) {
      case Kind::assign: out << " v" << s.assign.dest << " op" << static_cast<int>(s.assign.op); value(s.assign.a); value(s.assign.b); break;
      case Kind::collective:
        out << " op" << static_cast<int>(s.call.op) << " v" << s.call.dest << " w" << s.call.width;
        value(s.call.value);
        value(s.call.arg);
        break;
      case Kind::loop: value(s.trips); break;
      case Kind::switch_: value(s.selector); break;
      case Kind::call: out << " helper " << s.helper; break;
      default: out << " cmp" << static_cast<int>(s.cond.op); value(s.cond.a); value(s.cond.b); break;
    }
    out << '\n';
    for (const Block& arm : s.arms) {
      out << std::string(static_cast<size_t>(depth) * 2 + 1, ' ') << "{\n";
      outline(arm, depth + 1, out);
    }
  }
}
std::string outline(const Program& p) {
  std::ostringstream out;
  out << "seed " << p.seed << " index " << p.index << " threads " << p.threads << " inputs";
  for (uint32_t w : p.inputs) out << ' ' << w;
  out << '\n';
  for (const program::Helper& h : p.helpers) {
    out << "helper\n";
    outline(h.body, 1, out);
  }
  outline(p.body, 0, out);
  return out.str();
}

// What program.hpp asks of a program's shape, checked independently of the shrinker: "" or the first problem.
std::string shape_problem(const Block& block, int loops, bool in_helper, int helpers, std::set<int>& ids) {
  const auto reads_a_missing_loop = [&](const Value& v) { return v.source == Source::loop_index && static_cast<int>(v.n) >= loops; };
  for (const Stmt& s : block) {
    if (!ids.insert(s.id).second) return "id " + std::to_string(s.id) + " twice";
    const bool has_cond = s.kind == Kind::if_else || s.kind == Kind::break_ || s.kind == Kind::continue_ || s.kind == Kind::return_;
    if (has_cond && (reads_a_missing_loop(s.cond.a) || reads_a_missing_loop(s.cond.b)))
      return "statement " + std::to_string(s.id) + " reads a loop index outside its loops";
    if ((s.kind == Kind::loop && reads_a_missing_loop(s.trips)) || (s.kind == Kind::switch_ && reads_a_missing_loop(s.selector)) ||
        (s.kind == Kind::collective && (reads_a_missing_loop(s.call.value) || reads_a_missing_loop(s.call.arg))) ||
        (s.kind == Kind::assign && (reads_a_missing_loop(s.assign.a) || reads_a_missing_loop(s.assign.b))))
      return "statement " + std::to_string(s.id) + " reads a loop index outside its loops";
    if ((s.kind == Kind::break_ || s.kind == Kind::continue_) && loops == 0)
      return "statement " + std::to_string(s.id) + " leaves no loop";
    if ((s.kind == Kind::return_ || s.kind == Kind::call) && in_helper)
      return "statement " + std::to_string(s.id) + " is a return or call inside a helper";
    if (s.kind == Kind::call && (s.helper < 0 || s.helper >= helpers)) return "call " + std::to_string(s.id) + " names no helper";
    const size_t want_arms = s.kind == Kind::if_else ? 2 : s.kind == Kind::loop ? 1 : s.kind == Kind::switch_ ? s.arms.size() : 0;
    if (s.arms.size() != want_arms || (s.kind == Kind::switch_ && s.arms.empty()))
      return "statement " + std::to_string(s.id) + " has " + std::to_string(s.arms.size()) + " arms";
    for (const Block& arm : s.arms) {
      std::string problem = shape_problem(arm, s.kind == Kind::loop ? loops + 1 : loops, in_helper, helpers, ids);
      if (!problem.empty()) return problem;
    }
  }
  return "";
}
std::string shape_problem(const Program& p) {
  if (p.threads < 1 || p.threads > program::kMaxThreads) return "threads " + std::to_string(p.threads);
  if (p.inputs.size() != static_cast<size_t>(p.threads) * program::kInputWords) return "inputs not threads * kInputWords";
  std::set<int> ids;
  const int helpers = static_cast<int>(p.helpers.size());
  for (const program::Helper& h : p.helpers) {
    std::string problem = shape_problem(h.body, 0, true, helpers, ids);
    if (!problem.empty()) return problem;
  }
  return shape_problem(p.body, 0, false, helpers, ids);
}

// "" when every candidate is well shaped and measures less than p; else what is wrong with the first that is not.
std::string candidates_problem(const Program& p, const std::vector<Program>& candidates) {
  const uint64_t measure = program::shrink_measure(p);
  for (size_t i = 0; i < candidates.size(); ++i) {
    const std::string shape = shape_problem(candidates[i]);
    if (!shape.empty()) return "candidate " + std::to_string(i) + ": " + shape + "\n" + outline(candidates[i]);
    if (program::shrink_measure(candidates[i]) >= measure)
      return "candidate " + std::to_string(i) + " measures " + std::to_string(program::shrink_measure(candidates[i])) +
             ", not less than " + std::to_string(measure) + "\n" + outline(candidates[i]);
  }
  return "";
}

bool holds_ballot(const Block& block) {
  for (const Stmt& s : block) {
    if (s.kind == Kind::collective && s.call.op == Op::ballot) return true;
    for (const Block& arm : s.arms)
      if (holds_ballot(arm)) return true;
  }
  return false;
}
bool holds_ballot_in_loop(const Block& block) {
  for (const Stmt& s : block) {
    if (s.kind == Kind::loop && holds_ballot(s.arms[0])) return true;
    for (const Block& arm : s.arms)
      if (holds_ballot_in_loop(arm)) return true;
  }
  return false;
}
// The fake failure: a program fails while its kernel body holds a ballot inside a loop.
std::vector<bool> ballot_in_loop_fails(const std::vector<Program>& candidates) {
  std::vector<bool> fails;
  for (const Program& c : candidates) fails.push_back(holds_ballot_in_loop(c.body));
  return fails;
}

// A random well-shaped program: up to three levels of if_else, loop and switch, breaks and continues
// inside loops, returns in the kernel body, up to two helpers and their calls.
Value draw_value(Draw& d, int loops) {
  const auto source = static_cast<Source>(d.below(loops > 0 ? 7 : 6));
  const uint32_t n = source == Source::loop_index ? static_cast<uint32_t>(d.below(static_cast<uint64_t>(loops)))
                     : source == Source::var      ? static_cast<uint32_t>(d.below(program::kVars))
                     : source == Source::input    ? static_cast<uint32_t>(d.below(program::kInputWords))
                                                  : static_cast<uint32_t>(d.below(40));
  return {source, n};
}
Block draw_block(Draw& d, int depth, int loops, bool in_helper, int helpers, int& next_id) {
  Block block;
  const uint64_t count = d.below(4);
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t kinds = depth < program::kMaxDepth ? 9 : 2;
    auto kind = static_cast<Kind>(kinds == 9 ? d.below(9) : d.below(2));
    if ((kind == Kind::break_ || kind == Kind::continue_) && loops == 0) kind = Kind::assign;
    if ((kind == Kind::return_ || kind == Kind::call) && in_helper) kind = Kind::collective;
    if (kind == Kind::call && helpers == 0) kind = Kind::collective;
    Stmt s;
    s.kind = kind;
    s.id = next_id++;
    const auto cmp = static_cast<program::Compare>(d.below(7));
    switch (kind) {
      case Kind::assign: s.assign = {static_cast<int>(d.below(program::kVars)), static_cast<program::Arith>(d.below(10)), draw_value(d, loops), draw_value(d, loops)}; break;
      case Kind::collective:
        s.call.op = static_cast<Op>(d.below(program::kOps));
        s.call.dest = static_cast<int>(d.below(program::kVars + 1)) - 1;
        s.call.value = draw_value(d, loops);
        s.call.arg = draw_value(d, loops);
        s.call.width = 1 << d.below(6);
        break;
      case Kind::if_else:
        s.cond = {cmp, draw_value(d, loops), draw_value(d, loops)};
        s.arms = {draw_block(d, depth + 1, loops, in_helper, helpers, next_id), draw_block(d, depth + 1, loops, in_helper, helpers, next_id)};
        break;
      case Kind::loop:
        s.trips = draw_value(d, loops);
        s.arms = {draw_block(d, depth + 1, loops + 1, in_helper, helpers, next_id)};
        break;
      case Kind::switch_: {
        s.selector = draw_value(d, loops);
        const uint64_t arms = 1 + d.below(3);
        for (uint64_t a = 0; a < arms; ++a) s.arms.push_back(draw_block(d, depth + 1, loops, in_helper, helpers, next_id));
        break;
      }
      case Kind::break_:
      case Kind::continue_:
      case Kind::return_: s.cond = {cmp, draw_value(d, loops), draw_value(d, loops)}; break;
      case Kind::call: s.helper = static_cast<int>(d.below(static_cast<uint64_t>(helpers))); break;
      case Kind::instr: case Kind::observe: case Kind::block_exchange: break;  // not drawn: kinds counts the classic nine
    }
    block.push_back(std::move(s));
  }
  return block;
}
Program draw_program(Draw& d) {
  Program p;
  p.threads = static_cast<int>(1 + d.below(program::kMaxThreads));
  p.inputs.resize(static_cast<size_t>(p.threads) * program::kInputWords);
  for (uint32_t& w : p.inputs) w = static_cast<uint32_t>(d.below(1u << 16));
  const int helpers = static_cast<int>(d.below(3));
  int next_id = 0;
  for (int h = 0; h < helpers; ++h) p.helpers.push_back({draw_block(d, 1, 0, true, helpers, next_id)});
  p.body = draw_block(d, 0, 0, false, helpers, next_id);
  return p;
}

// Law: a shrinking step never grows a program and never breaks its shape, so shrinking ends on a program
// the emitter and the oracle take.
TEST(ProgramShrinkLaws, every_candidate_is_well_shaped_and_measures_less) {
  gen::expect_law(3000, [](Draw& d) -> LawResult {
    const Program p = draw_program(d);
    const std::string own = shape_problem(p);
    if (!own.empty()) return violation("the drawn program is malformed (", own, "):\n", outline(p));
    const std::string problem = candidates_problem(p, program::shrink_candidates(p));
    if (!problem.empty()) return violation("of\n", outline(p), problem);
    return {};
  });
}

TEST(ProgramShrink, candidates_of_the_large_program_are_well_shaped_and_smaller) {
  const Program p = large_program();
  ASSERT_EQ(shape_problem(p), "");
  const std::vector<Program> candidates = program::shrink_candidates(p);
  EXPECT_GT(candidates.size(), 30u);
  EXPECT_EQ(candidates_problem(p, candidates), "");
}

// The checkers above, shown to catch what they are for: a candidate no smaller, a break outside any loop.
TEST(ProgramShrink, the_candidate_checker_catches_a_candidate_that_is_not_smaller_or_malformed) {
  const Program p = large_program();
  EXPECT_NE(candidates_problem(p, {p}).find("not less than"), std::string::npos);
  Program broken = p;
  broken.body.push_back(branch(99, Kind::break_, when(program::Compare::lt, lane(), constant(3))));
  EXPECT_NE(candidates_problem(p, {broken}).find("leaves no loop"), std::string::npos);
  Program duplicate = p;
  duplicate.body.push_back(collective(3, Op::all, var(0)));
  EXPECT_NE(shape_problem(duplicate).find("id 3 twice"), std::string::npos);
}

// Worked out by hand: deletions take every statement but loop 8 and the then-arm's ballot 10, the
// uncalled helper goes, if_else 9 flattens into its then arm, then one thread, trips 0, the ballot's
// value (loop index 0) the constant 0, width 32, no destination, and zero inputs.
TEST(ProgramShrink, a_ballot_inside_a_loop_shrinks_to_one_loop_holding_one_plain_ballot) {
  const program::ShrinkResult shrunk = program::shrink(large_program(), ballot_in_loop_fails, 60);
  Program want;
  want.seed = 7;
  want.index = 11;
  want.threads = 1;
  want.inputs = {0, 0, 0, 0};
  want.body = {loop(8, constant(0), {collective(10, Op::ballot, constant(0))})};
  EXPECT_EQ(outline(shrunk.minimal), outline(want));
  EXPECT_FALSE(shrunk.stopped_by_limit);
  EXPECT_GT(shrunk.rounds, 10);
  EXPECT_GT(shrunk.candidates, static_cast<size_t>(shrunk.rounds));
}

TEST(ProgramShrink, passes_every_candidate_of_a_round_in_one_call) {
  size_t calls = 0, candidates = 0;
  const program::ShrinkResult shrunk = program::shrink(
      large_program(),
      [&](const std::vector<Program>& round) {
        ++calls;
        candidates += round.size();
        return ballot_in_loop_fails(round);
      },
      60);
  EXPECT_EQ(calls, static_cast<size_t>(shrunk.rounds));
  EXPECT_EQ(candidates, shrunk.candidates);
}

// Waves of four, least measure first: the same minimal program as one call per step, each call of at
// most four candidates, and fewer candidates run (a step stops at its first wave with a failure).
TEST(ProgramShrink, waves_pick_what_one_call_per_step_picks_and_run_fewer_candidates) {
  const program::ShrinkResult whole = program::shrink(large_program(), ballot_in_loop_fails, 60);
  size_t largest_call = 0;
  const program::ShrinkResult waves = program::shrink(
      large_program(),
      [&](const std::vector<Program>& wave) {
        largest_call = std::max(largest_call, wave.size());
        return ballot_in_loop_fails(wave);
      },
      60, 4);
  EXPECT_EQ(outline(waves.minimal), outline(whole.minimal));
  EXPECT_EQ(largest_call, 4u);
  EXPECT_LT(waves.candidates, whole.candidates);
  EXPECT_THROW(program::shrink(large_program(), ballot_in_loop_fails, 60, 0), std::invalid_argument);
}

TEST(ProgramShrink, the_time_limit_stops_it_and_says_so) {
  const Program large = large_program();
  const program::ShrinkResult shrunk = program::shrink(large, ballot_in_loop_fails, 0);
  EXPECT_TRUE(shrunk.stopped_by_limit);
  EXPECT_EQ(shrunk.rounds, 0);
  EXPECT_EQ(outline(shrunk.minimal), outline(large));
}

TEST(ProgramShrink, a_program_whose_candidates_all_pass_is_minimal_already) {
  const Program large = large_program();
  const program::ShrinkResult shrunk =
      program::shrink(large, [](const std::vector<Program>& round) { return std::vector<bool>(round.size(), false); }, 60);
  EXPECT_EQ(shrunk.rounds, 1);
  EXPECT_FALSE(shrunk.stopped_by_limit);
  EXPECT_EQ(outline(shrunk.minimal), outline(large));
}

TEST(ProgramShrink, flattening_a_loop_reads_its_index_as_the_first_iteration) {
  Program p;
  p.threads = 1;
  p.inputs = {0, 0, 0, 0};
  p.body = {loop(0, constant(2), {loop(1, loop_index(0), {collective(2, Op::shfl, loop_index(1), loop_index(0), 32, 0)})})};
  const std::vector<Program> candidates = program::shrink_candidates(p);
  Program outer_gone = p;
  outer_gone.body = {loop(1, constant(0), {collective(2, Op::shfl, constant(0), loop_index(0), 32, 0)})};
  Program inner_gone = p;
  inner_gone.body = {loop(0, constant(2), {collective(2, Op::shfl, loop_index(0), constant(0), 32, 0)})};
  std::set<std::string> texts;
  for (const Program& c : candidates) texts.insert(outline(c));
  EXPECT_EQ(texts.count(outline(outer_gone)), 1u);
  EXPECT_EQ(texts.count(outline(inner_gone)), 1u);
}

}  // namespace
}  // namespace wc
