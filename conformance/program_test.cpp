// Random warp programs, the emitter and NVRTC: hand-built programs holding every op and every
// statement kind compile on every code path without a GPU, so does each planted miscompile, a bad
// source reports NVRTC's log; and on a GPU, a hand-built program's logs are what the documents give.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "core/batch.hpp"
#include "core/device.hpp"
#include "core/process.hpp"
#include "core/seed.hpp"
#include "harness/gpu_test.hpp"
#include "harness/scratch_dir.hpp"
#include "harness/toolkit.hpp"
#include "programs/builders.hpp"
#include "programs/program_device.hpp"
#include "programs/emit.hpp"
#include "programs/generate.hpp"
#include "programs/run_programs.hpp"

namespace wc::program {
namespace {

// Builds statements with unique ids (an arm's statements get theirs before the statement holding them);
// the operands come from builders.hpp.
class Builder {
 public:
  Stmt call(Op op, int dest, Value value, Value arg = constant(0), int width = 32) {
    Stmt s = next(Kind::collective);
    s.call = {op, dest, value, arg, width, 0};
    return s;
  }
  Stmt assign(int dest, Arith op, Value a, Value b) {
    Stmt s = next(Kind::assign);
    s.assign = {dest, op, a, b};
    return s;
  }
  Stmt if_else(Predicate cond, Block then_arm, Block else_arm) {
    Stmt s = next(Kind::if_else);
    s.cond = cond;
    s.arms = {std::move(then_arm), std::move(else_arm)};
    return s;
  }
  Stmt loop(Value trips, Block body) {
    Stmt s = next(Kind::loop);
    s.trips = trips;
    s.arms = {std::move(body)};
    return s;
  }
  Stmt switch_(Value selector, std::vector<Block> arms) {
    Stmt s = next(Kind::switch_);
    s.selector = selector;
    s.arms = std::move(arms);
    return s;
  }
  Stmt leave(Kind kind, Predicate cond) {
    Stmt s = next(kind);
    s.cond = cond;
    return s;
  }
  Stmt call_helper(int helper) {
    Stmt s = next(Kind::call);
    s.helper = helper;
    return s;
  }

 private:
  Stmt next(Kind kind) {
    Stmt s;
    s.kind = kind;
    s.id = ids_++;
    return s;
  }
  int ids_ = 0;
};

Program with_inputs(Program p) {
  p.inputs.resize(static_cast<size_t>(p.threads) * kInputWords);
  for (size_t k = 0; k < p.inputs.size(); ++k) p.inputs[k] = static_cast<uint32_t>(k * 2654435761u);
  return p;
}

// Every op and every statement kind: collectives in both arms of an if_else (the same op in both, for
// merge), in a loop with break and continue under a switch, in a helper, after an early return.
Program every_op(uint64_t index, bool reduce_and_elect = true) {
  Builder b;
  Program p;
  p.seed = 0x5eed;
  p.index = index;
  p.threads = 48;
  const Predicate low_lanes = when(Compare::lt, lane(), constant(12));
  Block then_arm{b.call(Op::shfl, 0, var(1), lane(), 16), b.call(Op::ballot, 1, var(0)), b.call(Op::exchange, 2, var(3), constant(5))};
  Block else_arm{b.call(Op::shfl_up, 0, var(2), constant(1), 8), b.call(Op::ballot, 4, var(1)), b.call(Op::match_any, 5, var(0))};
  p.body.push_back(b.if_else(low_lanes, std::move(then_arm), std::move(else_arm)));
  for (Op op : {Op::shfl_down, Op::shfl_xor, Op::all, Op::any, Op::uni, Op::activemask, Op::match_all, Op::syncwarp})
    p.body.push_back(b.call(op, 3, var(4), constant(3)));
  if (reduce_and_elect)
    for (Op op : {Op::reduce_add, Op::reduce_min, Op::reduce_max, Op::reduce_and, Op::reduce_or, Op::reduce_xor, Op::elect})
      p.body.push_back(b.call(op, 1, var(5)));
  // Tile ops in a region uniform at 4 lanes: lane >> 2 below 3.
  Block tiles;
  for (Op op : {Op::tile_shfl, Op::tile_shfl_up, Op::tile_shfl_down, Op::tile_shfl_xor, Op::tile_any, Op::tile_all, Op::tile_ballot,
                Op::tile_match_any, Op::tile_thread_rank})
    tiles.push_back(b.call(op, 2, var(2), constant(1), 4));
  p.body.push_back(b.if_else(when(Compare::lt, lane(), constant(12)), std::move(tiles), {b.call(Op::ballot, 0, var(0))}));
  Block coalesced;
  for (Op op : {Op::coalesced_shfl, Op::coalesced_ballot, Op::coalesced_thread_rank, Op::coalesced_size})
    coalesced.push_back(b.call(op, 3, var(3), constant(2)));
  p.body.push_back(b.if_else(when(Compare::bit, input(1), constant(3)), std::move(coalesced), {}));
  Block switch_arm0{b.leave(Kind::break_, when(Compare::eq, loop_index(0), constant(2))), b.call(Op::ballot, 0, var(0))};
  Block switch_arm1{b.leave(Kind::continue_, when(Compare::bit, lane(), loop_index(0))), b.call(Op::reduce_add, 1, var(1))};
  if (!reduce_and_elect) switch_arm1.back().call.op = Op::any;
  Block loop_body{b.assign(5, Arith::add, var(5), loop_index(0)),
                  b.switch_(input(2), {std::move(switch_arm0), std::move(switch_arm1), {b.call(Op::shfl_xor, 2, var(2), constant(1))}}),
                  b.if_else(when(Compare::gt, lane(), constant(20)), {b.leave(Kind::break_, when(Compare::ne, input(0), constant(0)))},
                            {b.leave(Kind::continue_, when(Compare::lt, lane(), constant(3)))}),
                  b.call(Op::match_any, 4, var(4)), b.call_helper(0)};
  p.body.push_back(b.loop(lane(), std::move(loop_body)));
  p.body.push_back(b.leave(Kind::return_, when(Compare::ge, lane(), constant(30))));
  p.body.push_back(b.call(Op::ballot, -1, constant(1)));
  p.body.push_back(b.assign(0, Arith::shl, var(1), var(2)));
  Helper h;
  h.body = {b.loop(input(3), {b.leave(Kind::break_, when(Compare::eq, lane(), loop_index(0))), b.call(Op::any, 0, var(3)),
                              b.call(Op::exchange, 1, var(0), lane())})};
  p.helpers.push_back(std::move(h));
  return with_inputs(std::move(p));
}

constexpr int kDeviceCc = 90;  // NVRTC compiles for it with or without such a GPU

std::string module_of(const Program& p, Miscompile miscompile = {}) { return module_source({{&p, "", miscompile}}); }

// NVRTC needs no GPU but is linked only where the suite is built with CUDA: elsewhere its tests skip.
template <class Base>
class WithNvrtc : public Base {
 protected:
  void SetUp() override {
    if (!gpu::kBuiltWithCuda) GTEST_SKIP() << "built without a CUDA compiler: NVRTC is not linked";
  }
};

class ProgramNvrtc : public WithNvrtc<::testing::TestWithParam<ProgramPath>> {};

TEST_P(ProgramNvrtc, compiles_a_program_of_every_op_and_kind) {
  // compute_75 has no __reduce_*_sync and no elect.sync: such programs are NotSupported there.
  const Program p = every_op(0, GetParam() != ProgramPath::jit_75);
  const CompiledModule m = compile_module(module_of(p), GetParam(), kDeviceCc);
  ASSERT_TRUE(m.ok) << m.log << "\n" << module_of(p);
  EXPECT_FALSE(m.image.empty());
  if (is_jit(GetParam())) EXPECT_NE(m.image.find(".entry " + kernel_name(p)), std::string::npos);
  else EXPECT_EQ(m.image.compare(0, 4, "\x7f" "ELF"), 0) << "a cubin is an ELF file";
}

INSTANTIATE_TEST_SUITE_P(EveryPath, ProgramNvrtc, ::testing::ValuesIn(kAllProgramPaths), [](const auto& info) {
  std::string text(name(info.param));
  std::replace(text.begin(), text.end(), '-', '_');
  return text;
});

class ProgramMiscompile : public WithNvrtc<::testing::TestWithParam<MiscompileKind>> {};

TEST_P(ProgramMiscompile, every_site_compiles_and_changes_the_source) {
  const Program p = every_op(1);
  const std::vector<int> sites = miscompile_sites(p, GetParam());
  ASSERT_FALSE(sites.empty()) << "no " << name(GetParam()) << " site in the program of every op";
  // One module of the program once per site, as a run compiles its candidates.
  std::vector<ModuleProgram> planted;
  for (int site : sites) {
    planted.push_back({&p, "s" + std::to_string(site), {GetParam(), site}});
    EXPECT_NE(module_of(p, {GetParam(), site}), module_of(p)) << name(GetParam()) << " at " << site << " left the source as it was";
  }
  const std::string source = module_source(planted);
  const CompiledModule m = compile_module(source, ProgramPath::sass, kDeviceCc);
  EXPECT_TRUE(m.ok) << name(GetParam()) << ": " << m.log << "\n" << source;
}

INSTANTIATE_TEST_SUITE_P(Every, ProgramMiscompile, ::testing::ValuesIn(kMiscompiles), [](const auto& info) {
  std::string text(name(info.param));
  std::replace(text.begin(), text.end(), '-', '_');
  return text;
});

TEST(ProgramMiscompileSites, are_the_statements_each_kind_names) {
  const Program p = every_op(2);
  // The first if_else (id 6): its then arm holds 0-2, its else arm 3-5; their ballots (1 and 4) merge.
  const std::vector<int> hoist = miscompile_sites(p, MiscompileKind::hoist);
  ASSERT_GE(hoist.size(), 6u);
  EXPECT_EQ(std::vector<int>(hoist.begin(), hoist.begin() + 6), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(miscompile_sites(p, MiscompileKind::hoist), miscompile_sites(p, MiscompileKind::sink));
  EXPECT_EQ(miscompile_sites(p, MiscompileKind::merge), (std::vector<int>{6}));
  const std::vector<int> exchanges = miscompile_sites(p, MiscompileKind::drop_syncwarp);
  ASSERT_EQ(exchanges.size(), 2u);
  EXPECT_EQ(exchanges[0], 2);
  EXPECT_TRUE(miscompile_sites(p, MiscompileKind::none).empty());
}

// One path's counts and the mode, and the exit status they give.
struct StatusCase {
  const char* name;
  uint64_t compared, failures, trapped, hung, errors, caught;
  bool violate;
  MiscompileKind plant;
  int status;
};

constexpr StatusCase kStatusCases[] = {
    {"compared_and_agreed", 500, 0, 0, 0, 0, 0, false, MiscompileKind::none, 0},
    {"compared_nothing", 0, 0, 0, 0, 0, 0, false, MiscompileKind::none, 1},
    {"a_failure", 500, 1, 0, 0, 0, 0, false, MiscompileKind::none, 1},
    {"a_valid_program_trapped", 500, 0, 1, 0, 0, 0, false, MiscompileKind::none, 1},
    {"a_valid_program_hung", 500, 0, 0, 1, 0, 0, false, MiscompileKind::none, 1},
    {"nvrtc_refused_a_module", 500, 0, 0, 0, 1, 0, false, MiscompileKind::none, 1},
    {"violations_trapped_and_hung", 500, 0, 14, 8, 0, 0, true, MiscompileKind::none, 0},
    {"every_violation_trapped", 0, 0, 64, 0, 0, 0, true, MiscompileKind::none, 0},
    {"violations_that_compared_nothing", 0, 0, 0, 0, 0, 0, true, MiscompileKind::none, 1},
    {"a_violating_program_s_defined_output_wrong", 500, 1, 3, 0, 0, 0, true, MiscompileKind::none, 1},
    {"a_violating_program_s_module_refused", 500, 0, 3, 0, 1, 0, true, MiscompileKind::none, 1},
    {"plant_caught", 500, 7, 0, 0, 0, 7, false, MiscompileKind::hoist, 0},
    {"plant_missed", 500, 0, 0, 0, 0, 0, false, MiscompileKind::sink, 1},
};

class ProgramExitStatus : public ::testing::TestWithParam<StatusCase> {};

TEST_P(ProgramExitStatus, is_what_the_paths_counted) {
  const StatusCase& c = GetParam();
  PathSummary ps;
  ps.outputs_compared = c.compared;
  ps.failures = c.failures;
  ps.trapped = c.trapped;
  ps.hung = c.hung;
  ps.errors = c.errors;
  ps.planted_caught = c.caught;
  RunOptions o;
  o.violate = c.violate;
  o.plant = c.plant;
  PathSummary clean;
  clean.outputs_compared = c.compared;
  EXPECT_EQ(exit_status({ps}, o), c.status);
  EXPECT_EQ(exit_status({clean, ps}, o), c.status) << "a clean path changes nothing";
}

INSTANTIATE_TEST_SUITE_P(Counts, ProgramExitStatus, ::testing::ValuesIn(kStatusCases),
                         [](const auto& info) { return std::string(info.param.name); });

using ProgramNvrtcLog = WithNvrtc<::testing::Test>;

TEST_F(ProgramNvrtcLog, an_invalid_source_is_not_ok_and_carries_nvrtc_s_log) {
  const CompiledModule m = compile_module("extern \"C\" __global__ void k() { undeclared_name(); }", ProgramPath::sass, kDeviceCc);
  EXPECT_FALSE(m.ok);
  EXPECT_TRUE(m.image.empty());
  EXPECT_NE(m.log.find("undeclared_name"), std::string::npos) << m.log;
  EXPECT_NE(m.log.find("nvrtcCompileProgram"), std::string::npos) << m.log;
}

TEST(ProgramEmit, names_kernels_by_seed_index_and_suffix_and_refuses_a_bad_suffix) {
  Program p;
  p.seed = 0xabc;
  p.index = 7;
  EXPECT_EQ(kernel_name(p), "wc_program_abc_7");
  EXPECT_EQ(kernel_name(p, "c3"), "wc_program_abc_7_c3");
  EXPECT_THROW(kernel_name(p, "c-3"), std::invalid_argument);
  EXPECT_THROW(module_source({{&p, "", {}}, {&p, "", {}}}), std::invalid_argument);
}

TEST(ProgramEmit, refuses_programs_outside_the_ir_s_rules) {
  Builder b;
  Program reads_a_variable, stray_break, helper_returns;
  reads_a_variable.body = {b.if_else(when(Compare::lt, var(0), constant(1)), {}, {})};
  stray_break.body = {b.leave(Kind::break_, when(Compare::lt, lane(), constant(1)))};
  helper_returns.helpers = {Helper{{b.leave(Kind::return_, when(Compare::lt, lane(), constant(1)))}}};
  for (const Program* p : {&reads_a_variable, &stray_break, &helper_returns})
    EXPECT_THROW(module_of(*p), std::invalid_argument);
}

// The generator's programs, not only hand-built ones, are valid CUDA on every path: the first 16 of the
// default seed as one module (those with reduce or elect left out on jit-75, as the run does).
class ProgramNvrtcGenerated : public WithNvrtc<::testing::TestWithParam<ProgramPath>> {};

TEST_P(ProgramNvrtcGenerated, the_default_seed_s_first_programs_compile_as_one_module) {
  std::vector<Program> programs;
  for (uint64_t index = 0; index < 16; ++index) {
    GenerateOptions options;
    options.compute_capability = target_capability(GetParam(), kDeviceCc);
    programs.push_back(generate(check::kDefaultSeed, index, options));
  }
  std::vector<ModuleProgram> module;
  for (const Program& p : programs) module.push_back({&p, "", {}});
  const std::string source = module_source(module);
  const CompiledModule m = compile_module(source, GetParam(), kDeviceCc);
  ASSERT_TRUE(m.ok) << m.log.substr(0, 2000);
  if (!is_jit(GetParam())) return;
  for (const Program& p : programs) EXPECT_NE(m.image.find(".entry " + kernel_name(p)), std::string::npos) << kernel_name(p);
}

// The ptx dialect's programs emitted as CUDA C++ (the same kernel parameters as their PTX), beside classic
// ones in one module: its prelude and theirs together.
TEST_P(ProgramNvrtcGenerated, the_ptx_dialect_s_programs_compile_beside_classic_ones) {
  std::vector<Program> programs;
  for (uint64_t index = 0; index < 16; ++index) {
    GenerateOptions options;
    options.compute_capability = target_capability(GetParam(), kDeviceCc);
    if (index % 4 != 0) options.dialect = Dialect::ptx;
    programs.push_back(generate(check::kDefaultSeed, index, options));
  }
  std::vector<ModuleProgram> module;
  for (const Program& p : programs) module.push_back({&p, "", {}});
  const CompiledModule m = compile_module(module_source(module), GetParam(), kDeviceCc);
  ASSERT_TRUE(m.ok) << m.log.substr(0, 2000);
}

INSTANTIATE_TEST_SUITE_P(EveryPath, ProgramNvrtcGenerated, ::testing::ValuesIn(kAllProgramPaths), [](const auto& info) {
  std::string text(name(info.param));
  std::replace(text.begin(), text.end(), '-', '_');
  return text;
});

TEST(ProgramStandalone, compiles_with_nvcc_alone) {
  const std::string nvcc = harness::find_toolkit_program("nvcc");
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc on PATH or in /usr/local/cuda/bin: the standalone source cannot be compiled here";
  const Program p = every_op(3);
  const std::string dir = harness::fresh_test_dir("program").string();
  const std::string file = dir + "/" + kernel_name(p) + ".cu";
  std::ofstream(file) << standalone_source(p, {MiscompileKind::merge, miscompile_sites(p, MiscompileKind::merge).at(0)});
  const std::vector<std::string> command = {nvcc, "-arch=sm_90", "-o", dir + "/" + kernel_name(p), file};
  const check::ProcessOutput nvcc_run = check::run_process_output(command);
  EXPECT_TRUE(nvcc_run.end.succeeded()) << check::command_text(command) << ": " << nvcc_run.end.text() << "\n"
                                        << nvcc_run.output;
}

TEST(ProgramStandalone, refuses_a_program_without_its_inputs) {
  Program p;
  p.threads = 32;
  EXPECT_THROW(standalone_source(p), std::invalid_argument);
}

// On a GPU: 48 threads (a full warp and half of one), every lane's log worked out from the documents.
//   0 ballot(1)                   all launched lanes: 0xFFFFFFFF in warp 0, 0xFFFF in warp 1
//   1 if (lane < 4)
//   2   ballot(1)                 the then arm: 0xF
//     else
//   3   shfl(lane, 4)             the else arm holds lane 4: 4
//   4 loop lane % 5 times
//   5   ballot(1)                 iteration i: the lanes of the warp with lane % 5 > i
//   6 return if lane >= 30        lanes 30 and 31 write their count and leave
//   7 ballot(1)                   warp 0: lanes 0-29, warp 1: 0xFFFF
Program hand_built() {
  Builder b;
  Program p;
  p.seed = 0x600d;
  p.threads = 48;
  p.body.push_back(b.call(Op::ballot, -1, constant(1)));
  Block then_arm{b.call(Op::ballot, -1, constant(1))};
  Block else_arm{b.call(Op::shfl, -1, lane(), constant(4))};
  p.body.push_back(b.if_else(when(Compare::lt, lane(), constant(4)), std::move(then_arm), std::move(else_arm)));
  p.body.push_back(b.loop(lane(), {b.call(Op::ballot, -1, constant(1))}));
  p.body.push_back(b.leave(Kind::return_, when(Compare::ge, lane(), constant(30))));
  p.body.push_back(b.call(Op::ballot, -1, constant(1)));
  return with_inputs(std::move(p));
}

std::vector<uint64_t> expected_log(int tid) {
  const int lane = tid % 32, warp = tid / 32;
  const int warp_lanes = warp == 0 ? 32 : 16;
  const uint64_t launched = warp_lanes == 32 ? 0xFFFFFFFFull : (1ull << warp_lanes) - 1;
  std::vector<uint64_t> log{launched, lane < 4 ? 0xFull : 4ull};
  for (int i = 0; i < lane % 5; ++i) {
    uint64_t looping = 0;
    for (int other = 0; other < warp_lanes; ++other)
      if (other % 5 > i) looping |= 1ull << other;
    log.push_back(looping);
  }
  if (lane < 30) log.push_back(warp == 0 ? 0x3FFFFFFFull : 0xFFFFull);
  return log;
}

class ProgramOnGpu : public check::GpuTest, public ::testing::WithParamInterface<ProgramPath> {};

TEST_P(ProgramOnGpu, a_hand_built_program_logs_what_the_documents_give) {
  const Program p = hand_built();
  const std::vector<ModuleProgram> programs{{&p, "", {}}};
  const CompiledModule m = compile_module(module_source(programs), GetParam(), gpu::compute_capability(gpu::device().info));
  ASSERT_TRUE(m.ok) << m.log;
  const ModuleRun run = run_module(m, programs);
  ASSERT_EQ(run.cuda_error, 0) << run.error;
  ASSERT_EQ(run.outputs.size(), 1u);
  const ProgramOutputs& o = run.outputs[0];
  ASSERT_EQ(o.out.size(), static_cast<size_t>(p.threads) * kOutputsPerThread);
  for (int tid = 0; tid < p.threads; ++tid) {
    const std::vector<uint64_t> want = expected_log(tid);
    const size_t at = static_cast<size_t>(tid) * kOutputsPerThread;
    ASSERT_EQ(o.wrote[at], 1) << "thread " << tid << " wrote no count";
    EXPECT_EQ(o.out[at], want.size()) << "thread " << tid << "'s count";
    for (size_t k = 0; k < want.size(); ++k) {
      EXPECT_EQ(o.wrote[at + 1 + k], 1) << "thread " << tid << " entry " << k;
      EXPECT_EQ(o.out[at + 1 + k], want[k]) << "thread " << tid << " entry " << k;
    }
    for (size_t k = want.size(); k < static_cast<size_t>(kMaxLog); ++k) EXPECT_EQ(o.wrote[at + 1 + k], 0) << "thread " << tid << " entry " << k;
  }
}

TEST_P(ProgramOnGpu, the_program_of_every_op_runs_without_a_cuda_error) {
  const Program p = every_op(4);
  const std::vector<ModuleProgram> programs{{&p, "", {}}};
  const CompiledModule m = compile_module(module_source(programs), GetParam(), gpu::compute_capability(gpu::device().info));
  ASSERT_TRUE(m.ok) << m.log;
  const ModuleRun run = run_module(m, programs);
  EXPECT_EQ(run.cuda_error, 0) << run.error;
  std::printf("%s: load %.3f s, run %.4f s\n", std::string(name(GetParam())).c_str(), run.load_seconds, run.run_seconds);
}

INSTANTIATE_TEST_SUITE_P(DefaultPaths, ProgramOnGpu, ::testing::ValuesIn(kDefaultProgramPaths), [](const auto& info) {
  std::string text(name(info.param));
  std::replace(text.begin(), text.end(), '-', '_');
  return text;
});

}  // namespace

}  // namespace wc::program
