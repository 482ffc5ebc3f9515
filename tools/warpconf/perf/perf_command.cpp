#include "warpconf/perf/perf_command.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "core/device.hpp"
#include "core/environment.hpp"
#include "core/files.hpp"
#include "core/numbers.hpp"
#include "core/perf/perf_records.hpp"
#include "core/perf/sass.hpp"
#include "core/records.hpp"
#include "formats/text.hpp"
#include "warpconf/cli/exit_status.hpp"
#include "warpconf/cli/options.hpp"
#include "warpconf/golden/golden_command.hpp"

namespace wc::cli {
namespace {

namespace fs = std::filesystem;
using golden::PerfFile;
using golden::PerfHeader;
using golden::PerfLine;
using golden::PerfMetric;

PerfHeader header_now() {
  const golden::Header h = device_header();
  PerfHeader p;
  p.device = h.device;
  p.compute_capability = h.compute_capability;
  p.driver = h.driver;
  p.runtime = h.runtime;
  p.nvcc = h.nvcc;
  p.code_path = h.code_path;
  p.suite_version = h.suite_version;
  p.recorded = h.recorded;
  return p;
}

// "sm_90", or "sm_90-jit-75": the folder name of a baseline's architecture and code path.
std::string folder_of(const PerfHeader& h) {
  return architecture_of(h.compute_capability) + (h.code_path == "sass" ? "" : "-" + h.code_path);
}

std::string header_text(const PerfHeader& h) {
  return h.device + ", " + architecture_of(h.compute_capability) + ", driver " + h.driver + ", runtime " + h.runtime +
         ", nvcc " + h.nvcc + ", " + h.code_path + ", recorded " + h.recorded;
}

std::string summary_text(const perf::Summary& s) {
  return golden::perf_number(s.median) + " (MAD " + golden::perf_number(s.mad) + ")";
}

perf::Summary summary_of(const PerfLine& f) { return {f.median, f.mad, f.repetitions}; }

// The figure's words for a change: "12.1 % worse".
std::string change_text(PerfMetric metric, const perf::Summary& baseline, const perf::Summary& now) {
  return perf::worsening_text(perf::worsening(metric, baseline, now));
}

// No GPU: a skip (77), or an error where WARPCONF_REQUIRE_GPU=1; nullopt where there is one.
std::optional<int> without_gpu(const std::string& command, std::ostream& out) {
  const gpu::DeviceStatus& d = gpu::device();
  if (d.present) return std::nullopt;
  if (d.error || environment::require_gpu()) throw UsageError("needs a GPU: " + d.reason);
  out << "warpconf perf " << command << ": skipped: " << d.reason << "\n";
  return kNotRecorded;
}

// A perf.txt's text as a command was given or found it: one without a figure is an input of nothing
// (exit status 2), never a comparison that passes or a baseline to install.
PerfFile figures_of(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  PerfFile file = golden::read_perf(in, path);
  if (file.figures.empty()) throw UsageError(path + ": no figure (figures: 0): nothing to compare");
  return file;
}

PerfFile read_figures(const std::string& path) { return figures_of(golden::text::read_file(path), path); }

bool any_wrong(const std::vector<perf::Figure>& figures) {
  return std::any_of(figures.begin(), figures.end(), [](const perf::Figure& f) { return f.status == perf::Status::wrong; });
}

// A chain's figure measured without its timed loop's SASS counts (no cuobjdump): no baseline holds it.
bool uncounted(const perf::Figure& f) {
  return f.status == perf::Status::measured && golden::times_a_chain(f.metric) && f.sass.empty();
}

// The measured figures as `dir`/perf.txt, a baseline for `warpconf perf accept`; nothing where a
// kernel was WRONG (a baseline never holds the figure of a kernel whose result disagreed with the
// model, or whose loop lacks its instruction), nor where a chain's SASS was not counted.
void write_pending(const PerfHeader& header, const std::vector<perf::Figure>& figures, bool wrong,
                   const std::string& dir, const std::string& command, std::ostream& out) {
  if (wrong) {
    out << "warpconf perf " << command << ": no pending perf.txt written: a baseline never holds the figure of a "
           "kernel whose result disagreed with the model or whose timed loop was refused (WRONG above)\n";
    return;
  }
  if (const auto n = std::count_if(figures.begin(), figures.end(), uncounted); n > 0) {
    out << "warpconf perf " << command << ": no pending perf.txt written: " << n
        << " figures were measured without their timed loop's SASS counts, and a baseline holds none unverified\n";
    return;
  }
  PerfFile file;
  file.header = header;
  for (const perf::Figure& f : figures)
    if (f.status == perf::Status::measured)
      file.figures.push_back({f.id, f.metric, f.summary.median, f.summary.mad, f.summary.n, f.sass, 0});
  if (file.figures.empty()) {
    out << "warpconf perf " << command << ": no pending perf.txt written: no figure was measured\n";
    return;
  }
  fs::create_directories(dir);
  const std::string path = dir + "/perf.txt";
  files::write_atomically(path, golden::write_perf(file));
  out << "warpconf perf " << command << ": wrote " << path << " (" << file.figures.size()
      << " figures); `warpconf perf accept " << path << "` moves it to "
      << golden_dir(architecture_of(header.compute_capability), header.code_path) << "/perf.txt\n";
}

// Where the SASS of the running code is read, or why it cannot be (with a GPU only: without one
// there is no code that runs).
std::optional<perf::SassSource> sass_source(std::string& why) {
  if (!gpu::device().present) {
    why = "no GPU";
    return std::nullopt;
  }
  const gpu::CodeInfo code = gpu::code_info();
  return perf::sass_source(code.binary_version, code.path, why);
}

// `measure`, then every chain's timed loop counted in the SASS from `source` (perf::count_sass).
Measure counting(const Measure& measure, const std::optional<perf::SassSource>& source) {
  return [measure, source](const perf::Options& options) {
    std::vector<perf::Figure> figures = measure(options);
    if (source) perf::count_sass(figures, perf::read_sass(*source, perf::timed_kernels(figures)));
    return figures;
  };
}

int record(const PerfOptions& o, std::ostream& out, const Measure& measure) {
  if (!o.out.empty()) require_writable("--out", o.out, check::Output::folder);  // before the GPU is asked
  std::string why;
  const std::optional<perf::SassSource> source = sass_source(why);
  // Never a figure unverified: without the SASS of its loop a figure may time an empty loop.
  if (!source && gpu::device().present) throw UsageError("record counts each figure's timed loop in the SASS: " + why);
  const PerfHeader header = header_now();
  const std::string dir = o.out.empty() ? pending_root() + "/" + folder_of(header) : o.out;
  if (o.out.empty()) require_writable("the pending folder", dir, check::Output::folder);  // before measuring
  out << "measuring on " << header_text(header) << ", " << o.repetitions << " repetitions a figure\n";
  perf::Options options;
  options.repetitions = o.repetitions;
  const std::vector<perf::Figure> figures = counting(measure, source)(options);
  perf::print_table(figures, out);
  for (const perf::Figure& f : figures) check::append_record(perf::perf_record(f, "record", perf::measured_verdict(f)));
  const bool wrong = any_wrong(figures);
  write_pending(header, figures, wrong, dir, "record", out);
  return wrong ? 1 : 0;
}

// Every figure of B against A's, one measurement each: "worse" and "better" by the rule, unconfirmed.
struct FileDiff {
  std::vector<std::string> lines;
  int compared = 0, worse = 0, better = 0, only_a = 0, only_b = 0;
};

FileDiff diff_files(const PerfFile& a, const PerfFile& b) {
  FileDiff d;
  std::map<std::pair<std::string, PerfMetric>, const PerfLine*> in_a;
  for (const PerfLine& f : a.figures) in_a[{f.id, f.metric}] = &f;
  std::set<std::pair<std::string, PerfMetric>> in_b;
  for (const PerfLine& f : b.figures) {
    in_b.insert({f.id, f.metric});
    const std::string name = f.id + " " + std::string(golden::to_string(f.metric));
    const auto it = in_a.find({f.id, f.metric});
    if (it == in_a.end()) {
      ++d.only_b;
      d.lines.push_back(name + ": only in B, " + summary_text(summary_of(f)));
      continue;
    }
    const perf::Summary sa = summary_of(*it->second), sb = summary_of(f);
    const perf::Shift s = perf::shift(f.metric, sa, sb);
    ++d.compared;
    d.worse += s == perf::Shift::worse;
    d.better += s == perf::Shift::better;
    d.lines.push_back(name + ": " + summary_text(sa) + " -> " + summary_text(sb) + ", " + change_text(f.metric, sa, sb) +
                      (s == perf::Shift::worse ? ": worse by the rule" : s == perf::Shift::better ? ": better by the rule" : ""));
  }
  for (const PerfLine& f : a.figures)
    if (in_b.count({f.id, f.metric}) == 0) {
      ++d.only_a;
      d.lines.push_back(f.id + " " + std::string(golden::to_string(f.metric)) + ": only in A, " + summary_text(summary_of(f)));
    }
  return d;
}

bool same_kind(const PerfHeader& a, const PerfHeader& b) {
  return architecture_of(a.compute_capability) == architecture_of(b.compute_capability) && a.code_path == b.code_path;
}

int accept(const PerfOptions& o, std::ostream& out) {
  std::string pending = o.files.empty() ? "" : o.files.front();
  if (pending.empty()) {
    std::vector<std::string> found;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(pending_root(), ec))
      if (e.is_directory() && fs::exists(e.path() / "perf.txt")) found.push_back((e.path() / "perf.txt").string());
    if (found.size() != 1)
      throw UsageError(std::to_string(found.size()) + " perf.txt files are pending under " + pending_root() +
                       ": name the one to accept");
    pending = found.front();
  }
  const std::string text = golden::text::read_file(pending);  // what is checked is what is installed
  const PerfFile file = figures_of(text, pending);
  const std::string dir =
      o.golden.empty() ? golden_dir(architecture_of(file.header.compute_capability), file.header.code_path) : o.golden;
  const std::string target = dir + "/perf.txt";
  out << "pending: " << pending << ": " << header_text(file.header) << ", " << file.figures.size() << " figures\n";
  if (fs::exists(target)) {
    const PerfFile old = golden::read_perf_file(target);
    out << "against " << target << ": " << header_text(old.header) << "\n";
    if (!same_kind(old.header, file.header)) out << "  (another architecture or code path: no rule applies)\n";
    const FileDiff d = diff_files(old, file);
    for (const std::string& line : d.lines) out << "  " << line << "\n";
    out << "  worse by the rule " << d.worse << ", better " << d.better << " (one measurement each); only in the old "
        << d.only_a << ", only in the new " << d.only_b << "\n";
    // A baseline's figures go only where the user says they are retired: never by a file that compared nothing.
    if (!o.retire && (d.compared == 0 || d.only_a > 0)) {
      out << "warpconf perf accept: refused: " << pending << " "
          << (d.compared == 0 ? "shares no figure with " + target + ": nothing compared"
                              : "lacks " + std::to_string(d.only_a) + " of the " + std::to_string(old.figures.size()) +
                                    " figures of " + target + " (only in the old, above)")
          << "; `--retire` retires them\n";
      return 1;
    }
  } else {
    out << "new baseline " << target << "\n";
  }
  fs::create_directories(dir);
  files::write_atomically(target, text);
  fs::remove(pending);
  std::error_code ignored;
  fs::remove(fs::path(pending).parent_path(), ignored);  // only once it is empty
  out << "warpconf perf accept: " << target << "\n";
  return 0;
}

int diff(const PerfOptions& o, std::ostream& out) {
  if (o.files.size() != 2) throw UsageError("diff takes two files: warpconf perf diff A B");
  const PerfFile a = read_figures(o.files[0]), b = read_figures(o.files[1]);
  out << "A: " << o.files[0] << ": " << header_text(a.header) << "\nB: " << o.files[1] << ": " << header_text(b.header) << "\n";
  const FileDiff d = diff_files(a, b);
  for (const std::string& line : d.lines) out << line << "\n";
  if (!same_kind(a.header, b.header)) {
    out << "warpconf perf diff: not recorded: A and B are of different architectures or code paths; figures side by "
           "side, no verdict\n";
    return kNotRecorded;
  }
  out << "warpconf perf diff: " << d.worse << " figures worse and " << d.better << " better by the rule (10 % and 3 "
      << "x MAD; one measurement each: `warpconf perf compare` measures again before it calls a change); " << d.only_a
      << " only in A, " << d.only_b << " only in B\n";
  if (d.compared == 0) {
    out << "warpconf perf diff: nothing compared: A and B share no figure\n";
    return 1;
  }
  return o.strict && d.worse > 0 ? 1 : 0;
}

int compare(const PerfOptions& o, std::ostream& out, const Measure& measure) {
  std::optional<PerfFile> named;
  if (!o.files.empty()) named = read_figures(o.files.front());  // bad input before anything runs
  if (const std::optional<int> status = without_gpu("compare", out)) return *status;
  const PerfHeader now = header_now();
  const std::string path =
      o.files.empty() ? golden_dir(architecture_of(now.compute_capability), now.code_path) + "/perf.txt" : o.files.front();
  if (!named && fs::exists(path)) named = read_figures(path);
  std::string why;
  const std::optional<perf::SassSource> source = sass_source(why);
  if (!source) out << "warpconf perf compare: the timed loops' SASS is not counted: " << why << "\n";
  return compare_with_baseline(named, path, now, o, counting(measure, source), out);
}

nlohmann::json summary_json(const std::optional<perf::Summary>& s) {
  if (!s) return nullptr;
  return {{"median", s->median}, {"mad", s->mad}, {"repetitions", s->n}};
}

}  // namespace

std::vector<Compared> compare_figures(const PerfFile& baseline, const std::vector<perf::Figure>& now) {
  std::map<std::pair<std::string, PerfMetric>, perf::Summary> recorded;
  for (const PerfLine& f : baseline.figures) recorded[{f.id, f.metric}] = summary_of(f);
  std::vector<Compared> out;
  for (const perf::Figure& f : now) {
    if (f.status != perf::Status::measured) continue;
    Compared c;
    c.id = f.id;
    c.metric = f.metric;
    c.first = f.summary;
    if (const auto it = recorded.find({f.id, f.metric}); it != recorded.end()) {
      c.baseline = it->second;
      c.outcome = perf::outcome(f.metric, *c.baseline, *c.first, std::nullopt);
    }
    out.push_back(c);
  }
  return out;
}

std::string compared_text(const Compared& c) {
  std::string text = c.id + " " + std::string(golden::to_string(c.metric)) + ": ";
  if (!c.baseline) return text + "not recorded in the baseline, now " + summary_text(*c.first);
  text += summary_text(*c.baseline) + " -> " + summary_text(*c.first);
  if (c.second) text += ", again " + summary_text(*c.second);
  const perf::Summary& last = c.second ? *c.second : *c.first;
  return text + ": " + change_text(c.metric, *c.baseline, last) + ": " + std::string(perf::to_string(c.outcome));
}

int compare_with_baseline(const std::optional<PerfFile>& recorded, const std::string& baseline_path,
                          const PerfHeader& now, const PerfOptions& o, const Measure& measure, std::ostream& out) {
  if (recorded && !same_kind(recorded->header, now)) {
    out << "warpconf perf compare: not recorded: " << baseline_path << " is " << folder_of(recorded->header)
        << ", this GPU " << folder_of(now) << "; nothing compared\n";
    return kNotRecorded;
  }
  // Without a baseline every figure is measured and not recorded, so that its pending file can become one.
  const PerfFile baseline = recorded ? *recorded : PerfFile{};
  out << "comparing " << header_text(now) << "\n"
      << (recorded ? "with " + baseline_path + ": " + header_text(baseline.header) : "with no baseline (" + baseline_path + ")")
      << "\n";
  perf::Options options;
  options.repetitions = o.repetitions;
  const std::vector<perf::Figure> first = measure(options);
  perf::print_table(first, out);
  std::vector<Compared> compared = compare_figures(baseline, first);
  std::set<std::pair<std::string, PerfMetric>> flagged;
  for (const Compared& c : compared)
    if (c.baseline && perf::shift(c.metric, *c.baseline, *c.first) != perf::Shift::none) flagged.insert({c.id, c.metric});
  std::map<std::pair<std::string, PerfMetric>, perf::Figure> again;
  if (!flagged.empty()) {
    out << "measuring " << flagged.size() << " figures outside the rule again\n";
    options.select = [&flagged](const std::string& id, PerfMetric m) { return flagged.count({id, m}) > 0; };
    for (perf::Figure& f : measure(options)) again[{f.id, f.metric}] = std::move(f);
  }
  std::map<std::string, int> counts;
  bool failed = false, changed = false;
  for (Compared& c : compared) {
    const auto it = again.find({c.id, c.metric});
    if (flagged.count({c.id, c.metric}) > 0) {
      if (it != again.end() && it->second.status == perf::Status::measured) c.second = it->second.summary;
      c.outcome = perf::outcome(c.metric, *c.baseline, *c.first, c.second);
      if (it != again.end() && it->second.status == perf::Status::wrong) {
        out << c.id << " " << golden::to_string(c.metric) << ": WRONG when measured again: " << it->second.problem << "\n";
        failed = true;
      }
    }
    if (!c.baseline || c.outcome != perf::Outcome::unchanged) out << compared_text(c) << "\n";
  }
  std::map<std::pair<std::string, PerfMetric>, const Compared*> by_figure;
  for (const Compared& c : compared) by_figure[{c.id, c.metric}] = &c;
  for (const perf::Figure& f : first) {
    const auto it = by_figure.find({f.id, f.metric});
    std::string verdict(perf::measured_verdict(f));
    nlohmann::json r;
    if (it == by_figure.end()) {
      r = perf::perf_record(f, "compare", verdict);
    } else {
      const Compared& c = *it->second;
      verdict = !c.baseline                                        ? "not-recorded"
                : c.outcome == perf::Outcome::performance_change ? "performance-change"
                                                                 : std::string(perf::measured_verdict(f));
      r = perf::perf_record(f, "compare", verdict);
      r["baseline"] = summary_json(c.baseline);
      if (c.baseline) r["baseline"]["file"] = baseline_path;
      r["remeasured"] = summary_json(c.second);
      const double w = c.baseline ? perf::worsening(c.metric, *c.baseline, c.second ? *c.second : *c.first) : 0;
      r["worsening"] = c.baseline && std::isfinite(w) ? nlohmann::json(w) : nlohmann::json(nullptr);
      r["outcome"] = c.baseline ? nlohmann::json(perf::to_string(c.outcome)) : nlohmann::json(nullptr);
      changed = changed || c.outcome == perf::Outcome::performance_change;
    }
    ++counts[verdict == "pass" && it != by_figure.end() ? std::string(perf::to_string(it->second->outcome)) : verdict];
    check::append_record(r);
  }
  std::set<std::pair<std::string, PerfMetric>> measured;
  for (const perf::Figure& f : first) measured.insert({f.id, f.metric});
  for (const PerfLine& f : baseline.figures)
    if (measured.count({f.id, f.metric}) == 0) {
      out << f.id << " " << golden::to_string(f.metric) << ": in the baseline, not measured by this build\n";
      ++counts["not-measured"];
    }
  failed = failed || any_wrong(first);
  write_pending(now, first, failed, pending_root() + "/" + folder_of(now), "compare", out);
  out << "warpconf perf compare: " << first.size() << " figures:";
  for (const auto& [what, n] : counts) out << " " << what << " " << n << ";";
  out << (changed && !o.strict ? " (performance changes fail only with --strict)" : "") << "\n";
  if (failed) return 1;
  if (!recorded) {
    out << "warpconf perf compare: not recorded: no baseline " << baseline_path << " for " << folder_of(now)
        << "; nothing compared (`warpconf perf accept` makes the pending file above the baseline)\n";
    return kNotRecorded;
  }
  return o.strict && changed ? 1 : 0;
}

int run_perf(const PerfOptions& o, std::ostream& out, std::ostream& err, const Measure& measure) {
  return with_exit_status("warpconf perf " + o.command, err, [&] {
    for (const std::string& file : o.files) require_utf8_path("the file", file);
    require_utf8_path("--out", o.out);
    require_utf8_path("--golden", o.golden);
    PerfOptions options = o;
    options.strict = o.strict || environment::perf_strict();
    if (o.command == "record") return record(options, out, measure);
    if (o.command == "accept") return accept(options, out);
    if (o.command == "compare") return compare(options, out, measure);
    if (o.command == "diff") return diff(options, out);
    throw UsageError("no perf command " + o.command);
  });
}

}  // namespace wc::cli
