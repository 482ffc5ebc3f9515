#include "warpconf/program.hpp"

#include <fstream>
#include <sstream>

#include "core/environment.hpp"
#include "core/numbers.hpp"
#include "core/seed.hpp"
#include "families/program/run.hpp"
#include "formats/programs.hpp"

namespace wc::cli {
namespace {

program::RunOptions run_options(const ProgramArgs& a) {
  program::RunOptions o;
  o.seed = check::process_seed().seed;
  if (a.seed) {
    size_t used = 0;
    o.seed = static_cast<uint64_t>(std::stoull(*a.seed, &used, 0));
    if (used != a.seed->size()) throw UsageError("--seed " + *a.seed + ": want a number, decimal or 0x hex");
  }
  o.first = a.index ? *a.index : a.first;
  o.count = a.index ? 1 : a.count.value_or(check::random_case_count(2000));
  if (o.count == 0) throw UsageError("--count 0: nothing to run");
  if (!a.paths.empty()) {
    o.paths.clear();
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
  if (!(a.shrink_limit_s >= 0)) throw UsageError("--shrink-limit: want seconds >= 0");
  o.shrink_limit_s = a.shrink_limit_s;
  if ((!a.record.empty() || a.verify) && (o.violate || o.plant != program::MiscompileKind::none))
    throw UsageError("--record and --verify take the programs as generated: not with --plant or --violate");
  o.record = a.record;
  o.verify = a.verify;
  if (a.verify && !a.verify->empty()) golden::read_programs_file(*a.verify);  // bad input before anything runs
  return o;
}

}  // namespace

void add_program_options(CLI::App& cmd, ProgramArgs& a) {
  cmd.add_option("--seed", a.seed, "the seed (default: the process seed, WARPCONF_SEED)");
  CLI::Option* index = cmd.add_option("--index", a.index, "run one program, of this index");
  cmd.add_option("--count", a.count, "programs to run (default 2000; 20 under the quick budget)")->excludes(index);
  cmd.add_option("--first", a.first, "the index of the first program (default 0)")->excludes(index);
  cmd.add_option("--path", a.paths, "code path (repeatable), or all (default: sass, sass-debug, jit-native)");
  cmd.add_flag("--emit", a.emit, "print the program's standalone CUDA source (the shrunk one where it failed)")->needs(index);
  cmd.add_option("--out", a.out_file, "with --emit: write the source here instead of stdout");
  cmd.add_option("--plant", a.plant, "plant a miscompile at each program's first site: hoist, sink, merge, drop-syncwarp");
  cmd.add_flag("--violate", a.violate, "contract-violating programs, each in a child: records ran, trapped or hung");
  cmd.add_flag("--no-shrink", a.no_shrink, "do not shrink the smallest failure");
  cmd.add_option("--shrink-limit", a.shrink_limit_s, "seconds the shrinker may take (default 120)");
  cmd.add_flag("--coverage", a.coverage, "print how often each statement kind and op was generated and reached");
  cmd.add_option("--record", a.record, "write the run as a programs golden: every undefined and ptx-defined output (docs/golden-format.md)");
  cmd.add_option("--verify", a.verify,
                 "compare with a programs golden (default golden/sm_XX/programs.txt): a changed undefined output is a "
                 "behaviour change")
      ->expected(0, 1);
}

int run_program_command(const ProgramArgs& a, std::ostream& out, std::ostream& err) {
  program::RunOptions o;
  try {
    o = run_options(a);
    if (!a.out_file.empty() && !a.emit) throw UsageError("--out needs --emit");
  } catch (const UsageError& e) {
    print_error(err, "warpconf program", e.what());
    return 2;
  } catch (const golden::FormatError& e) {
    print_error(err, "warpconf program", e.what());
    return 2;
  } catch (const std::logic_error&) {  // std::stoull's invalid_argument and out_of_range
    print_error(err, "warpconf program", "--seed " + a.seed.value_or("") + ": want a number, decimal or 0x hex");
    return 2;
  }
  std::ostringstream log;
  std::ostream& progress = a.emit && a.out_file.empty() ? log : out;  // --emit to stdout prints the source alone
  program::RunSummary s;
  try {
    s = program::run_programs(o, progress);
  } catch (const golden::FormatError& e) {  // the default golden, read once the GPU's architecture is known
    print_error(err, "warpconf program", e.what());
    return 2;
  }
  if (!s.device_present && s.status == 77 && environment::require_gpu()) s.status = 1;
  if (a.coverage) progress << program::coverage_text(s.coverage) << "\n";
  if (a.emit) {
    program::GenerateOptions g;
    g.violate = o.violate;
    const program::Program p = s.shrunk.empty() ? program::generate(o.seed, o.first, g) : s.shrunk.front();
    program::Miscompile plant;
    if (o.plant != program::MiscompileKind::none) {
      const std::vector<int> sites = program::miscompile_sites(p, o.plant);
      if (!sites.empty()) plant = {o.plant, sites.front()};
    }
    const std::string source = program::standalone_source(p, plant);
    if (a.out_file.empty()) {
      out << source;
    } else {
      std::ofstream file(a.out_file);
      if (!(file << source)) {
        print_error(err, "warpconf program", "cannot write " + a.out_file);
        return 2;
      }
    }
    if (a.out_file.empty()) err << log.str();
  }
  return s.status;
}

}  // namespace wc::cli
