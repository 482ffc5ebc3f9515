// The contract probes without a GPU: the probe table, the contracts.txt format, the outcome each
// isolated result becomes, and that --verify reports a changed outcome.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "core/probe.hpp"
#include "families/registry.hpp"
#include "formats/contracts.hpp"
#include "warpconf/probe/probe_command.hpp"

namespace wc::cli {
namespace {

using gpu::ProbeCase;
using gpu::ProbeScenario;

// The probe of this id.
const ProbeCase& probe(std::string_view id) {
  for (const ProbeCase& c : families::probe_cases())
    if (c.id == id) return c;
  throw std::invalid_argument("no probe " + std::string(id));
}

TEST(ProbeTable, every_op_has_every_scenario_with_the_documented_masks) {
  std::set<std::string> ids;
  std::map<std::string_view, std::vector<std::pair<ProbeScenario, uint32_t>>> by_op;
  std::map<std::string_view, bool> contract_case_of;
  for (const ProbeCase& c : families::probe_cases()) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    by_op[c.op->name].push_back({c.scenario, c.mask});
    contract_case_of[c.op->name] = c.op->contract_case;
    const bool half = c.scenario == ProbeScenario::divergent_partial || c.scenario == ProbeScenario::exited_in_mask ||
                      c.scenario == ProbeScenario::other_intrinsic || gpu::is_trap_shape(c.scenario);
    EXPECT_EQ(c.lim, half ? 16 : 32) << c.id << ": the other outside scenarios need every lane to call";
    EXPECT_EQ(gpu::probe_threads(c.scenario), gpu::is_trap_shape(c.scenario) ? 128 : 32) << c.id;
  }
  // The 18 ops probed before elect.sync, elect.sync, and warp_shuffle's 14 (7 calls, each as built and
  // with CCCL's device assertions on; 6 of the calls contract cases).
  ASSERT_EQ(by_op.size(), 33u);
  const std::vector<std::pair<ProbeScenario, uint32_t>> with_mask = {
      {ProbeScenario::control, 0xffffffffu},           {ProbeScenario::converged_outside, 0x1fu},
      {ProbeScenario::converged_outside, 0xfffffffeu}, {ProbeScenario::divergent_outside, 0x1fu},
      {ProbeScenario::divergent_outside, 0xfffffffeu}, {ProbeScenario::converged_outside_constant, 0x1fu},
      {ProbeScenario::converged_outside_constant, 0xfffffffeu}, {ProbeScenario::divergent_outside_constant, 0x1fu},
      {ProbeScenario::divergent_outside_constant, 0xfffffffeu}, {ProbeScenario::divergent_partial, 0x1fu},
      {ProbeScenario::divergent_partial, 0xfffffffeu},  {ProbeScenario::exited_in_mask, 0xffffffffu},
      {ProbeScenario::other_intrinsic, 0xffffffffu},    {ProbeScenario::synccheck_branch, 0xffffu},
      {ProbeScenario::noinline_helper, 0xffffu},        {ProbeScenario::loop_outside, 0xffffu},
      {ProbeScenario::switch_case, 0xffffu}};
  const std::vector<std::pair<ProbeScenario, uint32_t>> control_alone = {{ProbeScenario::control, 0xffffffffu}};
  size_t contract_cases = 0;
  for (const auto& [op, scenarios] : by_op) {
    const bool contract_case = contract_case_of[op];
    contract_cases += contract_case ? 1 : 0;
    if (op == "activemask") EXPECT_EQ(scenarios.size(), 4u);
    else EXPECT_EQ(scenarios, contract_case ? control_alone : with_mask) << op;
  }
  EXPECT_EQ(contract_cases, 12u);
  EXPECT_EQ(probe("reduce_xor.control.ffffffff").op->needs_compute_capability, 80);
  EXPECT_EQ(probe("shfl.control.ffffffff").op->needs_compute_capability, 70);
  EXPECT_EQ(probe("ballot.control.ffffffff").op->other_intrinsic, "__shfl_sync");
  EXPECT_EQ(probe("syncwarp.control.ffffffff").op->other_intrinsic, "__ballot_sync");
  EXPECT_EQ(probe("activemask.control").op->family, "activemask");
  EXPECT_EQ(probe("elect.control.ffffffff").op->needs_compute_capability, 90);
  EXPECT_EQ(probe("warp_shuffle_up_delta_0_asserting.control.ffffffff").op->family, "warp_shuffle");
  // The 238 probes before the trap shapes, their 72, and warp_shuffle's 2 x 17 and 12 contract cases.
  EXPECT_EQ(families::probe_cases().size(), 18u * 17 + 4 + 2 * 17 + 12);
}

// The trap shapes' ids and words: each says its shape, the ballot's mask and the caller outside it.
TEST(ProbeTable, the_trap_shapes_say_their_shape_in_words) {
  const std::vector<std::pair<std::string, std::string>> described = {
      {"shfl.synccheck-branch.ffff", "enter a branch with stores in a loop and make the call there"},
      {"syncwarp.noinline-helper.ffff", "through a __noinline__ function that takes the mask"},
      {"ballot.loop-outside.ffff", "for (i = tx; i <= lim; i += 128), a loop whose trip count depends on the thread"},
      {"reduce_add.switch-case.ffff", "a switch over 8 cases on a per-thread value from memory: threads tx <= lim take case 0"}};
  for (const auto& [id, words] : described) {
    const std::string text = gpu::describe(probe(id));
    EXPECT_NE(text.find(words), std::string::npos) << text;
    EXPECT_NE(text.find("mask = __ballot_sync(~0u, tx < 16) (0xffff in warp 0)"), std::string::npos) << text;
    EXPECT_NE(text.find("lane 16 calls from outside the mask"), std::string::npos) << text;
    EXPECT_NE(text.find("__launch_bounds__(128)"), std::string::npos) << text;
  }
  EXPECT_EQ(gpu::describe(probe("shfl.control.ffffffff")).find("__launch_bounds__"), std::string::npos);
  for (int tx = 0; tx < gpu::kTrapShapeThreads; ++tx) {
    const int taken = gpu::switch_case_of(tx, gpu::kTrapShapeLim);
    EXPECT_EQ(taken == 0, tx <= gpu::kTrapShapeLim) << tx;
    EXPECT_TRUE(taken >= 0 && taken < gpu::kSwitchCases) << tx;
  }
}

// tools/CMakeLists.txt reads the probes' families from the family folders' kProbes entries for the
// probe.verify tests: a family it misses would never be verified.
TEST(ProbeTable, the_probe_verify_tests_cover_every_probed_family) {
  std::set<std::string> probed, tested;
  for (const ProbeCase& c : families::probe_cases()) probed.insert(std::string(c.op->family));
  std::stringstream list(WARPCONF_PROBE_VERIFY_FAMILIES);
  for (std::string family; std::getline(list, family, ',');) tested.insert(family);
  EXPECT_EQ(tested, probed);
}

isolation::CaseResult result(isolation::Outcome o, std::string text = "", int code = 0) {
  isolation::CaseResult r;
  r.outcome = o;
  r.text = std::move(text);
  r.cuda_error = code;
  return r;
}

TEST(ProbeOutcome, each_isolated_result_becomes_its_line) {
  const ProbeCase& shfl = probe("shfl.divergent-outside.1f");
  golden::ContractLine l = contract_line(shfl, result(isolation::Outcome::cuda_error, "cudaErrorIllegalInstruction", 715), 20);
  EXPECT_EQ(l.outcome, "trapped");
  EXPECT_EQ(l.detail, "cudaErrorIllegalInstruction 715");
  EXPECT_EQ(l.mask, "1f");
  EXPECT_EQ(l.scenario, "divergent-outside");
  EXPECT_EQ(contract_line(shfl, result(isolation::Outcome::cuda_error, "cudaErrorInvalidValue", 1), 20).outcome, "cuda-error");
  EXPECT_EQ(contract_line(shfl, result(isolation::Outcome::hung), 2.5).detail, "killed after 2.5 s");
  isolation::CaseResult crashed = result(isolation::Outcome::crashed);
  crashed.signal = 11;
  EXPECT_EQ(contract_line(shfl, crashed, 20).detail, "signal 11");
  EXPECT_EQ(contract_line(shfl, result(isolation::Outcome::ran, "65*31 -"), 20).detail, "65*31 -");
  const ProbeCase& active = probe("activemask.control");
  EXPECT_EQ(contract_line(active, result(isolation::Outcome::ran, "ffff*16 -*16"), 20).mask, "-");
  EXPECT_TRUE(is_trap(715) && is_trap(700) && is_trap(719) && !is_trap(1) && !is_trap(46));
}

golden::ContractsFile sample() {
  golden::ContractsFile f;
  f.header = {"NVIDIA H100 80GB HBM3", "9.0", "580.159.04", "13.0", "13.0.88", "0.1.0", "2026-11-22T06:00:00Z",
              {"sass", "sass-debug"}, 0};
  f.probes = {{"sass", "shfl.control.ffffffff", "control", "ffffffff", 32, "ran", "65 66 67*30", 0},
              {"sass", "shfl.divergent-outside.1f", "divergent-outside", "1f", 32, "trapped", "cudaErrorIllegalInstruction 715", 0},
              {"sass", "syncwarp.exited-in-mask.ffffffff", "exited-in-mask", "ffffffff", 16, "hung", "killed after 20 s", 0},
              {"sass", "activemask.control", "control", "-", 32, "ran", "ffffffff*32", 0},
              {"sass-debug", "shfl.control.ffffffff", "control", "ffffffff", 32, "ran", "65 66 67*30", 0}};
  return f;
}

TEST(ContractsFormat, round_trips) {
  const golden::ContractsFile f = sample();
  const std::string text = golden::write_contracts(f);
  EXPECT_EQ(text.substr(0, text.find('\n')), "warpconf-contracts 2");
  EXPECT_NE(text.find("\npaths: sass, sass-debug\nprobes: 5\nsass shfl.control.ffffffff control mask=ffffffff lim=32 | ran | "
                      "65 66 67*30\n"),
            std::string::npos) << text;
  EXPECT_NE(text.find("\nsass-debug shfl.control.ffffffff control"), std::string::npos) << text;
  std::istringstream in(text);
  const golden::ContractsFile back = golden::read_contracts(in, "x");
  EXPECT_EQ(back.header.device, f.header.device);
  EXPECT_EQ(back.header.paths, f.header.paths);
  EXPECT_EQ(back.header.probes, 5u);
  ASSERT_EQ(back.probes.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(back.probes[i].path, f.probes[i].path);
    EXPECT_EQ(golden::behaviour(back.probes[i]), golden::behaviour(f.probes[i]));
    EXPECT_EQ(back.probes[i].line, 11 + i);
  }
  EXPECT_EQ(golden::write_contracts(back), text);
}

TEST(ContractsFormat, rejects_each_defect_at_its_line) {
  const std::string good = golden::write_contracts(sample());
  const auto error_of = [](const std::string& text) -> std::string {
    std::istringstream in(text);
    try {
      golden::read_contracts(in, "c.txt");
    } catch (const golden::FormatError& e) {
      return e.what();
    }
    return "accepted";
  };
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    const size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return t.replace(at, from.size(), to);
  };
  EXPECT_EQ(error_of(good), "accepted");
  EXPECT_EQ(error_of(replaced("warpconf-contracts 2", "warpconf-contracts 1")),
            "c.txt:1: the first line must be `warpconf-contracts 2`");
  EXPECT_EQ(error_of(replaced("driver: ", "drivers: ")).rfind("c.txt:4:", 0), 0u);
  EXPECT_EQ(error_of(replaced("paths: sass, sass-debug", "paths: sass, sass-fast")),
            "c.txt:9: paths: 'sass-fast' is not a code path (sass, sass-debug, sass-ptxas-O0, jit-native, jit-75)");
  EXPECT_EQ(error_of(replaced("paths: sass, sass-debug", "paths: sass, sass")), "c.txt:9: paths: sass twice");
  EXPECT_EQ(error_of(replaced("paths: sass, sass-debug", "paths: sass,sass-debug")).rfind("c.txt:9: paths:", 0), 0u);
  EXPECT_EQ(error_of(replaced("paths: sass, sass-debug", "paths: sass")),
            "c.txt:15: path sass-debug is not in the header's `paths:`");
  EXPECT_EQ(error_of(replaced("paths: sass, sass-debug", "paths: sass, sass-debug, jit-75")),
            "c.txt:15: the header lists path jit-75 and no probe line names it");
  EXPECT_EQ(error_of(replaced("\nsass shfl.control", "\nsass-O3 shfl.control")).rfind("c.txt:11: 'sass-O3' is not a code path", 0),
            0u);
  EXPECT_EQ(error_of(replaced("\nsass shfl.control", "\nshfl.control")).rfind("c.txt:11: the inputs are `<path> <id>", 0), 0u);
  EXPECT_EQ(error_of(replaced("| ran | 65 66 67*30", "| ran | 65 66 67*29")).rfind("c.txt:11: ran needs 32 outputs", 0), 0u);
  EXPECT_EQ(error_of(replaced("| trapped | cudaErrorIllegalInstruction 715", "| trapped | cudaErrorIllegalInstruction")).rfind("c.txt:12:", 0), 0u);
  EXPECT_EQ(error_of(replaced("| hung |", "| slow |")).rfind("c.txt:13: unknown outcome", 0), 0u);
  EXPECT_EQ(error_of(replaced("lim=16", "lim=33")).rfind("c.txt:13:", 0), 0u);
  EXPECT_EQ(error_of(replaced("activemask.control", "shfl.control.ffffffff")).rfind("c.txt:14: probe shfl.control.ffffffff twice on sass", 0), 0u);
  EXPECT_EQ(error_of(replaced("probes: 5", "probes: 6")).rfind("c.txt:15: fewer probe lines", 0), 0u);
  EXPECT_EQ(error_of(good + "\n").rfind("c.txt:16: more lines", 0), 0u);
  EXPECT_EQ(error_of(good.substr(0, good.size() - 1)).rfind("c.txt:15: the last line has no newline", 0), 0u);
  EXPECT_EQ(error_of(replaced("mask=1f", "mask=1F")).rfind("c.txt:12:", 0), 0u);
}

TEST(ContractsVerify, a_changed_outcome_or_value_is_a_behaviour_change_and_a_hang_time_is_not) {
  const golden::ContractsFile recorded = sample();
  std::vector<golden::ContractLine> now = recorded.probes;
  EXPECT_TRUE(contract_changes(recorded, now).empty());
  now[2].detail = "killed after 5 s";  // another --timeout: the same behaviour
  EXPECT_TRUE(contract_changes(recorded, now).empty());
  now[1].outcome = "ran";  // the driver stopped trapping
  now[1].detail = "0*32";
  now[0].detail = "65 66 68*30";  // a value changed
  now.push_back({"sass", "new.control.ffffffff", "control", "ffffffff", 32, "ran", "0*32", 0});
  now[4].outcome = "trapped";  // the same probe on another path: that path differs
  now[4].detail = "cudaErrorIllegalInstruction 715";
  now.push_back({"jit-75", "shfl.control.ffffffff", "control", "ffffffff", 32, "ran", "0*32", 0});  // a path not recorded
  const std::vector<std::string> changes = contract_changes(recorded, now);
  ASSERT_EQ(changes.size(), 4u);
  EXPECT_EQ(changes[0], "sass shfl.control.ffffffff: was ran 65 66 67*30, now ran 65 66 68*30");
  EXPECT_EQ(changes[1], "sass shfl.divergent-outside.1f: was trapped cudaErrorIllegalInstruction 715, now ran 0*32");
  EXPECT_EQ(changes[2], "sass-debug shfl.control.ffffffff: was ran 65 66 67*30, now trapped cudaErrorIllegalInstruction 715");
  EXPECT_EQ(changes[3], "sass new.control.ffffffff: not recorded, now ran 0*32");
}

}  // namespace
}  // namespace wc::cli
