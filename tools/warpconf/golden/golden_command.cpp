#include "warpconf/golden/golden_command.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "core/batch.hpp"
#include "core/corpus.hpp"
#include "core/device.hpp"
#include "core/environment.hpp"
#include "core/files.hpp"
#include "core/judge.hpp"
#include "core/known_deviations.hpp"
#include "core/numbers.hpp"
#include "core/records.hpp"
#include "families/registry.hpp"
#include "formats/deviations.hpp"
#include "formats/golden.hpp"
#include "formats/programs.hpp"
#include "formats/text.hpp"
#include "programs/golden_check.hpp"
#include "warpconf/cli/exit_status.hpp"
#include "warpconf/cli/options.hpp"

namespace wc::cli {
namespace {

namespace fs = std::filesystem;
using golden::CorpusFamily;
using golden::FamilyOutputs;
using golden::FamilyVerdict;

}  // namespace

std::string architecture_of(const std::string& compute_capability) {
  std::string digits;
  for (char c : compute_capability)
    if (c != '.') digits += c;
  return "sm_" + digits;
}

std::string golden_dir(const std::string& architecture, const std::string& code_path) {
  return check::golden_root() + "/" + architecture + (code_path == "sass" ? "" : "-" + code_path);
}

std::string pending_root() { return check::golden_root() + "/pending"; }

namespace {

const gpu::DeviceStatus& require_gpu() {
  const gpu::DeviceStatus& d = gpu::device();
  if (!d.present) throw UsageError("needs a GPU: " + d.reason);
  return d;
}

}  // namespace

// The fingerprint a recording on the selected GPU carries.
golden::Header device_header() {
  const gpu::DeviceInfo& d = require_gpu().info;
  const gpu::CodeInfo& code = gpu::code_info();
  if (!code.error.empty() || !code.not_supported.empty())
    throw UsageError("the kernels did not run code path " + code.path + ": " + code.error + code.not_supported);
  golden::Header h;
  h.device = d.name;
  h.compute_capability = std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
  h.driver = gpu::driver_release(d);
  h.runtime = gpu::version_text(d.runtime_version);
  h.nvcc = code.nvcc;
  h.code_path = code.path;
  h.suite_version = WARPCONF_VERSION;
  h.recorded = check::utc_now();
  return h;
}

namespace {

std::vector<CorpusFamily> selected(std::vector<CorpusFamily> all, const std::vector<std::string>& names) {
  if (names.empty()) return all;
  std::vector<CorpusFamily> picked;
  for (const std::string& name : names) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const CorpusFamily& f) { return f.name == name; });
    if (it == all.end()) {
      std::string known;
      for (const CorpusFamily& f : all) known += (known.empty() ? "" : ", ") + f.name;
      throw UsageError("no family " + name + " in the corpus (" + known + ")");
    }
    picked.push_back(std::move(*it));
    all.erase(it);
  }
  return picked;
}

const CorpusFamily* find_family(const std::vector<CorpusFamily>& all, const std::string& name) {
  for (const CorpusFamily& f : all)
    if (f.name == name) return &f;
  return nullptr;
}

// The known deviations for a recording in `dir`: its own deviations.txt, else its architecture's.
std::vector<golden::Deviation> deviations_for(const std::string& dir, const std::string& architecture) {
  for (const std::string& path : {dir + "/deviations.txt", check::golden_root() + "/" + architecture + "/deviations.txt"})
    if (fs::exists(path)) return golden::read_deviations_file(path);
  return {};
}

// The *.golden files of a folder by family name.
std::map<std::string, std::string> golden_files(const std::string& dir) {
  std::map<std::string, std::string> files;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".golden") files[e.path().stem().string()] = e.path().string();
  if (ec) throw UsageError("cannot read the folder " + dir + ": " + ec.message());
  return files;
}

// The *.golden files of a folder the command was given: a folder that holds none is an input of
// nothing (exit status 2), never a comparison that passes.
std::map<std::string, std::string> named_golden_files(const std::string& dir) {
  const std::map<std::string, std::string> files = golden_files(dir);
  if (files.empty()) throw UsageError("no .golden file in " + dir + ": nothing to compare");
  return files;
}

// A family's golden file, read and matched to this build's corpus.
struct Recording {
  golden::GoldenFile file;
  FamilyOutputs outputs;
};

Recording recording_of(const CorpusFamily& family, const std::string& text, const std::string& path) {
  std::istringstream in(text);
  Recording r;
  r.file = golden::read_golden(in, path);
  r.outputs = golden::outputs_of(family, r.file, path);
  return r;
}

Recording read_recording(const CorpusFamily& family, const std::string& path) {
  return recording_of(family, golden::text::read_file(path), path);
}

bool any_unsupported(const CorpusFamily& family, int& needed) {
  for (const golden::CorpusBatch& b : family.batches)
    if (b.needs_compute_capability > gpu::code_compute_capability()) {
      needed = b.needs_compute_capability;
      return true;
    }
  return false;
}

// What one command found over its families.
struct Tally {
  std::map<std::string, int> verdicts;
  uint64_t cases = 0;
  bool failed = false;
  void add(check::Verdict v, uint64_t n) {
    ++verdicts[std::string(check::to_string(v))];
    cases += n;
    failed = failed || v == check::Verdict::conformance_failure || v == check::Verdict::nothing_compared ||
             v == check::Verdict::error;
  }
  std::string text(const std::string& command) const {
    std::ostringstream os;
    os << "warpconf golden " << command << ": " << cases << " cases in";
    int families = 0;
    for (const auto& [v, n] : verdicts) families += n;
    os << " " << families << " families:";
    for (const auto& [v, n] : verdicts) os << " " << v << " " << n << ";";
    return os.str();
  }
};

void append_family_record(const FamilyVerdict& v, const CorpusFamily& family, const std::string& command,
                          const std::string& dir, bool strict) {
  check::CheckInfo info;
  info.family = family.name;
  info.intrinsic = "golden " + command;
  info.scenes = "golden corpus version " + std::to_string(golden::kCorpusVersion);
  info.arguments = std::to_string(family.batches.size()) + " batches";
  info.extra = {{"golden", {{"command", command},
                            {"dir", dir},
                            {"behaviour_changes", v.behaviour_changes},
                            {"class_mismatches", v.class_mismatches},
                            {"stale_deviations", v.stale_deviations}}}};
  const check::Describe describe = [&](size_t c, int lane) {
    const auto [batch, local] = golden::locate(family, c);
    return batch->describe(local, lane);
  };
  check::append_record(check::report_record(v.model, describe, 8, info, golden::verdict_of(v, strict)));
}

void append_unchecked(const CorpusFamily& family, const std::string& command, check::Verdict verdict,
                      const std::string& reason) {
  check::CheckInfo info;
  info.family = family.name;
  info.intrinsic = "golden " + command;
  info.scenes = "golden corpus version " + std::to_string(golden::kCorpusVersion);
  check::record_unchecked(info, verdict, reason);
}

int record(const GoldenOptions& o, std::ostream& out) {
  if (!o.out.empty()) require_writable("--out", o.out, check::Output::folder);  // before the GPU is asked
  const golden::Header header = device_header();
  const std::string architecture = architecture_of(header.compute_capability);
  const std::string dir = o.out.empty() ? pending_root() + "/" + architecture + (header.code_path == "sass" ? "" : "-" + header.code_path) : o.out;
  if (o.out.empty()) require_writable("the pending folder", dir, check::Output::folder);  // before the corpus runs
  fs::create_directories(dir);
  const std::vector<golden::Deviation> deviations = deviations_for(dir, architecture);
  out << "recording on " << header.device << " (" << architecture << ", driver " << header.driver << ", "
      << header.code_path << ") into " << dir << "\n";
  Tally tally;
  bool refused = false;
  for (const CorpusFamily& family : selected(families::corpus(), o.families)) {
    int needed = 0;
    if (any_unsupported(family, needed)) {
      out << family.name << ": not-supported (needs compute capability " << needed / 10 << "." << needed % 10 << ")\n";
      append_unchecked(family, "record", check::Verdict::not_supported, "needs compute capability " + std::to_string(needed));
      tally.add(check::Verdict::not_supported, 0);
      continue;
    }
    const FamilyOutputs outputs = golden::run_on_gpu(family);
    const FamilyVerdict v = golden::judge(family, outputs, deviations, nullptr, nullptr);
    out << golden::summary_text(v, family, false) << "\n";
    append_family_record(v, family, "record", dir, false);
    tally.add(golden::verdict_of(v, false), family.cases());
    if (v.model.bad_lanes() > 0 || v.model.tally.compared() == 0) {
      out << family.name << ": not written: a golden never holds a lane that disagrees with the model\n";
      refused = true;
      continue;
    }
    files::write_atomically(dir + "/" + family.name + ".golden", golden::write_golden(golden::to_golden(family, outputs, header)));
  }
  out << tally.text("record") << (refused ? " some families refused" : "") << "\n";
  return tally.failed ? 1 : 0;
}

// Differences of two recordings of one family, by the model's class of each output.
struct Changes {
  uint64_t compared = 0, watched = 0;  // differing outputs the documents fix; undefined or float ones
  std::vector<std::string> first;
};

Changes changes_between(const CorpusFamily& family, const FamilyOutputs& a, const FamilyOutputs& b) {
  Changes c;
  size_t index = 0;
  for (size_t bi = 0; bi < family.batches.size(); ++bi) {
    const golden::CorpusBatch& batch = family.batches[bi];
    for (size_t k = 0; k < batch.cases; ++k, ++index) {
      const size_t at = k * batch.outputs;
      bool differs = false;
      for (size_t e = 0; e < batch.outputs && !differs; ++e)
        differs = a[bi].bits[at + e] != b[bi].bits[at + e] || a[bi].wrote[at + e] != b[bi].wrote[at + e];
      if (!differs) continue;
      const std::vector<model::LaneOutcome> want = batch.outcomes(k, {b[bi].bits.data() + at, b[bi].wrote.data() + at});
      for (size_t e = 0; e < batch.outputs; ++e) {
        if (a[bi].bits[at + e] == b[bi].bits[at + e] && a[bi].wrote[at + e] == b[bi].wrote[at + e]) continue;
        const bool fixed = model::has_value(want[e]) && !want[e].tolerance;
        ++(fixed ? c.compared : c.watched);
        if (c.first.size() < 5) {
          std::ostringstream os;
          os << "case " << index << " [" << batch.describe(k, static_cast<int>(e)).name << "] output " << e << " ("
             << model::to_string(want[e].cls) << (want[e].tolerance ? ", float output" : "") << "): 0x" << std::hex
             << a[bi].bits[at + e] << " vs 0x" << b[bi].bits[at + e] << std::dec
             << "\n    repro: " << batch.describe(k, static_cast<int>(e)).repro;
          c.first.push_back(os.str());
        }
      }
    }
  }
  return c;
}

int accept(const GoldenOptions& o, std::ostream& out) {
  std::string pending = o.dirs.empty() ? "" : o.dirs.front();
  if (pending.empty()) {
    std::vector<std::string> found;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(pending_root(), ec))
      if (e.is_directory()) found.push_back(e.path().string());
    if (found.size() != 1)
      throw UsageError(std::to_string(found.size()) + " recordings are pending under " + pending_root() +
                       ": name the one to accept");
    pending = found.front();
  }
  const std::map<std::string, std::string> pending_files = golden_files(pending);
  if (pending_files.empty()) throw UsageError("no .golden files in " + pending);
  const std::vector<CorpusFamily> all = families::corpus();
  // Every family is read and judged before any moves: a recording is accepted whole or not at all.
  std::vector<files::Update> accepted;
  std::set<std::string> target_dirs;
  bool refused = false;
  for (const auto& [name, path] : pending_files) {
    const CorpusFamily* family = find_family(all, name);
    if (family == nullptr) throw UsageError(path + ": no family " + name + " in this build's corpus");
    const std::string text = golden::text::read_file(path);  // what is judged is what is installed
    const Recording r = recording_of(*family, text, path);
    const std::string architecture = architecture_of(r.file.header.compute_capability);
    const std::string target_dir = o.golden.empty() ? golden_dir(architecture, r.file.header.code_path) : o.golden;
    const FamilyVerdict v = golden::judge(*family, r.outputs, deviations_for(target_dir, architecture), nullptr, &r.file);
    out << golden::summary_text(v, *family, false) << "\n";
    if (v.model.bad_lanes() > 0 || v.model.tally.compared() == 0 || v.class_mismatches > 0) {
      out << name << ": refused: a golden never holds a lane that disagrees with the model\n";
      refused = true;
      continue;
    }
    const std::string target = target_dir + "/" + name + ".golden";
    if (fs::exists(target)) {
      const Recording old = read_recording(*family, target);
      const Changes c = changes_between(*family, old.outputs, r.outputs);
      out << name << ": against " << target << " (" << old.file.header.device << ", driver " << old.file.header.driver
          << "): " << c.compared << " differing outputs the documents fix, " << c.watched
          << " differing undefined or float outputs\n";
      for (const std::string& line : c.first) out << "  " << line << "\n";
    } else {
      out << name << ": new golden " << target << "\n";
    }
    accepted.push_back({target, text});
    target_dirs.insert(target_dir);
  }
  if (refused) {
    out << "warpconf golden accept: nothing moved: every family of " << pending << " is accepted, or none\n";
    return 1;
  }
  for (const std::string& dir : target_dirs) fs::create_directories(dir);
  files::write_all_or_nothing(accepted);
  std::error_code ignored;
  for (const auto& [name, path] : pending_files) fs::remove(path, ignored);
  fs::remove(pending, ignored);  // only once it is empty
  return 0;
}

int verify(const GoldenOptions& o, std::ostream& out) {
  // A folder given that is mistyped or empty is bad input, GPU or not.
  const std::map<std::string, std::string> named =
      o.dirs.empty() ? std::map<std::string, std::string>{} : named_golden_files(o.dirs.front());
  if (!gpu::device().present && !gpu::device().error) {
    if (environment::require_gpu())
      throw UsageError("WARPCONF_REQUIRE_GPU=1 and no GPU: " + gpu::device().reason);
    out << "warpconf golden verify: skipped: " << gpu::device().reason << "\n";
    return kNotRecorded;
  }
  const golden::Header now = device_header();
  const std::string architecture = architecture_of(now.compute_capability);
  const std::string dir = o.dirs.empty() ? golden_dir(architecture, now.code_path) : o.dirs.front();
  const std::map<std::string, std::string> files =
      !o.dirs.empty() ? named : fs::is_directory(dir) ? golden_files(dir) : std::map<std::string, std::string>{};
  if (files.empty()) {
    out << "warpconf golden verify: not recorded: no golden for " << architecture << " (" << now.code_path << ") in "
        << dir << "; nothing compared\n";
    return kNotRecorded;
  }
  const std::vector<golden::Deviation> deviations = deviations_for(dir, architecture);
  out << "verifying " << now.device << " (" << architecture << ", driver " << now.driver << ", " << now.code_path
      << ") against " << dir << "\n";
  Tally tally;
  for (const CorpusFamily& family : selected(families::corpus(), o.families)) {
    const auto file = files.find(family.name);
    if (file == files.end()) {
      out << family.name << ": not recorded in " << dir << "\n";
      append_unchecked(family, "verify", check::Verdict::not_recorded, "no " + family.name + ".golden in " + dir);
      tally.add(check::Verdict::not_recorded, 0);
      continue;
    }
    const Recording g = read_recording(family, file->second);
    if (architecture_of(g.file.header.compute_capability) != architecture || g.file.header.code_path != now.code_path) {
      out << family.name << ": not recorded for " << architecture << " (" << now.code_path << "): " << file->second
          << " is " << architecture_of(g.file.header.compute_capability) << " (" << g.file.header.code_path << ")\n";
      append_unchecked(family, "verify", check::Verdict::not_recorded, "golden of another architecture or code path");
      tally.add(check::Verdict::not_recorded, 0);
      continue;
    }
    int needed = 0;
    if (any_unsupported(family, needed)) {
      out << family.name << ": not-supported\n";
      tally.add(check::Verdict::not_supported, 0);
      continue;
    }
    const FamilyOutputs outputs = golden::run_on_gpu(family);
    const FamilyVerdict v = golden::judge(family, outputs, deviations, &g.outputs, nullptr);
    out << golden::summary_text(v, family, o.strict) << "\n";
    append_family_record(v, family, "verify", dir, o.strict);
    tally.add(golden::verdict_of(v, o.strict), family.cases());
  }
  out << tally.text("verify") << "\n";
  return tally.failed ? 1 : 0;
}

// Every recorded architecture folder of the golden root: sm_90, sm_90-sass-debug, ...
std::vector<std::string> recorded_dirs() {
  std::vector<std::string> dirs;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(check::golden_root(), ec))
    if (e.is_directory() && e.path().filename().string().rfind("sm_", 0) == 0) dirs.push_back(e.path().string());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

// The family names but `program`, which names the programs golden (not in the corpus of families).
std::vector<std::string> without_programs(std::vector<std::string> names) {
  names.erase(std::remove(names.begin(), names.end(), "program"), names.end());
  return names;
}

// programs.txt of `dir` (programs/golden_check.hpp): one more family for the tally.
void check_programs(const std::string& dir, bool asked_by_name, std::ostream& out, Tally& tally) {
  const std::string path = dir + "/programs.txt";
  if (!fs::exists(path)) {
    // One programs golden holds every path: a code path's folder (sm_XX-<path>) has none.
    if (!asked_by_name || fs::path(dir).filename().string().find('-') != std::string::npos) return;
    out << dir << ": program: not recorded\n";
    tally.add(check::Verdict::not_recorded, 0);
    return;
  }
  const program::ProgramsGoldenCheck c = program::check_programs_golden(golden::read_programs_file(path));
  const check::Verdict verdict = c.stale               ? check::Verdict::error
                                 : !c.problems.empty() ? check::Verdict::conformance_failure
                                 : c.outputs == 0      ? check::Verdict::nothing_compared
                                                       : check::Verdict::pass;
  out << dir << ": program: " << c.programs << " programs, " << c.lines << " lines, " << c.outputs
      << " recorded outputs agree with the oracle (" << c.electing_lines << " lines of programs that elect by hash and verdict only)";
  if (!c.problems.empty()) out << "; " << c.problems.size() << " problems:";
  out << "\n";
  for (size_t k = 0; k < c.problems.size() && k < 8; ++k) out << "  " << path << ": " << c.problems[k] << "\n";
  check::CheckInfo info;
  info.family = "program";
  info.intrinsic = "golden check";
  info.scenes = "programs golden " + path;
  info.extra = {{"golden", {{"command", "check"}, {"dir", dir}, {"programs", c.programs}, {"lines", c.lines},
                            {"outputs_compared", c.outputs}, {"problems", c.problems.size()}}}};
  check::append_record(check::check_record(info, verdict));
  tally.add(verdict, c.lines);
}

int check(const GoldenOptions& o, std::ostream& out) {
  const std::vector<std::string> dirs = o.dirs.empty() ? recorded_dirs() : o.dirs;
  if (dirs.empty()) {
    out << "warpconf golden check: not recorded: no golden folder under " << check::golden_root() << "\n";
    return kNotRecorded;
  }
  const std::vector<std::string> families = without_programs(o.families);
  const bool programs_by_name = families.size() < o.families.size();
  // Built once: a corpus is every family's sweeps, and each golden file's name is checked against it.
  const std::vector<CorpusFamily> corpus = families::corpus();
  const std::vector<CorpusFamily> all =
      programs_by_name && families.empty() ? std::vector<CorpusFamily>{} : selected(corpus, families);
  Tally tally;
  for (const std::string& dir : dirs) {
    if (!fs::is_directory(dir)) throw UsageError("no such folder " + dir);
    const bool only_programs = programs_by_name && families.empty();
    if (only_programs && !o.dirs.empty() && !fs::exists(dir + "/programs.txt"))
      throw UsageError("no programs.txt in " + dir + ": nothing to compare");
    const std::map<std::string, std::string> files =
        o.dirs.empty() || only_programs ? golden_files(dir) : named_golden_files(dir);
    for (const auto& [name, path] : files)
      if (find_family(corpus, name) == nullptr) throw UsageError(path + ": no family " + name + " in the corpus");
    for (const CorpusFamily& family : all) {
      const auto file = files.find(family.name);
      if (file == files.end()) {
        out << dir << ": " << family.name << ": not recorded\n";
        tally.add(check::Verdict::not_recorded, 0);
        continue;
      }
      const Recording r = read_recording(family, file->second);
      const FamilyVerdict v =
          golden::judge(family, r.outputs, deviations_for(dir, architecture_of(r.file.header.compute_capability)), nullptr, &r.file);
      out << dir << ": " << golden::summary_text(v, family, o.strict) << "\n";
      append_family_record(v, family, "check", dir, o.strict);
      tally.add(golden::verdict_of(v, o.strict), family.cases());
    }
    if (o.families.empty() || programs_by_name) check_programs(dir, programs_by_name, out, tally);
  }
  out << tally.text("check") << "\n";
  if (tally.cases == 0 && o.dirs.empty()) {
    out << "warpconf golden check: not recorded: no golden file in " << dirs.size() << " folders; nothing compared\n";
    return kNotRecorded;
  }
  if (tally.cases == 0) {
    out << "warpconf golden check: nothing compared: no family asked for is recorded in the folders given\n";
    return 1;
  }
  return tally.failed ? 1 : 0;
}

std::string header_line(const golden::Header& h) {
  return h.device + ", " + architecture_of(h.compute_capability) + ", driver " + h.driver + ", runtime " + h.runtime + ", nvcc " + h.nvcc +
         ", " + h.code_path + ", recorded " + h.recorded;
}

int diff(const GoldenOptions& o, std::ostream& out) {
  if (o.dirs.size() != 2) throw UsageError("diff takes two recordings: warpconf golden diff A B");
  const std::map<std::string, std::string> a_files = named_golden_files(o.dirs[0]), b_files = named_golden_files(o.dirs[1]);
  Tally tally;
  uint64_t fixed = 0, watched = 0;
  bool headers_shown = false;
  for (const CorpusFamily& family : selected(families::corpus(), o.families)) {
    const auto a = a_files.find(family.name), b = b_files.find(family.name);
    if (a == a_files.end() || b == b_files.end()) {
      out << family.name << ": not recorded in " << (a == a_files.end() ? o.dirs[0] : o.dirs[1]) << "\n";
      tally.add(check::Verdict::not_recorded, 0);
      continue;
    }
    const Recording ra = read_recording(family, a->second), rb = read_recording(family, b->second);
    if (!headers_shown) {
      out << "A: " << o.dirs[0] << ": " << header_line(ra.file.header) << "\nB: " << o.dirs[1] << ": "
          << header_line(rb.file.header) << "\n";
      headers_shown = true;
    }
    const FamilyVerdict va = golden::judge(family, ra.outputs, deviations_for(o.dirs[0], architecture_of(ra.file.header.compute_capability)),
                                           nullptr, &ra.file);
    const FamilyVerdict vb = golden::judge(family, rb.outputs, deviations_for(o.dirs[1], architecture_of(rb.file.header.compute_capability)),
                                           &ra.outputs, &rb.file);
    const Changes c = changes_between(family, ra.outputs, rb.outputs);
    fixed += c.compared;
    watched += c.watched;
    out << family.name << ": " << family.cases() << " cases; A " << check::to_string(golden::verdict_of(va, false))
        << ", B " << check::to_string(golden::verdict_of(vb, o.strict)) << "; differing outputs: " << c.compared
        << " that the documents fix, " << c.watched << " undefined or float (behaviour changes)\n";
    for (const std::string& line : c.first) out << "  " << line << "\n";
    if (va.model.bad_lanes() > 0) out << "  A: " << golden::summary_text(va, family, false) << "\n";
    if (vb.model.bad_lanes() > 0) out << "  B: " << golden::summary_text(vb, family, o.strict) << "\n";
    append_family_record(vb, family, "diff", o.dirs[0] + " " + o.dirs[1], o.strict);
    tally.add(golden::verdict_of(va, false), 0);
    tally.add(golden::verdict_of(vb, o.strict), family.cases());
  }
  out << "warpconf golden diff: " << fixed << " differing outputs that the documents fix, " << watched
      << " differing undefined or float outputs\n";
  if (tally.cases == 0) {
    out << "warpconf golden diff: nothing compared: no family asked for is recorded in both folders\n";
    return 1;
  }
  return tally.failed ? 1 : 0;
}

}  // namespace

int run_golden(const GoldenOptions& o, std::ostream& out, std::ostream& err) {
  return with_exit_status("warpconf golden " + o.command, err, [&] {
    // An unknown family is bad input before anything runs; `check` also takes `program`, the programs golden.
    selected(families::corpus(), o.command == "check" ? without_programs(o.families) : o.families);
    for (const std::string& dir : o.dirs) require_utf8_path("the folder", dir);
    require_utf8_path("--out", o.out);
    require_utf8_path("--golden", o.golden);
    if (o.command == "record") return record(o, out);
    if (o.command == "accept") return accept(o, out);
    if (o.command == "verify") return verify(o, out);
    if (o.command == "check") return check(o, out);
    if (o.command == "diff") return diff(o, out);
    throw UsageError("no golden command " + o.command);
  });
}

}  // namespace wc::cli
