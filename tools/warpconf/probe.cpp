#include "warpconf/probe.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/device.hpp"
#include "core/environment.hpp"
#include "core/known_deviations.hpp"
#include "core/numbers.hpp"
#include "core/records.hpp"
#include "families/registry.hpp"
#include "formats/golden.hpp"

namespace wc::cli {
namespace {

namespace fs = std::filesystem;
constexpr int kSkipped = 77;
// A day per child, and more probes per child than there are: larger values are typing errors (or a
// negative --batch that wrapped round).
constexpr double kMostTimeout = 86400;
constexpr size_t kMostBatch = 100000;

// What the fingerprint child tells the parent: the device and code path, without the parent touching CUDA.
struct Fingerprint {
  golden::ContractsHeader header;
  std::string architecture;  // sm_90, sm_90-sass-debug
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
  const gpu::CodeInfo code = gpu::code_info();
  j.ran(0, field_text(d.info.name) + ";" + std::to_string(d.info.cc_major) + "." + std::to_string(d.info.cc_minor) + ";" +
               field_text(gpu::driver_release(d.info)) + ";" + gpu::version_text(d.info.runtime_version) + ";" +
               code.nvcc + ";" + code.path + ";" + std::to_string(gpu::code_compute_capability()));
}

// Runs the fingerprint child; nullopt (with the exit status in `status`) when there is no device.
std::optional<Fingerprint> fingerprint(const ProbeOptions& o, std::ostream& out, int& status) {
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
  Fingerprint fp;
  fp.header = {f[0], f[1], f[2], f[3], f[4], f[5], WARPCONF_VERSION, check::utc_now(), 0};
  std::string digits = f[1];
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  fp.architecture = "sm_" + digits + (f[5] == "sass" ? "" : "-" + f[5]);
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

std::string hex_text(uint32_t mask) {
  std::ostringstream os;
  os << std::hex << mask;
  return os.str();
}

void append_records(const std::vector<gpu::ProbeCase>& cases, const std::vector<golden::ContractLine>& lines,
                    const std::optional<golden::ContractsFile>& recorded, const std::string& recorded_path) {
  std::map<std::string, const golden::ContractLine*> before;
  if (recorded)
    for (const golden::ContractLine& l : recorded->probes) before[l.id] = &l;
  for (size_t i = 0; i < cases.size(); ++i) {
    const golden::ContractLine& now = lines[i];
    check::CheckInfo info;
    info.family = "contract";
    info.intrinsic = std::string(cases[i].op->intrinsic);
    info.scenes = now.scenario;
    info.arguments = gpu::describe(cases[i]);
    info.block = "32x1x1";
    const auto was = before.find(now.id);
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
  std::map<std::string, const golden::ContractLine*> before;
  for (const golden::ContractLine& l : recorded.probes) before[l.id] = &l;
  std::vector<std::string> changes;
  for (const golden::ContractLine& l : now) {
    const auto was = before.find(l.id);
    if (was == before.end()) changes.push_back(l.id + ": not recorded, now " + golden::behaviour(l));
    else if (golden::behaviour(*was->second) != golden::behaviour(l))
      changes.push_back(l.id + ": was " + golden::behaviour(*was->second) + ", now " + golden::behaviour(l));
  }
  return changes;
}

int run_probe_command(const ProbeOptions& o, std::ostream& out, std::ostream& err) {
  try {
    if (!(o.timeout_s > 0 && o.timeout_s <= kMostTimeout))
      throw UsageError("--timeout must be above 0 and at most " + std::to_string(static_cast<int>(kMostTimeout)) + " s");
    if (o.batch == 0 || o.batch > kMostBatch)
      throw UsageError("--batch must be from 1 to " + std::to_string(kMostBatch));
    require_utf8_path("--out", o.out);
    if (o.verify) require_utf8_path("--verify", *o.verify);
    std::vector<gpu::ProbeCase> cases;
    std::set<std::string> probed;
    for (const gpu::ProbeCase& c : families::probe_cases()) probed.insert(std::string(c.op->family));
    for (const std::string& f : o.families)
      if (probed.count(f) == 0) throw UsageError("no probe family " + f);
    for (const gpu::ProbeCase& c : families::probe_cases())
      if (o.families.empty() || std::count(o.families.begin(), o.families.end(), std::string(c.op->family)) > 0)
        cases.push_back(c);
    std::optional<golden::ContractsFile> recorded;
    if (o.verify && !o.verify->empty()) recorded = read_probes(*o.verify);  // bad input before any run

    int status = 0;
    const std::optional<Fingerprint> fp = fingerprint(o, out, status);
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
    if (recorded && (recorded->header.compute_capability != fp->header.compute_capability ||
                     recorded->header.code_path != fp->header.code_path)) {
      out << "warpconf probe --verify: not recorded: " << verify_path << " is compute capability "
          << recorded->header.compute_capability << " (" << recorded->header.code_path << "), this GPU "
          << fp->header.compute_capability << " (" << fp->header.code_path << "); nothing compared\n";
      return kSkipped;
    }
    out << "probing " << fp->header.device << " (" << fp->architecture << ", driver " << fp->header.driver << "): "
        << cases.size() << " probes, " << o.batch << " per child, " << o.timeout_s << " s per child\n";

    const int capability = fp->code_capability;
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
    isolation::Limits limits;
    limits.timeout_s = o.timeout_s;
    limits.batch_size = o.batch;
    std::vector<size_t> ids(cases.size());
    for (size_t i = 0; i < ids.size(); ++i) ids[i] = i;
    size_t children = 0;
    const auto started = std::chrono::steady_clock::now();
    const std::vector<isolation::CaseResult> results =
        isolation::run_isolated(ids, body, limits, [&](const std::vector<size_t>&, const isolation::ChildRun&) { ++children; });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    std::vector<golden::ContractLine> lines;
    std::map<std::string, int> outcomes;
    for (const isolation::CaseResult& r : results) {
      lines.push_back(contract_line(cases[r.id], r, o.timeout_s));
      const golden::ContractLine& l = lines.back();
      ++outcomes[l.outcome];
      out << l.id << ": " << l.outcome << " (" << l.detail << ")" << (r.note.empty() ? "" : "; " + r.note) << "\n";
      if (!r.output.empty() && r.outcome != isolation::Outcome::ran) out << "  child output: " << r.output.substr(0, 200) << "\n";
    }
    golden::ContractsFile file;
    file.header = fp->header;
    file.probes = lines;
    const std::string path = o.out.empty() ? check::golden_root() + "/pending/" + fp->architecture + "/contracts.txt" : o.out;
    if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path());
    {
      std::ofstream os(path + ".partial", std::ios::binary | std::ios::trunc);
      os << golden::write_contracts(file);
      if (!os.flush()) throw UsageError("cannot write " + path + ".partial");
    }
    fs::rename(path + ".partial", path);
    // Only now, with every child done, may this process touch CUDA (the records' device fingerprint).
    append_records(cases, lines, recorded, verify_path);
    out << "warpconf probe: " << cases.size() << " probes in " << children << " children, " << seconds << " s:";
    for (const auto& [outcome, n] : outcomes) out << " " << outcome << " " << n << ";";
    out << " written to " << path << "\n";
    if (!recorded) return 0;
    if (std::none_of(lines.begin(), lines.end(), [&recorded](const golden::ContractLine& l) {
          return std::any_of(recorded->probes.begin(), recorded->probes.end(),
                             [&l](const golden::ContractLine& r) { return r.id == l.id; });
        })) {
      out << "warpconf probe --verify " << verify_path << ": nothing compared: it records none of the probes run\n";
      return 1;
    }
    const std::vector<std::string> changes = contract_changes(*recorded, lines);
    for (const std::string& c : changes) out << "behaviour change: " << c << "\n";
    out << "warpconf probe --verify " << verify_path << ": " << changes.size() << " behaviour changes"
        << (changes.empty() || !o.strict ? "" : " (--strict: a failure)") << "\n";
    return o.strict && !changes.empty() ? 1 : 0;
  } catch (const UsageError& e) {
    print_error(err, "warpconf probe", e.what());
    return 2;
  } catch (const golden::FormatError& e) {
    print_error(err, "warpconf probe", e.what());
    return 2;
  } catch (const std::logic_error& e) {  // the runner refused to fork from a CUDA process
    print_error(err, "warpconf probe", e.what());
    return 1;
  }
}

}  // namespace wc::cli
