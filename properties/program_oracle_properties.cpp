// The program oracle (programs/model.hpp), on hand-built programs whose outputs are worked out
// by hand from the documents: a table of cases, each a program and the slots of its outputs in the
// GPU's layout that the documents fix. The same table is run against wrong interpreters (planted
// bugs), each of which some case must catch.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <sstream>
#include <string>

#include "families/reduce/model.hpp"
#include "programs/builders.hpp"
#include "programs/model.hpp"

namespace wc::program {
namespace {

using model::LaneClass;

Stmt ballot(int id) { return collective(id, Op::ballot); }

// Thread t's input word k is 100 t + k, so v0 starts as 100 t and v1 as 100 t + 1.
Program program(Block body, int threads = 32, std::vector<Helper> helpers = {}) {
  Program p;
  p.threads = threads;
  for (int t = 0; t < threads; ++t)
    for (int k = 0; k < kInputWords; ++k) p.inputs.push_back(static_cast<uint32_t>(100 * t + k));
  p.helpers = std::move(helpers);
  p.body = std::move(body);
  return p;
}

constexpr int kCount = -1;  // Slot::entry of the count word
constexpr uint64_t kP = uint64_t{1} << 32;  // match_all's pred, elect's p

// One output slot the documents fix: thread `tid`'s count (entry kCount) or log entry `entry`.
struct Slot {
  int tid = 0;
  int entry = kCount;
  LaneClass cls = LaneClass::defined;
  uint64_t bits = 0;          // compared where the class has a value, under the outcome's care
  std::string_view rule = {};  // compared where given
};
Slot count(int t, uint64_t n) { return {t, kCount, LaneClass::defined, n}; }
Slot entry(int t, int k, uint64_t bits, LaneClass cls = LaneClass::defined) { return {t, k, cls, bits}; }
Slot undefined(int t, int k, std::string_view rule = {}) { return {t, k, LaneClass::undefined, 0, rule}; }
Slot not_called(int t, int k) { return {t, k, LaneClass::not_called, 0}; }

struct Case {
  std::string name;
  Program program;
  std::vector<Slot> slots;
  std::optional<ObservedLog> observed = std::nullopt;
};

// Every thread logged one elect entry naming `leader`.
ObservedLog all_named(int threads, uint32_t leader) {
  ObservedLog o;
  o.count.assign(static_cast<size_t>(threads), 1);
  o.entries.assign(static_cast<size_t>(threads), {leader});
  return o;
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> cases() {
  std::vector<Case> c;
  c.push_back({"shuffle_in_the_then_arm_reading_an_else_lane_is_undefined",
               program({if_else(0, lane_below(16), {collective(1, Op::shfl, lane(), constant(20)),
                                                    collective(2, Op::shfl, tid(), constant(3))})}),
               {undefined(5, 0, "shfl.source-absent"), entry(5, 1, 3), count(5, 2), not_called(5, 2), count(20, 0),
                not_called(20, 0)}});
  c.push_back({"each_arm_votes_over_its_own_lanes",
               program({if_else(0, lane_below(8), {ballot(1)}, {ballot(2)})}),
               {entry(3, 0, 0x000000FF), count(3, 1), entry(30, 0, 0xFFFFFF00), count(30, 1)}});
  // Lane l runs l % 5 iterations; iteration i's ballot holds the lanes with l % 5 > i.
  c.push_back({"ballot_in_a_loop_with_lane_dependent_trips_gives_each_iterations_lanes",
               program({loop(0, lane(), {ballot(1)})}),
               {entry(4, 0, 0xBDEF7BDE), entry(4, 1, 0x39CE739C), entry(4, 2, 0x318C6318), entry(4, 3, 0x21084210),
                count(4, 4), count(3, 3), entry(3, 2, 0x318C6318), count(0, 0), count(5, 0)}});
  c.push_back({"break_removes_its_lanes_from_the_loop_until_it_ends",
               program({loop(0, constant(3), {ballot(1), branch(2, Kind::break_, lane_below(4)), ballot(3)}),
                        ballot(4)}),
               {entry(0, 0, 0xFFFFFFFF), entry(0, 1, 0xFFFFFFFF), count(0, 2), entry(10, 1, 0xFFFFFFF0),
                entry(10, 2, 0xFFFFFFF0), entry(10, 5, 0xFFFFFFF0), entry(10, 6, 0xFFFFFFFF), count(10, 7)}});
  c.push_back({"continue_removes_its_lanes_for_the_rest_of_the_iteration",
               program({loop(0, constant(2), {branch(1, Kind::continue_, when(Compare::bit, lane(), constant(0))),
                                              ballot(2)}),
                        ballot(3)}),
               {entry(1, 0, 0xFFFFFFFF), count(1, 1), entry(2, 0, 0x55555555), entry(2, 1, 0x55555555),
                entry(2, 2, 0xFFFFFFFF), count(2, 3)}});
  c.push_back({"return_exits_its_lanes_for_every_later_call",
               program({branch(0, Kind::return_, when(Compare::ge, lane(), constant(24))), ballot(1),
                        collective(2, Op::shfl, lane(), constant(30))}),
               {entry(3, 0, 0x00FFFFFF), undefined(3, 1, "shfl.source-absent"), count(3, 2), count(25, 0),
                not_called(25, 0)}});
  c.push_back({"each_switch_arm_votes_over_the_lanes_that_take_it",
               program({switch_on(0, lane(), {{ballot(1)}, {ballot(2)}, {}})}),
               {entry(3, 0, 0x49249249), entry(4, 0, 0x92492492), count(5, 0)}});
  c.push_back({"a_helper_runs_with_its_callers_lanes",
               program({if_else(0, lane_below(4), {call(1, 0)}), call(2, 0)}, 32,
                       {Helper{{ballot(3), collective(4, Op::reduce_add, lane())}}}),
               {entry(2, 0, 0xF), entry(2, 1, 0 + 1 + 2 + 3), entry(2, 2, 0xFFFFFFFF), entry(2, 3, 31 * 32 / 2),
                count(2, 4), entry(10, 0, 0xFFFFFFFF), entry(10, 1, 31 * 32 / 2), count(10, 2)}});
  // Lanes 0-7 of each warp exchange their tids: slot 5 of the warp is in the mask, slot 9 is not.
  c.push_back({"exchange_reads_a_lane_of_its_mask_and_not_one_outside_it",
               program({if_else(0, lane_below(8), {collective(1, Op::exchange, tid(), constant(5)),
                                                   collective(2, Op::exchange, tid(), constant(9))})},
                       64),
               {entry(2, 0, 5), undefined(2, 1, "program.exchange.unordered"), entry(34, 0, 37),
                undefined(34, 1, "program.exchange.unordered")}});
  c.push_back({"reduce_runs_over_its_arm",
               program({if_else(0, when(Compare::ge, lane(), constant(16)), {collective(1, Op::reduce_add, lane())},
                                {collective(2, Op::reduce_max, tid())})}),
               {entry(20, 0, 16 + 17 + 18 + 19 + 20 + 21 + 22 + 23 + 24 + 25 + 26 + 27 + 28 + 29 + 30 + 31),
                entry(3, 0, 15)}});
  c.push_back({"match_groups_equal_values_of_the_lanes_that_reach_it",
               program({assign(0, 0, Arith::shr, lane(), constant(3)), collective(1, Op::match_any, var(0)),
                        if_else(2, lane_below(8), {collective(3, Op::match_all, var(0))}),
                        collective(4, Op::match_all, var(0))}),
               {entry(10, 0, 0x0000FF00), entry(3, 0, 0x000000FF), entry(3, 1, 0xFF | kP), entry(3, 2, 0),
                entry(10, 1, 0)}});
  const Program elect_above_3 = program({if_else(0, when(Compare::ge, lane(), constant(4)), {collective(1, Op::elect)})});
  c.push_back({"elect_without_an_observation_takes_the_lowest_lane", elect_above_3,
               {entry(4, 0, 4 | kP), entry(7, 0, 4), count(3, 0)}});
  c.push_back({"elect_takes_the_leader_the_gpu_named", elect_above_3,
               {entry(9, 0, 9 | kP), entry(4, 0, 9)}, all_named(32, 9)});
  c.push_back({"elect_ignores_a_named_leader_outside_the_mask", elect_above_3,
               {entry(4, 0, 4 | kP), entry(9, 0, 4)}, all_named(32, 2)});
  // Threads 32..47 make warp 1; its lanes 16..31 were never launched and act as exited.
  c.push_back({"a_partial_warps_missing_lanes_act_as_exited",
               program({ballot(0), collective(1, Op::shfl, tid(), constant(20))}, 48),
               {entry(40, 0, 0x0000FFFF), undefined(40, 1, "shfl.source-absent"), entry(5, 1, 20), count(47, 2)}});
  // The tiles of 8 of lanes 0..15 are whole; the tile of lanes 8..15 is cut at lane 12.
  c.push_back({"a_tile_op_in_a_region_uniform_at_its_width_is_defined",
               program({if_else(0, lane_below(16), {collective(1, Op::tile_shfl, tid(), constant(2), 8),
                                                    collective(2, Op::tile_thread_rank, constant(0), constant(0), 8)}),
                        if_else(3, lane_below(12), {collective(4, Op::tile_shfl, tid(), constant(2), 8)})},
                       64),
               {entry(13, 0, 10), entry(13, 1, 5), entry(45, 0, 42), entry(45, 1, 5), entry(3, 2, 2),
                undefined(9, 2, "program.mask-contract"), undefined(41, 2, "program.mask-contract")}});
  // v0 of lanes 0..15 comes from a read of lane 20, outside their arm; v1 = v0 + 1 carries that on.
  c.push_back({"a_value_computed_from_an_undefined_result_is_undefined",
               program({if_else(0, lane_below(16), {collective(1, Op::shfl, lane(), constant(20), 32, 0)}),
                        assign(2, 1, Arith::add, var(0), constant(1)),
                        collective(3, Op::shfl, var(1), constant(0)), collective(4, Op::shfl, var(1), constant(17)),
                        ballot(5), collective(6, Op::ballot, var(1))}),
               {undefined(3, 0), undefined(3, 1, "program.tainted-input"), entry(3, 2, 100 * 17 + 1),
                entry(3, 3, 0xFFFFFFFF), undefined(3, 4, "program.tainted-input"),
                undefined(20, 0, "program.tainted-input"), entry(20, 1, 100 * 17 + 1)}});
  // 4 * 4 * 4 ballots: the log keeps kMaxLog = 48 of them and counts all 64.
  c.push_back({"entries_past_the_log_are_counted",
               program({loop(0, constant(4), {loop(1, constant(4), {loop(2, constant(4), {ballot(3)})})})}),
               {count(0, 64), entry(0, kMaxLog - 1, 0xFFFFFFFF), count(31, 64)}});
  // The documents leave open which threads of an arm are converged where a program calls coalesced_threads().
  c.push_back({"coalesced_threads_in_a_program_is_undefined",
               program({if_else(0, lane_below(8), {collective(1, Op::coalesced_size)},
                                {collective(2, Op::coalesced_thread_rank)})}),
               {undefined(3, 0, "program.coalesced.snapshot"), undefined(10, 0, "program.coalesced.snapshot")}});
  Program violating = program({if_else(0, lane_below(8), {ballot(1)}),
                               branch(2, Kind::return_, when(Compare::ge, lane(), constant(24))), ballot(3)});
  violating.body[0].arms[0][0].call.violation = 1u << 31;  // names lane 31, which does not call
  violating.body[2].call.violation = 1u << 30;            // names lane 30, which has exited
  c.push_back({"a_mask_naming_a_lane_that_does_not_call_leaves_the_call_undefined", violating,
               {undefined(3, 0, "program.mask-contract"), entry(3, 1, 0x00FFFFFF), entry(10, 0, 0x00FFFFFF)}});
  return c;
}

std::string describe(const Slot& s) {
  std::ostringstream os;
  os << "tid " << s.tid << (s.entry == kCount ? " count" : " entry " + std::to_string(s.entry));
  return os.str();
}

// What differs between the slots a case expects and the outputs `interpreter` gives; empty where all agree.
using Interpreter = std::function<Trace(const Program&, const ObservedLog*)>;
std::vector<std::string> mismatches(const Case& c, const Interpreter& interpreter) {
  const Trace trace = interpreter(c.program, c.observed ? &*c.observed : nullptr);
  const std::vector<model::LaneOutcome> out = outcomes(c.program, trace);
  std::vector<std::string> bad;
  if (out.size() != static_cast<size_t>(c.program.threads) * (1 + kMaxLog))
    return {"outcomes() gave " + std::to_string(out.size()) + " slots"};
  for (const Slot& s : c.slots) {
    const model::LaneOutcome& o = out[static_cast<size_t>(s.tid * (1 + kMaxLog) + 1 + s.entry)];
    std::ostringstream why;
    if (o.cls != s.cls) {
      why << describe(s) << ": " << model::to_string(o.cls) << ", want " << model::to_string(s.cls);
    } else if (model::has_value(o) && ((o.bits ^ s.bits) & o.care) != 0) {
      why << describe(s) << ": 0x" << std::hex << o.bits << ", want 0x" << s.bits;
    } else if (!s.rule.empty() && (o.rule == nullptr || o.rule->id != s.rule)) {
      why << describe(s) << ": rule " << (o.rule ? o.rule->id : "none") << ", want " << s.rule;
    }
    if (!why.str().empty()) bad.push_back(why.str());
  }
  return bad;
}

Trace oracle(const Program& p, const ObservedLog* observed) { return interpret(p, observed); }

class OracleCase : public ::testing::TestWithParam<Case> {};

// Law: the oracle gives every slot the documents fix, as worked out by hand.
TEST_P(OracleCase, gives_the_documented_outputs) {
  ASSERT_FALSE(GetParam().slots.empty()) << "a case that checks no slot verifies nothing";
  for (const std::string& why : mismatches(GetParam(), oracle)) ADD_FAILURE() << why;
}

INSTANTIATE_TEST_SUITE_P(ProgramOracle, OracleCase, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// Planted bugs: interpreters that are wrong in one way, each written as the oracle run on the program
// rewritten so that the oracle does what the bug does.
void rewrite(Block& block, const std::function<void(Block&)>& f) {
  f(block);
  for (Stmt& s : block)
    for (Block& arm : s.arms) rewrite(arm, f);
}
Interpreter with_rewrite(const std::function<void(Block&)>& f) {
  return [f](const Program& p, const ObservedLog* observed) {
    Program wrong = p;
    rewrite(wrong.body, f);
    for (Helper& h : wrong.helpers) rewrite(h.body, f);
    return interpret(wrong, observed);
  };
}
// Drops every statement of `kind` from a block.
std::function<void(Block&)> dropping(Kind kind) {
  return [kind](Block& b) {
    Block kept;
    for (Stmt& s : b)
      if (s.kind != kind) kept.push_back(std::move(s));
    b = std::move(kept);
  };
}

struct PlantedBug {
  std::string name;
  Interpreter interpreter;
};

void PrintTo(const PlantedBug& b, std::ostream* os) { *os << b.name; }

std::vector<PlantedBug> planted_bugs() {
  return {
      // The else arm runs with its enclosing region's lanes, not the lanes where the condition fails.
      {"else_arm_with_the_parents_mask", with_rewrite([](Block& b) {
         Block out;
         for (Stmt& s : b) {
           Block else_arm = s.kind == Kind::if_else && s.arms.size() > 1 ? std::move(s.arms[1]) : Block{};
           if (s.kind == Kind::if_else && s.arms.size() > 1) s.arms[1].clear();
           out.push_back(std::move(s));
           for (Stmt& e : else_arm) out.push_back(std::move(e));
         }
         b = std::move(out);
       })},
      {"break_ignored", with_rewrite(dropping(Kind::break_))},
      {"continue_ignored", with_rewrite(dropping(Kind::continue_))},
      {"return_ignored", with_rewrite(dropping(Kind::return_))},
      // The log keeps its first kMaxLog entries only, as the GPU stores them, and counts no further.
      {"log_capped_at_kMaxLog",
       [](const Program& p, const ObservedLog* observed) {
         Trace t = interpret(p, observed);
         for (auto& log : t.logs)
           if (log.size() > static_cast<size_t>(kMaxLog)) log.resize(kMaxLog);
         return t;
       }},
  };
}

class OracleCatches : public ::testing::TestWithParam<PlantedBug> {};

// Law: every planted bug gives some slot of the table another outcome.
TEST_P(OracleCatches, the_planted_bug) {
  size_t caught = 0;
  for (const Case& c : cases()) caught += mismatches(c, GetParam().interpreter).empty() ? 0 : 1;
  EXPECT_GT(caught, 0u) << GetParam().name << " passes every case of the table";
}

INSTANTIATE_TEST_SUITE_P(ProgramOracle, OracleCatches, ::testing::ValuesIn(planted_bugs()),
                         [](const ::testing::TestParamInfo<PlantedBug>& info) { return info.param.name; });

// Law: coverage counts each statement once per warp that reaches it, and no statement no lane reaches.
TEST(ProgramOracleCoverage, counts_what_some_lane_reaches) {
  const Program p = program({if_else(0, when(Compare::lt, tid(), constant(40)), {ballot(1)}, {collective(2, Op::shfl, lane())}),
                             loop(3, constant(2), {ballot(4)})},
                            64);
  const Coverage c = interpret(p).coverage;
  const auto kind = [&](Kind k) { return c.kinds_reached[static_cast<size_t>(k)]; };
  const auto op = [&](Op o) { return c.ops_reached[static_cast<size_t>(o)]; };
  EXPECT_EQ(c.programs, 1u);
  EXPECT_EQ(kind(Kind::if_else), 2u);
  EXPECT_EQ(kind(Kind::loop), 2u);
  EXPECT_EQ(kind(Kind::collective), 3u + 4u);  // warp 0: the then arm and two ballots; warp 1: both arms too
  EXPECT_EQ(op(Op::ballot), 1u + 1u + 4u);
  EXPECT_EQ(op(Op::shfl), 1u);
  EXPECT_EQ(op(Op::match_any), 0u);
}

// Every reduce op the oracle takes has an unsigned overload (crt/sm_80_rt.h).
TEST(ProgramOracleReduce, every_reduce_op_has_the_unsigned_overload) {
  for (model::ReduceOp op : model::kReduceOps) EXPECT_TRUE(model::has_overload(op, model::Type::u32)) << model::op_name(op);
}

}  // namespace
}  // namespace wc::program
