// The PTX fuzzer (programs/ptx_fuzz.hpp) without a GPU: the uniform-counter plant's sites and its
// transformation (ptxas accepting the planted module where the toolkit has one), the shrinker's waves,
// the names of random findings, the batch's modules and oracle masks, the whole pipeline and its
// triage on a stand-in for the GPU whose ptxas -O3 "miscompiles" every kernel that holds a prmt, and
// the soak's accounting.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "harness/scratch_dir.hpp"
#include "harness/toolkit.hpp"
#include "programs/builders.hpp"
#include "programs/generate.hpp"
#include "programs/ptx_abi.hpp"
#include "programs/ptx_emit.hpp"
#include "programs/ptx_fuzz.hpp"
#include "programs/ptx_plant.hpp"
#include "programs/ptx_shrink.hpp"
#include "toolchain/ptx_text.hpp"

namespace wc::program {
namespace {

using toolchain::Compiler;
using toolchain::ToolchainPath;

ToolchainPath ptxas(int level) { return {Compiler::ptxas, level}; }
ToolchainPath jit(int level) { return {Compiler::driver_jit, level}; }

Program plant_test_program(int threads, Block body, uint64_t index = 0) {
  Program p;
  p.seed = 0x706c616e74;
  p.index = index;
  p.threads = threads;
  p.dialect = Dialect::ptx;
  p.inputs.resize(static_cast<size_t>(threads) * kInputWords);
  for (size_t k = 0; k < p.inputs.size(); ++k) p.inputs[k] = static_cast<uint32_t>(k * 2654435761u);
  p.uniforms = {7, 0xFFFFFFFF, 64, 3, 0x80000000, 1, 2, 9};
  p.params = {17, 0xFFFFFFF0};
  p.body = std::move(body);
  return p;
}

// m019's shape: a divergent branch, then a loop whose trip count is each lane's own, which logs.
Program run_ahead(uint64_t index = 0, bool bottom_tested = false) {
  Block body{if_else(0, lane_below(7), {instr(1, Instr::add, Type::u32, 1, var(1), constant(3))}),
             long_loop(2, input(1), 40, bottom_tested, {instr(3, Instr::add, Type::u32, 2, var(2), loop_index(0)), observe(4, var(2))})};
  return plant_test_program(32, std::move(body), index);
}

// --- the plant -----------------------------------------------------------------------------------------

struct SiteRow {
  std::string name;
  Program program;
  std::vector<int> sites;
};
std::ostream& operator<<(std::ostream& os, const SiteRow& r) { return os << r.name; }

class UniformCounterSites : public ::testing::TestWithParam<SiteRow> {};

INSTANTIATE_TEST_SUITE_P(
    Table, UniformCounterSites,
    ::testing::Values(
        SiteRow{"a_per_lane_loop_after_a_divergent_branch", run_ahead(), {2}},
        SiteRow{"a_per_lane_loop_inside_a_divergent_arm",
                plant_test_program(32, {if_else(0, when(Compare::bit, tid(), constant(1)), {loop(1, lane(), {observe(2, var(0))})})}), {1}},
        SiteRow{"not_a_uniform_loop_after_a_divergent_branch",
                plant_test_program(32, {if_else(0, lane_below(7), {}), long_loop(1, uniform(2), 64, false, {observe(2, var(0))})}), {}},
        SiteRow{"not_a_per_lane_loop_before_any_divergence",
                plant_test_program(32, {loop(0, lane(), {observe(1, var(0))}), if_else(2, lane_below(7), {})}), {}},
        SiteRow{"not_after_a_branch_every_lane_takes_alike",
                plant_test_program(32, {if_else(0, when(Compare::lt, param(0), constant(3)), {}), loop(1, lane(), {observe(2, var(0))})}), {}}),
    [](const ::testing::TestParamInfo<SiteRow>& info) { return info.param.name; });

TEST_P(UniformCounterSites, are_the_per_lane_loops_reached_after_a_divergent_branch) {
  EXPECT_EQ(uniform_counter_sites(GetParam().program), GetParam().sites);
}

TEST(UniformCounterPlant, takes_the_trip_count_from_the_lowest_active_lane_right_after_it_is_computed) {
  for (bool bottom_tested : {false, true}) {
    const Program p = run_ahead(0, bottom_tested);
    const std::string kernel = kernel_name(p);
    const std::string module = ptx_module({{&p, ""}}, 90, PtxAbi::toolchain);
    const std::string planted = plant_uniform_counter(module, kernel, 2);
    const std::vector<std::string> lines = split_lines(planted);
    const auto rem = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("\trem.u32 ", 0) == 0; });
    ASSERT_NE(rem, lines.end());
    const std::string trips = rem->substr(9, rem->find(',') - 9);
    EXPECT_EQ(*(rem + 2), "\tactivemask.b32 %r_plant_mask;");
    EXPECT_EQ(*(rem + 5), "\tshfl.sync.idx.b32 " + trips + ", " + trips + ", %r_plant_lane, 31, %r_plant_mask;");
    EXPECT_NE(planted.find("\t.reg .b32 %r_plant_mask, %r_plant_lane;"), std::string::npos);
    EXPECT_EQ(lines.size(), split_lines(module).size() + 6);
  }
}

TEST(UniformCounterPlant, changes_only_the_kernel_it_is_given_in_a_module_of_two_with_the_same_statements) {
  const Program a = run_ahead(1), b = run_ahead(2);
  const std::string module = ptx_module({{&a, ""}, {&b, ""}}, 90, PtxAbi::toolchain);
  const std::string planted = plant_uniform_counter(module, kernel_name(b), 2);
  const size_t at = planted.find("activemask.b32 %r_plant_mask");
  ASSERT_NE(at, std::string::npos);
  EXPECT_GT(at, planted.find(".entry " + kernel_name(b)));
  EXPECT_EQ(planted.find("activemask.b32 %r_plant_mask", at + 1), std::string::npos);
  EXPECT_EQ(planted.substr(0, planted.find(".entry " + kernel_name(b))), module.substr(0, module.find(".entry " + kernel_name(b))));
}

TEST(UniformCounterPlant, refuses_a_kernel_without_the_loop) {
  const Program p = run_ahead();
  const std::string module = ptx_module({{&p, ""}}, 90, PtxAbi::toolchain);
  EXPECT_THROW(plant_uniform_counter(module, kernel_name(p), 3), std::invalid_argument);  // #3 is no loop
  EXPECT_THROW(plant_uniform_counter(module, "wc_program_none", 2), std::invalid_argument);
}

TEST(UniformCounterPlant, ptxas_accepts_the_planted_modules_at_O0_and_O3) {
  const std::string ptxas = harness::find_toolkit_program("ptxas");
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas in /usr/local/cuda/bin or on PATH";
  std::vector<Program> programs{run_ahead(0, false), run_ahead(1, true)};
  for (Program& p : generate_programs(0x91A47, 0, 300, ptx_generate_options({}, 90)))
    if (!uniform_counter_sites(p).empty() && programs.size() < 24) programs.push_back(std::move(p));
  ASSERT_GE(programs.size(), 12u) << "the generator makes few run-ahead loops with per-lane counts";
  std::vector<std::string> suffixes(programs.size());
  std::vector<toolchain::PtxKernel> kernels;
  for (const Program& p : programs) kernels.push_back(kernel_of(p));
  const FuzzBatch batch = emit_batch(programs, suffixes, kernels, programs.size(), 90, PtxPlant::uniform_counter);
  ASSERT_EQ(std::count_if(batch.plant_site.begin(), batch.plant_site.end(), [](int s) { return s >= 0; }),
            static_cast<std::ptrdiff_t>(programs.size()));
  const std::string file = harness::fresh_test_dir("ptxas-planted").string() + "/planted.ptx";
  std::ofstream(file) << batch.planted.front();
  for (const char* level : {"-O0", "-O3"}) {
    const check::ProcessOutput r = check::run_process_output({ptxas, "-arch=sm_90", level, file, "-o", file + ".cubin"});
    EXPECT_TRUE(r.end.succeeded()) << level << ": " << r.output.substr(0, 2000);
  }
}

// --- the shrinker's waves ------------------------------------------------------------------------------

TEST(PtxShrinkInWaves, keeps_what_one_at_a_time_keeps_in_fewer_calls) {
  const Program p = run_ahead();
  const std::string module = ptx_module({{&p, ""}}, 90, PtxAbi::toolchain);
  const auto keeps = [](const std::string& m) { return m.find("add.u32 %v2") != std::string::npos && m.find("bra") != std::string::npos; };
  const PtxShrinkResult one = shrink_ptx(module, keeps, 100000);
  for (size_t wave : {2, 5, 16}) {
    size_t calls = 0;
    const StillInterestingWave in_waves = [&](const std::vector<std::string>& modules) {
      ++calls;
      std::vector<bool> out;
      for (const std::string& m : modules) out.push_back(keeps(m));
      return out;
    };
    const PtxShrinkResult r = shrink_ptx_in_waves(module, in_waves, wave, 100000);
    EXPECT_EQ(r.minimal, one.minimal) << "wave " << wave;
    EXPECT_LT(calls, one.tries) << "wave " << wave;
  }
  EXPECT_LT(one.lines_after, one.lines_before);
}

TEST(PtxShrinkInWaves, refuses_an_empty_wave_and_what_does_not_fail) {
  const Program p = run_ahead();
  const std::string module = ptx_module({{&p, ""}}, 90, PtxAbi::toolchain);
  const StillInterestingWave never = [](const std::vector<std::string>& m) { return std::vector<bool>(m.size(), false); };
  EXPECT_THROW(shrink_ptx_in_waves(module, never, 4, 10), std::invalid_argument);
  const StillInterestingWave always = [](const std::vector<std::string>& m) { return std::vector<bool>(m.size(), true); };
  EXPECT_THROW(shrink_ptx_in_waves(module, always, 0, 10), std::invalid_argument);
}

TEST(PtxUnwrittenRegisters, none_in_what_the_emitter_writes_and_one_where_a_definition_went) {
  for (const Program& p : generate_programs(0xDEF, 0, 60, ptx_generate_options({}, 90))) {
    const std::string module = ptx_module({{&p, ""}}, 90, PtxAbi::toolchain);
    ASSERT_FALSE(reads_an_unwritten_register(module)) << to_text(p);
  }
  const Program p = run_ahead();
  std::vector<std::string> lines = split_lines(ptx_module({{&p, ""}}, 90, PtxAbi::toolchain));
  const auto rem = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("\trem.u32 ", 0) == 0; });
  ASSERT_NE(rem, lines.end());
  lines.erase(rem);  // the loop's trip count, which its test reads
  EXPECT_TRUE(reads_an_unwritten_register(join_lines(lines)));
}

// --- names ---------------------------------------------------------------------------------------------

TEST(RandomFindingNames, a_reproducer_names_its_seed_index_and_features_off_and_reads_back) {
  ProgramId id{0x5eed, 17, {}};
  EXPECT_EQ(reproducer_name(id), "ptx/0x5eed/17");
  id.without = parse_feature_list("prmt,elect").features;
  EXPECT_EQ(reproducer_name(id), "ptx/0x5eed/17/without/prmt+elect");
  const std::optional<ProgramId> back = program_of_reproducer(reproducer_name(id));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->seed, id.seed);
  EXPECT_EQ(back->index, id.index);
  EXPECT_EQ(back->without, id.without);
  EXPECT_EQ(replay_line(id, {ptxas(0), jit(4)}, PtxPlant::uniform_counter),
            "warpconf toolchain --random --seed 0x5eed --index 17 --path ptxas-O0 --path jit-O4 --without prmt,elect --plant uniform-counter");
  for (const char* refused : {"known/m001", "ptx/5eed/1", "ptx/0x05/1", "ptx/0x5eed/01", "ptx/0x5eed/1/", "ptx/0x5eed/1/without/",
                              "ptx/0x5eed/1/without/elect+prmt", "ptx/0x5eed/1/without/nothing", "ptx/0xFF/1",
                              "ptx/0x5eed/99999999999999999999"})
    EXPECT_FALSE(program_of_reproducer(refused)) << refused;
}

// --- a batch on a stand-in GPU -------------------------------------------------------------------------

// A stand-in for run_toolchain: every level writes the oracle's fixed words (and 0 where it leaves them
// open, or the kernel has none), but ptxas -O3 "miscompiles" a kernel whose code holds a prmt (its own
// or a helper's it calls), and the planted level one that holds the plant, by flipping the count's
// lowest bit.
toolchain::RunResult stand_in(const std::vector<toolchain::PtxModule>& modules, const toolchain::RunOptions& o) {
  toolchain::RunResult r;
  r.device.compute_capability = 90;
  r.arch = "sm_90";
  r.compiler_version = "stand-in";
  r.paths = o.paths;
  r.outcomes.resize(modules.size());
  for (size_t m = 0; m < modules.size(); ++m)
    for (const toolchain::PtxKernel& k : modules[m].kernels) {
      std::vector<toolchain::KernelOutcome> on;
      for (ToolchainPath p : o.paths) {
        const bool planted = o.plant && o.plant->path == p && m < o.plant->texts.size() && !o.plant->texts[m].empty();
        const std::string code = toolchain::shape(planted ? o.plant->texts[m] : modules[m].text, k.name);
        toolchain::KernelOutcome out;
        out.verdict = toolchain::KernelVerdict::ran;
        out.output.assign(k.output_words, 0);
        for (size_t w = 0; w < k.output_words; ++w)
          if (k.expected && k.fixes(w)) out.output[w] = (*k.expected)[w];
        const bool miscompiled = (p == ptxas(3) && toolchain::shape_holds(code, "prmt.b32")) || (planted && toolchain::shape_holds(code, "activemask.b32 clz.b32"));
        if (miscompiled) out.output[0] ^= 1;
        on.push_back(out);
      }
      r.outcomes[m].push_back(on);
    }
  return r;
}

FuzzOptions stand_in_options(uint64_t count) {
  FuzzOptions o;
  o.seed = 0x9e9;
  o.count = count;
  o.programs_per_module = 16;
  o.run.arch = "sm_90";
  o.run.paths = {ptxas(0), ptxas(1), ptxas(3), jit(0), jit(4)};
  return o;
}

bool holds_prmt(const Program& p) { return toolchain::shape_holds(toolchain::shape(ptx_module({{&p, ""}}, 90, PtxAbi::toolchain), kernel_name(p)), "prmt.b32"); }

TEST(PtxFuzzBatch, its_modules_hold_every_program_once_with_its_oracle_and_mask) {
  const FuzzOptions o = stand_in_options(40);
  const BatchResult b = run_batch(o, stand_in);
  ASSERT_EQ(b.programs.size(), 40u);
  ASSERT_EQ(b.batch.modules.size(), 3u);  // 16, 16, 8
  EXPECT_EQ(b.batch.modules[2].kernels.size(), 8u);
  for (size_t i = 0; i < b.programs.size(); ++i) {
    const auto [m, k] = b.batch.place[i];
    const toolchain::PtxKernel& kernel = b.batch.modules[m].kernels[k];
    const ToolchainKernel want = toolchain_kernel(b.programs[i]);
    EXPECT_EQ(kernel.name, want.kernel);
    EXPECT_EQ(kernel.fixed, want.fixed);
    EXPECT_EQ(*kernel.expected, want.oracle);
    EXPECT_NE(b.batch.modules[m].text.find(".entry " + kernel.name + "("), std::string::npos);
    EXPECT_EQ(b.ids[i].index, i);
  }
  EXPECT_EQ(b.coverage.ptx_programs, 40u);
}

TEST(PtxFuzzBatch, a_level_that_miscompiles_is_a_finding_on_that_level_alone_and_open_words_are_never_failures) {
  const BatchResult b = run_batch(stand_in_options(40), stand_in);
  size_t with_prmt = 0;
  for (size_t i = 0; i < b.programs.size(); ++i) {
    with_prmt += holds_prmt(b.programs[i]) ? 1 : 0;
    ASSERT_EQ(b.judged.finding_of[i].has_value(), holds_prmt(b.programs[i])) << i;
    if (!b.judged.finding_of[i]) continue;
    const toolchain::Finding& f = b.judged.comparison.findings[*b.judged.finding_of[i]];
    EXPECT_EQ(f.levels, std::vector<ToolchainPath>{ptxas(3)});
    EXPECT_EQ(f.kinds, std::vector<std::string>{"wrong-output"});
    EXPECT_EQ(f.reference, "oracle");
  }
  ASSERT_GT(with_prmt, 1u) << "the stand-in needs programs with a prmt";
  EXPECT_TRUE(b.judged.comparison.oracle_disagreements.empty());
  EXPECT_EQ(b.judged.paths[2].findings, with_prmt);
  EXPECT_EQ(b.judged.paths[0].ran, 40u);
  EXPECT_GT(b.judged.paths[0].words_compared, 40u);
}

TEST(PtxFuzzBatch, the_plant_is_caught_on_its_level_in_every_program_it_was_planted_in) {
  FuzzOptions o = stand_in_options(120);
  o.without = parse_feature_list("prmt").features;
  o.plant = PtxPlant::uniform_counter;
  o.planted_path = ptxas(1);
  const BatchResult b = run_batch(o, stand_in);
  EXPECT_GT(b.plant_sites, 3u);
  EXPECT_EQ(b.plant_caught, b.plant_sites);
  for (size_t i = 0; i < b.programs.size(); ++i)
    if (b.judged.finding_of[i]) {
      EXPECT_EQ(b.judged.comparison.findings[*b.judged.finding_of[i]].levels, std::vector<ToolchainPath>{ptxas(1)});
    }
}

TriageOptions stand_in_triage(const FuzzOptions& o) {
  TriageOptions t;
  t.run = o.run;
  t.sm = 90;
  t.wave = 8;
  t.shrink_limit_s = 60;
  return t;
}

TEST(PtxFuzzTriage, shrinks_one_finding_of_a_kind_and_counts_the_programs_holding_its_shape_under_it) {
  const FuzzOptions o = stand_in_options(40);
  const BatchResult b = run_batch(o, stand_in);
  std::ostringstream out;
  std::vector<std::pair<size_t, size_t>> seen_also;
  const std::vector<TriagedFinding> made =
      triage(b.programs, b.ids, b.batch, b.run, b.judged, stand_in_triage(o), stand_in, {}, seen_also, out);
  ASSERT_FALSE(made.empty()) << out.str();
  size_t counted = 0;
  for (const TriagedFinding& t : made) {
    counted += 1 + t.also.size();
    EXPECT_TRUE(t.shrunk);
    EXPECT_LE(t.statements_after, 2u) << out.str().substr(0, 1500);
    EXPECT_LE(t.lines_after, t.lines_before);
    EXPECT_LE(t.lines_after, 6u) << t.minimal_ptx;
    EXPECT_TRUE(toolchain::shape_holds(t.finding.shape, "prmt.b32")) << t.finding.shape;
    EXPECT_EQ(t.finding.signature, toolchain::signature(t.finding.kinds, t.finding.levels, toolchain::shape(t.minimal_ptx, t.minimal_kernel.name)));
    EXPECT_NE(t.finding.signature, t.raw_signature);
    EXPECT_FALSE(reads_an_unwritten_register(t.minimal_ptx)) << t.minimal_ptx;
    EXPECT_FALSE(t.outputs.empty());
  }
  EXPECT_EQ(counted, static_cast<size_t>(std::count_if(b.judged.finding_of.begin(), b.judged.finding_of.end(),
                                                       [](const std::optional<size_t>& f) { return f.has_value(); })));
  EXPECT_NE(out.str().find("shrink round"), std::string::npos);
  EXPECT_TRUE(seen_also.empty());

  // Seen before (a soak's earlier batch), the same programs make no finding of their own.
  std::vector<std::pair<size_t, size_t>> again;
  std::ostringstream quiet;
  EXPECT_TRUE(triage(b.programs, b.ids, b.batch, b.run, b.judged, stand_in_triage(o), stand_in, made, again, quiet).empty());
  EXPECT_EQ(again.size(), counted);
}

TEST(PtxFuzzTriage, the_plant_shrinks_to_its_loop_and_the_branch_before_it) {
  FuzzOptions o = stand_in_options(120);
  o.without = parse_feature_list("prmt").features;
  o.plant = PtxPlant::uniform_counter;
  o.planted_path = ptxas(3);
  const BatchResult b = run_batch(o, stand_in);
  TriageOptions t = stand_in_triage(o);
  t.plant = o.plant;
  t.run.plant = toolchain::RunOptions::Plant{ptxas(3), {}};
  std::ostringstream out;
  std::vector<std::pair<size_t, size_t>> seen_also;
  const std::vector<TriagedFinding> made = triage(b.programs, b.ids, b.batch, b.run, b.judged, t, stand_in, {}, seen_also, out);
  ASSERT_FALSE(made.empty());
  for (const TriagedFinding& f : made) {
    EXPECT_LE(f.statements_after, 3u) << to_text(f.minimal);  // a branch, the loop, and what it logs at most
    EXPECT_FALSE(uniform_counter_sites(f.minimal).empty());
  }
}

TEST(PtxFuzzTriage, without_shrinking_each_finding_keeps_its_program_s_signature) {
  const FuzzOptions o = stand_in_options(40);
  const BatchResult b = run_batch(o, stand_in);
  TriageOptions t = stand_in_triage(o);
  t.shrink = false;
  std::ostringstream out;
  std::vector<std::pair<size_t, size_t>> seen_also;
  for (const TriagedFinding& f : triage(b.programs, b.ids, b.batch, b.run, b.judged, t, stand_in, {}, seen_also, out)) {
    EXPECT_FALSE(f.shrunk);
    EXPECT_EQ(f.finding.signature, f.raw_signature);
    EXPECT_EQ(f.outputs.front().first, "oracle");
  }
  EXPECT_EQ(out.str(), "");
}

// --- the soak's accounting -----------------------------------------------------------------------------

TEST(SoakTally, counts_each_signature_once_and_the_time_to_the_first_finding) {
  SoakTally s;
  add_batch(s, 1000, 4.0, 0, 0, {}, 4.0);
  add_batch(s, 1000, 5.0, 30.0, 1, {{0xabc, "findings/a"}, {0xabc, "findings/a"}}, 39.0);
  add_batch(s, 1000, 5.0, 10.0, 0, {{0xabc, "findings/a"}, {0xdef, "findings/d"}}, 54.0);
  EXPECT_EQ(s.programs, 3000u);
  EXPECT_EQ(s.batches, 3u);
  EXPECT_EQ(s.findings, 4u);
  EXPECT_EQ(s.disagreements, 1u);
  ASSERT_TRUE(s.first_finding_s);
  EXPECT_EQ(*s.first_finding_s, 39.0);
  ASSERT_EQ(s.signatures.size(), 2u);
  EXPECT_EQ(s.signatures[0].programs, 3u);
  EXPECT_EQ(s.signatures[1].at_s, 54.0);
  const std::string report = soak_report(s);
  EXPECT_NE(report.find("3000 programs in 3 batches, 54.0 s (214.3 programs a second checking, 55.6 overall"), std::string::npos) << report;
  EXPECT_NE(report.find("4 findings of 2 signatures, the first after 39.0 s; 1 oracle disagreements"), std::string::npos) << report;
  EXPECT_NE(report.find("signature 0000000000000def: 1 programs, first after 54.0 s, reproducer findings/d"), std::string::npos);
}

TEST(SoakTally, a_soak_without_findings_says_so_and_names_no_first) {
  SoakTally s;
  add_batch(s, 500, 2.0, 0, 0, {}, 2.0);
  const std::string report = soak_report(s);
  EXPECT_NE(report.find("0 findings of 0 signatures; 0 oracle disagreements"), std::string::npos) << report;
}

}  // namespace
}  // namespace wc::program
