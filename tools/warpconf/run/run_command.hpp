// `warpconf run`: the GPU suite through ctest (ctest schedules), with a progress line and a report
// (report.json, report.md, report.html) rewritten after every finished test, so that a run that
// is killed still leaves a report of what finished. ctest runs under a Keeper (keeper.hpp): nothing
// it starts outlives the run. SIGINT, SIGTERM, SIGHUP and SIGPIPE (a closed standard output) stop
// it with a final report that says why; a malformed record is an error of its test, not the end.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/number_text.hpp"
#include "warpconf/report/report.hpp"

namespace wc::cli {

// --time-limit of run and health, and --soak-minutes: the longest is numbers::kLongestSeconds (115 days).
inline constexpr numbers::DurationRange kTimeLimit{"seconds", 0, numbers::kLongestSeconds, "none"};
inline constexpr numbers::DurationRange kSoakMinutes{"minutes", 0.001, 100'000, ""};

struct RunOptions {
  std::string budget = "default";  // quick, default or soak
  double soak_minutes = 60;
  bool soak_minutes_given = false;
  std::string out;        // default <build>/report; from a bundle, warpconf-report in the current directory
  std::string build_dir;  // a build tree or a bundle; default: the one this warpconf lives in
  std::string path = "sass";  // a code path's name (core/code_paths.hpp), or "all"
  bool sanitize = false;
  bool perf = false;    // the perf label alone: performance figures against golden/sm_XX/perf.txt
  bool strict = false;  // with perf: a performance change fails (WARPCONF_PERF_STRICT=1 for the tests)
  double time_limit_s = 0;  // above 0: the run stops after this many seconds, everything ctest started killed
  std::vector<std::string> ctest_args;  // after --
  std::vector<std::string> argv;        // the command line, for the report
};

// The tests `warpconf run --budget quick` leaves out: the contract probes (a child process per
// batch, seconds per probe that hangs), the golden verification, the suites that run planted
// and known-bad implementations, whose shrinking is the slowest part of the suite, and the screen's
// planted faults (a screen and its replay each: the screen's teeth, not the node's health), and the
// PTX fuzzer's random programs (thousands of compilations on nine paths: the compilers', not the node's).
inline constexpr const char* kQuickExclude =
    "^probe\\.|^golden\\.verify$|KnownBad|Planted|^program\\.planted\\.|^screen\\.planted\\.|^toolchain\\.random";

// Throws UsageError naming what is wrong with options that do not go together or are out of range.
void check_options(const RunOptions&);

// What a run left. `status`: 0 when every test passed or was skipped as NotSupported or not
// recorded, 1 for a failure (a perf figure of a WRONG kernel and a malformed record included, a
// performance change only with --strict), an unexplained skip, a run that did not finish or an
// unexpected error, 2 for bad input (one line on `err`).
struct RunOutcome {
  int status = 2;
  std::optional<Report> report;  // the last report written; none where nothing ran (bad input)
};
RunOutcome run_suite(const RunOptions&, std::ostream& out, std::ostream& err);

// For a run that cannot start (`warpconf health` found no GPU to test): writes into the folder that
// `o` names a report with no test, `run.stop` {could-not-test, why}, in place of an earlier run's
// files. Throws UsageError where `o` names no folder (no --out and no build tree) or it cannot be written.
void write_untested_report(const RunOptions& o, const std::string& why);

}  // namespace wc::cli
