// `warpconf toolchain --random`: the PTX fuzzer (fixtures/programs/ptx_fuzz.hpp) from the command line:
// one batch, or batches of fresh programs until --soak-minutes pass; every finding triaged and written
// as a reproducer, the verdicts against golden/sm_XX/toolchain-bugs.txt, one result record per path
// and one per finding, written after the last child (a record's first line loads the driver).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <thread>

#include "core/environment.hpp"
#include "core/files.hpp"
#include "core/known_deviations.hpp"
#include "core/numbers.hpp"
#include "core/records.hpp"
#include "core/seconds_since.hpp"
#include "core/seed.hpp"
#include "formats/golden.hpp"
#include "programs/ptx_abi.hpp"
#include "programs/ptx_emit.hpp"
#include "programs/ptx_fuzz.hpp"
#include "toolchain/findings.hpp"
#include "toolchain/runner.hpp"
#include "warpconf/cli/options.hpp"
#include "warpconf/toolchain/toolchain_verdicts.hpp"

namespace wc::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using toolchain::ToolchainPath;

program::FeatureSet features_off(const ToolchainArgs& a) {
  if (a.without.empty()) return {};
  const program::FeatureList list = program::parse_feature_list(a.without);
  if (!list.error.empty()) throw UsageError("--without: " + list.error);
  return list.features;
}

program::PtxPlant plant_of(const ToolchainArgs& a) {
  if (a.plant.empty()) return program::PtxPlant::none;
  for (program::PtxPlant p : program::kPtxPlants)
    if (program::name(p) == a.plant) return p;
  throw UsageError("--plant " + a.plant + ": want uniform-counter");
}

bool is_target(int sm) { return std::find(std::begin(program::kPtxTargets), std::end(program::kPtxTargets), sm) != std::end(program::kPtxTargets); }

// --emit: the one program's PTX and a .cu that runs it on every level nvJitLink and the driver take.
int emit_program(const ToolchainArgs& a, std::ostream& out, std::ostream& err) {
  const std::string arch = a.arch.empty() ? "sm_90" : a.arch;
  const int sm = program::sm_of(arch);
  if (!is_target(sm)) {
    print_error(err, kToolchainCommand, "--arch " + arch + ": the PTX emitter writes sm_75, 80, 86, 87, 89, 90, 100, 103 and 120");
    return 2;
  }
  if (!a.out.empty()) require_writable("--out", a.out, check::Output::folder);
  const program::ProgramId id{a.seed.value_or(check::process_seed().seed), *a.index, features_off(a)};
  const program::Program p = program::generate(id.seed, id.index, program::ptx_generate_options(id.without, sm));
  const std::string ptx = program::ptx_module({{&p, ""}}, sm, program::PtxAbi::toolchain);
  toolchain::PtxKernel kernel = program::kernel_of(p);
  // The .cu prints the oracle's words only where it fixes every one.
  if (std::find(kernel.fixed.begin(), kernel.fixed.end(), false) != kernel.fixed.end()) kernel.expected.reset();
  const std::vector<ToolchainPath> levels{{toolchain::Compiler::ptxas, 0}, {toolchain::Compiler::ptxas, 3},
                                          {toolchain::Compiler::driver_jit, 0}, {toolchain::Compiler::driver_jit, 1},
                                          {toolchain::Compiler::driver_jit, 2}, {toolchain::Compiler::driver_jit, 3},
                                          {toolchain::Compiler::driver_jit, 4}};
  const std::string cu = toolchain::levels_source("warpconf random program " + program::reproducer_name(id) + " (" +
                                                      program::replay_line(id, {}) + "): every level's words",
                                                  levels, ptx, kernel, arch);
  const std::string text = program::to_text(p);
  std::string planted;
  const program::PtxPlant plant = plant_of(a);
  if (plant != program::PtxPlant::none) {
    const std::vector<int> sites = program::uniform_counter_sites(p);
    planted = sites.empty() ? "// no site of " + a.plant + " in this program\n" : program::plant_uniform_counter(ptx, kernel.name, sites.front());
  }
  if (a.out.empty()) {
    out << "// ---- kernel.ptx ----\n" << ptx << "// ---- repro.cu ----\n" << cu;
    if (!planted.empty()) out << "// ---- planted.ptx ----\n" << planted;
    out << std::flush;
    if (!out) {
      print_error(err, kToolchainCommand, "--emit: cannot write to standard output");
      return 2;
    }
    return 0;
  }
  std::vector<std::pair<std::string, std::string>> files{{"kernel.ptx", ptx}, {"repro.cu", cu}, {"program.txt", text}};
  if (!planted.empty()) files.emplace_back("planted.ptx", planted);
  try {
    fs::create_directories(a.out);
    for (const auto& [name, content] : files) files::write_atomically((fs::path(a.out) / name).string(), content);
  } catch (const files::FileError& e) {
    throw UsageError(std::string("--out: ") + e.what());
  }
  out << "wrote kernel.ptx, repro.cu and program.txt" << (planted.empty() ? "" : " and planted.ptx") << " in " << a.out << "\n";
  return 0;
}

// What the batches of a run add up to, per path and in all.
struct Totals {
  std::vector<program::PathTally> paths;
  program::Coverage coverage;
  uint64_t programs = 0, disagreements = 0, open_compared = 0, open_differences = 0, plant_sites = 0, plant_caught = 0;
  double generate_s = 0, interpret_s = 0, emit_s = 0, compile_s = 0, load_and_run_s = 0, check_s = 0, triage_s = 0;
  toolchain::Timings compiler;
  void add(const program::BatchResult& b, uint64_t count) {
    if (paths.empty()) paths.resize(b.run.paths.size());
    for (size_t p = 0; p < paths.size(); ++p) {
      const program::PathTally& t = b.judged.paths[p];
      program::PathTally& into = paths[p];
      into.ran += t.ran, into.compile_refused += t.compile_refused, into.crashed += t.crashed, into.trapped += t.trapped;
      into.hung += t.hung, into.not_run += t.not_run, into.words_compared += t.words_compared, into.findings += t.findings;
      into.disagreements += t.disagreements;
    }
    coverage.add(b.coverage);
    programs += count;
    disagreements += b.judged.comparison.oracle_disagreements.size();
    open_compared += b.judged.comparison.open_compared;
    open_differences += b.judged.comparison.open_differences;
    plant_sites += b.plant_sites, plant_caught += b.plant_caught;
    generate_s += b.generate_s, interpret_s += b.interpret_s, emit_s += b.emit_s, check_s += b.check_s;
    compile_s += b.run.timings.compile_s, load_and_run_s += b.run.timings.load_and_run_s;
    compiler.compile_sum_s += b.run.timings.compile_sum_s, compiler.jit_sum_s += b.run.timings.jit_sum_s;
    compiler.run_sum_s += b.run.timings.run_sum_s;
    compiler.kernels_compiled += b.run.timings.kernels_compiled, compiler.kernels_jit += b.run.timings.kernels_jit;
  }
  double checking_s() const { return generate_s + interpret_s + emit_s + compile_s + load_and_run_s + check_s; }
};

// The stage that took the most of the checking time, in words: what bounds the rate.
std::string bound(const Totals& t) {
  const std::pair<double, const char*> stages[] = {{t.generate_s, "generate"}, {t.interpret_s, "interpret (the oracle)"},
                                                   {t.emit_s, "emit"},         {t.compile_s, "compile (ptxas)"},
                                                   {t.load_and_run_s, "load (the driver's JIT) and run"}, {t.check_s, "check"}};
  const auto most = std::max_element(std::begin(stages), std::end(stages));
  const double total = t.checking_s();
  std::ostringstream os;
  os << std::fixed << std::setprecision(0) << most->second << ", " << (total > 0 ? 100 * most->first / total : 0) << "% of it";
  return os.str();
}

// A finding's one line: its verdict, signature, reproducer, levels, kinds and shape.
void print_finding(const program::TriagedFinding& t, bool recorded, bool planted, const std::string& folder, std::ostream& out) {
  out << "  " << (planted ? "planted catch" : recorded ? "toolchain-bug" : "NEW toolchain bug") << " " << hex16(t.finding.signature)
      << ": " << program::reproducer_name(t.id) << " on " << toolchain::level_list(t.finding.levels) << " ("
      << kinds_text(t.finding.kinds) << "), " << 1 + t.also.size() << " programs, shape: " << t.finding.shape << "\n";
  if (t.shrunk)
    out << "    shrunk program " << t.id.index << " on " << toolchain::name(t.finding.levels.front()) << " from " << t.statements_before
        << " to " << t.statements_after << " statements and " << t.lines_before << " to " << t.lines_after << " PTX lines in "
        << t.rounds << " rounds (" << t.candidates << " candidates)" << (t.stopped_by_limit ? ", stopped by the time limit" : "")
        << "\n";
  // The replay runs a reference level too (-O0 of the compiler that disagrees): without one the oracle's
  // words would be held to no level.
  std::vector<ToolchainPath> replay_levels = t.finding.levels;
  const bool offline = std::any_of(replay_levels.begin(), replay_levels.end(),
                                   [](ToolchainPath p) { return p.compiler == toolchain::Compiler::ptxas; });
  const ToolchainPath reference =
      toolchain::toolchain_path_from_name(t.finding.reference)
          .value_or(ToolchainPath{offline ? toolchain::Compiler::ptxas : toolchain::Compiler::driver_jit, 0});
  if (std::find(replay_levels.begin(), replay_levels.end(), reference) == replay_levels.end()) replay_levels.push_back(reference);
  std::sort(replay_levels.begin(), replay_levels.end());
  out << "    reproducer: " << folder << "\n    replay: "
      << program::replay_line(t.id, replay_levels, planted ? program::PtxPlant::uniform_counter : program::PtxPlant::none) << "\n";
}

// The finding's folder: the toolchain's reproducer (kernel.ptx, repro.cu, NOTES.txt, the SASS), the
// program's text and how to replay it. A signature's folder is written once.
void write_finding(const std::string& dir, const program::TriagedFinding& t, const std::vector<ToolchainPath>& paths,
                   const toolchain::Versions& versions, const toolchain::RunOptions& o, program::PtxPlant plant) {
  if (fs::exists(fs::path(dir) / "NOTES.txt")) return;
  std::ostringstream notes;
  notes << "\nrandom program: " << program::reproducer_name(t.id) << "\nrun again: " << program::replay_line(t.id, paths, plant)
        << "\nemit: " << program::replay_line(t.id, {}) << " --emit --out DIR\n";
  if (t.shrunk)
    notes << "shrunk from " << t.statements_before << " to " << t.statements_after << " statements, then from " << t.lines_before
          << " to " << t.lines_after << " PTX lines" << (t.ptx_shrunk ? " (kernel.ptx: the oracle no longer applies)" : "") << "\n";
  notes << "\nthe program" << (t.shrunk ? " after the statement-level shrink" : "") << ":\n" << program::to_text(t.minimal);
  toolchain::write_reproducer(dir, t.finding, t.minimal_ptx, t.minimal_kernel, t.outputs, versions, o.where, notes.str());
  files::write_atomically((fs::path(dir) / "program.txt").string(), program::to_text(t.minimal));
}

check::CheckInfo path_info(const program::FuzzOptions& fo, uint64_t programs, ToolchainPath path, program::PtxPlant plant) {
  check::CheckInfo info;
  info.family = "program";
  info.intrinsic = plant == program::PtxPlant::none ? "random ptx programs" : "random ptx programs as " + std::string(program::name(plant));
  info.scenes = "random ptx programs on " + toolchain::name(path);
  info.arguments = "seed " + program::hex(fo.seed) + ", first " + std::to_string(fo.first) + ", count " + std::to_string(programs);
  info.block = "1..128 threads";
  info.seed = fo.seed;
  info.code_path = toolchain::name(path);
  info.extra["first_index"] = fo.first;
  info.extra["count"] = programs;
  info.extra["without"] = program::feature_list(fo.without);
  return info;
}

}  // namespace

int run_random_programs(const ToolchainArgs& a, const toolchain::RunOptions& given_options, std::ostream& out, std::ostream& err) {
  program::FuzzOptions fo;
  std::string findings_dir = a.findings;
  fo.without = features_off(a);
  const program::PtxPlant plant = plant_of(a);
  if (plant != program::PtxPlant::none && (!a.record.empty() || a.verify))
    throw UsageError("--record and --verify take the programs as generated: not with --plant");
  if (plant != program::PtxPlant::none && a.compile_only) throw UsageError("--plant is caught in what runs: not with --compile-only");
  if (a.emit) return emit_program(a, out, err);
  if (!a.index && a.count && *a.count - 1 > UINT64_MAX - a.first)
    throw UsageError("--first " + std::to_string(a.first) + " --count " + std::to_string(*a.count) + ": the last index would pass 2^64-1");
  if (findings_dir.empty()) {
    const fs::path results(check::results_path());
    findings_dir = ((results.has_parent_path() ? results.parent_path() : fs::path(".")) / "ptx-findings").string();
    require_writable("--findings", findings_dir, check::Output::folder);
  }
  toolchain::RunOptions o = given_options;
  if (!o.compile_only) {
    o.device = toolchain::device_in_child(o.child_timeout_s);
    if (o.device->compute_capability == 0) {
      if (environment::require_gpu()) {
        print_error(err, kToolchainCommand, "WARPCONF_REQUIRE_GPU=1 but no usable GPU: " + o.device->why_not);
        return 1;
      }
      out << "warpconf toolchain: no usable GPU: " << o.device->why_not << "\n";
      return 77;
    }
  }
  if (o.arch.empty()) o.arch = "sm_" + std::to_string(o.device->compute_capability);
  const int sm = program::sm_of(o.arch);
  if (!is_target(sm)) {
    out << "warpconf toolchain: the PTX emitter has no target " << o.arch << " (it writes sm_75 .. sm_120): nothing was checked\n";
    return 1;
  }
  std::optional<ToolchainPath> planted_path;
  if (plant != program::PtxPlant::none) {
    const ToolchainPath o3{toolchain::Compiler::ptxas, 3};
    planted_path = std::find(o.paths.begin(), o.paths.end(), o3) != o.paths.end() ? o3 : o.paths.back();
    if (o.paths.size() < 2 || planted_path->level == 0) {
      print_error(err, kToolchainCommand, "--plant needs a level besides -O0 to plant on: give another --path");
      return 2;
    }
  }
  // The toolchain-bugs.txt of --verify, and the recorded random findings' programs, run again.
  std::optional<toolchain::BugsFile> recorded = given_bugs_file(a);
  const std::string default_file = check::golden_root() + "/" + o.arch + "/toolchain-bugs.txt";
  if (!recorded && a.verify && fs::exists(default_file)) recorded = toolchain::read_bugs_file(default_file);
  std::vector<std::string> replayed;
  for (const toolchain::BugRecord& b : recorded ? recorded->bugs : std::vector<toolchain::BugRecord>{})
    if (const std::optional<program::ProgramId> id = program::program_of_reproducer(b.reproducer)) {
      fo.replays.push_back(*id);
      replayed.push_back(b.reproducer);
    }

  fo.seed = a.seed.value_or(check::process_seed().seed);
  fo.first = a.index ? *a.index : a.first;
  fo.count = a.index ? 1 : a.count.value_or(check::random_case_count(1000));
  if (a.programs_per_module > 0) fo.programs_per_module = a.programs_per_module;
  fo.run = o;
  fo.plant = plant;
  fo.planted_path = planted_path;
  program::TriageOptions to;
  to.run = o;
  if (planted_path) to.run.plant = toolchain::RunOptions::Plant{*planted_path, {}};
  to.sm = sm;
  to.plant = plant;
  to.shrink = !a.no_shrink;
  to.shrink_limit_s = a.shrink_limit_s;
  to.max_shrunk = a.max_shrunk;
  to.wave = std::max(1u, std::thread::hardware_concurrency());
  const program::FuzzOptions first_batch = fo;

  const std::string driver = o.compile_only ? "none" : o.device->driver;
  const toolchain::Versions versions{o.compiler_version, driver, o.compile_only ? "none" : o.device->name, o.arch};
  out << "toolchain --random: seed " << program::hex(fo.seed) << ", " << fo.count << " programs a batch from " << fo.first
      << (fo.without.any() ? ", without " + program::feature_list(fo.without) : "") << " on " << toolchain::level_list(o.paths)
      << "; ptxas " << o.compiler_version << " (" << toolchain::name(o.offline) << ") for " << o.arch;
  if (!o.compile_only) out << ", driver " << driver << " on " << o.device->name;
  if (planted_path) out << "; " << a.plant << " planted on " << toolchain::name(*planted_path);
  out << "\n";

  const Clock::time_point t_start = Clock::now();
  const bool soaking = a.soak_minutes.has_value();
  const Clock::time_point deadline =
      t_start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(a.soak_minutes.value_or(0) * 60));
  Totals totals;
  program::SoakTally soak;
  std::vector<program::TriagedFinding> triaged;
  std::vector<std::string> folders;  // per triaged finding
  std::vector<toolchain::BugRecord> replay_records;
  size_t disagreements_printed = 0;
  do {
    const Clock::time_point t_batch = Clock::now();
    program::BatchResult b = program::run_batch(fo, toolchain::run_toolchain);
    const double checking_s = seconds_since(t_batch);
    totals.add(b, fo.count);
    // Oracle disagreements: conformance failures, each with what tells an oracle bug from an -O0 miscompile.
    for (const toolchain::OracleDisagreement& d : b.judged.comparison.oracle_disagreements) {
      if (disagreements_printed++ >= 8) break;
      const auto at = std::find(b.batch.place.begin(), b.batch.place.end(), std::make_pair(d.module, d.kernel));
      const size_t i = static_cast<size_t>(at - b.batch.place.begin());
      out << program::disagreement_text(b.programs[i], b.ids[i], d, b.run, b.batch.modules[d.module].kernels[d.kernel], 12);
    }
    for (const toolchain::OpenDifference& d : b.judged.comparison.first_open_differences)
      out << "  open word differs (not a failure): " << b.batch.modules[d.module].kernels[d.kernel].name << " word " << d.word << " on "
          << toolchain::name(d.path) << ": " << hex16(d.word_there).substr(8) << ", reference " << hex16(d.reference_word).substr(8)
          << "\n";
    // Replayed recorded findings are judged by their reproducer; the batch's are triaged.
    program::Judged batch_only = b.judged;
    for (size_t i = fo.count; i < b.programs.size(); ++i) {
      if (const std::optional<size_t> f = b.judged.finding_of[i])
        replay_records.push_back(toolchain::record_of(b.judged.comparison.findings[*f], program::reproducer_name(b.ids[i]), o.compiler_version, driver));
      batch_only.finding_of[i].reset();
    }
    const Clock::time_point t_triage = Clock::now();
    std::vector<std::pair<size_t, size_t>> seen_also;
    std::vector<program::TriagedFinding> made =
        program::triage(b.programs, b.ids, b.batch, b.run, batch_only, to, toolchain::run_toolchain, triaged, seen_also, out);
    std::vector<std::pair<uint64_t, std::string>> signatures;
    for (program::TriagedFinding& t : made) {
      const std::string folder = findings_dir + "/" + hex16(t.finding.signature);
      write_finding(folder, t, o.paths, versions, o, plant);
      for (size_t n = 0; n < 1 + t.also.size(); ++n) signatures.emplace_back(t.finding.signature, folder);
      triaged.push_back(std::move(t));
      folders.push_back(folder);
    }
    for (const auto& [seen, program] : seen_also) {
      triaged[seen].also.push_back(program);
      signatures.emplace_back(triaged[seen].finding.signature, folders[seen]);
    }
    const double triage_s = seconds_since(t_triage);
    totals.triage_s += triage_s;
    program::add_batch(soak, fo.count, checking_s, triage_s, b.judged.comparison.oracle_disagreements.size(), signatures, seconds_since(t_start));
    if (soaking)
      out << "batch " << soak.batches << ": programs " << fo.first << ".." << fo.first + fo.count - 1 << ", "
          << b.judged.comparison.findings.size() << " findings (" << made.size() << " new signatures), "
          << b.judged.comparison.oracle_disagreements.size() << " oracle disagreements; " << checking_s << " s, triage " << triage_s
          << " s\n"
          << std::flush;
    fo.first += fo.count;
    fo.replays.clear();  // the recorded findings run once
  } while (soaking && Clock::now() < deadline && fo.first <= UINT64_MAX - fo.count);

  // Verdicts: the plant's catches apart; every other finding against toolchain-bugs.txt.
  std::vector<toolchain::BugRecord> now;
  std::vector<bool> minimal;
  std::vector<size_t> of_now;  // triaged finding of each record of `now`
  for (size_t k = 0; k < triaged.size(); ++k) {
    const bool caught = planted_path && triaged[k].finding.levels == std::vector<ToolchainPath>{*planted_path};
    if (caught) continue;
    now.push_back(toolchain::record_of(triaged[k].finding, program::reproducer_name(triaged[k].id), o.compiler_version, driver));
    minimal.push_back(triaged[k].shrunk);
    of_now.push_back(k);
  }
  for (const toolchain::BugRecord& r : replay_records) {
    now.push_back(r);
    minimal.push_back(false);
  }
  const RunFacts facts{o.paths, o.arch, o.compile_only ? "none (compile only)" : o.device->name, o.compiler_version, driver};
  const FindingVerdicts v = findings_against_bugs_file(a, recorded, now, minimal, replayed, facts, out);
  std::vector<bool> recorded_finding(triaged.size(), false), planted_catch(triaged.size(), true);
  for (size_t n = 0; n < of_now.size(); ++n) {
    recorded_finding[of_now[n]] = v.recorded[n];
    planted_catch[of_now[n]] = false;
  }
  size_t fresh = 0;
  for (size_t k = 0; k < triaged.size(); ++k) {
    print_finding(triaged[k], recorded_finding[k], planted_catch[k], folders[k], out);
    fresh += !recorded_finding[k] && !planted_catch[k] ? 1 : 0;
  }
  for (size_t n = of_now.size(); n < now.size(); ++n)
    out << "  " << (v.recorded[n] ? "toolchain-bug" : "NEW toolchain bug") << " " << hex16(now[n].signature) << ": recorded " << now[n].reproducer
        << " run again, on " << toolchain::level_list(now[n].levels) << " (" << kinds_text(now[n].kinds) << ")\n";

  // Per path: what ran, what was compared, what disagreed.
  for (size_t p = 0; p < o.paths.size() && p < totals.paths.size(); ++p) {
    const program::PathTally& t = totals.paths[p];
    out << "  " << toolchain::name(o.paths[p]) << ": " << (o.compile_only ? t.not_run : t.ran) << (o.compile_only ? " compiled, " : " ran, ")
        << t.words_compared << " fixed words compared, " << t.findings
        << " findings, " << t.disagreements << " oracle disagreements";
    for (const auto& [n, what] : {std::pair{t.compile_refused, "refused"}, {t.crashed, "compiler crashes"}, {t.trapped, "trapped"}, {t.hung, "hung"}})
      if (n > 0) out << ", " << n << " " << what;
    out << "\n";
  }
  const double checked = totals.checking_s();
  out << totals.open_compared << " words the oracle leaves open compared between levels, " << totals.open_differences
      << " differ (reported, not failures)\n";
  const toolchain::Timings& c = totals.compiler;
  out << "timing: generate " << totals.generate_s << " s, interpret " << totals.interpret_s << " s, emit " << totals.emit_s
      << " s, compile " << totals.compile_s << " s (ptxas " << c.ptxas_ms_per_kernel() << " ms of CPU per kernel and level, "
      << c.compile_sum_s << " s summed), load and run " << totals.load_and_run_s << " s (driver JIT " << c.jit_ms_per_kernel()
      << " ms per kernel and level, runs " << c.run_sum_s << " s summed), check " << totals.check_s << " s, triage " << totals.triage_s
      << " s; " << totals.programs << " programs on " << o.paths.size() << " paths in " << checked << " s: "
      << (checked > 0 ? static_cast<double>(totals.programs) / checked : 0) << " programs per second checked; bound: " << bound(totals)
      << "\n";
  if (soaking) out << program::soak_report(soak);
  if (planted_path)
    out << "planted " << a.plant << ": " << (totals.plant_caught > 0 ? "caught" : "MISSED") << " in " << totals.plant_caught << " of "
        << totals.plant_sites << " program runs with a site\n";

  // Records, after the last child: one per path, one per finding, one per recorded bug now fixed.
  for (size_t p = 0; p < o.paths.size() && p < totals.paths.size(); ++p) {
    const program::PathTally& t = totals.paths[p];
    check::CheckInfo info = path_info(first_batch, totals.programs, o.paths[p], plant);
    info.extra["ran"] = t.ran;
    info.extra["words_compared"] = t.words_compared;
    info.extra["findings"] = t.findings;
    info.extra["oracle_disagreements"] = t.disagreements;
    info.extra["refused"] = t.compile_refused;
    info.extra["compiler_crashes"] = t.crashed;
    info.extra["trapped"] = t.trapped;
    info.extra["hung"] = t.hung;
    info.extra["open_words_compared"] = totals.open_compared;
    info.extra["open_words_differing"] = totals.open_differences;
    info.extra["coverage"] = program::coverage_text(totals.coverage);
    check::Verdict verdict = check::Verdict::pass;
    if (t.disagreements > 0) verdict = check::Verdict::conformance_failure;
    else if (planted_path && o.paths[p] == *planted_path) verdict = totals.plant_caught > 0 ? check::Verdict::planted_caught : check::Verdict::planted_missed;
    else if (t.findings > 0) verdict = check::Verdict::toolchain_bug;
    else if (t.words_compared == 0 && !o.compile_only) verdict = check::Verdict::nothing_compared;
    check::append_record(check::check_record(info, verdict));
  }
  for (size_t n = 0; n < of_now.size(); ++n) {
    const program::TriagedFinding& t = triaged[of_now[n]];
    check::CheckInfo info;
    info.family = "toolchain";
    info.intrinsic = program::reproducer_name(t.id);
    info.scenes = "random ptx program on " + toolchain::level_list(o.paths);
    info.block = std::to_string(t.minimal.threads) + "x1x1";
    info.seed = t.id.seed;
    nlohmann::json bug = {{"reproducer", now[n].reproducer}, {"signature", hex16(t.finding.signature)},
                          {"levels", toolchain::level_list(t.finding.levels)}, {"kinds", t.finding.kinds},
                          {"shape", t.finding.shape}, {"ptxas", o.compiler_version}, {"driver", driver},
                          {"recorded", bool(v.recorded[n])}, {"programs", 1 + t.also.size()}, {"folder", folders[of_now[n]]},
                          {"replay", program::replay_line(t.id, o.paths)}};
    if (t.shrunk)
      bug["shrunk"] = {{"statements_before", t.statements_before}, {"statements", t.statements_after}, {"lines_before", t.lines_before},
                       {"lines", t.lines_after}, {"rounds", t.rounds}, {"candidates", t.candidates}, {"stopped_by_limit", t.stopped_by_limit},
                       {"text", program::to_text(t.minimal)}};
    if (!v.recorded[n]) bug["new"] = true;
    info.extra["toolchain_bug"] = bug;
    check::append_record(check::check_record(info, check::Verdict::toolchain_bug));
  }
  for (const toolchain::BugChange& change : v.fixed) {
    check::CheckInfo info;
    info.family = "toolchain";
    info.intrinsic = change.reproducer;
    info.scenes = "recorded random ptx program on " + toolchain::level_list(o.paths);
    info.extra["toolchain_bug"] = {{"reproducer", change.reproducer}, {"fixed", change.text}, {"recorded", true}};
    info.extra["golden"] = {{"command", "toolchain --verify"}, {"dir", v.verify_path}, {"behaviour_changes", 1}};
    check::append_record(check::check_record(info, check::Verdict::behaviour_change));
  }

  uint64_t words = 0;
  for (const program::PathTally& t : totals.paths) words += t.words_compared;
  const bool checked_something = o.compile_only ? totals.compiler.kernels_compiled > 0 : words > 0;
  if (!checked_something) out << "warpconf toolchain: nothing was compared\n";
  if (planted_path) return totals.plant_caught > 0 ? 0 : 1;
  if (!checked_something || totals.disagreements > 0 || fresh > 0 || v.status != 0) return 1;
  return v.no_file ? 77 : 0;
}

}  // namespace wc::cli
