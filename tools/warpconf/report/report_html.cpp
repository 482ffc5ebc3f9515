// report.html: one self-contained page (inline CSS, no script, nothing fetched). The conformance
// matrix first, one grid per family: rows are its calls, columns its types, one group per device.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "warpconf/report/report_html.hpp"

namespace wc::cli {
namespace {

using html::esc;
using html::style;
using html::Style;
using html::td_verdict;

constexpr size_t kHtmlCounterexamples = 100, kContracts = 1000, kTests = 600;
constexpr const char* kPlantedBugs = "planted bugs";

// A colour and a glyph per verdict, so that a reader who cannot tell the colours apart still can.
constexpr Style kStyles[] = {
    {"error", "#6a1b9a", "#fff", "!"},
    {"conformance-failure", "#c62828", "#fff", "\u2717"},
    {"nothing-compared", "#e65100", "#fff", "\u2205"},
    {"planted-missed", "#ad1457", "#fff", "\u2298"},
    {"behaviour-change", "#f9a825", "#000", "\u0394"},
    {"performance-change", "#ffcc80", "#000", "\u2193"},
    {"costlier-than-raw", "#ffe0b2", "#000", "\u2191"},
    {"toolchain-bug", "#8d6e63", "#fff", "\u2699"},
    {"known-deviation", "#4fc3f7", "#000", "\u2248"},
    {"not-recorded", "#f5f5f5", "#555", "?"},
    {"planted-caught", "#a5d6a7", "#000", "\u25cf"},
    {"pass", "#2e7d32", "#fff", "\u2713"},
    {"not-supported", "#b0bec5", "#263238", "\u2013"},
};

constexpr const char* kTypeOrder[] = {"", "int", "unsigned", "long", "unsigned long", "long long",
                                      "unsigned long long", "float", "double", "__half", "__nv_bfloat16",
                                      "__half2", "__nv_bfloat162"};

constexpr const char* kCss = R"(
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:24px;color:#1b1b1b;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd}
h3{font-size:15px;margin:18px 0 6px}
.summary{font-size:16px;font-weight:600;margin:6px 0 12px}
.aborted{background:#c62828;color:#fff;padding:8px 12px;border-radius:4px;font-weight:600}
.running{background:#f9a825;padding:8px 12px;border-radius:4px;font-weight:600}
table{border-collapse:collapse;margin:4px 0 12px}
th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#fafafa;font-weight:600}
table.fp td,table.fp th{font-size:12px}
.legend span{display:inline-block;margin:2px 8px 2px 0;padding:1px 6px;border-radius:3px;font-size:12px}
table.overview td.c{text-align:center;white-space:nowrap;font-size:12px;min-width:44px;cursor:default}
table.grid td.c{text-align:center;white-space:nowrap;font-size:11px;padding:2px 3px;min-width:36px;cursor:default}
table.grid th.t{font-size:11px;font-weight:500;white-space:nowrap;writing-mode:vertical-rl;transform:rotate(180deg);
  text-align:left;padding:4px 2px;vertical-align:bottom}
table.grid th.dev,table.overview th.dev{text-align:center;font-size:12px}
table.grid td.call{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px;white-space:nowrap}
td.empty{background:#fff;color:#ccc}
td.gap,th.gap{border:none;background:#fff;width:10px;padding:0}
.v-not-recorded{border:1px dashed #888}
.outcome-trapped,.outcome-crashed{background:#ffcdd2}
.outcome-hung,.outcome-flooded,.outcome-cuda-error,.outcome-exited-early,.outcome-missing{background:#ffe0b2}
.outcome-not-supported{color:#777}
code,.mono{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
.small{font-size:12px;color:#555}
.left{font-size:12px;color:#555;font-style:italic}
svg.chart{display:block;margin:4px 0 16px}
svg.chart text{font:11px ui-monospace,"DejaVu Sans Mono",monospace;fill:#1b1b1b}
svg.chart text.panel{font:600 12px system-ui,"DejaVu Sans",sans-serif}
svg.chart text.bad{fill:#c62828;font-weight:600}
svg.chart line.tick{stroke:#000;stroke-width:2}
svg.chart line.axis{stroke:#888}
)";

// 1234567 -> "1.2M": the short count in a cell; the exact one is in its tooltip.
std::string compact(uint64_t n) {
  char buf[16];
  if (n < 1000) std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(n));
  else if (n < 1000000) std::snprintf(buf, sizeof buf, "%.*fk", n < 10000 ? 1 : 0, static_cast<double>(n) / 1e3);
  else std::snprintf(buf, sizeof buf, "%.*fM", n < 10000000 ? 1 : 0, static_cast<double>(n) / 1e6);
  return buf;
}

template <size_t N>
size_t rank_in(const char* const (&order)[N], const std::string& s) {
  return static_cast<size_t>(std::find_if(std::begin(order), std::end(order), [&s](const char* o) { return s == o; }) -
                             std::begin(order));
}

// Types in the order a reader expects, unknown ones after them by name.
template <size_t N>
std::vector<std::string> ordered(const std::set<std::string>& values, const char* const (&order)[N]) {
  std::vector<std::string> out(values.begin(), values.end());
  std::stable_sort(out.begin(), out.end(),
                   [&order](const std::string& a, const std::string& b) { return rank_in(order, a) < rank_in(order, b); });
  return out;
}

// The matrix's rows: the families by name, as the records name them, so that no list of families is
// kept here; the rows this report makes of golden checks and planted bugs come after what they grade.
std::vector<std::string> matrix_rows(const std::set<std::string>& groups) {
  std::vector<std::string> out(groups.begin(), groups.end());
  std::stable_partition(out.begin(), out.end(), [](const std::string& group) {
    return group.rfind("golden ", 0) != 0 && group != kPlantedBugs;
  });
  return out;
}

uint64_t lanes_compared(const FamilySums& s) {
  uint64_t n = 0;
  for (const char* c : {"defined", "ptx-defined"})
    if (s.lanes.count(c)) n += s.lanes.at(c);
  return n;
}

// Several cells (the scenes of one call and type) seen as one grid cell.
struct Group {
  FamilySums sums;
  std::string verdict;
  std::vector<const Cell*> cells;
  void add(const Cell& c) {
    sums.add(c.sums);
    const std::string v = c.verdict();
    if (verdict.empty() || verdict_rank(v) < verdict_rank(verdict)) verdict = v;
    cells.push_back(&c);
  }
};

std::string counts_text(const FamilySums& s) {
  std::string t = grouped(s.records) + " checks, " + grouped(s.cases) + " cases; lanes";
  for (const char* c : kLaneClasses) t += " " + std::string(c) + " " + grouped(s.lanes.count(c) ? s.lanes.at(c) : 0);
  uint64_t bad = 0;
  for (const auto& [c, n] : s.mismatches) bad += n;
  if (bad > 0) {
    t += "; bad lanes";
    for (const auto& [c, n] : s.mismatches)
      if (n > 0) t += " " + c + " " + grouped(n);
  }
  return t;
}

void legend(std::ostream& os) {
  os << "<p class=\"legend\">";
  for (const Style& s : kStyles)
    os << "<span class=\"v-" << s.verdict << "\" style=\"background:" << s.background << ";color:" << s.color << "\">"
       << s.glyph << " " << s.verdict << "</span>";
  os << "<span style=\"border:1px solid #ddd;color:#999\">\u00b7 not run</span></p>\n"
     << "<p class=\"small\">" << esc(kVerdictRule) << ". A cell shows its verdict's glyph and the cases checked; "
        "hover for the counts per scene set.</p>\n";
}

void header(const Report& r, std::ostream& os) {
  os << "<h1>warpconf report</h1>\n<p class=\"summary\">" << esc(summary_line(r)) << "</p>\n";
  if (const std::vector<std::string> paths = code_path_lines(r); !paths.empty()) {
    os << "<ul class=\"small\">\n";
    for (const std::string& line : paths) os << "<li>" << esc(line) << "</li>\n";
    os << "</ul>\n";
  }
  if (r.run.status == "running")
    os << "<p class=\"running\">Unfinished: warpconf run rewrites this page after every test. If it no longer "
          "changes: "
       << esc(aborted_text(r)) << "</p>\n";
  else if (!r.aborted.is_null())
    os << "<p class=\"aborted\">Aborted: " << esc(aborted_text(r)) << "</p>\n";
  std::string argv;
  for (const std::string& a : r.run.argv) argv += (argv.empty() ? "" : " ") + a;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f s", r.run.seconds);
  os << "<p class=\"small\">warpconf <code>" << esc(r.run.warpconf) << "</code> &middot; <code>" << esc(argv)
     << "</code> &middot; budget " << esc(r.run.budget.empty() ? "unknown" : r.run.budget) << " &middot; variant "
     << esc(r.run.variant.empty() ? "mixed" : r.run.variant) << " &middot; " << esc(r.run.start) << " to "
     << esc(r.run.end) << " (" << seconds << ")";
  if (!r.run.stop.cause.empty()) os << " &middot; stopped: " << esc(stop_text(r.run.stop));
  for (const Round& round : r.run.rounds)
    os << "<br>ctest" << (r.run.rounds.size() > 1 ? " round " + std::to_string(round.round) : "")
       << esc(round.seed.empty() ? "" : " (WARPCONF_SEED=" + round.seed + ")") << ": "
       << esc(round.summary.empty() ? "no summary (did not finish)" : round.summary);
  for (const auto& source : r.run.sources) os << "<br>merged from <code>" << esc(field_text(source, "path")) << "</code>";
  os << "</p>\n<table class=\"fp\"><tr><th></th>";
  for (const auto& [id, f] : r.devices) os << "<th>" << esc(f.name) << "</th>";
  os << "</tr>\n";
  const auto row = [&](const char* label, auto field) {
    os << "<tr><th>" << label << "</th>";
    for (const auto& [id, f] : r.devices) os << "<td class=\"mono\">" << esc(field(f)) << "</td>";
    os << "</tr>\n";
  };
  row("uuid", [](const Fingerprint& f) { return f.uuid; });
  row("compute capability", [](const Fingerprint& f) { return f.compute_capability; });
  row("SMs", [](const Fingerprint& f) { return std::to_string(f.multiprocessors); });
  row("driver", [](const Fingerprint& f) { return f.driver + " (" + f.driver_release + ")"; });
  row("runtime", [](const Fingerprint& f) { return f.runtime; });
  row("nvcc", [](const Fingerprint& f) { return f.nvcc; });
  row("architectures", [](const Fingerprint& f) { return f.architectures; });
  row("code path", [](const Fingerprint& f) {
    const std::string note = code_note(f);
    return f.code_path + " (ptx " + std::to_string(f.ptx_version) + ", binary " + std::to_string(f.binary_version) + ")" +
           (note.empty() ? "" : ": " + note);
  });
  row("variant", [](const Fingerprint& f) { return f.variant; });
  os << "</table>\n";
}

// "tile<2>" before "tile<16>": runs of digits compare as numbers.
struct NaturalLess {
  bool operator()(const std::string& a, const std::string& b) const {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
      if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
        const size_t a_end = std::min(a.find_first_not_of("0123456789", i), a.size());
        const size_t b_end = std::min(b.find_first_not_of("0123456789", j), b.size());
        if (a_end - i != b_end - j) return a_end - i < b_end - j;
        if (const int c = a.compare(i, a_end - i, b, j, b_end - j); c != 0) return c < 0;
        i = a_end;
        j = b_end;
      } else {
        if (a[i] != b[j]) return a[i] < b[j];
        ++i;
        ++j;
      }
    }
    return a.size() - i < b.size() - j;
  }
};

// A family's grids, from one pass over the cells.
struct FamilyGrid {
  std::set<std::string> types;
  std::set<std::string, NaturalLess> calls;
  std::map<std::string, Group> overview;  // by device
  std::map<std::string, std::map<std::string, uint64_t>> cells_by_verdict;  // by device
  std::map<std::tuple<std::string, std::string, std::string>, Group> groups;  // by (call, type, device)
};

void matrix(const Report& r, std::ostream& os) {
  std::map<std::string, FamilyGrid> grids;
  for (const auto& [key, c] : r.cells) {
    // `warpconf golden` checks and planted bugs get grids of their own, a row per family: a family's
    // conformance does not take the colour of a golden comparison (not recorded on an architecture
    // without one) or of a deliberately wrong implementation.
    const bool golden = c.intrinsic.rfind("golden ", 0) == 0;
    const bool planted = c.verdict().rfind("planted-", 0) == 0;
    const std::string call = golden ? c.family : planted ? c.family + ": " + c.intrinsic : c.intrinsic;
    FamilyGrid& g = grids[golden ? c.intrinsic : planted ? std::string(kPlantedBugs) : c.family];
    g.types.insert(c.type);
    g.calls.insert(call);
    g.overview[c.device].add(c);
    ++g.cells_by_verdict[c.device][c.verdict()];
    g.groups[{call, c.type, c.device}].add(c);
  }
  std::set<std::string> family_set;
  for (const auto& [family, g] : grids) family_set.insert(family);
  const std::vector<std::string> families = matrix_rows(family_set);
  os << "<h2>Conformance matrix</h2>\n";
  legend(os);
  if (families.empty()) {
    os << "<p>No check was recorded.</p>\n";
    return;
  }
  // The overview: a family's worst verdict on each device.
  os << "<table class=\"overview\"><tr><th>family</th>";
  for (const auto& [id, f] : r.devices) os << "<th class=\"dev\">" << esc(device_label(r, id)) << "</th>";
  os << "</tr>\n";
  for (const std::string& family : families) {
    const FamilyGrid& grid = grids.at(family);
    os << "<tr><td><a href=\"#f-" << esc(family) << "\">" << esc(family) << "</a></td>";
    for (const auto& [id, f] : r.devices) {
      const auto it = grid.overview.find(id);
      if (it == grid.overview.end()) {
        os << "<td class=\"c empty\">\u00b7</td>";
        continue;
      }
      const Group& g = it->second;
      const std::map<std::string, uint64_t>& by_verdict = grid.cells_by_verdict.at(id);
      std::string title;
      for (const auto& [v, n] : by_verdict) title += grouped(n) + " cells " + v + "\n";
      // "1 of 57 cells": how many cells have the verdict shown, where not all of them do.
      const uint64_t worst = by_verdict.at(g.verdict);
      td_verdict(os, g.verdict,
                 std::string(style(g.verdict).glyph) + " " + g.verdict + " \u00b7 " +
                     (worst < g.cells.size() ? grouped(worst) + " of " : "") + grouped(g.cells.size()) +
                     (g.cells.size() == 1 ? " cell \u00b7 " : " cells \u00b7 ") +
                     compact(lanes_compared(g.sums)) + " lanes",
                 title + counts_text(g.sums));
    }
    os << "</tr>\n";
  }
  os << "</table>\n";
  // One grid per family: its calls by its types, a column group per device.
  for (const std::string& family : families) {
    const FamilyGrid& grid = grids.at(family);
    const std::vector<std::string> types = ordered(grid.types, kTypeOrder);
    os << "<h3 id=\"f-" << esc(family) << "\">" << esc(family) << "</h3>\n<table class=\"grid\"><tr><th rowspan=\"2\">call</th>";
    for (const auto& [id, f] : r.devices)
      os << "<th class=\"gap\"></th><th class=\"dev\" colspan=\"" << types.size() << "\">" << esc(device_label(r, id)) << "</th>";
    os << "</tr>\n<tr>";
    for (size_t d = 0; d < r.devices.size(); ++d) {
      os << "<th class=\"gap\"></th>";
      for (const std::string& t : types) os << "<th class=\"t\">" << esc(t.empty() ? "(no type)" : t) << "</th>";
    }
    os << "</tr>\n";
    for (const std::string& call : grid.calls) {
      os << "<tr><td class=\"call\">" << esc(call) << "</td>";
      for (const auto& [id, f] : r.devices) {
        os << "<td class=\"gap\"></td>";
        for (const std::string& t : types) {
          const auto it = grid.groups.find({call, t, id});
          if (it == grid.groups.end()) {
            os << "<td class=\"c empty\">\u00b7</td>";
            continue;
          }
          const Group& g = it->second;
          std::string title = call + (t.empty() ? "" : "<" + t + ">") + " on " + device_label(r, id) + "\n";
          for (const Cell* c : g.cells) {
            title += "\n" + (c->scenes.empty() ? std::string("(no scenes)") : c->scenes) + ": " + c->verdict() + "; " +
                     counts_text(c->sums);
            if (!c->reason.empty()) title += "; " + c->reason;
          }
          const bool counted = g.sums.cases > 0;  // contract probes and unchecked cells have no cases
          td_verdict(os, g.verdict, std::string(style(g.verdict).glyph) + (counted ? " " + compact(g.sums.cases) : ""),
                     title);
        }
      }
      os << "</tr>\n";
    }
    os << "</table>\n";
  }
}

void left_out(std::ostream& os, size_t shown, size_t all, const char* what) {
  if (all > shown)
    os << "<p class=\"left\">" << grouped(all - shown) << " more " << what << " not shown; report.json lists every one.</p>\n";
}

void counterexamples(const Report& r, std::ostream& os) {
  const std::vector<const Cell*> cells = counterexample_cells(r);
  os << "<h2>Counterexamples</h2>\n";
  if (cells.empty()) {
    os << "<p>None: no check found a bad lane.</p>\n";
    return;
  }
  os << "<table><tr><th>verdict</th><th>device</th><th>call</th><th>scenes</th><th>bad lanes</th><th>first</th>"
        "<th>repro</th></tr>\n";
  for (size_t i = 0; i < cells.size() && i < kHtmlCounterexamples; ++i) {
    const Cell& c = *cells[i];
    const nlohmann::json& f = c.first;
    std::string bad;
    for (const auto& [cls, n] : c.sums.mismatches)
      if (n > 0) bad += (bad.empty() ? "" : ", ") + cls + " " + grouped(n);
    const std::string first = "case " + field_text(f, "case") + " lane " +
                              field_text(f, "lane") + ": got " + field_text(f, "got") +
                              ", want " + field_text(f, "want") + " (" +
                              field_text(f, "class") + "; " + field_text(f, "rule") + ")";
    os << "<tr>";
    td_verdict(os, c.verdict(), style(c.verdict()).glyph + std::string(" ") + c.verdict(), counts_text(c.sums));
    os << "<td>" << esc(device_label(r, c.device)) << "</td><td class=\"mono\">" << esc(c.family) << " "
       << esc(c.intrinsic + (c.type.empty() ? "" : "<" + c.type + ">")) << "</td><td>" << esc(c.scenes) << "</td><td>"
       << esc(bad) << "</td><td class=\"mono\">" << esc(first) << "</td><td class=\"mono\">"
       << esc(field_text(f, "repro")) << (c.replay.empty() ? "" : "<br>" + esc(c.replay)) << "</td></tr>\n";
  }
  os << "</table>\n";
  left_out(os, kHtmlCounterexamples, cells.size(), "counterexamples");
}

void deviations(const Report& r, std::ostream& os) {
  os << "<h2>Known deviations</h2>\n";
  if (r.deviations.empty()) {
    os << "<p>None.</p>\n";
    return;
  }
  os << "<table><tr><th>id</th><th>device</th><th>lanes</th><th>checks</th><th>documented</th><th>observed</th>"
        "<th>evidence</th></tr>\n";
  for (const auto& [key, d] : r.deviations)
    os << "<tr><td class=\"mono\">" << esc(d.id) << "</td><td>" << esc(device_label(r, d.device)) << "</td><td>"
       << grouped(d.lanes) << "</td><td>" << grouped(d.checks) << "</td><td>" << esc(d.documented) << "</td><td>"
       << esc(d.observed) << "</td><td>" << esc(d.evidence) << "</td></tr>\n";
  os << "</table>\n";
}

void behaviour_changes(const Report& r, std::ostream& os) {
  os << "<h2>Behaviour changes</h2>\n";
  if (r.behaviour_changes.empty()) {
    os << "<p>None: no golden or contract recording was found to differ.</p>\n";
    return;
  }
  os << "<table><tr><th>source</th><th>device</th><th>family</th><th>what</th><th>now</th><th>was</th>"
        "<th>recording</th></tr>\n";
  for (const BehaviourChange& b : r.behaviour_changes)
    os << "<tr><td>" << esc(b.source) << "</td><td>" << esc(device_label(r, b.device)) << "</td><td>" << esc(b.family)
       << "</td><td class=\"mono\">" << esc(b.what) << "</td><td class=\"mono\">" << esc(b.detail)
       << "</td><td class=\"mono\">" << esc(b.was) << "</td><td class=\"mono\">" << esc(b.file) << "</td></tr>\n";
  os << "</table>\n";
}

void contracts(const Report& r, std::ostream& os) {
  os << "<h2>Contract probes</h2>\n";
  if (r.contracts.empty()) {
    os << "<p>No probe ran (<code>warpconf probe</code> records them).</p>\n";
    return;
  }
  os << "<p class=\"small\">What each call the Programming Guide leaves undefined did on each code path: recorded "
        "behaviour, not a verdict (docs/contracts.md). A cell's title holds the values or the error.</p>\n";
  for (const ContractMatrix& m : contract_matrices(r)) {
    os << "<h3>" << esc(m.gpu) << "</h3>\n<table><tr><th>probe</th>";
    for (const std::string& path : m.paths) os << "<th>" << esc(path) << "</th>";
    os << "</tr>\n";
    for (size_t i = 0; i < m.probes.size() && i < kContracts; ++i) {
      os << "<tr><td class=\"mono\">" << esc(m.probes[i]) << "</td>";
      for (const std::string& path : m.paths) {
        const auto cell = m.cells.find({m.probes[i], path});
        if (cell == m.cells.end()) {
          os << "<td class=\"empty\"></td>";
          continue;
        }
        const Contract& c = *cell->second;
        os << "<td class=\"outcome-" << esc(c.outcome) << "\" title=\"" << esc(c.detail)
           << (c.was.empty() ? "" : "; was " + esc(c.was)) << "\">" << esc(c.outcome)
           << (c.golden == "changed" ? " (changed)" : "") << "</td>";
      }
      os << "</tr>\n";
    }
    os << "</table>\n";
    left_out(os, kContracts, m.probes.size(), "probes");
  }
}

void tests(const Report& r, std::ostream& os) {
  os << "<h2>Tests</h2>\n";
  if (r.tests.empty()) {
    os << "<p>No ctest test is known to this report: it was built from result records alone.</p>\n";
    return;
  }
  std::vector<const TestResult*> order;
  for (const TestResult& t : r.tests) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(),
                   [](const TestResult* a, const TestResult* b) { return (a->status != "passed") > (b->status != "passed"); });
  os << "<table><tr><th>test</th><th>status</th><th>seconds</th><th>why</th></tr>\n";
  for (size_t i = 0; i < order.size() && i < kTests; ++i) {
    const TestResult& t = *order[i];
    // A test's status in the verdict colours: a skip with no known reason in a failure's colour.
    const std::string verdict = t.status == "passed" ? "pass"
                                : t.status == "skipped" ? (t.skip == "unexplained" ? "nothing-compared" : t.skip)
                                : t.status == "disabled" ? "not-recorded"
                                                          : "conformance-failure";
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f", t.seconds);
    os << "<tr><td class=\"mono\">" << esc(t.name)
       << esc(r.run.rounds.size() > 1 ? " (round " + std::to_string(t.round) + ")" : "")
       << esc(t.source.empty() ? "" : " [" + t.source + "]") << "</td>";
    td_verdict(os, verdict, t.status + (t.skip.empty() ? "" : " (" + t.skip + ")"), t.ctest);
    os << "<td>" << seconds << "</td><td class=\"mono\">" << esc(t.reason) << "</td></tr>\n";
  }
  os << "</table>\n";
  left_out(os, kTests, order.size(), "tests");
}

}  // namespace

namespace html {

std::string px(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string esc(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\n': out += "&#10;"; break;
      default: out += c;
    }
  }
  return out;
}

const Style& style(const std::string& verdict) {
  for (const Style& s : kStyles)
    if (verdict == s.verdict) return s;
  return kStyles[0];
}

void td_verdict(std::ostream& os, const std::string& verdict, const std::string& text, const std::string& title) {
  const Style& s = style(verdict);
  os << "<td class=\"c v-" << s.verdict << "\" style=\"background:" << s.background << ";color:" << s.color
     << "\" title=\"" << esc(title) << "\">" << esc(text) << "</td>";
}

}  // namespace html

void write_html(const Report& r, std::ostream& os) {
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>warpconf report</title><style>" << kCss
     << "</style></head><body>\n";
  header(r, os);
  matrix(r, os);
  if (r.planted.records > 0)
    os << "<p class=\"small\">Planted bugs (deliberately wrong implementations, kept apart from the totals): "
       << grouped(r.planted.verdicts.count("planted-caught") ? r.planted.verdicts.at("planted-caught") : 0)
       << " caught, " << grouped(r.planted.verdicts.count("planted-missed") ? r.planted.verdicts.at("planted-missed") : 0)
       << " missed.</p>\n";
  counterexamples(r, os);
  deviations(r, os);
  behaviour_changes(r, os);
  contracts(r, os);
  html::performance(r, os);
  html::sm_coverage(r, os);
  tests(r, os);
  os << "</body></html>\n";
}

}  // namespace wc::cli
