#include "warpconf/program/program_command.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/environment.hpp"
#include "core/files.hpp"
#include "core/numbers.hpp"
#include "core/seed.hpp"
#include "formats/programs.hpp"
#include "programs/run_programs.hpp"
#include "warpconf/cli/options.hpp"

namespace wc::cli {
namespace {

program::RunOptions run_options(const ProgramArgs& a) {
  program::RunOptions o;
  o.seed = a.seed.value_or(check::process_seed().seed);
  o.first = a.index ? *a.index : a.first;
  o.count = a.index ? 1 : a.count.value_or(check::random_case_count(2000));
  if (o.count - 1 > std::numeric_limits<uint64_t>::max() - o.first)
    throw UsageError("--first " + std::to_string(o.first) + " --count " + std::to_string(o.count) +
                     ": the last index would pass 2^64-1");
  if (!a.paths.empty()) {
    o.paths.clear();
    if (a.paths.size() > 1 && std::count(a.paths.begin(), a.paths.end(), "all") > 0)
      throw UsageError("--path all names every path: not with another --path");
    for (const std::string& p : a.paths) {
      if (p == "all") {
        o.paths.assign(std::begin(program::kAllProgramPaths), std::end(program::kAllProgramPaths));
        continue;
      }
      program::ProgramPath path{};
      if (!program::program_path_from_name(p, path))
        throw UsageError("--path " + p + ": want sass, sass-debug, sass-ptxas-O0, jit-native, jit-75 or all");
      o.paths.push_back(path);
    }
  }
  if (!a.plant.empty()) {
    bool known = false;
    for (program::MiscompileKind k : program::kMiscompiles)
      if (program::name(k) == a.plant) {
        o.plant = k;
        known = true;
      }
    if (!known) throw UsageError("--plant " + a.plant + ": want hoist, sink, merge or drop-syncwarp");
  }
  if (a.violate && o.plant != program::MiscompileKind::none) throw UsageError("--violate and --plant: choose one");
  o.violate = a.violate;
  o.shrink = !a.no_shrink;
  o.shrink_limit_s = a.shrink_limit_s;
  if ((!a.record.empty() || a.verify) && (o.violate || o.plant != program::MiscompileKind::none))
    throw UsageError("--record and --verify take the programs as generated: not with --plant or --violate");
  o.record = a.record;
  o.verify = a.verify;
  if (a.verify && !a.verify->empty()) golden::read_programs_file(*a.verify);  // bad input before anything runs
  if (!a.out_file.empty() && !a.emit) throw UsageError("--out needs --emit");
  if (!a.out_file.empty()) require_writable("--out", a.out_file, check::Output::file);
  if (!a.record.empty()) require_writable("--record", a.record, check::Output::file);
  return o;
}

// The program --emit prints: the shrunk one where a program failed, else the one of --index.
std::string emitted_source(const program::RunOptions& o, const program::RunSummary& s) {
  program::GenerateOptions g;
  g.violate = o.violate;
  const program::Program p = s.shrunk.empty() ? program::generate(o.seed, o.first, g) : s.shrunk.front();
  program::Miscompile plant;
  if (o.plant != program::MiscompileKind::none) {
    const std::vector<int> sites = program::miscompile_sites(p, o.plant);
    if (!sites.empty()) plant = {o.plant, sites.front()};
  }
  return program::standalone_source(p, plant);
}

}  // namespace

void add_program_options(CLI::App& cmd, ProgramArgs& a) {
  cmd.add_option("--seed", a.seed, "the seed (default: the process seed, WARPCONF_SEED)")->transform(number_in(kProgramSeed));
  CLI::Option* index =
      cmd.add_option("--index", a.index, "run one program, of this index")->transform(number_in(kProgramIndex));
  cmd.add_option("--count", a.count, "programs to run (default 2000; 20 under the quick budget)")
      ->transform(number_in(kProgramCount))
      ->excludes(index);
  cmd.add_option("--first", a.first, "the index of the first program (default 0)")
      ->transform(number_in(kProgramIndex))
      ->excludes(index);
  cmd.add_option("--path", a.paths, "code path (repeatable), or all (default: sass, sass-debug, jit-native)");
  cmd.add_flag("--emit", a.emit, "print the program's standalone CUDA source (the shrunk one where it failed)")->needs(index);
  cmd.add_option("--out", a.out_file, "with --emit: write the source here instead of stdout");
  cmd.add_option("--plant", a.plant, "plant a miscompile at each program's first site: hoist, sink, merge, drop-syncwarp");
  cmd.add_flag("--violate", a.violate, "contract-violating programs, each in a child: records ran, trapped or hung");
  cmd.add_flag("--no-shrink", a.no_shrink, "do not shrink the smallest failure");
  cmd.add_option("--shrink-limit", a.shrink_limit_s, "seconds the shrinker may take (default 120)")
      ->transform(duration_in(kShrinkLimit));
  cmd.add_flag("--coverage", a.coverage, "print how often each statement kind and op was generated and reached");
  cmd.add_option("--record", a.record, "write the run as a programs golden: every undefined and ptx-defined output (docs/golden-format.md)");
  cmd.add_option("--verify", a.verify,
                 "compare with a programs golden (default golden/sm_XX/programs.txt): a changed undefined output is a "
                 "behaviour change")
      ->expected(0, 1);
}

int run_program_command(const ProgramArgs& a, std::ostream& out, std::ostream& err) {
  const program::RunOptions o = run_options(a);
  std::ostringstream log;
  std::ostream& progress = a.emit && a.out_file.empty() ? log : out;  // --emit to stdout prints the source alone
  program::RunSummary s = program::run_programs(o, progress);
  if (!s.device_present && s.status == 77 && environment::require_gpu()) s.status = 1;
  if (a.coverage) progress << program::coverage_text(s.coverage) << "\n";
  if (!a.emit) return s.status;
  // Emitting needs no GPU: without one, the program is printed as generated, and that is the command's work.
  if (!s.device_present && s.status == 77) s.status = 0;
  const std::string source = emitted_source(o, s);
  if (a.out_file.empty()) {
    if (!(out << source << std::flush)) {
      print_error(err, "warpconf program", "--emit: cannot write the source to standard output");
      return 2;
    }
    err << log.str();
    return s.status;
  }
  try {
    files::write_atomically(a.out_file, source);
  } catch (const files::FileError& e) {
    throw UsageError(std::string("--out: ") + e.what());
  }
  return s.status;
}

}  // namespace wc::cli
