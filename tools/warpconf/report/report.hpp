// Reports, schema `warpconf.report/1` (docs/report-schema.md): what a run checked, per device
// fingerprint and per cell (family, intrinsic, type, scenes), built from result records and the
// ctest tests, written as report.json, report.md and report.html, and merged across devices.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/code_paths.hpp"
#include "warpconf/report/json_fields.hpp"
#include "warpconf/report/report_perf.hpp"
#include "warpconf/report/results.hpp"
#include "warpconf/report/results_coverage.hpp"

namespace wc::cli {

inline constexpr const char* kReportSchema = "warpconf.report/1";

// The most seconds a test or a run may have taken (31,700 years): more is no duration, and a sum of
// such stays finite.
inline constexpr double kMostSeconds = 1e12;

// Verdicts from worst to best: a cell's verdict is the worst of its checks'. Planted bugs that were
// caught rank with a pass, `not-recorded` (nothing compared, never a pass) just above it; a
// performance change and a library call that costs more than its raw intrinsic (perf figures only)
// rank with a behaviour change, and a compiler's bug that is recorded (toolchain-bugs.txt) after them:
// findings, not failures.
inline constexpr const char* kVerdictOrder[] = {
    "error",           "conformance-failure", "nothing-compared", "planted-missed", "behaviour-change",
    "performance-change", "costlier-than-raw", "toolchain-bug",    "known-deviation", "not-recorded", "planted-caught",
    "pass",               "not-supported"};
inline constexpr const char* kVerdictRule =
    "A cell's verdict is the worst of its checks': error > conformance-failure > nothing-compared > planted-missed > "
    "behaviour-change > performance-change > costlier-than-raw > toolchain-bug > known-deviation > not-recorded > "
    "planted-caught > pass > not-supported";

// Whether `verdict` is one of kVerdictOrder.
bool is_verdict(std::string_view verdict);
// Whether a check record may have `verdict`: one of kVerdictOrder but performance-change, a perf figure's alone.
bool is_check_verdict(std::string_view verdict);
// Position in kVerdictOrder; throws UsageError for a verdict this build does not know.
int verdict_rank(std::string_view verdict);

// A verdict that makes a run fail (a performance change does only with `warpconf run --perf --strict`).
bool is_failure(std::string_view verdict);

// One device as one build ran it: a report's column.
struct Fingerprint {
  std::string id;  // "<uuid> <driver_release> nvcc <nvcc> <code_path> <variant>": what tells columns apart
  std::string name, uuid;
  int ordinal = -1;
  std::string compute_capability;
  int multiprocessors = 0;
  std::string driver, driver_release, runtime, nvcc, architectures, code_path;
  int ptx_version = 0, binary_version = 0;
  std::string variant;  // sass, jit or sanitize: which ctest tests ran
  std::string proof;    // how its process knew the code path (the device record's build.code_path_proof)
  bool compiled_at_run_time = false;  // code its process compiled at run time for this path (random programs)
};

// One (device, family, intrinsic, type, scenes): the sums of its checks.
struct Cell {
  std::string device, family, intrinsic, type, scenes;
  FamilySums sums;  // records = checks
  uint64_t random_checks = 0;
  std::vector<std::string> seeds;  // distinct seeds of its random checks, the first kMaxSeeds
  nlohmann::json first;  // the first counterexample ({case, lane, got, want, class, rule, name, repro}) or null
  std::string replay;    // the replay command of the check that gave `first`
  std::string reason;    // why, for the first not-supported, not-recorded or error check
  std::string verdict() const;
  static constexpr size_t kMaxSeeds = 8;
};

struct Deviation {
  std::string device, id, documented, observed, evidence;
  uint64_t lanes = 0, checks = 0;
};

// An undefined lane or float output that differs from the golden (a `warpconf golden` record), or a
// contract probe whose outcome or values changed.
struct BehaviourChange {
  std::string device, source, family, what, detail, was, file;
  uint64_t lanes = 0;  // golden: the lanes that changed; contract: 0
};

// What one contract probe did (docs/golden-format.md): ran, trapped, hung, crashed, ...
struct Contract {
  std::string device, id, probe_family, intrinsic, scenario, mask, outcome, detail, golden, was;
  std::string path;  // the code path it ran on (records before paths: the device's code path)
};

// One ctest test as ctest reported it.
struct TestResult {
  std::string name;
  std::string status;  // passed, failed, timeout, not-run, skipped, disabled
  std::string ctest;   // ctest's own words: "Passed", "***Exception: SegFault", ...
  double seconds = 0;
  int round = 1;
  std::string skip;    // skipped: not-supported, not-recorded or unexplained
  std::string reason;  // skipped: the line that says why; failed: the end of its output, where known
  std::string source;  // merged reports: the report it came from
};

struct Round {
  int round = 1;
  std::string seed;     // the WARPCONF_SEED of a soak round, else ""
  std::string summary;  // ctest's "N% tests passed, ..." line
};

// Why `warpconf run` stopped; no cause in reports of `warpconf report` and `warpconf merge`.
struct RunStop {
  std::string cause;   // finished, running (a report written during the run), signal, ctest or error
  int signal = 0;      // signal: the one warpconf received; ctest: the one that killed ctest; else 0
  std::string detail;  // in words, as aborted.reason; "" for finished
};

struct RunInfo {
  std::string warpconf;  // git describe of the warpconf sources at configure time
  std::string command;   // run, report or merge
  std::vector<std::string> argv;
  std::string budget;    // quick, default or soak; "" where unknown (warpconf report)
  std::string variant;   // sass, jit or sanitize
  std::string status = "finished";  // running, finished or aborted
  std::string start, end;  // UTC, ISO 8601
  double seconds = 0;
  std::vector<Round> rounds;
  nlohmann::json sources = nlohmann::json::array();  // merged reports: [{path, run}]
  RunStop stop;  // report.json's run.stop: written and read apart, as reports before it lack it
};

// report.json spells these as their members.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Fingerprint, id, name, uuid, ordinal, compute_capability, multiprocessors, driver,
                                   driver_release, runtime, nvcc, architectures, code_path, ptx_version,
                                   binary_version, variant, proof, compiled_at_run_time)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Deviation, device, id, lanes, checks, documented, observed, evidence)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(BehaviourChange, device, source, family, what, lanes, detail, was, file)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Contract, device, id, probe_family, intrinsic, scenario, mask, outcome, detail,
                                   golden, was, path)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TestResult, name, status, ctest, seconds, round, skip, reason, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Round, round, seed, summary)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RunInfo, warpconf, command, argv, budget, variant, status, start, end, seconds,
                                   rounds, sources)

struct Report {
  RunInfo run;
  std::map<std::string, Fingerprint> devices;  // by id
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, Cell> cells;
  std::map<std::pair<std::string, std::string>, Deviation> deviations;  // by (device, id)
  std::vector<BehaviourChange> behaviour_changes;
  std::vector<Contract> contracts;
  std::vector<PerfFigure> perf;  // performance figures, in the order measured; no cell, check or lane
  FamilySums totals;   // every check but the planted bugs'
  FamilySums planted;  // checks of deliberately wrong implementations, kept apart
  std::map<std::string, SmCoverage> coverage;  // by device id: the lanes each family compared on each SM
  std::vector<TestResult> tests;
  nlohmann::json aborted;  // null, or {reason, last_test}

  // Adds `other`'s devices, cells, lists, perf figures and tests; counts of a cell both hold are summed.
  void merge(const Report& other);
};

// Turns result records, as a RecordReader hands them over (checked), into a report, one at a time:
// a check belongs to the device of the last device record of its process.
class RecordSink {
 public:
  // `variant`: sass, jit or sanitize where the run says so; "" takes it from the code path.
  RecordSink(Report& into, std::string variant) : report_(into), variant_(std::move(variant)) {}
  void add(const nlohmann::json& record);
  std::string last_test() const { return last_test_; }

 private:
  // The device of the last device record of process `pid` ("unknown" where it wrote none), on `code_path`
  // where a record names one other than the process's (code compiled at run time).
  std::string device_of(int pid, const std::string& code_path);

  Report& report_;
  std::string variant_, last_test_;
  std::map<int, std::string> device_of_pid_;
};

// A test that fails a run: failed, timed out or not run, or skipped for no reason a run accepts
// (only not-supported and not-recorded are).
bool test_fails(const TestResult&);
// What fails a run, finished or not: a failing test, a failing verdict, a perf figure of a wrong
// kernel, and with `strict` a performance change.
bool report_fails(const Report&, bool strict);

// "H100: 142 tests: 140 passed, 2 skipped (2 not-supported); 1,234,567 lanes compared; 0 conformance
// failures; 3 known deviations; 0 behaviour changes", and "; 1 performance change" where the report
// has perf figures. Conformance failures count the checks and the perf figures of a WRONG kernel.
std::string summary_line(const Report&);

// A line per device whose checks recorded where they ran: its label and coverage_text, "NVIDIA H100
// 80GB HBM3 (GPU-5e3a9c1d, sass): every one of 132 SMs verified lanes of each of 9 families".
std::vector<std::string> coverage_lines(const Report&);

// The code path a test's name starts with ("jit-75/SoftmaxOnGpu": jit-75); nullptr for none (sass's tests).
const CodePath* code_path_of_test(std::string_view name);

// What `r`'s summary line counts of code path `path`: its devices, the sums of their cells, their
// deviations, behaviour changes and perf figures, and the tests named "<path>/..." (for the first
// path, sass, the tests named after no path). No cells or contracts; the run and its stop are not `r`'s.
Report part_on_path(const Report& r, const std::string& path);

// Where `r` holds more than one code path, a line per path in kCodePaths order: "sass: " and the
// summary line of its part, then the proof that it ran; else none.
std::vector<std::string> code_path_lines(const Report& r);

// The perf figures with `verdict`.
uint64_t perf_count(const Report&, const std::string& verdict);

// 1234567 -> "1,234,567"
std::string grouped(uint64_t);

// Seconds to a tenth, as a line shows them: 50 -> "50", 49.31 -> "49.3".
std::string seconds_text(double seconds);

// What the writers share: why the run did not finish, "" when it did;
std::string aborted_text(const Report&);
// why `warpconf run` stopped, "signal 15: interrupted by SIGTERM", "" for other commands;
std::string stop_text(const RunStop&);
// a device's short name, "NVIDIA H100 80GB HBM3 (GPU-5e3a9c1d, sass)";
std::string device_label(const Report&, const std::string& device_id);
// where a device's kernels were not the SASS built for its compute capability, what ran instead and
// why: "no sm_120 SASS in the build (architectures 90-real,75-virtual): the driver JIT-compiled the
// embedded compute_75 PTX"; "" where they were, or where the jit variant forced the JIT on purpose;
std::string code_note(const Fingerprint&);
// the cells with a counterexample, worst verdict first, those of planted bugs that were caught left out;
std::vector<const Cell*> counterexample_cells(const Report&);
// The contract probes of one GPU as a matrix: a row per probe, a column per code path, a cell per
// probe run (none where a path did not run the probe).
struct ContractMatrix {
  std::string gpu;                 // the GPU's label without its path: "NVIDIA H100 80GB HBM3 (GPU-5e3a9c1d)"
  std::vector<std::string> paths;  // the paths recorded, in core/code_paths.hpp's order
  std::vector<std::string> probes; // in the order first recorded
  std::map<std::pair<std::string, std::string>, const Contract*> cells;  // (probe, path)
  // Whether the probe ran on every path it was run on (a row without a trap, hang, error or skip).
  bool ran_everywhere(const std::string& probe) const;
};
std::vector<ContractMatrix> contract_matrices(const Report&);

nlohmann::json to_json(const Report&);
// Reads a report.json; throws UsageError naming `name` for another schema or a malformed report.
Report report_from_json(const nlohmann::json&, const std::string& name);
// The same from a report.json's text; text that is not JSON is a UsageError too.
Report parse_report(std::string_view text, const std::string& name);

void write_markdown(const Report&, std::ostream&);
void write_html(const Report&, std::ostream&);

// Writes report.json, report.md and report.html into `dir`, each by files::write_atomically (a
// .partial file renamed over the old one), so that a reader never sees half a report. Throws
// UsageError when it cannot.
void write_report_files(const Report&, const std::string& dir);

// The git describe of the sources this warpconf was configured from.
std::string warpconf_version();

}  // namespace wc::cli
