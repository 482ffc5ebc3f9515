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
#include "warpconf/probe.hpp"

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
  for (const ProbeCase& c : families::probe_cases()) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    by_op[c.op->name].push_back({c.scenario, c.mask});
    const bool half = c.scenario == ProbeScenario::divergent_partial || c.scenario == ProbeScenario::exited_in_mask ||
                      c.scenario == ProbeScenario::other_intrinsic;
    EXPECT_EQ(c.lim, half ? 16 : 32) << c.id << ": the other outside scenarios need every lane to call";
  }
  ASSERT_EQ(by_op.size(), 19u);  // the 18 ops probed before elect.sync, and elect.sync
  const std::vector<std::pair<ProbeScenario, uint32_t>> with_mask = {
      {ProbeScenario::control, 0xffffffffu},           {ProbeScenario::converged_outside, 0x1fu},
      {ProbeScenario::converged_outside, 0xfffffffeu}, {ProbeScenario::divergent_outside, 0x1fu},
      {ProbeScenario::divergent_outside, 0xfffffffeu}, {ProbeScenario::converged_outside_constant, 0x1fu},
      {ProbeScenario::converged_outside_constant, 0xfffffffeu}, {ProbeScenario::divergent_outside_constant, 0x1fu},
      {ProbeScenario::divergent_outside_constant, 0xfffffffeu}, {ProbeScenario::divergent_partial, 0x1fu},
      {ProbeScenario::divergent_partial, 0xfffffffeu},  {ProbeScenario::exited_in_mask, 0xffffffffu},
      {ProbeScenario::other_intrinsic, 0xffffffffu}};
  for (const auto& [op, scenarios] : by_op) {
    if (op == "activemask") EXPECT_EQ(scenarios.size(), 4u);
    else EXPECT_EQ(scenarios, with_mask) << op;
  }
  EXPECT_EQ(probe("reduce_xor.control.ffffffff").op->needs_compute_capability, 80);
  EXPECT_EQ(probe("shfl.control.ffffffff").op->needs_compute_capability, 70);
  EXPECT_EQ(probe("ballot.control.ffffffff").op->other_intrinsic, "__shfl_sync");
  EXPECT_EQ(probe("syncwarp.control.ffffffff").op->other_intrinsic, "__ballot_sync");
  EXPECT_EQ(probe("activemask.control").op->family, "activemask");
  EXPECT_EQ(probe("elect.control.ffffffff").op->needs_compute_capability, 90);
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
  f.header = {"NVIDIA H100 80GB HBM3", "9.0", "580.159.04", "13.0", "13.0.88", "sass", "0.1.0", "2026-11-22T06:00:00Z", 0};
  f.probes = {{"shfl.control.ffffffff", "control", "ffffffff", 32, "ran", "65 66 67*30", 0},
              {"shfl.divergent-outside.1f", "divergent-outside", "1f", 32, "trapped", "cudaErrorIllegalInstruction 715", 0},
              {"syncwarp.exited-in-mask.ffffffff", "exited-in-mask", "ffffffff", 16, "hung", "killed after 20 s", 0},
              {"activemask.control", "control", "-", 32, "ran", "ffffffff*32", 0}};
  return f;
}

TEST(ContractsFormat, round_trips) {
  const golden::ContractsFile f = sample();
  const std::string text = golden::write_contracts(f);
  EXPECT_EQ(text.substr(0, text.find('\n')), "warpconf-contracts 1");
  EXPECT_NE(text.find("\nprobes: 4\nshfl.control.ffffffff control mask=ffffffff lim=32 | ran | 65 66 67*30\n"),
            std::string::npos) << text;
  std::istringstream in(text);
  const golden::ContractsFile back = golden::read_contracts(in, "x");
  EXPECT_EQ(back.header.device, f.header.device);
  EXPECT_EQ(back.header.probes, 4u);
  ASSERT_EQ(back.probes.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
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
  EXPECT_EQ(error_of(replaced("warpconf-contracts 1", "warpconf-contracts 2")).rfind("c.txt:1:", 0), 0u);
  EXPECT_EQ(error_of(replaced("driver: ", "drivers: ")).rfind("c.txt:4:", 0), 0u);
  EXPECT_EQ(error_of(replaced("| ran | 65 66 67*30", "| ran | 65 66 67*29")).rfind("c.txt:11: ran needs 32 outputs", 0), 0u);
  EXPECT_EQ(error_of(replaced("| trapped | cudaErrorIllegalInstruction 715", "| trapped | cudaErrorIllegalInstruction")).rfind("c.txt:12:", 0), 0u);
  EXPECT_EQ(error_of(replaced("| hung |", "| slow |")).rfind("c.txt:13: unknown outcome", 0), 0u);
  EXPECT_EQ(error_of(replaced("lim=16", "lim=33")).rfind("c.txt:13:", 0), 0u);
  EXPECT_EQ(error_of(replaced("activemask.control", "shfl.control.ffffffff")).rfind("c.txt:14: probe shfl.control.ffffffff twice", 0), 0u);
  EXPECT_EQ(error_of(replaced("probes: 4", "probes: 5")).rfind("c.txt:14: fewer probe lines", 0), 0u);
  EXPECT_EQ(error_of(good + "\n").rfind("c.txt:15: more lines", 0), 0u);
  EXPECT_EQ(error_of(good.substr(0, good.size() - 1)).rfind("c.txt:14: the last line has no newline", 0), 0u);
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
  now.push_back({"new.control.ffffffff", "control", "ffffffff", 32, "ran", "0*32", 0});
  const std::vector<std::string> changes = contract_changes(recorded, now);
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0], "shfl.control.ffffffff: was ran 65 66 67*30, now ran 65 66 68*30");
  EXPECT_EQ(changes[1], "shfl.divergent-outside.1f: was trapped cudaErrorIllegalInstruction 715, now ran 0*32");
  EXPECT_EQ(changes[2], "new.control.ffffffff: not recorded, now ran 0*32");
}

}  // namespace
}  // namespace wc::cli
