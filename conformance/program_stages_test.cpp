// The program pipeline's stages alone, on the host (programs/stages.hpp): generate, interpret, emit,
// compare of given outputs, triage and record; compile and run need NVRTC and a GPU (program_test.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "core/batch.hpp"
#include "programs/emit.hpp"
#include "programs/generate.hpp"
#include "programs/model.hpp"
#include "programs/run_programs.hpp"
#include "programs/stages.hpp"

namespace wc::program {
namespace {

constexpr int kSm90 = 90;

RunOptions options(uint64_t first, uint64_t count) {
  RunOptions o;
  o.seed = 0x10;
  o.first = first;
  o.count = count;
  o.paths = {ProgramPath::sass};
  return o;
}

Planned planned_programs(const RunOptions& o, Coverage& coverage) {
  return interpret_programs(generate_programs(o, kSm90), o.plant, coverage);
}

// Fills `shared` with the outputs the oracle wants of every program: what a conforming GPU writes, and
// the sentinel where it writes nothing.
void write_wanted_outputs(const Planned& planned, SharedOutputs& shared) {
  for (size_t i = 0; i < planned.programs.size(); ++i) {
    const std::vector<model::LaneOutcome> want = outcomes(planned.programs[i], planned.traces[i]);
    for (size_t k = 0; k < want.size(); ++k) {
      const bool called = want[k].cls != model::LaneClass::not_called;
      shared.out(i)[k] = called ? want[k].bits : gpu::kSentinel;
      shared.wrote(i)[k] = called ? 1 : 0;
    }
  }
}

// The first output of program `i` whose every bit the oracle fixes.
size_t first_defined_output(const Planned& planned, size_t i) {
  const std::vector<model::LaneOutcome> want = outcomes(planned.programs[i], planned.traces[i]);
  for (size_t k = 0; k < want.size(); ++k)
    if (want[k].cls == model::LaneClass::defined && want[k].care == ~uint64_t{0}) return k;
  ADD_FAILURE() << "program " << i << " has no defined output";
  return 0;
}

std::vector<const Program*> pointers(const Planned& planned) {
  std::vector<const Program*> ptrs;
  for (const Program& p : planned.programs) ptrs.push_back(&p);
  return ptrs;
}

PathSummary passing_path(ProgramPath path, size_t count) {
  PathSummary ps;
  ps.path = path;
  ps.verdicts.assign(count, ProgramVerdict::pass);
  return ps;
}

TEST(ProgramStages, generate_gives_the_programs_of_the_seed_s_indices) {
  const RunOptions o = options(3, 5);
  const std::vector<Program> programs = generate_programs(o, kSm90);
  ASSERT_EQ(programs.size(), 5u);
  GenerateOptions g;
  g.compute_capability = kSm90;
  for (size_t i = 0; i < programs.size(); ++i) EXPECT_EQ(to_text(programs[i]), to_text(generate(0x10, 3 + i, g))) << i;
}

TEST(ProgramStages, interpret_traces_each_program_and_counts_what_was_generated_and_reached) {
  RunOptions o = options(0, 12);
  o.plant = MiscompileKind::hoist;
  Coverage coverage;
  const Planned planned = planned_programs(o, coverage);
  Coverage want;
  size_t planted = 0;
  for (size_t i = 0; i < o.count; ++i) {
    const Trace trace = interpret(planned.programs[i]);
    EXPECT_EQ(outcomes(planned.programs[i], planned.traces[i]).size(), outcomes(planned.programs[i], trace).size()) << i;
    Coverage c = trace.coverage;
    take_generated(c, generated_coverage(planned.programs[i]));
    want.add(c);
    const std::vector<int> sites = miscompile_sites(planned.programs[i], o.plant);
    EXPECT_EQ(planned.plants[i].kind, sites.empty() ? MiscompileKind::none : o.plant) << i;
    if (!sites.empty()) {
      EXPECT_EQ(planned.plants[i].stmt, sites.front()) << i;
      ++planted;
    }
  }
  EXPECT_EQ(coverage_text(coverage), coverage_text(want));
  EXPECT_GT(planted, 0u) << "no program of the sample has a hoist site: the plant went unchecked";
}

TEST(ProgramStages, emit_groups_each_path_s_programs_into_full_modules_of_their_sources) {
  RunOptions o = options(0, 5);
  o.programs_per_module = 2;
  o.paths = {ProgramPath::sass, ProgramPath::sass_debug};
  Coverage coverage;
  const Planned planned = planned_programs(o, coverage);
  const std::vector<PathWork> work = emit_modules(planned, o, kSm90);
  ASSERT_EQ(work.size(), 2u);
  for (size_t at = 0; at < work.size(); ++at) {
    const PathWork& w = work[at];
    EXPECT_EQ(w.summary.path, o.paths[at]);
    ASSERT_EQ(w.modules.size(), 3u);
    ASSERT_EQ(w.sources.size(), 3u);
    EXPECT_EQ(w.modules[0].programs, (std::vector<size_t>{0, 1}));
    EXPECT_EQ(w.modules[2].programs, (std::vector<size_t>{4}));
    std::vector<ModuleProgram> last{{&planned.programs[4], planned.suffixes[4], planned.plants[4]}};
    EXPECT_EQ(w.sources[2], module_source(last));
    EXPECT_EQ(w.summary.not_supported, 0u);
  }
}

TEST(ProgramStages, emit_leaves_out_the_programs_a_path_s_target_cannot_run) {
  const RunOptions o = options(0, 40);
  Coverage coverage;
  const Planned planned = planned_programs(o, coverage);
  const int old_device = 70;  // below reduce_* (80) and elect (90)
  const std::vector<PathWork> work = emit_modules(planned, o, old_device);
  ASSERT_EQ(work.size(), 1u);
  std::vector<size_t> in_modules;
  for (const Module& m : work[0].modules) in_modules.insert(in_modules.end(), m.programs.begin(), m.programs.end());
  std::vector<size_t> runnable;
  const int target = target_capability(ProgramPath::sass, old_device);
  for (size_t i = 0; i < o.count; ++i) {
    const bool too_new = needs_more_than(planned.programs[i], target);
    EXPECT_EQ(work[0].summary.verdicts[i], too_new ? ProgramVerdict::not_supported : ProgramVerdict::pass) << i;
    if (!too_new) runnable.push_back(i);
  }
  EXPECT_EQ(in_modules, runnable);
  EXPECT_EQ(work[0].summary.not_supported, o.count - runnable.size());
  EXPECT_GT(work[0].summary.not_supported, 0u) << "no program of the sample needs sm_80: the check compared nothing";
}

TEST(ProgramStages, compare_passes_the_oracle_s_outputs) {
  const RunOptions o = options(0, 8);
  Coverage coverage;
  const Planned planned = planned_programs(o, coverage);
  SharedOutputs shared(pointers(planned));
  write_wanted_outputs(planned, shared);
  PathSummary ps = passing_path(ProgramPath::sass, o.count);
  CrossPath cross;
  std::ostringstream out;
  const PathCheck checked = compare_path(planned, o, shared, ps, cross, out);
  EXPECT_EQ(ps.failures, 0u);
  EXPECT_GT(ps.outputs_compared, 0u);
  EXPECT_EQ(checked.report.bad_lanes(), 0u);
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(ps.verdicts, std::vector<ProgramVerdict>(o.count, ProgramVerdict::pass));
}

TEST(ProgramStages, compare_fails_a_program_with_one_wrong_output_and_lists_it) {
  const RunOptions o = options(0, 8);
  Coverage coverage;
  const Planned planned = planned_programs(o, coverage);
  SharedOutputs shared(pointers(planned));
  write_wanted_outputs(planned, shared);
  const size_t bad = first_defined_output(planned, 5);
  shared.out(5)[bad] ^= 1;
  PathSummary ps = passing_path(ProgramPath::sass, o.count);
  CrossPath cross;
  std::ostringstream out;
  const PathCheck checked = compare_path(planned, o, shared, ps, cross, out);
  EXPECT_EQ(ps.failures, 1u);
  EXPECT_EQ(ps.verdicts[5], ProgramVerdict::conformance_failure);
  EXPECT_EQ(checked.report.bad_lanes(), 1u);
  EXPECT_NE(out.str().find("    program 5 thread " + std::to_string(bad / kOutputsPerThread)), std::string::npos) << out.str();
}

TEST(ProgramStages, compare_skips_programs_that_did_not_pass_before_it) {
  const RunOptions o = options(0, 4);
  Coverage coverage;
  const Planned planned = planned_programs(o, coverage);
  SharedOutputs shared(pointers(planned));  // nothing written: every program would fail
  PathSummary ps = passing_path(ProgramPath::sass, o.count);
  ps.verdicts.assign(o.count, ProgramVerdict::trapped);
  CrossPath cross;
  std::ostringstream out;
  compare_path(planned, o, shared, ps, cross, out);
  EXPECT_EQ(ps.failures, 0u);
  EXPECT_EQ(ps.outputs_compared, 0u);
}

TEST(ProgramStages, triage_picks_the_failure_of_fewest_statements_on_the_first_path_it_failed_on) {
  const RunOptions o = options(0, 30);
  Coverage coverage;
  const Planned planned = planned_programs(o, coverage);
  PathSummary sass = passing_path(ProgramPath::sass, o.count), debug = passing_path(ProgramPath::sass_debug, o.count);
  EXPECT_FALSE(smallest_failure({sass, debug}, planned.programs).has_value());
  size_t smallest = 0;
  for (size_t i = 1; i < o.count; ++i)
    if (statement_count(planned.programs[i]) < statement_count(planned.programs[smallest])) smallest = i;
  const size_t larger = smallest == 0 ? 1 : 0;
  ASSERT_LT(statement_count(planned.programs[smallest]), statement_count(planned.programs[larger]));
  sass.verdicts[larger] = ProgramVerdict::conformance_failure;
  debug.verdicts[larger] = debug.verdicts[smallest] = ProgramVerdict::conformance_failure;
  const std::optional<Failure> failure = smallest_failure({sass, debug}, planned.programs);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->index, smallest);
  EXPECT_EQ(failure->path, ProgramPath::sass_debug);
}

TEST(ProgramStages, record_names_the_path_the_failures_and_the_verdict) {
  const RunOptions o = options(0, 6);
  Coverage coverage;
  const Planned planned = planned_programs(o, coverage);
  SharedOutputs shared(pointers(planned));
  write_wanted_outputs(planned, shared);
  shared.out(2)[first_defined_output(planned, 2)] ^= 1;
  PathSummary ps = passing_path(ProgramPath::sass_debug, o.count);
  CrossPath cross;
  std::ostringstream out;
  const PathCheck checked = compare_path(planned, o, shared, ps, cross, out);
  std::ostringstream record_out;
  const PendingRecord r = path_record(planned, o, ps, checked.report, coverage, record_out);
  EXPECT_EQ(r.info.family, "program");
  EXPECT_EQ(r.info.code_path, "sass-debug");
  EXPECT_EQ(r.info.scenes, "random programs on sass-debug");
  EXPECT_EQ(r.info.extra["failure_hashes"], nlohmann::json::array({hex(hash(planned.programs[2]))}));
  EXPECT_EQ(r.info.extra["coverage"], coverage_text(coverage));
  EXPECT_EQ(r.verdict, check::Verdict::conformance_failure);
  EXPECT_NE(record_out.str().find("program 2 (hash " + hex(hash(planned.programs[2])) + ")"), std::string::npos)
      << record_out.str();
}

TEST(ProgramStages, record_of_a_planted_run_says_whether_the_plant_was_caught) {
  RunOptions o = options(0, 3);
  o.plant = MiscompileKind::hoist;
  Coverage coverage;
  const Planned planned = planned_programs(o, coverage);
  PathSummary ps = passing_path(ProgramPath::sass, o.count);
  const check::CheckReport clean;
  std::ostringstream out;
  EXPECT_EQ(path_record(planned, o, ps, clean, coverage, out).verdict, check::Verdict::planted_missed);
  ps.planted_sites = ps.planted_caught = 1;
  EXPECT_EQ(path_record(planned, o, ps, clean, coverage, out).verdict, check::Verdict::planted_caught);
}

TEST(ProgramStages, record_writes_each_verdict_into_the_golden_s_lines_and_outputs_only_where_it_passed) {
  const size_t count = 2, paths = 2;
  golden::ProgramsFile now;
  now.lines.resize(count * paths);
  PathSummary ps = passing_path(ProgramPath::sass_debug, count);
  ps.verdicts[1] = ProgramVerdict::hung;
  PathCheck checked;
  checked.unfixed = {{{0, 1, uint64_t{7}}}, {{0, 2, uint64_t{9}}}};
  record_path_lines(ps, 1, paths, checked, now);
  EXPECT_EQ(now.lines[1].verdict, "pass");
  ASSERT_EQ(now.lines[1].outputs.size(), 1u);
  EXPECT_EQ(now.lines[1].outputs[0].word, std::optional<uint64_t>(7));
  EXPECT_EQ(now.lines[3].verdict, "hung");
  EXPECT_TRUE(now.lines[3].outputs.empty());
  EXPECT_EQ(now.lines[0].verdict, "");  // the other path's lines are that path's to fill
}

}  // namespace
}  // namespace wc::program
