// report.md: short enough to paste into a bug report.
#include <cstdio>

#include "warpconf/report/report.hpp"

namespace wc::cli {
namespace {

constexpr size_t kMarkdownCounterexamples = 20, kListed = 40, kContractRows = 400;

// Text for a table cell or a line: no newline, no column bar.
std::string md(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\n' ? std::string(" ") : c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// A code span that no backtick in `s` can end early.
std::string code(const std::string& s) {
  std::string out = md(s);
  for (char& c : out)
    if (c == '`') c = '\'';
  return "`" + out + "`";
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

std::string call_text(const Cell& c) { return c.intrinsic + (c.type.empty() ? "" : "<" + c.type + ">"); }

void run_section(const Report& r, std::ostream& os) {
  const RunInfo& run = r.run;
  std::string argv;
  for (const std::string& a : run.argv) argv += (argv.empty() ? "" : " ") + a;
  os << "- warpconf " << code(run.warpconf) << ", " << code(argv) << "; budget " << (run.budget.empty() ? "unknown" : run.budget)
     << ", variant " << (run.variant.empty() ? "mixed" : run.variant) << "; " << run.status << "\n";
  if (!run.stop.cause.empty()) os << "- stopped: " << md(stop_text(run.stop)) << "\n";
  os << "- " << (run.start.empty() ? "?" : run.start) << " to " << (run.end.empty() ? "?" : run.end) << " ("
     << seconds_text(run.seconds) << ")\n";
  for (const Round& round : run.rounds)
    os << "- ctest" << (run.rounds.size() > 1 ? " round " + std::to_string(round.round) : "")
       << (round.seed.empty() ? "" : " (WARPCONF_SEED=" + round.seed + ")") << ": "
       << (round.summary.empty() ? "no summary (did not finish)" : round.summary) << "\n";
  for (const auto& source : run.sources) os << "- merged from " << code(field_text(source, "path")) << "\n";
}

void devices_section(const Report& r, std::ostream& os) {
  os << "\n## Devices\n\n| device | uuid | cc | SMs | driver | release | runtime | nvcc | architectures | code path | "
        "ptx/binary | variant |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& [id, f] : r.devices)
    os << "| " << md(f.name) << " | " << md(f.uuid) << " | " << md(f.compute_capability) << " | " << f.multiprocessors
       << " | " << md(f.driver) << " | " << md(f.driver_release) << " | " << md(f.runtime) << " | " << md(f.nvcc)
       << " | " << md(f.architectures) << " | " << md(f.code_path) << " | " << f.ptx_version << "/" << f.binary_version
       << " | " << md(f.variant) << " |\n";
  for (const auto& [id, f] : r.devices)
    if (const std::string note = code_note(f); !note.empty()) os << "\n" << md(device_label(r, id)) << ": " << md(note) << ".\n";
}

void verdicts_section(const Report& r, std::ostream& os) {
  std::map<std::string, uint64_t> cells;
  for (const auto& [key, c] : r.cells) ++cells[c.verdict()];
  os << "\n## Verdicts\n\n" << md(kVerdictRule) << ".\n\n| verdict | checks | cells |\n|---|---|---|\n";
  for (const char* v : kVerdictOrder) {
    const auto checks = r.totals.verdicts.count(v) ? r.totals.verdicts.at(v) : 0;
    const auto planted = r.planted.verdicts.count(v) ? r.planted.verdicts.at(v) : 0;
    if (checks + planted + cells[v] > 0) os << "| " << v << " | " << grouped(checks + planted) << " | " << grouped(cells[v]) << " |\n";
  }
}

void counterexamples_section(const Report& r, std::ostream& os) {
  const std::vector<const Cell*> cells = counterexample_cells(r);
  if (cells.empty()) return;
  os << "\n## Counterexamples (" << (cells.size() > kMarkdownCounterexamples ? "first " + std::to_string(kMarkdownCounterexamples) + " of " : "")
     << cells.size() << ")\n\n";
  for (size_t i = 0; i < cells.size() && i < kMarkdownCounterexamples; ++i) {
    const Cell& c = *cells[i];
    const nlohmann::json& f = c.first;
    std::string bad;
    for (const auto& [cls, n] : c.sums.mismatches)
      if (n > 0) bad += (bad.empty() ? "" : ", ") + cls + " " + grouped(n);
    os << i + 1 << ". **" << c.verdict() << "** " << code(c.family + " " + call_text(c)) << ", " << md(c.scenes) << ", on "
       << md(device_label(r, c.device)) << ": bad lanes " << (bad.empty() ? "none" : bad) << "; case "
       << field_text(f, "case") << " lane " << field_text(f, "lane") << ": got "
       << code(field_text(f, "got")) << ", want " << code(field_text(f, "want"))
       << " (" << md(field_text(f, "class")) << "; " << md(field_text(f, "rule")) << ")\n";
    if (f.contains("repro")) os << "   - repro: " << code(field_text(f, "repro")) << "\n";
    if (!c.replay.empty()) os << "   - replay: " << code(c.replay) << "\n";
  }
}

// The cells with an error (a CUDA error, or a malformed record) and why: no counterexample says so.
void errors_section(const Report& r, std::ostream& os) {
  std::vector<const Cell*> cells;
  for (const auto& [key, c] : r.cells)
    if (c.verdict() == "error") cells.push_back(&c);
  if (cells.empty()) return;
  os << "\n## Errors\n\n";
  for (size_t i = 0; i < cells.size() && i < kListed; ++i) {
    const Cell& c = *cells[i];
    const uint64_t errors = c.sums.verdicts.at("error");
    os << "- " << code(c.family + " " + call_text(c)) << (c.scenes.empty() ? "" : ", " + md(c.scenes)) << ", on "
       << md(device_label(r, c.device)) << ": " << grouped(errors) << (errors == 1 ? " error" : " errors")
       << (c.reason.empty() ? "" : ", the first: " + md(c.reason)) << "\n";
  }
  if (cells.size() > kListed) os << "- and " << cells.size() - kListed << " more (report.json lists every cell)\n";
}

void deviations_section(const Report& r, std::ostream& os) {
  if (r.deviations.empty()) return;
  os << "\n## Known deviations\n\n| id | device | lanes | checks | documented | observed | evidence |\n|---|---|---|---|---|---|---|\n";
  for (const auto& [key, d] : r.deviations)
    os << "| " << code(d.id) << " | " << md(device_label(r, d.device)) << " | " << grouped(d.lanes) << " | "
       << grouped(d.checks) << " | " << md(d.documented) << " | " << md(d.observed) << " | " << md(d.evidence) << " |\n";
}

void behaviour_section(const Report& r, std::ostream& os) {
  if (r.behaviour_changes.empty()) return;
  os << "\n## Behaviour changes\n\n| source | device | family | what | now | was | recording |\n|---|---|---|---|---|---|---|\n";
  for (const BehaviourChange& b : r.behaviour_changes)
    os << "| " << md(b.source) << " | " << md(device_label(r, b.device)) << " | " << md(b.family) << " | " << code(b.what)
       << " | " << md(b.detail) << " | " << md(b.was) << " | " << md(b.file) << " |\n";
}

// A matrix cell: the outcome, and what it was where the probe did not run to the end.
std::string contract_cell(const ContractMatrix& m, const std::string& probe, const std::string& path) {
  const auto cell = m.cells.find({probe, path});
  if (cell == m.cells.end()) return "";
  const Contract& c = *cell->second;
  return c.outcome == "ran" ? "ran" : "**" + md(c.outcome) + "** " + md(c.detail);
}

void contracts_section(const Report& r, std::ostream& os) {
  if (r.contracts.empty()) return;
  os << "\n## Contract probes\n\nWhat each call the Programming Guide leaves undefined did on each code path (recorded "
        "behaviour, not a verdict; docs/contracts.md). A row per probe that did not run on every path; report.html "
        "and report.json hold every probe.\n";
  for (const ContractMatrix& m : contract_matrices(r)) {
    std::vector<std::string> listed, ran;
    for (const std::string& probe : m.probes) (m.ran_everywhere(probe) ? ran : listed).push_back(probe);
    os << "\n" << md(m.gpu) << ": " << m.probes.size() << " probes, " << ran.size() << " ran on every path.\n";
    if (listed.empty()) continue;
    os << "\n| probe |";
    for (const std::string& path : m.paths) os << " " << md(path) << " |";
    os << "\n|---|";
    for (size_t i = 0; i < m.paths.size(); ++i) os << "---|";
    os << "\n";
    for (size_t i = 0; i < listed.size() && i < kContractRows; ++i) {
      os << "| " << code(listed[i]) << " |";
      for (const std::string& path : m.paths) os << " " << contract_cell(m, listed[i], path) << " |";
      os << "\n";
    }
    if (listed.size() > kContractRows) os << "\nand " << listed.size() - kContractRows << " more (report.json lists every probe)\n";
  }
}

// Per family a table: a row per figure and metric, a column per device with the figure, its
// baseline and change where compared, and its verdict.
void performance_section(const Report& r, std::ostream& os) {
  if (r.perf.empty()) return;
  const PerfTables t = perf_tables(r.perf);
  os << "\n## Performance\n\n" << md(perf_counts_text(r.perf)) << ". " << md(kPerfRule) << "\n";
  for (const PerfFamily& family : t.families) {
    os << "\n### " << md(family.name) << "\n\n| figure | metric |";
    for (const std::string& device : t.devices) os << " " << md(device_label(r, device)) << " |";
    os << "\n|---|---|";
    for (size_t d = 0; d < t.devices.size(); ++d) os << "---|";
    os << "\n";
    for (const PerfRow& row : family.rows) {
      os << "| " << code(row.id) << " | " << md(row.metric) << " |";
      for (const std::string& device : t.devices) {
        const auto it = row.by_device.find(device);
        if (it == row.by_device.end()) {
          os << " |";
          continue;
        }
        const PerfFigure& f = *it->second;
        std::string text;
        for (const std::string& part : {perf_value_text(f), perf_sass_text(f), perf_baseline_text(f), "**" + f.verdict + "**", f.reason})
          if (!part.empty()) text += (text.empty() ? "" : "; ") + part;
        os << " " << md(text) << " |";
      }
      os << "\n";
    }
  }
}

// Per device whose checks recorded where they ran: the coverage line, and the SM x family matrix of
// lanes compared, a row per SM ("-" where a family compared none there).
void coverage_section(const Report& r, std::ostream& os) {
  if (coverage_lines(r).empty()) return;
  os << "\n## SM coverage\n\nLanes compared (defined and ptx-defined) on each SM, as the blocks of each batch recorded "
        "it (`%smid`); planted bugs' checks are not counted.\n";
  for (const auto& [device, c] : r.coverage) {
    if (!c.placed()) continue;
    os << "\n### " << md(device_label(r, device)) << "\n\n" << md(coverage_text(c)) << ".\n\n| SM |";
    for (const auto& [family, lanes] : c.families) os << " " << md(family) << " |";
    os << "\n|---|";
    for (size_t i = 0; i < c.families.size(); ++i) os << "---|";
    os << "\n";
    for (uint32_t sm : matrix_sms(c)) {
      os << "| " << sm << " |";
      for (const auto& [family, lanes] : c.families) {
        const auto it = lanes.find(sm);
        os << " " << (it == lanes.end() || it->second == 0 ? std::string("-") : grouped(it->second)) << " |";
      }
      os << "\n";
    }
  }
}

void tests_section(const Report& r, std::ostream& os) {
  os << "\n## Tests\n\n";
  if (r.tests.empty()) {
    os << "No ctest test is known to this report: it was built from result records alone.\n";
    return;
  }
  std::vector<const TestResult*> others;
  for (const TestResult& t : r.tests)
    if (t.status != "passed") others.push_back(&t);
  os << grouped(r.tests.size()) << " tests, " << grouped(r.tests.size() - others.size()) << " passed"
     << (others.empty() ? ".\n" : "; the others:\n\n");
  for (size_t i = 0; i < others.size() && i < kListed; ++i) {
    const TestResult& t = *others[i];
    os << "- " << t.status << (t.skip.empty() ? "" : " (" + t.skip + ")") << ": " << code(t.name)
       << (r.run.rounds.size() > 1 ? " round " + std::to_string(t.round) : "") << ", " << md(t.ctest) << ", "
       << seconds_text(t.seconds) << (t.reason.empty() ? "" : ": " + md(t.reason)) << "\n";
  }
  if (others.size() > kListed) os << "- and " << others.size() - kListed << " more (report.json lists every test)\n";
}

}  // namespace

void write_markdown(const Report& r, std::ostream& os) {
  os << "# warpconf report\n\n**" << md(summary_line(r)) << "**\n\n";
  if (const std::vector<std::string> paths = code_path_lines(r); !paths.empty()) {
    os << "Per code path:\n\n";
    for (const std::string& line : paths) os << "- " << md(line) << "\n";
    os << "\n";
  }
  if (!r.aborted.is_null())
    os << (r.run.status == "running" ? "**Unfinished**: rewritten after every test. If it no longer changes: "
                                     : "**Aborted**: ")
       << md(aborted_text(r)) << "\n\n";
  run_section(r, os);
  devices_section(r, os);
  verdicts_section(r, os);
  if (r.planted.records > 0)
    os << "\nPlanted bugs (deliberately wrong implementations, kept apart from the totals): "
       << grouped(r.planted.verdicts.count("planted-caught") ? r.planted.verdicts.at("planted-caught") : 0) << " caught, "
       << grouped(r.planted.verdicts.count("planted-missed") ? r.planted.verdicts.at("planted-missed") : 0) << " missed.\n";
  counterexamples_section(r, os);
  errors_section(r, os);
  deviations_section(r, os);
  behaviour_section(r, os);
  contracts_section(r, os);
  performance_section(r, os);
  coverage_section(r, os);
  tests_section(r, os);
}

}  // namespace wc::cli
