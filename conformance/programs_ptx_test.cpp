// The PTX emitter (programs/ptx_emit.hpp) without a GPU: the module's header, its kernels' ABI
// (programs/ptx_abi.hpp), each collective and instruction as its PTX instruction, loops with back edges,
// refusals that say why; ptxas accepting every emitted program at -O0 and -O3 (PtxasAccepts, skipped
// where the toolkit has no ptxas); nvcc compiling the same programs emitted as CUDA C++; and the
// PTX-level shrinker.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/process.hpp"
#include "harness/scratch_dir.hpp"
#include "harness/toolkit.hpp"
#include "programs/builders.hpp"
#include "programs/emit.hpp"
#include "programs/generate.hpp"
#include "programs/instructions.hpp"
#include "programs/ptx_abi.hpp"
#include "programs/ptx_emit.hpp"
#include "programs/ptx_shrink.hpp"
#include "programs/shrink_program.hpp"

namespace wc::program {
namespace {

Program ptx_program(int threads, Block body, std::vector<Helper> helpers = {}) {
  Program p;
  p.seed = 0x707478;
  p.threads = threads;
  p.dialect = Dialect::ptx;
  p.inputs.resize(static_cast<size_t>(threads) * kInputWords);
  for (size_t k = 0; k < p.inputs.size(); ++k) p.inputs[k] = static_cast<uint32_t>(k * 2654435761u);
  p.uniforms = {7, 0xFFFFFFFF, 64, 3, 0x80000000, 1, 2, 9};
  p.params = {17, 0xFFFFFFF0};
  p.helpers = std::move(helpers);
  p.body = std::move(body);
  return p;
}

// Every collective but cooperative groups', in both arms of a divergent if_else, in a loop with break,
// continue and a switch, in a helper, after an early return.
Program every_collective(uint64_t index) {
  int id = 0;
  const auto next = [&] { return id++; };
  Block then_arm{collective(next(), Op::shfl, var(1), lane(), 16, 0), collective(next(), Op::ballot, var(0), constant(0), 32, 1),
                 collective(next(), Op::exchange, var(3), constant(5), 32, 2)};
  Block else_arm{collective(next(), Op::shfl_up, var(2), constant(1), 8, 0), collective(next(), Op::match_any, var(0), constant(0), 32, 5)};
  Block body;
  body.push_back(if_else(next(), lane_below(12), std::move(then_arm), std::move(else_arm)));
  for (Op op : {Op::shfl_down, Op::shfl_xor, Op::all, Op::any, Op::uni, Op::activemask, Op::match_all, Op::syncwarp,
                Op::reduce_add, Op::reduce_min, Op::reduce_max, Op::reduce_and, Op::reduce_or, Op::reduce_xor, Op::elect})
    body.push_back(collective(next(), op, var(4), constant(3), 32, op == Op::syncwarp ? -1 : 3));
  Block switch_arm0{branch(next(), Kind::break_, when(Compare::eq, loop_index(0), constant(2))), collective(next(), Op::ballot, var(0))};
  Block switch_arm1{branch(next(), Kind::continue_, when(Compare::bit, lane(), loop_index(0))), collective(next(), Op::reduce_add, var(1))};
  Block loop_body{switch_on(next(), input(2), {std::move(switch_arm0), std::move(switch_arm1)}), call(next(), 0)};
  body.push_back(loop(next(), lane(), std::move(loop_body)));
  body.push_back(branch(next(), Kind::return_, when(Compare::ge, lane(), constant(30))));
  body.push_back(collective(next(), Op::ballot, constant(1)));
  Helper h;
  h.body = {loop(next(), input(3), {branch(next(), Kind::break_, when(Compare::eq, lane(), loop_index(0))),
                                    collective(next(), Op::any, var(3))})};
  Program p = ptx_program(48, std::move(body), {std::move(h)});
  p.index = index;
  return p;
}

// Every instruction, each of its types' first, some guarded, some of them loads and stores with cache
// operators, in a long bottom-tested loop and at the top; no collective, so no masks.
Program every_instruction(uint64_t index) {
  int id = 0;
  Block top{block_exchange(id++, 1, tid(), constant(33))};
  Block loop_body;
  for (int k = 0; k < kInstrs; ++k) {
    const auto op = static_cast<Instr>(k);
    if (op == Instr::load || op == Instr::store) continue;
    const Type widest[] = {Type::s64, Type::u64, Type::s32, Type::u32, Type::s16, Type::u16};
    const Type type = *std::find_if(std::begin(widest), std::end(widest), [&](Type t) { return allows(op, t); });
    const int dest = bits(result_type(op, type)) == 64 ? k % kWideVars : k % kVars;
    Stmt s = instr(id++, op, type, dest, var(static_cast<uint32_t>(k % kVars)), wide(1), constant(5), constant(3));
    if (op == Instr::selp) s.inst.cond = when(Compare::slt, var(2), constant(9));
    if (k % 4 == 1) s = guarded(s, k % 8 == 1 ? Guard::when_true : Guard::when_false, when(Compare::gt, var(0), input(1)));
    loop_body.push_back(s);
  }
  loop_body.push_back(store(id++, Type::u32, 1, var(2), var(3), Cache::wt));
  loop_body.push_back(store(id++, Type::s64, 8, constant(1), wide(2)));
  loop_body.push_back(load(id++, Type::s16, 0, 1, Space::scratch, var(2), Cache::cg));
  loop_body.push_back(load(id++, Type::u64, 1, 4, Space::input, constant(3), Cache::nc));
  loop_body.push_back(load(id++, Type::u32, 2, 4, Space::uniforms, constant(2), Cache::ldu));
  loop_body.push_back(load(id++, Type::s32, 3, 2, Space::uniforms, lane(), Cache::lu));
  top.push_back(long_loop(id++, uniform(2), 64, true, std::move(loop_body)));
  top.push_back(observe(id++, wide(1)));
  top.push_back(observe(id++, lanemask(4)));
  const int branch_id = id++;
  top.push_back(if_else(branch_id, when(Compare::sge, param(1), constant(0)), {observe(id++, param(0))}, {}));
  Program p = ptx_program(64, std::move(top));
  p.index = index;
  return p;
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(PtxModule, names_the_version_and_target_its_instructions_need) {
  const Program without_elect = every_instruction(0), electing = every_collective(1);
  EXPECT_NE(ptx_module({{&without_elect, ""}}, 90).find(".version 7.8\n.target sm_90\n.address_size 64\n"), std::string::npos);
  EXPECT_NE(ptx_module({{&electing, ""}}, 90).find(".version 8.0\n.target sm_90\n"), std::string::npos) << "elect.sync needs PTX ISA 8.0";
  EXPECT_NE(ptx_module({{&without_elect, ""}}, 80).find(".version 7.0\n.target sm_80\n"), std::string::npos);
  EXPECT_EQ(ptx_isa_version(100, true), "8.6");
  EXPECT_THROW(ptx_isa_version(91, false), std::invalid_argument);
}

TEST(PtxModule, holds_one_entry_per_program_with_the_abi_s_parameters) {
  const Program a = every_collective(0), b = every_instruction(1);
  const std::string module = ptx_module({{&a, ""}, {&b, ""}, {&a, "again"}});
  EXPECT_EQ(occurrences(module, ".visible .entry "), 3u);
  EXPECT_EQ(occurrences(module, ".func "), 2u) << "every_collective's helper, once per copy";
  for (const std::string& kernel : {kernel_name(a), kernel_name(b), kernel_name(a, "again")}) {
    const std::string abi = ".visible .entry " + kernel + "(\n\t.param .u64 " + kernel + "_in,\n\t.param .u64 " + kernel +
                            "_out,\n\t.param .u64 " + kernel + "_wrote,\n\t.param .u64 " + kernel + "_uniforms,\n\t.param .u64 " +
                            kernel + "_scratch,\n\t.param .u32 " + kernel + "_p0,\n\t.param .u32 " + kernel + "_p1)\n";
    EXPECT_NE(module.find(abi), std::string::npos) << kernel;
  }
  EXPECT_THROW(ptx_module({{&a, ""}, {&a, ""}}), std::invalid_argument) << "two kernels of one name";
}

TEST(PtxModule, refuses_cooperative_groups_naming_the_statement) {
  Program p = ptx_program(32, {collective(0, Op::ballot, var(0)), collective(1, Op::tile_shfl, var(1), constant(1), 8)});
  const std::string why = ptx_refusal(p);
  EXPECT_NE(why.find("statement 1: tile_shfl is a cooperative-groups call, which has no PTX emission"), std::string::npos) << why;
  try {
    ptx_module({{&p, ""}});
    ADD_FAILURE() << "a tile op emitted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(kernel_name(p) + ": statement 1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(ptx_refusal(every_collective(0)), "");
}

TEST(PtxModule, refuses_what_the_target_or_the_ir_forbid) {
  EXPECT_NE(ptx_refusal(every_collective(0), 80).find("elect needs sm_90"), std::string::npos);
  const Program nested = ptx_program(64, {if_else(0, lane_below(3), {block_exchange(1, 0, tid(), constant(1))})});
  EXPECT_NE(ptx_refusal(nested).find("statement 1: a block exchange below the kernel's top level"), std::string::npos);
  const Program reads_var = ptx_program(32, {if_else(0, when(Compare::lt, var(1), constant(3)), {})});
  EXPECT_NE(ptx_refusal(reads_var).find("control flow reads a variable"), std::string::npos);
  const Program wide_access = ptx_program(32, {load(0, Type::u32, 0, 8, Space::scratch, constant(0))});
  EXPECT_NE(ptx_refusal(wide_access).find("an access wider than its type"), std::string::npos);
  const Program ldu_per_lane = ptx_program(32, {load(0, Type::u32, 0, 4, Space::uniforms, lane(), Cache::ldu)});
  EXPECT_NE(ptx_refusal(ldu_per_lane).find("ldu.global of an address that is not the warp's"), std::string::npos);
}

TEST(PtxModule, writes_each_collective_as_its_ptx_instruction) {
  const Program p = every_collective(0);
  const std::string module = ptx_module({{&p, ""}});
  for (const char* instruction :
       {"shfl.sync.idx.b32", "shfl.sync.up.b32", "shfl.sync.down.b32", "shfl.sync.bfly.b32", "vote.sync.all.pred",
        "vote.sync.any.pred", "vote.sync.uni.pred", "vote.sync.ballot.b32", "activemask.b32", "match.any.sync.b32",
        "match.all.sync.b32", "redux.sync.add.u32", "redux.sync.min.u32", "redux.sync.max.u32", "redux.sync.and.b32",
        "redux.sync.or.b32", "redux.sync.xor.b32", "bar.warp.sync", "elect.sync", "st.shared.u32", "call (wc_call_ret)"})
    EXPECT_NE(module.find(instruction), std::string::npos) << instruction;
  // c = ((32 - width) << 8) | 0x1f as __shfl_sync passes it, without 0x1f for .up.
  EXPECT_NE(module.find("shfl.sync.idx.b32 %r"), std::string::npos);
  EXPECT_NE(module.find(", 0x101F, "), std::string::npos) << "width 16";
  EXPECT_NE(module.find(", 0x1800, "), std::string::npos) << "up, width 8";
  EXPECT_NE(module.find(", 0x1F, "), std::string::npos) << "width 32";
}

TEST(PtxModule, writes_each_instruction_as_its_ptx_instruction) {
  const Program p = every_instruction(0);
  const std::string module = ptx_module({{&p, ""}});
  for (const char* instruction :
       {"add.s64", "sub.s64", "mul.lo.s64", "mul.hi.s64", "mul.wide.s32", "mad.lo.s64", "mad.hi.s64", "add.cc.u32", "addc.u32",
        "sub.cc.u32", "subc.u32", "add.cc.s64", "addc.s64", "sub.cc.s64", "subc.s64", "min.s64", "max.s64", "and.b64", "or.b64",
        "xor.b64", "not.b64", "shl.b64", "shr.s64", "shf.l.clamp.b32", "shf.r.clamp.b32", "bfe.s64", "bfi.b64", "prmt.b32",
        "popc.b64", "clz.b64", "brev.b64", "selp.b64", "st.global.wt.b8", "st.global.b64", "ld.global.cg.s8", "ld.global.nc.u32",
        "ldu.global.u32", "ld.global.lu.s16", "setp.lt.s32", "bar.sync 0", "%lanemask_gt", "@%p", "@!%p"})
    EXPECT_NE(module.find(instruction), std::string::npos) << instruction;
}

TEST(PtxModule, gives_loops_back_edges_and_keeps_masks_only_for_collectives) {
  const Program collectives = every_collective(0), instructions = every_instruction(0);
  const std::string with = ptx_module({{&collectives, ""}}), without = ptx_module({{&instructions, ""}});
  // every_collective's loop is tested at its head; every_instruction's at its back edge.
  const int head_loop = 27;
  EXPECT_NE(with.find("bra.uni $L" + std::to_string(head_loop) + "_head;"), std::string::npos) << with;
  const Stmt& bottom = instructions.body[1];
  ASSERT_EQ(bottom.kind, Kind::loop);
  EXPECT_NE(without.find(" bra $L" + std::to_string(bottom.id) + "_body;"), std::string::npos);
  EXPECT_NE(without.find("rem.u32 %r"), std::string::npos);
  EXPECT_NE(without.find(", 65;"), std::string::npos) << "trips % (64 + 1)";
  EXPECT_EQ(without.find("vote.sync"), std::string::npos) << "no collective, no mask";
  EXPECT_GE(occurrences(with, "vote.sync.ballot.b32"), 10u) << "a mask at each branch, loop test, break, continue, return";
}

TEST(PtxModule, takes_the_toolchain_runner_s_three_parameters_under_its_abi) {
  const Program p = every_instruction(0);
  const std::string kernel = kernel_name(p), module = ptx_module({{&p, ""}}, 90, PtxAbi::toolchain);
  EXPECT_NE(module.find(".visible .entry " + kernel + "(\n\t.param .u64 " + kernel + "_in,\n\t.param .u64 " + kernel +
                        "_out,\n\t.param .u64 " + kernel + "_uniforms)\n"),
            std::string::npos);
  EXPECT_NE(module.find(".global .align 8 .b8 wc_scratch[8192];"), std::string::npos);
  EXPECT_NE(module.find("ld.global.u32 %r_p0, [%rd_uni+32];"), std::string::npos) << "p0 follows the 8 uniform words";
  EXPECT_EQ(module.find("st.global.u8"), std::string::npos) << "no `wrote`: out holds 0x5E where nothing was written";
  EXPECT_EQ(module.find(".param .u64 " + kernel + "_wrote"), std::string::npos) << "no `wrote` parameter";
}

TEST(ToolchainKernel, carries_the_oracle_s_words_where_it_fixes_every_one) {
  const Program p = every_instruction(0);
  const ToolchainKernel k = toolchain_kernel(p);
  EXPECT_EQ(k.kernel, kernel_name(p));
  EXPECT_EQ(k.threads, 64u);
  EXPECT_EQ(k.input, p.inputs);
  std::vector<uint32_t> uniforms = p.uniforms;
  uniforms.insert(uniforms.end(), p.params.begin(), p.params.end());
  EXPECT_EQ(k.uniforms, uniforms);
  ASSERT_EQ(k.output_words, 64u * kToolchainWordsPerThread);
  for (size_t word = 0; word < k.fixed.size(); ++word)
    ASSERT_TRUE(k.fixed[word]) << "word " << word << " of thread " << word / kToolchainWordsPerThread << " (entry "
                               << (word % kToolchainWordsPerThread) / 2 - 1 << ")";
  ASSERT_TRUE(k.expected.has_value()) << "every output of every_instruction is fixed";
  const std::vector<uint32_t>& out = *k.expected;
  // Thread 0: the block exchange, the two observes and the branch's observe (p1 = 0xFFFFFFF0 is negative): 3 entries.
  EXPECT_EQ(out[0], 3u) << "the count's low word";
  EXPECT_EQ(out[1], 0u) << "the count's high word";
  EXPECT_EQ(out[2], 33u) << "entry 0: thread 33's tid through the block exchange";
  EXPECT_EQ(out[2 + 2 * 3], kToolchainUnwritten) << "entry 3 is past the count";
  EXPECT_EQ(out[kToolchainWordsPerThread - 1], kToolchainUnwritten);

  const ToolchainKernel electing = toolchain_kernel(every_collective(0));
  EXPECT_FALSE(electing.expected.has_value()) << "which lane elect.sync elects only the run shows";
  EXPECT_TRUE(electing.fixed[0]) << "the count is fixed all the same";
  EXPECT_FALSE(electing.fixed[2]);
}

TEST(PtxLaunch, gives_a_runner_the_program_s_buffers) {
  const Program p = every_instruction(4);
  const PtxLaunch l = ptx_launch(p, "s3");
  EXPECT_EQ(l.kernel, kernel_name(p, "s3"));
  EXPECT_EQ(l.threads, 64);
  EXPECT_EQ(l.inputs, p.inputs);
  EXPECT_EQ(l.uniforms, p.uniforms);
  EXPECT_EQ(l.params, p.params);
  EXPECT_EQ(l.output_slots, 64u * kOutputsPerThread);
  EXPECT_EQ(l.scratch_bytes, 64u * kScratchBytes);
  Program classic = p;
  classic.dialect = Dialect::classic;
  classic.uniforms.clear();
  EXPECT_EQ(ptx_launch(classic).uniforms, std::vector<uint32_t>(kUniformWords, 0u)) << "the kernel takes the buffer all the same";
}

TEST(PtxDialectCpp, takes_the_same_parameters_as_the_ptx_kernel) {
  const Program p = every_instruction(0);
  const std::string source = module_source({{&p, "", {}}});
  EXPECT_NE(source.find("extern \"C\" __global__ void " + kernel_name(p) +
                        "(const unsigned* in, unsigned long long* out, unsigned char* wrote, const unsigned* uniforms, "
                        "unsigned char* scratch, unsigned p0, unsigned p1)"),
            std::string::npos);
  Program classic = every_instruction(0);
  classic.dialect = Dialect::classic;
  EXPECT_THROW(module_source({{&classic, "", {}}}), std::invalid_argument) << "no instruction in a classic program";
}

// --- the PTX-level shrinker, with a predicate of text alone ---------------------------------------

TEST(PtxShrink, deletes_every_line_the_predicate_does_not_need) {
  const Program p = every_instruction(0);
  const std::string module = ptx_module({{&p, ""}});
  const auto keeps_both = [](const std::string& m) { return m.find("prmt.b32") != std::string::npos && m.find("addc.s64") != std::string::npos; };
  const PtxShrinkResult r = shrink_ptx(module, keeps_both, 100000);
  EXPECT_FALSE(r.stopped_by_limit);
  EXPECT_TRUE(keeps_both(r.minimal));
  EXPECT_EQ(r.lines_after, 2u) << r.minimal;
  EXPECT_GT(r.lines_before, 100u);
  // The prologue, the epilogue, the declarations and the labels stay.
  for (const char* kept : {"ld.param.u64", "cvta.to.global.u64", ".reg .b32 %v<6>;", "$L_exit:", "st.global.u64 [%rd_out]", "ret;"})
    EXPECT_NE(r.minimal.find(kept), std::string::npos) << kept;
}

TEST(PtxShrink, stops_at_its_limit_and_refuses_what_does_not_fail) {
  const Program p = every_instruction(0);
  const std::string module = ptx_module({{&p, ""}});
  const auto keeps_prmt = [](const std::string& m) { return m.find("prmt.b32") != std::string::npos; };
  const PtxShrinkResult r = shrink_ptx(module, keeps_prmt, 5);
  EXPECT_TRUE(r.stopped_by_limit);
  EXPECT_EQ(r.tries, 5u);
  EXPECT_THROW(shrink_ptx(module, [](const std::string&) { return false; }, 10), std::invalid_argument);
}

TEST(PtxShrink, deletes_no_declaration_label_or_prologue_line) {
  const Program p = every_collective(0);
  const std::vector<std::string> lines = split_lines(ptx_module({{&p, ""}}));
  const std::vector<size_t> deletable = deletable_lines(lines);
  ASSERT_FALSE(deletable.empty());
  for (size_t k : deletable) {
    const std::string& line = lines[k];
    EXPECT_EQ(line[0], '\t') << line;
    EXPECT_NE(line.back(), ':') << line;
    EXPECT_NE(line.rfind("\t.", 0), 0u) << line;
    EXPECT_EQ(line.find("%rd_in,"), std::string::npos) << "the prologue's: " << line;
  }
}

// --- the toolkit's compilers, where they are installed -------------------------------------------

struct Tool {
  std::string path;
  std::string output;  // what the last run printed
};

// Runs `argv` (no shell between it and its words); its output in `output`, and whether it succeeded.
bool run_tool(const std::vector<std::string>& argv, std::string& output) {
  const check::ProcessOutput run = check::run_process_output(argv);
  output = check::command_text(argv) + ": " + run.end.text() + "\n" + run.output;
  return run.end.succeeded();
}

// Modules of `per_module` programs each, emitted for sm_<sm>, compiled by ptxas at -O0 and -O3,
// two modules at a time; every failure printed with ptxas' words and the module kept on disk.
void expect_ptxas_accepts(const std::string& ptxas, const std::vector<Program>& programs, int sm, size_t per_module,
                          const std::string& label, PtxAbi abi = PtxAbi::program) {
  const std::string dir = harness::fresh_test_dir("ptxas-" + label).string();
  std::vector<std::string> files;
  for (size_t begin = 0; begin < programs.size(); begin += per_module) {
    std::vector<PtxProgram> module;
    for (size_t k = begin; k < std::min(programs.size(), begin + per_module); ++k) module.push_back({&programs[k], "m" + std::to_string(k)});
    files.push_back(dir + "/module" + std::to_string(files.size()) + ".ptx");
    std::ofstream(files.back()) << ptx_module(module, sm, abi);
  }
  std::vector<std::string> failures(files.size() * 2);
  const auto compile = [&](size_t job) {
    const std::string& file = files[job / 2];
    const int level = job % 2 == 0 ? 0 : 3;
    std::string output;
    if (!run_tool({ptxas, "-arch=sm_" + std::to_string(sm), "-O" + std::to_string(level), file, "-o",
                   file + ".O" + std::to_string(level) + ".cubin"},
                  output))
      failures[job] = output.substr(0, 3000);
  };
  for (size_t job = 0; job < failures.size(); job += 2) {
    std::thread other([&, job] { compile(job + 1); });
    compile(job);
    other.join();
  }
  for (const std::string& failure : failures) EXPECT_TRUE(failure.empty()) << failure;
}

class PtxasAccepts : public ::testing::Test {
 protected:
  void SetUp() override {
    ptxas_ = harness::find_toolkit_program("ptxas");
    if (ptxas_.empty()) GTEST_SKIP() << "no ptxas in /usr/local/cuda/bin or on PATH: the emitted PTX cannot be compiled here";
  }
  std::string ptxas_;
};

std::vector<Program> generated(uint64_t seed, uint64_t count, const GenerateOptions& options) {
  std::vector<Program> programs;
  for (uint64_t index = 0; index < count; ++index) programs.push_back(generate(seed, index, options));
  return programs;
}

GenerateOptions ptx_options(int cc = 90, int statements = 40) {
  GenerateOptions o;
  o.dialect = Dialect::ptx;
  o.compute_capability = cc;
  o.max_statements = statements;
  return o;
}

TEST_F(PtxasAccepts, generated_programs_of_the_ptx_dialect_at_O0_and_O3) {
  std::vector<Program> programs = generated(0x5EED2026, 150, ptx_options(90, 28));
  for (Program& p : generated(0xC0FFEE, 100, ptx_options(90, 48))) programs.push_back(std::move(p));
  GenerateOptions lean = ptx_options();
  lean.without = parse_feature_list("collectives,helpers,block-exchange").features;  // FuzzX's shape: no masks at all
  for (Program& p : generated(0xF022, 50, lean)) programs.push_back(std::move(p));
  expect_ptxas_accepts(ptxas_, programs, 90, 50, "generated");
}

TEST_F(PtxasAccepts, programs_for_sm_80_without_elect) {
  expect_ptxas_accepts(ptxas_, generated(0x80, 50, ptx_options(80)), 80, 50, "sm80");
}

TEST_F(PtxasAccepts, hand_built_programs_of_every_collective_and_instruction) {
  expect_ptxas_accepts(ptxas_, {every_collective(0), every_instruction(1)}, 90, 2, "hand");
}

TEST_F(PtxasAccepts, programs_under_the_toolchain_runner_s_abi) {
  std::vector<Program> programs = generated(0x7001, 40, ptx_options());
  programs.push_back(every_collective(900));
  programs.push_back(every_instruction(901));
  expect_ptxas_accepts(ptxas_, programs, 90, 42, "toolchain", PtxAbi::toolchain);
}

TEST_F(PtxasAccepts, classic_programs_without_cooperative_groups) {
  std::vector<Program> programs;
  for (uint64_t index = 0; programs.size() < 40 && index < 4000; ++index) {
    Program p = generate(0x77617270636f6e66, index);
    if (ptx_refusal(p).empty()) programs.push_back(std::move(p));
  }
  ASSERT_EQ(programs.size(), 40u);
  expect_ptxas_accepts(ptxas_, programs, 90, 40, "classic");
}

// Every kind of step (deletion, flattening, simpler fields) by one candidate in four of each program.
TEST_F(PtxasAccepts, shrink_candidates_of_the_hand_built_programs) {
  std::vector<Program> programs;
  for (const Program& p : {every_collective(0), every_instruction(1)}) {
    const std::vector<Program> candidates = shrink_candidates(p);
    for (size_t k = 0; k < candidates.size(); k += 4) {
      programs.push_back(candidates[k]);
      programs.back().index = programs.size();
    }
  }
  expect_ptxas_accepts(ptxas_, programs, 90, 40, "shrunk");
}

// A PTX-level shrink whose predicate is that both levels still compile and the module still holds a
// redux.sync: the minimal module compiles, holds it, and is shorter.
TEST_F(PtxasAccepts, a_ptx_level_shrink_keeps_both_levels_compiling) {
  const Program p = every_collective(0);
  const std::string dir = harness::fresh_test_dir("ptxas-shrink").string();
  int tries = 0;
  const auto compiles = [&](const std::string& module) {
    if (module.find("redux.sync") == std::string::npos) return false;
    const std::string file = dir + "/try" + std::to_string(tries++) + ".ptx";
    std::ofstream(file) << module;
    std::string output;
    for (const char* level : {"-O0", "-O3"})
      if (!run_tool({ptxas_, "-arch=sm_90", level, file, "-o", file + ".cubin"}, output)) return false;
    return true;
  };
  const PtxShrinkResult r = shrink_ptx(ptx_module({{&p, ""}}), compiles, 24);
  EXPECT_LT(r.lines_after, r.lines_before);
  EXPECT_TRUE(compiles(r.minimal));
}

TEST(NvccAcceptsPtxDialect, the_same_programs_as_cuda_cpp) {
  const std::string nvcc = harness::find_toolkit_program("nvcc");
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc in /usr/local/cuda/bin or on PATH: the C++ emission cannot be compiled here";
  std::vector<Program> programs = generated(0x5EED2026, 40, ptx_options());
  programs.push_back(every_collective(900));
  programs.push_back(every_instruction(901));
  std::vector<ModuleProgram> module;
  for (const Program& p : programs) module.push_back({&p, "", {}});
  const std::string dir = harness::fresh_test_dir("nvcc-ptx-dialect").string();
  std::ofstream(dir + "/module.cu") << module_source(module);
  std::ofstream(dir + "/standalone.cu") << standalone_source(every_instruction(902));
  std::string output;
  EXPECT_TRUE(run_tool({nvcc, "-arch=sm_90", "-ptx", dir + "/module.cu", "-o", dir + "/module.ptx"}, output))
      << output.substr(0, 3000);
  EXPECT_TRUE(run_tool({nvcc, "-arch=sm_90", "-c", dir + "/standalone.cu", "-o", dir + "/standalone.o"}, output))
      << output.substr(0, 3000);
}

}  // namespace
}  // namespace wc::program
