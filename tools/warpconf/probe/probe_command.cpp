#include "warpconf/probe/probe_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include "core/code_paths.hpp"
#include "core/device.hpp"
#include "core/environment.hpp"
#include "core/files.hpp"
#include "core/installation.hpp"
#include "core/known_deviations.hpp"
#include "core/numbers.hpp"
#include "core/process.hpp"
#include "core/records.hpp"
#include "core/seconds_since.hpp"
#include "core/temporary_folder.hpp"
#include "families/registry.hpp"
#include "formats/golden.hpp"
#include "formats/text.hpp"
#include "warpconf/cli/options.hpp"

extern char** environ;  // POSIX: a path's warpconf gets this process's environment and its path's settings

namespace wc::cli {
namespace {

namespace fs = std::filesystem;
constexpr int kSkipped = 77;
constexpr double kJitWarmUpLimit = 900;  // the driver JIT-compiling every probe kernel once

// A path whose binaries are not built, or a path's warpconf that failed: exit status 1, one line.
class PathFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the fingerprint child tells the parent: the device, without the parent touching CUDA.
struct ProbeDevice {
  golden::ContractsHeader header;
  std::string architecture;  // sm_90: contracts.txt holds every code path of a compute capability
  std::string code_path;     // what the device code says its path is (gpu::code_info)
  int code_capability = 0;
};

std::string field_text(std::string text) {
  std::replace(text.begin(), text.end(), ';', ',');
  return text;
}

void fingerprint_child(const std::vector<size_t>&, isolation::Journal& j) {
  j.begin(0);
  const gpu::DeviceStatus& d = gpu::device();
  if (!d.present) return j.not_supported(0, (d.error ? "error: " : "") + d.reason);
  const gpu::CodeInfo& code = gpu::code_info();
  if (!code.error.empty()) return j.not_supported(0, "error: code path " + code.path + ": " + code.error);
  if (!code.not_supported.empty()) return j.not_supported(0, "code path " + code.path + ": " + code.not_supported);
  j.ran(0, field_text(d.info.name) + ";" + std::to_string(d.info.cc_major) + "." + std::to_string(d.info.cc_minor) + ";" +
               field_text(gpu::driver_release(d.info)) + ";" + gpu::version_text(d.info.runtime_version) + ";" +
               code.nvcc + ";" + code.path + ";" + std::to_string(gpu::code_compute_capability()));
}

// Runs the fingerprint child; nullopt (with the exit status in `status`) when there is no device.
std::optional<ProbeDevice> probe_device(const ProbeOptions& o, std::ostream& out, int& status) {
  isolation::Limits limits;
  limits.timeout_s = o.timeout_s;
  const isolation::ChildRun run = isolation::run_child({0}, fingerprint_child, limits);
  if (run.end != isolation::End::clean || run.reports.size() != 1) {
    out << "warpconf probe: the device child " << isolation::to_string(run.end) << " (status " << run.exit_status
        << ", signal " << run.signal << "): " << run.problem << "\n" << run.output << "\n";
    status = 1;
    return std::nullopt;
  }
  const isolation::Report& r = run.reports.front();
  if (r.kind == isolation::Report::Kind::not_supported) {
    const bool error = r.text.rfind("error: ", 0) == 0;
    const bool required = environment::require_gpu();
    out << "warpconf probe: " << (error || required ? "no usable GPU: " : "skipped: ") << r.text << "\n";
    status = error || required ? 1 : kSkipped;
    return std::nullopt;
  }
  std::vector<std::string> f;
  std::istringstream in(r.text);
  for (std::string part; std::getline(in, part, ';');) f.push_back(part);
  if (f.size() != 7) throw std::runtime_error("the device child's fingerprint is malformed: " + r.text);
  ProbeDevice fp;
  fp.header = {f[0], f[1], f[2], f[3], f[4], WARPCONF_VERSION, check::utc_now(), {}, 0};
  std::string digits = f[1];
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  fp.architecture = "sm_" + digits;
  fp.code_path = f[5];
  const auto [end, bad] = std::from_chars(f[6].data(), f[6].data() + f[6].size(), fp.code_capability);
  if (bad != std::errc() || end != f[6].data() + f[6].size())
    throw std::runtime_error("the device child's fingerprint is malformed: " + r.text);
  return fp;
}

// A recording to verify against: one without a probe is an input of nothing (exit status 2).
golden::ContractsFile read_probes(const std::string& path) {
  golden::ContractsFile file = golden::read_contracts_file(path);
  if (file.probes.empty()) throw UsageError(path + ": no probe (probes: 0): nothing to compare");
  return file;
}

bool records_path(const golden::ContractsFile& f, std::string_view path) {
  return std::find(f.header.paths.begin(), f.header.paths.end(), path) != f.header.paths.end();
}

std::string hex_text(uint32_t mask) {
  std::ostringstream os;
  os << std::hex << mask;
  return os.str();
}

// The code paths the --path values name, in the table's order, each once; none named: this process's own.
std::vector<const CodePath*> requested_paths(const std::vector<std::string>& names) {
  if (names.empty()) return {find_code_path(gpu::process_code_path())};
  if (names.size() > 1 && std::count(names.begin(), names.end(), "all") > 0)
    throw UsageError("--path all names every code path: not with another --path");
  std::vector<const CodePath*> paths;
  for (const CodePath& p : kCodePaths) {
    const bool named = std::any_of(names.begin(), names.end(), [&p](const std::string& n) { return n == p.name || n == "all"; });
    if (named) paths.push_back(&p);
  }
  for (const std::string& n : names)
    if (n != "all" && !find_code_path(n)) throw UsageError("--path " + n + ": not a code path (" + code_path_names() + ", or all)");
  return paths;
}

// The warpconf that runs `p`'s kernels, for a process running `here`'s: itself where both are the
// build's own binaries (sass, jit-native: the jit environment makes the difference); else the one in
// the build tree above this binary (the nearest folder with CMakeCache.txt), tools/warpconf or
// paths/<name>/warpconf. Throws PathFailure naming the target that builds a path's binaries.
fs::path path_binary(const CodePath& p, const CodePath& here) {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (p.own_build && here.own_build && !error) return self;
  const std::string build_hint = "cmake --build <build> --target " + code_path_target(p) + " builds them";
  if (const std::optional<fs::path> dir = check::build_tree()) {
    const fs::path binary = p.own_build ? *dir / "tools" / "warpconf" : *dir / code_path_folder(p) / "warpconf";
    if (fs::exists(binary)) return binary;
    throw PathFailure("--path " + std::string(p.name) + ": " + binary.string() + " is not built: cmake --build " +
                      dir->string() + " --target " + code_path_target(p));
  }
  throw PathFailure("--path " + std::string(p.name) + ": this warpconf is not inside a build tree, where " +
                    std::string(p.name) + "'s binaries live (" + build_hint + ")");
}

// This process's environment with `p`'s settings: WARPCONF_CODE_PATH, and for a jit path forced JIT
// with the driver's cache in `jit_cache`, a folder made empty for this run: the first probe child's JIT
// output serves the others (hundreds of children each compiling every kernel would take many minutes),
// and no other driver's or run's output can. The JIT variables are removed for the other paths.
std::vector<std::string> path_environment(const CodePath& p, const std::string& jit_cache) {
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view setting = *entry;
    const std::string_view name = setting.substr(0, setting.find('='));
    if (name != "WARPCONF_CODE_PATH" && name != "CUDA_FORCE_PTX_JIT" && name != "CUDA_CACHE_DISABLE" &&
        name != "CUDA_CACHE_PATH")
      env.emplace_back(setting);
  }
  env.push_back("WARPCONF_CODE_PATH=" + std::string(p.name));
  if (p.forces_jit) {
    env.emplace_back("CUDA_FORCE_PTX_JIT=1");
    env.push_back("CUDA_CACHE_PATH=" + jit_cache);
  }
  return env;
}

// A duration as --timeout reads it back: to the millisecond, which is all it takes.
std::string seconds_argument(double seconds) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(3) << seconds;
  return os.str();
}

// Runs every probe on `p` with its own warpconf, which writes `part` and appends its own records;
// its lines. `verify`: the recording, where it holds `p`.
std::vector<golden::ContractLine> probe_elsewhere(const ProbeOptions& o, const CodePath& p, const fs::path& binary,
                                                  const std::string& part, const std::string& verify, std::ostream& out) {
  std::vector<std::string> argv = {binary.string(), "probe", "--path", std::string(p.name), "--timeout",
                                   seconds_argument(o.timeout_s), "--batch", std::to_string(o.batch), "--jobs",
                                   std::to_string(o.jobs), "--out", part};
  for (const std::string& f : o.families) argv.insert(argv.end(), {"--family", f});
  if (!verify.empty()) argv.insert(argv.end(), {"--verify", verify});
  out << "warpconf probe --path " << p.name << ": running " << binary.string() << "\n";
  const check::TemporaryFolder jit_cache("warpconf-jit-cache-" + std::string(p.name));
  out.flush();
  check::ProcessEnd end;
  check::ProcessOptions options;
  options.environment = path_environment(p, jit_cache.path().string());
  try {
    // It ends on its own: each of its probe children has a time limit. Its output is copied as it comes.
    end = check::run_process(argv, [&out](std::string_view line) { out << line << "\n" << std::flush; }, options);
  } catch (const std::runtime_error& e) {
    throw PathFailure("--path " + std::string(p.name) + ": " + e.what());
  }
  if (!end.succeeded())
    throw PathFailure("--path " + std::string(p.name) + ": " + binary.string() + " ended with " + end.text());
  golden::ContractsFile file;
  try {
    file = golden::read_contracts_file(part);
  } catch (const golden::FormatError& e) {
    throw PathFailure("--path " + std::string(p.name) + ": " + binary.string() + " wrote " + e.what());
  }
  fs::remove(part);
  if (file.header.paths != std::vector<std::string>{std::string(p.name)})
    throw PathFailure("--path " + std::string(p.name) + ": " + binary.string() + " recorded paths " +
                      golden::text::code_path_list_text(file.header.paths));
  return file.probes;
}

void append_records(const std::vector<gpu::ProbeCase>& cases, const std::vector<golden::ContractLine>& lines,
                    const std::optional<golden::ContractsFile>& recorded, const std::string& recorded_path) {
  std::map<std::pair<std::string, std::string>, const golden::ContractLine*> before;
  if (recorded)
    for (const golden::ContractLine& l : recorded->probes) before[{l.path, l.id}] = &l;
  for (size_t i = 0; i < cases.size(); ++i) {
    const golden::ContractLine& now = lines[i];
    check::CheckInfo info;
    info.family = "contract";
    info.intrinsic = std::string(cases[i].op->intrinsic);
    info.scenes = now.scenario;
    info.arguments = gpu::describe(cases[i]);
    info.block = std::to_string(gpu::probe_threads(cases[i].scenario)) + "x1x1";
    const auto was = before.find({now.path, now.id});
    std::string golden = "not-recorded";
    check::Verdict verdict = check::Verdict::not_recorded;
    if (now.outcome == "not-supported") {
      verdict = check::Verdict::not_supported;
    } else if (was != before.end()) {
      const bool same = golden::behaviour(*was->second) == golden::behaviour(now);
      golden = same ? "same" : "changed";
      verdict = same ? check::Verdict::pass : check::Verdict::behaviour_change;
    }
    info.extra = {{"contract", {{"id", now.id},
                                {"path", now.path},
                                {"probe_family", std::string(cases[i].op->family)},
                                {"scenario", now.scenario},
                                {"mask", now.mask},
                                {"lim", now.lim},
                                {"outcome", now.outcome},
                                {"detail", now.detail},
                                {"golden", golden},
                                {"golden_file", recorded ? recorded_path : ""},
                                {"was", was != before.end() ? was->second->outcome + " | " + was->second->detail : ""}}}};
    if (verdict == check::Verdict::not_supported || verdict == check::Verdict::not_recorded)
      check::record_unchecked(info, verdict, verdict == check::Verdict::not_supported ? now.detail : "no recording to compare with");
    else
      check::append_record(check::check_record(info, verdict));
  }
}

// The bytes of the files under `folder` (0 where it is unset or absent).
uint64_t folder_bytes(const char* folder) {
  std::error_code error;
  uint64_t bytes = 0;
  if (folder == nullptr) return 0;
  for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end; it.increment(error))
    if (it->is_regular_file(error)) bytes += it->file_size(error);
  return bytes;
}

// Under forced JIT the driver compiles a kernel at its first load, which can outlast a probe child's
// limit. One child first loads every probe kernel under a long limit, so that the probe children
// find them in the JIT cache they share (path_environment) and their limit times the probe alone.
// Returns the seconds a probe child needs on top of its limit: none when the cache filled, else the
// warm-up's JIT time twice, since then every child compiles them again.
double warm_jit_cache(const CodePath& here, const std::vector<gpu::ProbeCase>& cases, int capability, std::ostream& out) {
  const isolation::ChildBody body = [&cases, capability](const std::vector<size_t>&, isolation::Journal& j) {
    j.begin(0);
    for (const gpu::ProbeCase& c : cases) {
      if (c.op->needs_compute_capability > capability) continue;
      gpu::ProbeCase load = c;
      load.load_only = true;
      const gpu::ProbeRun run = families::run_probe(load);
      if (run.cuda_error != 0) return j.cuda_error(0, run.cuda_error, run.error_name + " loading " + c.id);
    }
    gpu::release_device();  // the context ends here, not at the child's _exit
    j.ran(0, "");
  };
  isolation::Limits limits;
  limits.timeout_s = kJitWarmUpLimit;
  const isolation::ChildRun run = isolation::run_child({0}, body, limits);
  out << "warpconf probe --path " << here.name << ": JIT warm-up " << isolation::to_string(run.end) << " in " << run.seconds
      << " s";
  if (run.end != isolation::End::clean)
    out << " (" << (run.reports.empty() ? run.problem : run.reports.front().text) << ")";
  const uint64_t cached = folder_bytes(std::getenv("CUDA_CACHE_PATH"));
  const double extra = cached > 0 ? 0 : 2 * run.seconds;
  out << "; the JIT cache holds " << cached << " bytes";
  if (extra > 0) out << ", so each probe child gets " << extra << " s more for its own JIT";
  out << "\n";
  return extra;
}

// Runs every probe on this process's own code path in isolated children; its lines, in the order of `cases`.
std::vector<golden::ContractLine> probe_here(const ProbeOptions& o, const CodePath& here, const std::vector<gpu::ProbeCase>& cases,
                                             int capability, std::ostream& out) {
  const isolation::ChildBody body = [&cases, capability](const std::vector<size_t>& ids, isolation::Journal& j) {
    for (size_t id : ids) {
      j.begin(id);
      const gpu::ProbeCase& c = cases[id];
      const int needed = c.op->needs_compute_capability;
      if (needed > capability) {
        j.not_supported(id, "needs compute capability " + std::to_string(needed / 10) + "." + std::to_string(needed % 10));
        continue;
      }
      const gpu::ProbeRun run = families::run_probe(c);
      if (run.cuda_error != 0) return j.cuda_error(id, run.cuda_error, run.error_name);  // the context is gone
      std::vector<std::optional<uint64_t>> words(32);
      for (int lane = 0; lane < 32; ++lane)
        if (run.wrote[lane]) words[lane] = run.bits[lane];
      j.ran(id, golden::encode_outputs(words));
    }
  };
  const double jit_seconds = here.forces_jit ? warm_jit_cache(here, cases, capability, out) : 0;
  isolation::Limits limits;
  limits.timeout_s = o.timeout_s + jit_seconds;
  limits.batch_size = o.batch;
  limits.parallel = o.jobs;
  std::vector<size_t> ids(cases.size());
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = i;
  size_t children = 0;
  const auto started = std::chrono::steady_clock::now();
  const std::vector<isolation::CaseResult> results =
      isolation::run_isolated(ids, body, limits, [&](const std::vector<size_t>&, const isolation::ChildRun&) { ++children; });
  const double seconds = seconds_since(started);
  std::vector<golden::ContractLine> lines;
  std::map<std::string, int> outcomes;
  for (const isolation::CaseResult& r : results) {
    lines.push_back(contract_line(cases[r.id], r, o.timeout_s));
    lines.back().path = std::string(here.name);
    const golden::ContractLine& l = lines.back();
    ++outcomes[l.outcome];
    out << l.path << " " << l.id << ": " << l.outcome << " (" << l.detail << ")" << (r.note.empty() ? "" : "; " + r.note) << "\n";
    if (!r.output.empty() && r.outcome != isolation::Outcome::ran) out << "  child output: " << r.output.substr(0, 200) << "\n";
  }
  out << "warpconf probe --path " << here.name << ": " << cases.size() << " probes in " << children << " children, " << seconds
      << " s:";
  for (const auto& [outcome, n] : outcomes) out << " " << outcome << " " << n << ";";
  out << "\n";
  return lines;
}

}  // namespace

bool is_trap(int e) { return e == 700 || (e >= 714 && e <= 719); }

golden::ContractLine contract_line(const gpu::ProbeCase& c, const isolation::CaseResult& r, double timeout_s) {
  golden::ContractLine l;
  l.id = c.id;
  l.scenario = std::string(gpu::name(c.scenario));
  l.mask = c.op->takes_mask ? hex_text(c.mask) : "-";
  l.lim = c.lim;
  switch (r.outcome) {
    case isolation::Outcome::ran:
      l.outcome = "ran";
      l.detail = r.text;
      break;
    case isolation::Outcome::cuda_error:
      l.outcome = is_trap(r.cuda_error) ? "trapped" : "cuda-error";
      l.detail = r.text + " " + std::to_string(r.cuda_error);
      break;
    case isolation::Outcome::not_supported:
      l.outcome = "not-supported";
      l.detail = r.text;
      break;
    case isolation::Outcome::hung: {
      std::ostringstream os;
      os << "killed after " << timeout_s << " s";
      l.outcome = "hung";
      l.detail = os.str();
      break;
    }
    case isolation::Outcome::crashed:
      l.outcome = "crashed";
      l.detail = "signal " + std::to_string(r.signal);
      break;
    case isolation::Outcome::flooded:
      l.outcome = "flooded";
      l.detail = "killed at the output cap";
      break;
    case isolation::Outcome::exited_early:
      l.outcome = "exited-early";
      l.detail = "exit status " + std::to_string(r.exit_status) + (r.text.empty() ? "" : ": " + r.text);
      break;
    case isolation::Outcome::missing:
      l.outcome = "missing";
      l.detail = "the child finished without reporting it";
      break;
  }
  return l;
}

std::vector<std::string> contract_changes(const golden::ContractsFile& recorded, const std::vector<golden::ContractLine>& now) {
  std::map<std::pair<std::string, std::string>, const golden::ContractLine*> before;
  for (const golden::ContractLine& l : recorded.probes) before[{l.path, l.id}] = &l;
  std::vector<std::string> changes;
  for (const golden::ContractLine& l : now) {
    if (!records_path(recorded, l.path)) continue;
    const std::string probe = l.path + " " + l.id;
    const auto was = before.find({l.path, l.id});
    if (was == before.end()) changes.push_back(probe + ": not recorded, now " + golden::behaviour(l));
    else if (golden::behaviour(*was->second) != golden::behaviour(l))
      changes.push_back(probe + ": was " + golden::behaviour(*was->second) + ", now " + golden::behaviour(l));
  }
  return changes;
}

int run_probe_command(const ProbeOptions& o, std::ostream& out) {
  require_utf8_path("--out", o.out);
  if (!o.out.empty()) require_writable("--out", o.out, check::Output::file_in_new_folders);  // before the device is asked: the default needs its architecture
  if (o.verify) require_utf8_path("--verify", *o.verify);
  std::vector<gpu::ProbeCase> cases;
  std::set<std::string> probed;
  for (const gpu::ProbeCase& c : families::probe_cases()) probed.insert(std::string(c.op->family));
  for (const std::string& f : o.families)
    if (probed.count(f) == 0) throw UsageError("no probe family " + f);
  for (const gpu::ProbeCase& c : families::probe_cases())
    if (o.families.empty() || std::count(o.families.begin(), o.families.end(), std::string(c.op->family)) > 0)
      cases.push_back(c);
  const std::vector<const CodePath*> paths = requested_paths(o.paths);
  const CodePath& here = *find_code_path(gpu::process_code_path());
  std::map<const CodePath*, fs::path> binaries;  // the paths another warpconf runs
  for (const CodePath* p : paths)
    if (p != &here) binaries[p] = path_binary(*p, here);
  std::optional<golden::ContractsFile> recorded;
  if (o.verify && !o.verify->empty()) recorded = read_probes(*o.verify);  // bad input before any run

  int status = 0;
  const std::optional<ProbeDevice> fp = probe_device(o, out, status);
  if (!fp) return status;
  std::string verify_path = o.verify ? *o.verify : "";
  if (o.verify && verify_path.empty()) {
    verify_path = check::golden_root() + "/" + fp->architecture + "/contracts.txt";
    if (!fs::exists(verify_path)) {
      out << "warpconf probe --verify: not recorded: no " << verify_path << "; nothing compared\n";
      return kSkipped;
    }
    recorded = read_probes(verify_path);
  }
  if (find_code_path(fp->code_path) && fp->code_path != here.name)
    throw PathFailure("this warpconf's kernels are the " + fp->code_path + " path's, and WARPCONF_CODE_PATH says " +
                      std::string(here.name));
  std::string path_names;
  for (const CodePath* p : paths) path_names += (path_names.empty() ? "" : ", ") + std::string(p->name);
  if (recorded && recorded->header.compute_capability != fp->header.compute_capability) {
    out << "warpconf probe --verify: not recorded: " << verify_path << " is compute capability "
        << recorded->header.compute_capability << ", this GPU " << fp->header.compute_capability << "; nothing compared\n";
    return kSkipped;
  }
  if (recorded && std::none_of(paths.begin(), paths.end(), [&](const CodePath* p) { return records_path(*recorded, p->name); })) {
    out << "warpconf probe --verify: not recorded: " << verify_path << " records the paths "
        << golden::text::code_path_list_text(recorded->header.paths) << ", not " << path_names << "; nothing compared\n";
    return kSkipped;
  }
  out << "probing " << fp->header.device << " (" << fp->architecture << ", driver " << fp->header.driver << "): "
      << cases.size() << " probes on " << path_names << ", " << o.batch << " per child, " << o.timeout_s << " s per child, "
      << o.jobs << " at once\n";

  const std::string path = o.out.empty() ? check::golden_root() + "/pending/" + fp->architecture + "/contracts.txt" : o.out;
  require_writable(o.out.empty() ? "the contracts file" : "--out", path, check::Output::file_in_new_folders);
  if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path());
  golden::ContractsFile file;
  file.header = fp->header;
  std::vector<golden::ContractLine> here_lines;
  for (const CodePath* p : paths) {
    file.header.paths.emplace_back(p->name);
    const bool compared = recorded && records_path(*recorded, p->name);
    std::vector<golden::ContractLine> lines =
        p == &here ? probe_here(o, here, cases, fp->code_capability, out)
                   : probe_elsewhere(o, *p, binaries.at(p), path + "." + std::string(p->name) + ".part",
                                     compared ? verify_path : "", out);
    if (p == &here) here_lines = lines;
    file.probes.insert(file.probes.end(), lines.begin(), lines.end());
  }
  files::write_atomically(path, golden::write_contracts(file));
  // Only now, with every child done, may this process touch CUDA (the records' device fingerprint).
  // The other paths' warpconfs appended their own records.
  if (!here_lines.empty()) append_records(cases, here_lines, recorded, verify_path);
  out << "warpconf probe: " << file.probes.size() << " probe runs on " << path_names << "; written to " << path << "\n";
  if (!recorded) return 0;
  const std::vector<std::string> changes = contract_changes(*recorded, file.probes);
  const bool compared_any = std::any_of(file.probes.begin(), file.probes.end(), [&recorded](const golden::ContractLine& l) {
    return std::any_of(recorded->probes.begin(), recorded->probes.end(),
                       [&l](const golden::ContractLine& r) { return r.path == l.path && r.id == l.id; });
  });
  if (!compared_any) {
    out << "warpconf probe --verify " << verify_path << ": nothing compared: it records none of the probes run\n";
    return 1;
  }
  for (const std::string& c : changes)  // the other paths' warpconfs printed theirs
    if (c.rfind(std::string(here.name) + " ", 0) == 0) out << "behaviour change: " << c << "\n";
  out << "warpconf probe --verify " << verify_path << ":";
  for (const CodePath* p : paths) {
    const size_t n = std::count_if(changes.begin(), changes.end(),
                                   [p](const std::string& c) { return c.rfind(std::string(p->name) + " ", 0) == 0; });
    out << " " << p->name << " " << (records_path(*recorded, p->name) ? std::to_string(n) + " behaviour changes" : "not recorded")
        << ";";
  }
  out << (changes.empty() || !o.strict ? "" : " (--strict: a failure)") << "\n";
  return o.strict && !changes.empty() ? 1 : 0;
}

}  // namespace wc::cli
