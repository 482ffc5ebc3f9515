// The commands other than explain, in the explain_command fuzz target: stand-ins that abort, so that
// an input that makes wc::cli::run dispatch to one is a finding, and no input reads or writes a file.
#include <cstdio>
#include <cstdlib>

#include "core/perf/bench.hpp"
#include "warpconf/golden/golden_command.hpp"
#include "warpconf/perf/perf_command.hpp"
#include "warpconf/probe/probe_command.hpp"
#include "warpconf/program/program_command.hpp"
#include "warpconf/report/report_inputs.hpp"
#include "warpconf/report/results.hpp"
#include "warpconf/report/results_same.hpp"
#include "warpconf/run/health.hpp"
#include "warpconf/run/run_command.hpp"
#include "warpconf/screen/screen_command.hpp"
#include "warpconf/toolchain/toolchain_command.hpp"

namespace wc {
namespace {

[[noreturn]] void reached(const char* command) {
  std::fprintf(stderr, "the explain_command fuzz target reached warpconf %s\n", command);
  std::abort();
}

}  // namespace

namespace perf {
std::vector<Figure> measure(const Options&) { reached("perf (measure)"); }
}  // namespace perf

namespace cli {
int run_golden(const GoldenOptions&, std::ostream&, std::ostream&) { reached("golden"); }
int run_perf(const PerfOptions&, std::ostream&, std::ostream&, const Measure&) { reached("perf"); }
int run_probe_command(const ProbeOptions&, std::ostream&) { reached("probe"); }
// The program command's options live beside its pipeline (warpconf/program/program_command.cpp): here it takes none.
void add_program_options(CLI::App&, ProgramArgs&) {}
int run_program_command(const ProgramArgs&, std::ostream&, std::ostream&) { reached("program"); }
void add_toolchain_options(CLI::App&, ToolchainArgs&) {}
int run_toolchain_command(const ToolchainArgs&, std::ostream&, std::ostream&) { reached("toolchain"); }
RunOutcome run_suite(const RunOptions&, std::ostream&, std::ostream&) { reached("run"); }
int run_health(const HealthOptions&, std::ostream&) { reached("health"); }
void add_screen_options(CLI::App&, ScreenArgs&) {}
ScreenGpu this_gpu() { return {}; }
int run_screen_command(const ScreenArgs&, std::ostream&, std::ostream&, const ScreenGpu&) { reached("screen"); }
int run_report_command(const std::string&, const std::string&, const std::vector<std::string>&, std::ostream&,
                       std::ostream&) {
  reached("report");
}
int run_merge_command(const std::vector<std::string>&, const std::string&, const std::vector<std::string>&,
                      std::ostream&, std::ostream&) {
  reached("merge");
}
ResultsSummary summarize_results(std::istream&, const std::string&) { reached("results"); }
void print_results_text(const ResultsSummary&, std::ostream&) { reached("results"); }
void print_results_json(const ResultsSummary&, std::ostream&) { reached("results"); }
CallSums call_sums(std::istream&, const std::string&) { reached("results --same-as"); }
int print_same_sums(const CallSums&, const std::string&, const CallSums&, const std::string&, std::ostream&) {
  reached("results --same-as");
}
}  // namespace cli

}  // namespace wc
