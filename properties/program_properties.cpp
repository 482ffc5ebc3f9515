// Random warp programs, properties of the generator (no GPU): programs are a pure function of
// (seed, index), keep the IR's rules, cover every construct and op, and put tile ops only where
// whole tiles run them; each checker here is shown to catch a program that breaks its rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "harness/random_check.hpp"
#include "programs/builders.hpp"
#include "programs/generate.hpp"
#include "programs/program.hpp"

namespace wc {
namespace {

using gen::Draw;
using gen::LawResult;
using gen::violation;
using program::Block;
using program::Collective;
using program::Coverage;
using program::GenerateOptions;
using program::Kind;
using program::Op;
using program::Predicate;
using program::Program;
using program::Source;
using program::Stmt;
using program::Value;
using program::branch;
using program::collective;
using program::constant;
using program::if_else;
using program::loop;
using program::var;
using program::when;

constexpr uint64_t kSeed = 0x5EED2026;
constexpr uint64_t kPrograms = 2000;

void for_each_stmt(const Block& block, const std::function<void(const Stmt&)>& visit) {
  for (const Stmt& s : block) {
    visit(s);
    for (const Block& arm : s.arms) for_each_stmt(arm, visit);
  }
}

void for_each_stmt(const Program& p, const std::function<void(const Stmt&)>& visit) {
  for (const program::Helper& h : p.helpers) for_each_stmt(h.body, visit);
  for_each_stmt(p.body, visit);
}

// --- the IR's static rules, checked from scratch -------------------------------------------------

struct Where {
  int depth = 0;  // enclosing if, loop, switch and calls
  int loops = 0;  // enclosing loops of the function
  bool in_helper = false;
};

std::optional<std::string> control_operand_problem(const Value& v, const Where& w, const Stmt& s) {
  if (v.source == Source::var) return violation("#", s.id, " ", program::name(s.kind), " reads a variable");
  if (v.source > Source::loop_index) return violation("#", s.id, " reads a source of the ptx dialect");
  if (v.source == Source::loop_index && static_cast<int>(v.n) >= w.loops)
    return violation("#", s.id, " reads loop index ", v.n, " with ", w.loops, " loops around it");
  if (v.source == Source::input && v.n >= program::kInputWords) return violation("#", s.id, " reads input ", v.n);
  return std::nullopt;
}

std::optional<std::string> data_operand_problem(const Value& v, const Where& w, const Stmt& s) {
  if (v.source == Source::var) {
    if (v.n >= program::kVars) return violation("#", s.id, " reads v", v.n);
    return std::nullopt;
  }
  return control_operand_problem(v, w, s);
}

class RuleCheck {
 public:
  RuleCheck(const Program& p, const GenerateOptions& o) : p_(p), options_(o) {}

  std::optional<std::string> run() {
    if (p_.threads < 1 || p_.threads > program::kMaxThreads) return violation("threads ", p_.threads);
    if (!options_.small_blocks && p_.threads != 32) return violation("threads ", p_.threads, " without small blocks");
    if (p_.inputs.size() != static_cast<size_t>(p_.threads) * program::kInputWords)
      return violation(p_.inputs.size(), " input words for ", p_.threads, " threads");
    for (const program::Helper& h : p_.helpers) helper_nesting_.push_back(nesting(h.body));
    for (const program::Helper& h : p_.helpers) check_block(h.body, Where{0, 0, true});
    check_block(p_.body, Where{});
    if (problem_) return problem_;
    if (ids_.size() != program::statement_count(p_)) return violation(ids_.size(), " ids, statements ", program::statement_count(p_));
    for (size_t k = 0; k < ids_.size(); ++k)
      if (ids_[k] != static_cast<int>(k)) return violation("statement ", k, " in program order has id ", ids_[k]);
    if (static_cast<int>(program::statement_count(p_)) > options_.max_statements)
      return violation(program::statement_count(p_), " statements, at most ", options_.max_statements);
    if (nesting(p_.body) > program::kMaxDepth) return violation("nesting ", nesting(p_.body));
    size_t violations = 0;
    for_each_stmt(p_, [&](const Stmt& s) { violations += s.kind == Kind::collective && s.call.violation != 0; });
    if (violations != (options_.violate ? 1u : 0u)) return violation(violations, " violated collectives");
    return std::nullopt;
  }

 private:
  const Program& p_;
  const GenerateOptions& options_;
  std::vector<int> ids_, helper_nesting_;
  std::optional<std::string> problem_;

  int nesting(const Block& block) const {
    int deepest = 0;
    for (const Stmt& s : block) {
      for (const Block& arm : s.arms) deepest = std::max(deepest, 1 + nesting(arm));
      if (s.kind == Kind::call && s.helper >= 0 && s.helper < static_cast<int>(helper_nesting_.size()))
        deepest = std::max(deepest, 1 + helper_nesting_[static_cast<size_t>(s.helper)]);
    }
    return deepest;
  }

  void fail(std::optional<std::string> why) {
    if (why && !problem_) problem_ = std::move(why);
  }

  void check_block(const Block& block, const Where& w) {
    for (const Stmt& s : block) check_stmt(s, w);
  }

  void check_stmt(const Stmt& s, const Where& w) {
    ids_.push_back(s.id);
    const size_t arms = s.arms.size();
    switch (s.kind) {
      case Kind::assign:
        if (s.assign.dest < 0 || s.assign.dest >= program::kVars) fail(violation("#", s.id, " assigns v", s.assign.dest));
        fail(data_operand_problem(s.assign.a, w, s));
        fail(data_operand_problem(s.assign.b, w, s));
        break;
      case Kind::collective: check_collective(s, w); break;
      case Kind::if_else:
        if (arms != 2) fail(violation("#", s.id, " if_else with ", arms, " arms"));
        break;
      case Kind::loop:
        if (arms != 1) fail(violation("#", s.id, " loop with ", arms, " bodies"));
        fail(control_operand_problem(s.trips, w, s));
        break;
      case Kind::switch_:
        if (arms < 2) fail(violation("#", s.id, " switch with ", arms, " arms"));
        fail(control_operand_problem(s.selector, w, s));
        break;
      case Kind::break_: case Kind::continue_:
        if (w.loops == 0) fail(violation("#", s.id, " ", program::name(s.kind), " outside a loop"));
        break;
      case Kind::return_:
        if (w.in_helper) fail(violation("#", s.id, " return inside a helper"));
        break;
      case Kind::call:
        if (w.in_helper) fail(violation("#", s.id, " call inside a helper"));
        if (s.helper < 0 || s.helper >= static_cast<int>(p_.helpers.size()))
          fail(violation("#", s.id, " calls helper ", s.helper));
        break;
      case Kind::instr: case Kind::observe: case Kind::block_exchange:
        fail(violation("#", s.id, " ", program::name(s.kind), " in a classic program"));
        break;
    }
    if (s.kind == Kind::if_else || s.kind == Kind::break_ || s.kind == Kind::continue_ || s.kind == Kind::return_) {
      fail(control_operand_problem(s.cond.a, w, s));
      fail(control_operand_problem(s.cond.b, w, s));
    }
    if (arms != 0 && s.kind != Kind::if_else && s.kind != Kind::loop && s.kind != Kind::switch_)
      fail(violation("#", s.id, " ", program::name(s.kind), " with blocks"));
    Where inner = w;
    ++inner.depth;
    if (s.kind == Kind::loop) ++inner.loops;
    for (const Block& arm : s.arms) check_block(arm, inner);
  }

  void check_collective(const Stmt& s, const Where& w) {
    const Collective& c = s.call;
    if (program::needs_compute_capability(c.op) > options_.compute_capability)
      fail(violation("#", s.id, " ", program::name(c.op), " above compute capability ", options_.compute_capability));
    if (c.dest < -1 || c.dest >= program::kVars || (c.dest >= 0 && !program::has_result(c.op)))
      fail(violation("#", s.id, " stores into v", c.dest));
    if (program::is_tile(c.op) && (c.width < 1 || c.width > 32 || (c.width & (c.width - 1)) != 0))
      fail(violation("#", s.id, " tile of width ", c.width));
    fail(data_operand_problem(c.value, w, s));
    fail(data_operand_problem(c.arg, w, s));
  }
};

std::optional<std::string> rule_problem(const Program& p, const GenerateOptions& o) { return RuleCheck(p, o).run(); }

// --- which threads reach each dynamic instance: a walk of every thread ---------------------------

// One dynamic instance of a statement: its id and the loop iterations and call sites on the way.
using Instance = std::pair<std::vector<int>, int>;

class ReachWalk {
 public:
  explicit ReachWalk(const Program& p) : p_(p) {
    for (int tid = 0; tid < p.threads; ++tid) {
      tid_ = tid;
      std::vector<int> path;
      std::vector<uint32_t> loops;
      walk(p.body, path, loops);
    }
  }
  // Every instance with the threads that reach it.
  const std::map<Instance, std::set<int>>& reached() const { return reached_; }
  std::map<int, const Stmt*> stmts;

 private:
  enum class Flow { next, break_, continue_, return_ };
  const Program& p_;
  int tid_ = 0;
  std::map<Instance, std::set<int>> reached_;

  uint32_t value(const Value& v, const std::vector<uint32_t>& loops) const {
    switch (v.source) {
      case Source::constant: return v.n;
      case Source::lane: return static_cast<uint32_t>(tid_ % 32);
      case Source::tid: return static_cast<uint32_t>(tid_);
      case Source::warp: return static_cast<uint32_t>(tid_ / 32);
      case Source::input: return p_.inputs[static_cast<size_t>(tid_) * program::kInputWords + v.n];
      case Source::loop_index: return loops[loops.size() - 1 - v.n];
      case Source::var: case Source::wide: case Source::param: case Source::uniform: case Source::lanemask: break;
    }
    return 0;  // RuleCheck refuses a variable and the ptx dialect's sources in control flow
  }

  bool holds(const Predicate& c, const std::vector<uint32_t>& loops) const {
    const uint32_t a = value(c.a, loops), b = value(c.b, loops);
    switch (c.op) {
      case program::Compare::lt: return a < b;
      case program::Compare::le: return a <= b;
      case program::Compare::eq: return a == b;
      case program::Compare::ne: return a != b;
      case program::Compare::gt: return a > b;
      case program::Compare::ge: return a >= b;
      case program::Compare::bit: return ((a >> (b % 32)) & 1u) != 0;
      case program::Compare::slt: return static_cast<int32_t>(a) < static_cast<int32_t>(b);
      case program::Compare::sle: return static_cast<int32_t>(a) <= static_cast<int32_t>(b);
      case program::Compare::sgt: return static_cast<int32_t>(a) > static_cast<int32_t>(b);
      case program::Compare::sge: return static_cast<int32_t>(a) >= static_cast<int32_t>(b);
    }
    return false;
  }

  Flow walk(const Block& block, std::vector<int>& path, std::vector<uint32_t>& loops) {
    for (const Stmt& s : block) {
      stmts[s.id] = &s;
      reached_[{path, s.id}].insert(tid_);
      const Flow flow = step(s, path, loops);
      if (flow != Flow::next) return flow;
    }
    return Flow::next;
  }

  Flow step(const Stmt& s, std::vector<int>& path, std::vector<uint32_t>& loops) {
    switch (s.kind) {
      case Kind::if_else: return walk(s.arms[holds(s.cond, loops) ? 0 : 1], path, loops);
      case Kind::switch_: return walk(s.arms[value(s.selector, loops) % s.arms.size()], path, loops);
      case Kind::break_: return holds(s.cond, loops) ? Flow::break_ : Flow::next;
      case Kind::continue_: return holds(s.cond, loops) ? Flow::continue_ : Flow::next;
      case Kind::return_: return holds(s.cond, loops) ? Flow::return_ : Flow::next;
      case Kind::loop: {
        const uint32_t trips = value(s.trips, loops) % (program::kMaxLoopTrips + 1);
        for (uint32_t i = 0; i < trips; ++i) {
          path.insert(path.end(), {s.id, static_cast<int>(i)});
          loops.push_back(i);
          const Flow flow = walk(s.arms[0], path, loops);
          loops.pop_back();
          path.resize(path.size() - 2);
          if (flow == Flow::return_) return flow;
          if (flow == Flow::break_) break;
        }
        return Flow::next;
      }
      case Kind::call: {
        std::vector<uint32_t> helper_loops;
        path.push_back(s.id);
        walk(p_.helpers[static_cast<size_t>(s.helper)].body, path, helper_loops);
        path.pop_back();
        return Flow::next;
      }
      case Kind::assign: case Kind::collective: case Kind::instr: case Kind::observe: case Kind::block_exchange:
        return Flow::next;
    }
    return Flow::next;
  }
};

// A tile op's instance must hold, in each warp, every existing thread of a tile or none of it.
std::optional<std::string> partial_tile_problem(const Program& p) {
  ReachWalk walk(p);
  for (const auto& [instance, tids] : walk.reached()) {
    const Stmt& s = *walk.stmts.at(instance.second);
    if (s.kind != Kind::collective || !program::is_tile(s.call.op)) continue;
    const int width = s.call.width;
    for (int first = 0; first < p.threads; first += width) {
      int in = 0, existing = 0;
      for (int tid = first; tid < first + width && tid < p.threads; ++tid, ++existing) in += static_cast<int>(tids.count(tid));
      if (in != 0 && in != existing)
        return violation("#", s.id, " ", program::name(s.call.op), "<", width, "> runs on ", in, " of the ", existing,
                         " threads of the tile at thread ", first);
    }
  }
  return std::nullopt;
}

// --- planted bugs: each checker fails on a program that breaks its rule --------------------------

Program one_warp(Block body) {
  Program p;
  p.inputs.assign(static_cast<size_t>(p.threads) * program::kInputWords, 0);
  p.body = std::move(body);
  return p;
}

const Predicate kLaneBelow3{program::Compare::lt, {Source::lane, 0}, {Source::constant, 3}};
const Predicate kLaneBelow16{program::Compare::lt, {Source::lane, 0}, {Source::constant, 16}};

TEST(ProgramCheckers, the_tile_walk_catches_a_tile_op_under_a_branch_that_splits_its_tiles) {
  const Program split = one_warp({if_else(0, kLaneBelow3, {collective(1, Op::tile_ballot, constant(1), constant(0), 4)})});
  EXPECT_TRUE(partial_tile_problem(split).has_value());
  const Program whole = one_warp({if_else(0, kLaneBelow16, {collective(1, Op::tile_ballot, constant(1), constant(0), 16)})});
  EXPECT_EQ(partial_tile_problem(whole), std::nullopt);
}

TEST(ProgramCheckers, the_tile_walk_catches_a_tile_op_after_a_lane_dependent_break) {
  const Stmt leave = branch(3, Kind::break_, kLaneBelow3);
  const Stmt tile_any = collective(2, Op::tile_any, constant(1), constant(0), 8);
  EXPECT_TRUE(partial_tile_problem(one_warp({loop(1, constant(2), {tile_any, leave})})).has_value());
}

TEST(ProgramCheckers, the_rule_check_catches_each_broken_rule) {
  const GenerateOptions options;
  Program p = one_warp({collective(0, Op::ballot)});
  ASSERT_EQ(rule_problem(p, options), std::nullopt);
  Program var_in_predicate = one_warp({if_else(0, when(program::Compare::lt, var(1), constant(3)), {})});
  EXPECT_TRUE(rule_problem(var_in_predicate, options).has_value());
  Stmt stray_break;
  stray_break.kind = Kind::break_;
  EXPECT_TRUE(rule_problem(one_warp({stray_break}), options).has_value());
  Program elect_on_80 = one_warp({collective(0, Op::elect)});
  EXPECT_TRUE(rule_problem(elect_on_80, GenerateOptions{80, true, 28, false, program::Dialect::classic, {}}).has_value());
  Program helper_returns = p;
  Stmt ret;
  ret.kind = Kind::return_;
  ret.id = 0;
  helper_returns.helpers = {{{ret}}};
  helper_returns.body[0].id = 1;
  EXPECT_TRUE(rule_problem(helper_returns, options).has_value());
  Program repeated_id = one_warp({collective(0, Op::ballot), collective(0, Op::any)});
  EXPECT_TRUE(rule_problem(repeated_id, options).has_value());
  Block deep = {collective(program::kMaxDepth + 1, Op::ballot)};
  for (int level = program::kMaxDepth; level >= 0; --level) deep = {if_else(level, kLaneBelow16, deep)};
  EXPECT_TRUE(rule_problem(one_warp(deep), options).has_value());
}

// --- the generator -------------------------------------------------------------------------------

// Law: a program is a pure function of (seed, index): the same pair gives the same text and hash.
TEST(ProgramGenerator, the_same_seed_and_index_give_the_same_program) {
  for (uint64_t index = 0; index < 200; ++index) {
    const Program a = program::generate(kSeed, index), b = program::generate(kSeed, index);
    ASSERT_EQ(program::to_text(a), program::to_text(b)) << "index " << index;
    ASSERT_EQ(program::hash(a), program::hash(b)) << "index " << index;
  }
}

// Law: different indices give different programs (distinct hashes), and the hash ignores the seed
// and index fields.
TEST(ProgramGenerator, different_indices_give_different_programs) {
  std::set<uint64_t> hashes;
  for (uint64_t index = 0; index < kPrograms; ++index) hashes.insert(program::hash(program::generate(kSeed, index)));
  EXPECT_EQ(hashes.size(), kPrograms);
  Program renamed = program::generate(kSeed, 7);
  const uint64_t before = program::hash(renamed);
  renamed.seed = 1, renamed.index = 2;
  EXPECT_EQ(program::hash(renamed), before);
  renamed.inputs[0] ^= 1;
  EXPECT_NE(program::hash(renamed), before);
}

// Law: every generated program keeps the IR's rules (RuleCheck), under every option set.
TEST(ProgramGenerator, programs_keep_the_rules_of_the_ir) {
  const GenerateOptions option_sets[] = {{},
                                         {70, true, 28, false, program::Dialect::classic, {}},
                                         {80, false, 12, false, program::Dialect::classic, {}},
                                         {90, true, 40, true, program::Dialect::classic, {}},
                                         {75, true, 5, true, program::Dialect::classic, {}}};
  for (const GenerateOptions& options : option_sets)
    gen::expect_law(kPrograms, [&](Draw& d) -> LawResult {
      const Program p = program::generate(d, options);
      if (auto why = rule_problem(p, options)) return violation(*why, "\n", program::to_text(p));
      return std::nullopt;
    });
}

// Law: a tile op's lanes are whole tiles: no walk of the program's threads reaches it with part of one.
TEST(ProgramGenerator, tile_ops_run_only_on_whole_tiles) {
  gen::expect_law(kPrograms, [](Draw& d) -> LawResult {
    const Program p = program::generate(d);
    if (auto why = partial_tile_problem(p)) return violation(*why, "\n", program::to_text(p));
    return std::nullopt;
  });
}

// The law above compared something: wide tile ops run where only some of a warp's threads do.
TEST(ProgramGenerator, wide_tile_ops_run_in_regions_that_split_the_warp) {
  uint64_t wide_in_split_regions = 0;
  for (uint64_t index = 0; index < 500; ++index) {
    const Program p = program::generate(kSeed, index);
    ReachWalk walk(p);
    for (const auto& [instance, tids] : walk.reached()) {
      const Stmt& s = *walk.stmts.at(instance.second);
      if (s.kind != Kind::collective || !program::is_tile(s.call.op) || s.call.width < 4) continue;
      const int warp_threads = std::min(p.threads, 32);
      const auto in_warp0 = std::count_if(tids.begin(), tids.end(), [](int tid) { return tid < 32; });
      wide_in_split_regions += in_warp0 > 0 && in_warp0 < warp_threads;
    }
  }
  EXPECT_GE(wide_in_split_regions, 50u);
  std::printf("tile ops of width >= 4 run by part of warp 0: %llu instances\n",
              static_cast<unsigned long long>(wide_in_split_regions));
}

// Law: violate mode flips exactly one lane of exactly one collective's mask.
TEST(ProgramGenerator, violate_mode_flips_one_lane_of_one_collective) {
  gen::expect_law(kPrograms, [](Draw& d) -> LawResult {
    const Program p = program::generate(d, GenerateOptions{90, true, 28, true, program::Dialect::classic, {}});
    std::vector<uint32_t> flips;
    for_each_stmt(p, [&](const Stmt& s) {
      if (s.kind == Kind::collective && s.call.violation != 0) flips.push_back(s.call.violation);
    });
    if (flips.size() != 1 || (flips[0] & (flips[0] - 1)) != 0)
      return violation(flips.size(), " collectives violated, first flip ", flips.empty() ? 0 : flips[0]);
    return std::nullopt;
  });
}

TEST(ProgramGenerator, every_kind_and_op_is_generated_and_merge_and_exchange_targets_are_common) {
  Coverage total;
  uint64_t same_op_if_elses = 0, exchanges = 0;
  std::set<int> thread_counts;
  for (uint64_t index = 0; index < kPrograms; ++index) {
    const Program p = program::generate(kSeed, index);
    total.add(program::generated_coverage(p));
    thread_counts.insert(p.threads);
    for_each_stmt(p, [&](const Stmt& s) {
      exchanges += s.kind == Kind::collective && s.call.op == Op::exchange;
      if (s.kind != Kind::if_else) return;
      std::set<Op> then_ops;
      for (const Stmt& t : s.arms[0]) if (t.kind == Kind::collective) then_ops.insert(t.call.op);
      bool both = false;
      for (const Stmt& e : s.arms[1]) both = both || (e.kind == Kind::collective && then_ops.count(e.call.op));
      same_op_if_elses += both;
    });
  }
  EXPECT_EQ(total.programs, kPrograms);
  for (int k = 0; k < program::kClassicKinds; ++k)
    EXPECT_GT(total.kinds_generated[static_cast<size_t>(k)], 0u) << program::name(static_cast<Kind>(k));
  for (int k = 0; k < program::kOps; ++k)
    EXPECT_GT(total.ops_generated[static_cast<size_t>(k)], 0u) << program::name(static_cast<Op>(k));
  EXPECT_GE(same_op_if_elses, 200u);
  EXPECT_GE(exchanges, 200u);
  EXPECT_GE(thread_counts.size(), 5u);
  std::printf("%s\nif_elses with one op in both arms %llu, exchanges %llu\n", program::coverage_text(total).c_str(),
              static_cast<unsigned long long>(same_op_if_elses), static_cast<unsigned long long>(exchanges));
}

TEST(ProgramGenerator, no_op_above_the_compute_capability_and_every_op_within_it) {
  for (const int cc : {70, 80, 90}) {
    Coverage total;
    for (uint64_t index = 0; index < kPrograms; ++index)
      total.add(program::generated_coverage(program::generate(kSeed, index, GenerateOptions{cc, true, 28, false, program::Dialect::classic, {}})));
    for (int k = 0; k < program::kOps; ++k) {
      const Op op = static_cast<Op>(k);
      if (program::needs_compute_capability(op) > cc)
        EXPECT_EQ(total.ops_generated[static_cast<size_t>(k)], 0u) << program::name(op) << " on " << cc;
      else
        EXPECT_GT(total.ops_generated[static_cast<size_t>(k)], 0u) << program::name(op) << " on " << cc;
    }
  }
}

// --- text, hash and coverage text -----------------------------------------------------------------

TEST(ProgramText, a_copy_prints_and_hashes_the_same_and_every_statement_has_its_line) {
  for (uint64_t index = 0; index < 100; ++index) {
    const Program p = program::generate(kSeed, index);
    const Program copy = p;
    ASSERT_EQ(program::to_text(copy), program::to_text(p));
    ASSERT_EQ(program::hash(copy), program::hash(p));
    const std::string text = program::to_text(p);
    for (size_t id = 0; id < program::statement_count(p); ++id)
      ASSERT_NE(text.find("#" + std::to_string(id) + " "), std::string::npos) << "#" << id << " in\n" << text;
  }
}

TEST(ProgramText, prints_each_statement_form) {
  Stmt assign;
  assign.kind = Kind::assign;
  assign.id = 0;
  assign.assign = {2, program::Arith::shl, {Source::var, 1}, {Source::lane, 0}};
  Stmt shuffle = collective(2, Op::shfl_xor, constant(1), constant(0), 16);
  shuffle.call.dest = 3;
  shuffle.call.value = {Source::input, 1};
  shuffle.call.arg = {Source::constant, 5};
  shuffle.call.violation = 4;
  const Program p = one_warp({assign, if_else(1, kLaneBelow16, {shuffle})});
  const std::string text = program::to_text(p);
  const size_t kernel = text.find("kernel:\n"), inputs = text.find("inputs");
  ASSERT_LT(kernel, inputs) << text;
  EXPECT_EQ(text.substr(kernel, inputs - kernel),
            "kernel:\n"
            "  #0 v2 = v1 << lane\n"
            "  #1 if lane < 16\n"
            "    #2 v3 = shfl_xor(in[1], 5, width 16) violation 0x00000004\n"
            "  else\n");
}

TEST(ProgramCoverage, the_text_names_every_kind_and_op_even_at_zero) {
  Coverage one;
  one.programs = 1234;
  one.kinds_generated[static_cast<size_t>(Kind::loop)] = 4210;
  one.kinds_reached[static_cast<size_t>(Kind::loop)] = 3980;
  const std::string text = program::coverage_text(one);
  EXPECT_EQ(text.rfind("programs 1,234; ", 0), 0u) << text;
  EXPECT_NE(text.find("; loop generated 4,210 reached 3,980;"), std::string::npos) << text;
  for (int k = 0; k < program::kClassicKinds; ++k)
    EXPECT_NE(text.find(std::string(program::name(static_cast<Kind>(k))) + " generated"), std::string::npos);
  for (int k = 0; k < program::kOps; ++k)
    EXPECT_NE(text.find("; " + std::string(program::name(static_cast<Op>(k))) + " generated 0 reached 0"),
              std::string::npos)
        << program::name(static_cast<Op>(k));
  Coverage twice = one;
  twice.add(one);
  EXPECT_EQ(twice.programs, 2468u);
  EXPECT_EQ(twice.kinds_reached[static_cast<size_t>(Kind::loop)], 7960u);
}

TEST(ProgramOps, names_families_and_capabilities_follow_the_table) {
  EXPECT_EQ(program::name(Op::shfl_xor), "shfl_xor");
  EXPECT_EQ(program::name(Op::coalesced_size), "coalesced_size");
  EXPECT_EQ(program::name(Kind::switch_), "switch");
  EXPECT_EQ(program::family(Op::exchange), "syncwarp");
  EXPECT_EQ(program::family(Op::activemask), "vote");
  EXPECT_EQ(program::family(Op::tile_match_any), "cg");
  EXPECT_EQ(program::intrinsic(Op::match_all), "__match_all_sync");
  EXPECT_EQ(program::needs_compute_capability(Op::reduce_xor), 80);
  EXPECT_EQ(program::needs_compute_capability(Op::elect), 90);
  EXPECT_EQ(program::needs_compute_capability(Op::tile_shfl), 70);
  EXPECT_FALSE(program::has_result(Op::syncwarp));
  EXPECT_TRUE(program::has_result(Op::exchange));
  int tiles = 0, coalesced = 0;
  for (int k = 0; k < program::kOps; ++k) {
    tiles += program::is_tile(static_cast<Op>(k));
    coalesced += program::is_coalesced(static_cast<Op>(k));
  }
  EXPECT_EQ(tiles, 9);
  EXPECT_EQ(coalesced, 4);
}

}  // namespace
}  // namespace wc
