// `warpconf toolchain` (toolchain.hpp): its options, what --known and --random share
// (toolchain_verdicts.hpp), and the known-bug fixtures' run.
#include "warpconf/toolchain/toolchain_command.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "core/environment.hpp"
#include "core/files.hpp"
#include "core/known_deviations.hpp"
#include "core/numbers.hpp"
#include "core/records.hpp"
#include "core/seconds_since.hpp"
#include "formats/golden.hpp"
#include "programs/features.hpp"
#include "toolchain/bugs_file.hpp"
#include "toolchain/findings.hpp"
#include "toolchain/known_bugs.hpp"
#include "toolchain/runner.hpp"
#include "warpconf/cli/options.hpp"
#include "warpconf/program/program_command.hpp"
#include "warpconf/run/run_command.hpp"
#include "warpconf/toolchain/toolchain_verdicts.hpp"

namespace wc::cli {
namespace {

using toolchain::ToolchainPath;

std::string hex8(uint32_t v) {
  std::ostringstream os;
  os << std::hex << std::setw(8) << std::setfill('0') << v;
  return os.str();
}

// One line per fixture: what each path did.
void print_outcomes(const std::vector<toolchain::KnownBug>& bugs, const toolchain::RunResult& run, const toolchain::Comparison& c,
                    std::ostream& out) {
  for (size_t m = 0; m < bugs.size(); ++m) {
    const auto f = std::find_if(c.findings.begin(), c.findings.end(), [m](const toolchain::Finding& x) { return x.module == m; });
    const auto d = std::find_if(c.oracle_disagreements.begin(), c.oracle_disagreements.end(),
                                [m](const toolchain::OracleDisagreement& x) { return x.module == m; });
    out << "  " << bugs[m].id << ":";
    for (size_t p = 0; p < run.paths.size(); ++p) {
      const toolchain::KernelOutcome& o = run.outcomes[m][0][p];
      const auto names = [&](const std::vector<ToolchainPath>& levels) {
        return std::find(levels.begin(), levels.end(), run.paths[p]) != levels.end();
      };
      const bool disagrees = (f != c.findings.end() && names(f->levels)) || (d != c.oracle_disagreements.end() && names(d->levels));
      std::string what = o.verdict == toolchain::KernelVerdict::ran ? (disagrees ? "WRONG" : "ok")
                         : o.verdict == toolchain::KernelVerdict::not_run ? "compiled"
                                                                          : std::string(toolchain::name(o.verdict));
      out << " " << toolchain::name(run.paths[p]) << " " << what;
    }
    out << "\n";
    if (d != c.oracle_disagreements.end())
      out << "    ORACLE DISAGREEMENT (a conformance failure: the fixture's outputs or an -O0 miscompile) on "
          << toolchain::level_list(d->levels) << "; "
          << (d->levels_agree ? "every level that ran wrote the same words" : "the levels differ among themselves") << "\n";
    if (f == c.findings.end()) continue;
    const toolchain::PtxKernel& k = bugs[m].module.kernels.front();
    for (ToolchainPath level : f->levels) {
      const size_t p = static_cast<size_t>(std::find(run.paths.begin(), run.paths.end(), level) - run.paths.begin());
      const toolchain::KernelOutcome& o = run.outcomes[m][0][p];
      if (o.verdict != toolchain::KernelVerdict::ran) {
        out << "    " << toolchain::name(level) << ": " << o.detail.substr(0, 200) << "\n";
        continue;
      }
      size_t bad = 0, first = 0;
      for (size_t w = 0; w < o.output.size(); ++w)
        if (k.expected && o.output[w] != (*k.expected)[w] && bad++ == 0) first = w;
      if (bad > 0)
        out << "    " << toolchain::name(level) << ": " << bad << " of " << o.output.size() << " words differ, first out[" << first
            << "] = " << hex8(o.output[first]) << ", want " << hex8((*k.expected)[first]) << "\n";
    }
  }
}

// The fixtures' findings shrunk where asked (against the reference level: the oracle's words are
// those of the fixture as written) and written as reproducers.
void write_known_reproducers(const ToolchainArgs& a, const toolchain::RunOptions& o, const std::vector<toolchain::KnownBug>& bugs,
                             const std::vector<toolchain::PtxModule>& modules, const toolchain::RunResult& run,
                             const toolchain::Comparison& c, const std::string& driver, std::ostream& out) {
  for (const toolchain::Finding& f : toolchain::deduplicated(c.findings)) {
    const toolchain::PtxModule& module = modules[f.module];
    toolchain::PtxKernel kernel = module.kernels[f.kernel];
    std::string ptx = module.text;
    const bool o0_agrees = std::find(f.levels.begin(), f.levels.end(), ToolchainPath{toolchain::Compiler::ptxas, 0}) == f.levels.end();
    if (a.shrink && o0_agrees) {
      toolchain::RunOptions shrink_run = o;
      shrink_run.repeats = 2;
      toolchain::PtxKernel plain = kernel;
      plain.expected.reset();
      plain.fixed.clear();
      const toolchain::StillFails still = [&](const std::vector<std::string>& candidates) {
        std::vector<toolchain::PtxModule> ms;
        for (const std::string& text : candidates) ms.push_back({text, {plain}});
        const toolchain::RunResult r = toolchain::run_toolchain(ms, shrink_run);
        const toolchain::Comparison cc = toolchain::compare(ms, r);
        std::vector<bool> fails(candidates.size(), false);
        for (const toolchain::Finding& x : cc.findings) fails[x.module] = x.levels == f.levels && x.kinds == f.kinds && x.reference == "ptxas-O0";
        return fails;
      };
      const toolchain::PtxShrink s = toolchain::shrink_ptx(ptx, kernel.name, still, a.shrink_limit_s);
      out << "  shrunk " << toolchain::reproducer_name(bugs[f.module]) << " from " << s.instructions_before << " to "
          << s.instructions_after << " instructions in " << s.rounds << " rounds (" << s.candidates << " candidates)"
          << (s.stopped_by_limit ? ", stopped by the time limit" : "") << "\n";
      ptx = s.minimal;
      kernel.expected.reset();
      kernel.fixed.clear();
    }
    std::vector<std::pair<std::string, std::vector<uint32_t>>> outputs;
    if (module.kernels[f.kernel].expected) outputs.emplace_back("oracle", *module.kernels[f.kernel].expected);
    for (size_t p = 0; p < run.paths.size(); ++p)
      if (run.outcomes[f.module][f.kernel][p].verdict == toolchain::KernelVerdict::ran)
        outputs.emplace_back(toolchain::name(run.paths[p]), run.outcomes[f.module][f.kernel][p].output);
    const std::string dir = a.findings + "/" + bugs[f.module].id + "-" + hex16(f.signature);
    toolchain::write_reproducer(dir, f, ptx, kernel, outputs, {run.compiler_version, driver, run.device.name, run.arch}, o.where);
    out << "  reproducer: " << dir << "\n";
  }
}

int run_known_bugs(const ToolchainArgs& a, const toolchain::RunOptions& o, const std::optional<toolchain::BugsFile>& given,
                   std::ostream& out, std::ostream& err) {
  const std::vector<toolchain::KnownBug>& bugs = toolchain::known_bugs();
  std::vector<toolchain::PtxModule> modules;
  std::vector<std::string> reproducers;
  for (const toolchain::KnownBug& b : bugs) {
    modules.push_back(b.module);
    reproducers.push_back(toolchain::reproducer_name(b));
  }
  const auto t_start = std::chrono::steady_clock::now();
  const toolchain::RunResult run = toolchain::run_toolchain(modules, o);
  if (!o.compile_only && run.device.compute_capability == 0) {
    if (environment::require_gpu()) {
      print_error(err, kToolchainCommand, "WARPCONF_REQUIRE_GPU=1 but no usable GPU: " + run.device.why_not);
      return 1;
    }
    out << "warpconf toolchain: no usable GPU: " << run.device.why_not << "\n";
    return 77;
  }
  const auto t_check = std::chrono::steady_clock::now();
  const toolchain::Comparison c = toolchain::compare(modules, run);
  const double check_s = seconds_since(t_check);
  const std::string driver = o.compile_only ? "none" : run.device.driver;
  out << "toolchain: " << bugs.size() << " known-bug fixtures on " << toolchain::level_list(run.paths) << "; ptxas "
      << run.compiler_version << " (" << toolchain::name(o.offline) << ") for " << run.arch;
  if (!o.compile_only) out << ", driver " << driver << " on " << run.device.name;
  out << "\n";
  print_outcomes(bugs, run, c, out);

  std::vector<toolchain::BugRecord> now;
  for (const toolchain::Finding& f : c.findings) now.push_back(toolchain::record_of(f, reproducers[f.module], run.compiler_version, driver));
  const RunFacts facts{run.paths, run.arch, o.compile_only ? "none (compile only)" : run.device.name, run.compiler_version, driver};
  const FindingVerdicts v = findings_against_bugs_file(a, given, now, {}, reproducers, facts, out);
  int status = run.timings.kernels_compiled == 0 || v.status != 0 || !c.oracle_disagreements.empty() ? 1 : 0;
  std::vector<std::string> verdicts(bugs.size(), "pass"), notes(bugs.size());
  std::vector<bool> fixed(bugs.size(), false);
  for (size_t i = 0; i < c.findings.size(); ++i) verdicts[c.findings[i].module] = v.recorded[i] ? "toolchain-bug" : "new-toolchain-bug";
  for (const toolchain::BugChange& change : v.fixed) {
    const size_t m = static_cast<size_t>(std::find(reproducers.begin(), reproducers.end(), change.reproducer) - reproducers.begin());
    if (m >= bugs.size()) continue;
    fixed[m] = true;
    notes[m] = change.text;
  }
  for (const toolchain::Finding& f : c.findings)
    out << "  " << (verdicts[f.module] == "toolchain-bug" ? "toolchain-bug" : "NEW toolchain bug") << " " << hex16(f.signature) << ": "
        << reproducers[f.module] << " on " << toolchain::level_list(f.levels) << " (" << kinds_text(f.kinds) << "), shape: " << f.shape
        << "\n";
  if (!a.findings.empty()) write_known_reproducers(a, o, bugs, modules, run, c, driver, out);

  const toolchain::Timings& t = run.timings;
  out << "timing: compile " << t.compile_s << " s (ptxas " << t.ptxas_ms_per_kernel() << " ms per kernel and level, "
      << t.compile_sum_s << " s summed), load and run " << t.load_and_run_s << " s (driver JIT " << t.jit_ms_per_kernel()
      << " ms per kernel and level, runs " << t.run_sum_s << " s summed), check " << check_s << " s; " << bugs.size() << " kernels on "
      << run.paths.size() << " paths in " << seconds_since(t_start) << " s\n";

  // One result record per fixture: a recorded finding is a toolchain bug, never a pass or a conformance failure.
  for (size_t m = 0; m < bugs.size(); ++m) {
    check::CheckInfo info;
    info.family = "toolchain";
    info.intrinsic = bugs[m].id;
    info.scenes = "known toolchain bug on " + toolchain::level_list(run.paths);
    info.block = std::to_string(bugs[m].module.kernels.front().threads) + "x1x1";
    const auto f = std::find_if(c.findings.begin(), c.findings.end(), [m](const toolchain::Finding& x) { return x.module == m; });
    const bool disagrees = std::any_of(c.oracle_disagreements.begin(), c.oracle_disagreements.end(),
                                       [m](const toolchain::OracleDisagreement& x) { return x.module == m; });
    nlohmann::json bug = {{"reproducer", reproducers[m]}, {"public_bug", bugs[m].public_bug}, {"ptxas", run.compiler_version},
                          {"driver", driver}, {"recorded", verdicts[m] == "toolchain-bug"}};
    if (f != c.findings.end()) {
      bug["signature"] = hex16(f->signature);
      bug["levels"] = toolchain::level_list(f->levels);
      bug["kinds"] = f->kinds;
    }
    if (fixed[m]) {
      bug["fixed"] = notes[m];
      info.extra["golden"] = {{"command", "toolchain --verify"}, {"dir", v.verify_path}, {"behaviour_changes", 1}};
    }
    info.extra["toolchain_bug"] = bug;
    check::Verdict verdict = check::Verdict::pass;
    if (disagrees) verdict = check::Verdict::conformance_failure;
    else if (verdicts[m] != "pass") verdict = check::Verdict::toolchain_bug;
    else if (fixed[m]) verdict = check::Verdict::behaviour_change;
    if (verdicts[m] == "new-toolchain-bug") info.extra["toolchain_bug"]["new"] = true;
    check::append_record(check::check_record(info, verdict));
  }
  if (status == 0 && v.no_file) return 77;
  return status;
}

}  // namespace

std::string hex16(uint64_t v) {
  std::ostringstream os;
  os << std::hex << std::setw(16) << std::setfill('0') << v;
  return os.str();
}

toolchain::RunOptions toolchain_run_options(const ToolchainArgs& a) {
  toolchain::RunOptions o;
  if (a.offline == "ptxas") o.offline = toolchain::OfflineCompiler::ptxas_binary;
  else if (a.offline != "nvjitlink") throw UsageError("--offline " + a.offline + ": want nvjitlink or ptxas");
  o.compile_only = a.compile_only;
  o.arch = a.arch.empty() && a.compile_only ? "sm_90" : a.arch;
  if (!o.arch.empty() && (o.arch.rfind("sm_", 0) != 0 || o.arch.size() < 5 || o.arch.find_first_not_of("0123456789af", 3) != std::string::npos))
    throw UsageError("--arch " + o.arch + ": want sm_XX, as ptxas takes it");
  o.paths = a.compile_only ? toolchain::ptxas_paths() : toolchain::all_toolchain_paths();
  if (!a.paths.empty()) {
    o.paths.clear();
    for (const std::string& p : a.paths) {
      const std::optional<ToolchainPath> path = toolchain::toolchain_path_from_name(p);
      if (!path) throw UsageError("--path " + p + ": want ptxas-O0..ptxas-O3 or jit-O0..jit-O4");
      if (a.compile_only && path->compiler == toolchain::Compiler::driver_jit)
        throw UsageError("--path " + p + " with --compile-only: the driver's JIT compiles only on a GPU");
      if (std::find(o.paths.begin(), o.paths.end(), *path) != o.paths.end()) throw UsageError("--path " + p + " given twice");
      o.paths.push_back(*path);
    }
    std::sort(o.paths.begin(), o.paths.end());
  }
  if (!a.record.empty() && a.verify) throw UsageError("--record and --verify: choose one");
  if (!a.record.empty()) require_writable("--record", a.record, check::Output::file);
  // A file there is kept (its records of reproducers the run does not run): one that is not a
  // toolchain-bugs.txt is refused before anything runs, not after.
  if (!a.record.empty() && std::filesystem::exists(a.record)) {
    try {
      toolchain::read_bugs_file(a.record);
    } catch (const golden::FormatError& e) {
      throw UsageError(std::string("--record: ") + e.what());
    }
  }
  if (!a.findings.empty()) require_writable("--findings", a.findings, check::Output::folder);
  o.child_timeout_s = a.timeout_s;
  // A node with only a driver has no ptxas: by default it runs the JIT's levels alone.
  std::string why_not;
  const bool offline_asked = a.compile_only || std::any_of(o.paths.begin(), o.paths.end(), [&a](ToolchainPath p) {
    return p.compiler == toolchain::Compiler::ptxas && !a.paths.empty();
  });
  o.compiler_version = toolchain::offline_compiler_version(o.offline, o.where, why_not);
  if (o.compiler_version.empty()) {
    if (offline_asked) throw UsageError("--offline " + a.offline + ": " + why_not);
    o.paths.erase(std::remove_if(o.paths.begin(), o.paths.end(), [](ToolchainPath p) { return p.compiler == toolchain::Compiler::ptxas; }),
                  o.paths.end());
  }
  return o;
}

std::optional<toolchain::BugsFile> given_bugs_file(const ToolchainArgs& a) {
  if (!a.verify || a.verify->empty()) return std::nullopt;
  return toolchain::read_bugs_file(*a.verify);
}

FindingVerdicts findings_against_bugs_file(const ToolchainArgs& a, const std::optional<toolchain::BugsFile>& given,
                                           const std::vector<toolchain::BugRecord>& now, const std::vector<bool>& minimal,
                                           const std::vector<std::string>& reproducers_run, const RunFacts& facts, std::ostream& out) {
  FindingVerdicts v;
  v.recorded.assign(now.size(), false);
  if (!a.record.empty()) {
    toolchain::BugsFile file;
    file.device = facts.device;
    file.compute_capability = facts.arch.substr(3, facts.arch.size() - 4) + "." + facts.arch.substr(facts.arch.size() - 1);
    file.paths = facts.paths;
    file.recorded = check::utc_now();
    file.bugs = now;
    size_t kept = 0;
    try {
      // The file's records of reproducers this run did not run (--known's beside --random's, other seeds') stay.
      if (std::filesystem::exists(a.record)) {
        const toolchain::BugsFile before = toolchain::read_bugs_file(a.record);
        if (before.compute_capability != file.compute_capability)
          throw std::invalid_argument(a.record + " holds compute capability " + before.compute_capability + "'s toolchain bugs, this GPU is " +
                                      file.compute_capability);
        const auto ran = [&](const std::string& reproducer) {
          return std::find(reproducers_run.begin(), reproducers_run.end(), reproducer) != reproducers_run.end() ||
                 std::any_of(now.begin(), now.end(), [&](const toolchain::BugRecord& r) { return r.reproducer == reproducer; });
        };
        for (const toolchain::BugRecord& b : before.bugs)
          if (!ran(b.reproducer)) {
            file.bugs.push_back(b);
            ++kept;
          }
        for (const ToolchainPath& p : before.paths)
          if (std::find(file.paths.begin(), file.paths.end(), p) == file.paths.end()) file.paths.push_back(p);
      }
      files::write_atomically(a.record, toolchain::write_bugs(file));
    } catch (const std::exception& e) {  // the file there unreadable or of another GPU, or the new one unwritable
      throw UsageError(std::string("--record: ") + e.what());
    }
    out << "recorded " << now.size() << " toolchain bugs in " << a.record;
    if (kept != 0) out << ", beside the " << kept << " it held of reproducers this run did not run";
    out << "\n";
    v.recorded.assign(now.size(), true);
    return v;
  }
  if (!a.verify) {
    v.status = now.empty() ? 0 : 1;
    return v;
  }
  v.verify_path = !a.verify->empty() ? *a.verify : check::golden_root() + "/" + facts.arch + "/toolchain-bugs.txt";
  std::optional<toolchain::BugsFile> file = given;
  if (!file && !std::filesystem::exists(v.verify_path)) {
    out << "warpconf toolchain: --verify: not recorded: no " << v.verify_path << "; nothing compared with it\n";
    v.no_file = true;
    v.status = now.empty() ? 0 : 1;
    return v;
  }
  if (!file) file = toolchain::read_bugs_file(v.verify_path);
  const toolchain::BugsComparison c =
      toolchain::compare_bugs(*file, now, facts.paths, reproducers_run, facts.ptxas, facts.driver, minimal);
  for (size_t i : c.known) v.recorded[i] = true;
  v.status = c.fresh.empty() ? 0 : 1;
  v.fixed = c.fixed;
  for (const toolchain::BugChange& change : c.fixed) out << "  behaviour change: " << change.reproducer << ": " << change.text << "\n";
  out << "against " << v.verify_path << ": " << c.known.size() << " recorded toolchain bugs reproduced, " << c.fresh.size() << " new, "
      << c.fixed.size() << " fixed (behaviour changes, not failures)\n";
  return v;
}

void add_toolchain_options(CLI::App& cmd, ToolchainArgs& a) {
  CLI::Option* known = cmd.add_flag("--known", a.known, "the known-bug fixtures (fixtures/toolchain/known_bugs.cpp)");
  CLI::Option* random = cmd.add_flag("--random", a.random, "random ptx-dialect programs (docs/programs.md, \"The PTX fuzzer\")");
  known->excludes(random);
  cmd.add_option("--path", a.paths, "ptxas-O0..ptxas-O3, jit-O0..jit-O4 (repeatable; default every one)");
  cmd.add_option("--offline", a.offline, "how ptxas runs: nvjitlink (in process, the default) or ptxas (the toolkit's binary)");
  cmd.add_option("--arch", a.arch, "what ptxas compiles for (default: the GPU's sm_XX; sm_90 with --compile-only or --emit)");
  cmd.add_flag("--compile-only", a.compile_only, "compile on the ptxas paths and run nothing: no GPU needed");
  cmd.add_option("--record", a.record, "write the findings as a toolchain-bugs.txt (docs/golden-format.md)");
  cmd.add_option("--verify", a.verify, "compare the findings with a toolchain-bugs.txt (default golden/sm_XX/toolchain-bugs.txt)")
      ->expected(0, 1);
  cmd.add_option("--findings", a.findings,
                 "write each finding's reproducer (PTX, .cu, SASS, notes) under this folder (--random: default ptx-findings beside "
                 "the result records)");
  cmd.add_flag("--shrink", a.shrink, "--known with --findings: shrink each finding's PTX first (against ptxas -O0)")->needs(known);
  cmd.add_option("--shrink-limit", a.shrink_limit_s, "seconds each shrink may take (default 120)")
      ->transform(duration_in(kToolchainShrinkLimit));
  cmd.add_option("--timeout", a.timeout_s, "seconds a child that compiles or runs may take (default 60)")
      ->transform(duration_in(kToolchainChildTimeout));
  // --random's own.
  cmd.add_option("--seed", a.seed, "the seed (default: the process seed, WARPCONF_SEED)")->transform(number_in(kProgramSeed))->needs(random);
  CLI::Option* index =
      cmd.add_option("--index", a.index, "one program, of this index")->transform(number_in(kProgramIndex))->needs(random);
  cmd.add_option("--count", a.count, "programs a batch (default 1000; 10 under the quick budget)")
      ->transform(number_in(kRandomCount))
      ->excludes(index)
      ->needs(random);
  cmd.add_option("--first", a.first, "the index of the first program (default 0)")
      ->transform(number_in(kProgramIndex))
      ->excludes(index)
      ->needs(random);
  cmd.add_option("--without", a.without, "generator features switched off, comma-separated:\n" + program::feature_help())->needs(random);
  cmd.add_option("--programs-per-module", a.programs_per_module, "kernels a PTX module holds (default 64)")
      ->transform(number_in(kProgramsPerModule))
      ->needs(random);
  cmd.add_option("--soak-minutes", a.soak_minutes, "batches of fresh programs until this many minutes have passed")
      ->transform(duration_in(kSoakMinutes))
      ->excludes(index)
      ->needs(random);
  cmd.add_option("--plant", a.plant, "plant uniform-counter on one level (ptxas-O3 where it runs, else the last path)")->needs(random);
  CLI::Option* no_shrink = cmd.add_flag("--no-shrink", a.no_shrink, "do not shrink the findings (their signatures are their programs')");
  no_shrink->needs(random);
  cmd.add_option("--max-shrunk", a.max_shrunk, "findings shrunk a batch (default 8)")->transform(number_in(kMaxShrunk))->needs(random);
  CLI::Option* emit =
      cmd.add_flag("--emit", a.emit, "print the program's PTX and a .cu that runs it on every level (no GPU needed)")->needs(index);
  cmd.add_option("--out", a.out, "with --emit: write kernel.ptx, repro.cu and program.txt into this folder instead")->needs(emit);
}

int run_toolchain_command(const ToolchainArgs& a, std::ostream& out, std::ostream& err) {
  toolchain::RunOptions o;
  if (a.known == a.random) throw UsageError("nothing to run: give --known (the known-bug fixtures) or --random (random ptx programs)");
  if (!(a.random && a.emit)) o = toolchain_run_options(a);
  const std::optional<toolchain::BugsFile> given = given_bugs_file(a);
  if (a.random) return run_random_programs(a, o, out, err);
  return run_known_bugs(a, o, given, out, err);
}

}  // namespace wc::cli
