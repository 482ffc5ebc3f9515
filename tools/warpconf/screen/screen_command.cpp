#include "warpconf/screen/screen_command.hpp"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <set>
#include <sstream>

#include "core/batch.hpp"
#include "core/device.hpp"
#include "core/environment.hpp"
#include "core/files.hpp"
#include "core/numbers.hpp"
#include "core/seconds_since.hpp"
#include "core/seed.hpp"
#include "screen/launch.hpp"
#include "screen/verdict.hpp"
#include "warpconf/cli/exit_status.hpp"
#include "warpconf/cli/options.hpp"

namespace wc::cli {
namespace {

using Clock = std::chrono::steady_clock;
using screen::kVariantCount;
using screen::kVariants;

// Most findings printed and recorded of one run; the count says how many there were.
constexpr size_t kFindingsShown = 10;
// Most disagreeing SMs whose results a second run fetches lane by lane.
constexpr size_t kSmsPlaced = 4;

inline constexpr numbers::NumberRange kScreenSeed{0, std::numeric_limits<uint64_t>::max(), true};
inline constexpr numbers::NumberRange kScreenRounds{1, 1000000, false};
inline constexpr numbers::NumberRange kScreenSm{0, 65535, false};
inline constexpr numbers::NumberRange kScreenCase{0, 1000000, false};

struct ScreenSettings {
  screen::LevelInfo level;
  uint64_t seed = 0;
  std::optional<uint32_t> only_sm, case_index;
  std::optional<screen::Plant> plant;
};

ScreenSettings settings_of(const ScreenArgs& a) {
  ScreenSettings s;
  const std::optional<screen::LevelInfo> level = screen::level_from_name(a.level);
  if (!level) throw UsageError("--level " + a.level + ": not a level (short, medium or long)");
  s.level = *level;
  s.seed = a.seed_opt && a.seed_opt->count() > 0 ? a.seed : check::fresh_seed();
  if (a.only_sm_opt && a.only_sm_opt->count() > 0) s.only_sm = static_cast<uint32_t>(a.only_sm);
  if (a.case_opt && a.case_opt->count() > 0) s.case_index = static_cast<uint32_t>(a.case_index);
  if (!a.plant.empty()) s.plant = screen::parse_plant(a.plant);
  if (!a.prometheus.empty()) require_writable("--prometheus", a.prometheus, check::Output::file);
  if (!a.json.empty()) require_writable("--json", a.json, check::Output::file);
  return s;
}

std::string replay_line(const ScreenSettings& s, uint64_t seed, uint32_t smid, std::optional<uint32_t> case_index) {
  std::string line = "warpconf screen --level " + std::string(s.level.name) + " --seed " + check::seed_text(seed) +
                     " --rounds 1 --only-sm " + std::to_string(smid);
  if (case_index) line += " --case " + std::to_string(*case_index);
  if (s.plant) {
    line += " --plant sm=" + s.plant->sm_text + ",lane=" + std::to_string(s.plant->lane);
    if (s.plant->slot >= 0) line += ",slot=" + std::to_string(s.plant->slot);
    if (s.plant->family) line += ",op=" + std::string(screen::family_name(*s.plant->family));
  }
  return line;
}

// "0, 1, 2, 3, 4, 5, 6, 7 and 124 more"
std::string sm_list(const std::vector<uint32_t>& ids) {
  std::string text;
  for (size_t i = 0; i < std::min<size_t>(ids.size(), 8); ++i) text += (i > 0 ? ", " : "") + std::to_string(ids[i]);
  if (ids.size() > 8) text += " and " + std::to_string(ids.size() - 8) + " more";
  return text;
}

void record_coverage(const screen::Coverage& c, const ScreenSettings& s, uint64_t seed, uint32_t sm_count, size_t blocks,
                     screen::Verdict& v) {
  v.sms_covered = c.covered;
  if (c.complete()) return;
  ++v.failures;
  v.findings.push_back("coverage, seed " + check::seed_text(seed) + ": " +
                       (c.all ? "" : std::to_string(c.covered) + " SMs ran a block, not " + std::to_string(s.only_sm ? 1 : sm_count) + "; ") +
                       (c.missing.empty() ? "" : "no block ran on SM " + sm_list(c.missing) + "; ") +
                       (c.doubled.empty() ? "" : "more than one block ran on SM " + sm_list(c.doubled) + "; ") +
                       (c.moved == 0 ? "" : std::to_string(c.moved) + " blocks changed SMs under way; ") + "the screen ran " +
                       std::to_string(blocks) + " blocks, one per SM (is another process's kernel on this GPU?)");
}

// Lane-results verified: those of every copy whose hash matched the model's; the lanes the model
// leaves open are counted apart.
void count_lanes(const screen::Batch& batch, const screen::HashGrid& g, const screen::ExpectedHashes& expected,
                 const std::vector<screen::HashDisagreement>& wrong, std::optional<uint32_t> only_sm, screen::Verdict& v) {
  uint64_t copies = 0;
  for (uint32_t id : g.smids) copies += (!only_sm || id == *only_sm) ? g.slots : 0;
  for (size_t var = 0; var < kVariantCount; ++var)
    for (int lane = 0; lane < model::kWarpSize; ++lane) v.lanes_verified += copies * expected.results[var][lane];
  for (const screen::HashDisagreement& d : wrong) v.lanes_verified -= expected.results[d.variant][d.lane];
  for (const screen::Case& c : batch.cases)
    v.lanes_unverified += copies * static_cast<uint64_t>(__builtin_popcount(c.mask & ~c.compared));
}

// Each disagreement as a finding: placed to its case from the disagreeing SMs' results, lane by lane,
// which a second run of the same batch keeps (for the first kSmsPlaced of them).
void place_disagreements(const ScreenSettings& s, uint64_t seed, const screen::Batch& batch, screen::GridRequest request,
                         const std::vector<screen::HashDisagreement>& wrong, const ScreenGpu& hardware, screen::Verdict& v) {
  std::vector<uint32_t> placed;
  for (const screen::HashDisagreement& d : wrong)
    if (!d.shared && std::find(placed.begin(), placed.end(), d.smid) == placed.end() && placed.size() < kSmsPlaced)
      placed.push_back(d.smid);
  screen::Captured lanes;
  if (!placed.empty()) {
    request.capture_sms = placed;
    lanes = hardware.run(request).captured;
  }
  std::set<std::pair<size_t, int>> shared_reported;
  for (const screen::HashDisagreement& d : wrong) {
    ++v.failures;
    if (v.findings.size() >= kFindingsShown) continue;
    const std::string replay = "\n  replay: " + replay_line(s, seed, d.smid, std::nullopt);
    if (d.shared) {
      if (shared_reported.insert({d.variant, d.lane}).second) v.findings.push_back(screen::describe(d, seed) + replay);
      continue;
    }
    if (!lanes.capture_of(d.smid)) {
      v.findings.push_back(screen::describe(d, seed) + "; its case not sought (the first " + std::to_string(kSmsPlaced) +
                           " disagreeing SMs' are)" + replay);
      continue;
    }
    const std::optional<screen::LaneMismatch> m = screen::first_mismatch(lanes, batch, d.smid, d.slot, d.lane, d.variant);
    if (!m) {
      v.findings.push_back(screen::describe(d, seed) + "; a second run gave the model's results there (intermittent)" + replay);
      continue;
    }
    v.findings.push_back(screen::describe(*m, seed) + "\n  replay: " + replay_line(s, seed, d.smid, m->case_index));
  }
}

// The model's sample: lanes wrong where their hash was right are what the hashes missed.
void check_sample(const ScreenSettings& s, uint64_t seed, const screen::Batch& batch, const screen::Captured& captured,
                  const std::vector<screen::HashDisagreement>& wrong, screen::Verdict& v) {
  uint64_t sampled = 0;
  const std::vector<screen::LaneMismatch> sample = screen::check_sample(captured, batch, kFindingsShown, sampled);
  if (sampled == 0) {
    ++v.failures;
    v.findings.push_back("the model's sample compared no lane (SM " + sm_list(captured.smids) + ", seed " +
                         check::seed_text(seed) + ")");
  }
  for (const screen::LaneMismatch& m : sample) {
    const bool hashed = std::any_of(wrong.begin(), wrong.end(), [&m](const screen::HashDisagreement& d) {
      return d.smid == m.smid && d.slot == m.slot && d.lane == m.lane && d.variant == m.variant;
    });
    if (hashed) continue;
    ++v.failures;
    if (v.findings.size() < kFindingsShown)
      v.findings.push_back(screen::describe(m, seed) + " (the model's sample; its hash agreed)\n  replay: " +
                           replay_line(s, seed, m.smid, m.case_index));
  }
}

// One round: the batch on every SM, its coverage, every hash against the model's, the sample lane by
// lane, each disagreement placed.
void screen_round(const ScreenSettings& s, uint64_t seed, const screen::GridShape& shape, const std::vector<uint32_t>& seen,
                  int capability, const std::optional<screen::KernelPlant>& plant, const ScreenGpu& hardware, screen::Verdict& v) {
  screen::Batch batch = screen::make_batch(seed, s.level.cases_per_variant, capability);
  if (s.case_index) {
    std::optional<screen::Batch> one = screen::only_case(batch, *s.case_index);
    if (!one)
      throw UsageError("--case " + std::to_string(*s.case_index) + ": the " + std::string(s.level.name) +
                       " level's batch has cases 0 to " + std::to_string(batch.cases.size() - 1));
    batch = std::move(*one);
  }
  screen::GridRequest request;
  request.batch = &batch;
  request.only_sm = s.only_sm;
  request.plant = plant;
  // The sample the model checks lane by lane: the first SM seen and one other drawn from the seed.
  if (s.only_sm) request.capture_sms = {*s.only_sm};
  else if (seen.size() > 1) request.capture_sms = {seen.front(), seen[1 + seed % (seen.size() - 1)]};
  else request.capture_sms = seen;
  const screen::GridRun run = hardware.run(request);
  record_coverage(screen::sm_coverage(run.hashes.smids, shape.sm_count, s.only_sm), s, seed, shape.sm_count,
                  run.hashes.blocks, v);
  const screen::ExpectedHashes expected = screen::expected_hashes(batch);
  const std::vector<screen::HashDisagreement> wrong = screen::compare_hashes(run.hashes, expected, s.only_sm);
  count_lanes(batch, run.hashes, expected, wrong, s.only_sm, v);
  place_disagreements(s, seed, batch, request, wrong, hardware, v);
  check_sample(s, seed, batch, run.captured, wrong, v);
}

std::string seconds_text(double s) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << s;
  return os.str();
}

void screen_device(const ScreenSettings& s, const ScreenArgs& a, Clock::time_point start, const ScreenGpu& hardware,
                   screen::Verdict& v, std::ostream& out) {
  const gpu::DeviceStatus& d = hardware.device();
  v.ordinal = d.info.ordinal;
  v.uuid = d.info.uuid;
  v.name = d.info.name;
  if (!d.present) {
    const bool required = environment::require_gpu() || d.error;
    v.status = required ? 1 : 77;
    v.line = std::string("warpconf screen: ") + (required ? "no usable GPU: " : "could not test: ") + d.reason;
    return;
  }
  const screen::GridShape shape = hardware.shape();
  const int capability = hardware.compute_capability();
  v.sms = shape.sm_count;
  v.warp_slots = shape.slots;
  for (const screen::Variant& var : kVariants) {
    if (screen::supported(var, capability)) ++v.variants;
    else v.not_supported.push_back(std::string(screen::intrinsic_name(var)) + " (" + std::string(model::info(var.type).cpp) +
                                   "): needs compute capability 8.0, the code runs as " + std::to_string(capability / 10) +
                                   "." + std::to_string(capability % 10));
  }
  // Which SMs there are, as %smid numbers them: a census run of no case.
  const screen::Batch none = screen::make_batch(s.seed, 0, capability);
  screen::GridRequest census;
  census.batch = &none;
  const std::vector<uint32_t> seen = screen::seen_sms(hardware.run(census).hashes.smids);
  const auto refuse = [&seen](const std::string& what) {
    return UsageError(what + ": no block ran there; the SMs seen are " + sm_list(seen));
  };
  if (s.only_sm && !std::binary_search(seen.begin(), seen.end(), *s.only_sm))
    throw refuse("--only-sm " + std::to_string(*s.only_sm));
  std::optional<screen::KernelPlant> plant;
  if (s.plant) {
    const std::optional<uint32_t> sm = screen::plant_sm(*s.plant, seen);
    if (!sm) throw refuse("--plant sm=" + s.plant->sm_text);
    plant = screen::KernelPlant{*sm, s.plant->lane, s.plant->slot, s.plant->family ? static_cast<int>(*s.plant->family) : -1};
    if (s.plant->slot >= static_cast<int>(shape.slots))
      throw UsageError("--plant slot=" + std::to_string(s.plant->slot) + ": a block has warp slots 0 to " +
                       std::to_string(shape.slots - 1));
    out << "warpconf screen: planted: SM " << plant->sm << ", lane " << plant->lane
        << (plant->slot >= 0 ? ", warp slot " + std::to_string(plant->slot) : std::string(", every warp slot"))
        << (s.plant->family ? ", " + std::string(screen::family_name(*s.plant->family)) : std::string(", every family"))
        << " (sm=" << s.plant->sm_text << " of the " << seen.size() << " SMs seen)\n"
        << std::flush;
  }
  const auto elapsed = [start] { return seconds_since(start); };
  for (uint64_t r = 0; a.rounds > 0 ? r < a.rounds : (r == 0 || elapsed() < s.level.seconds); ++r) {
    screen_round(s, screen::round_seed(s.seed, r), shape, seen, capability, plant, hardware, v);
    v.rounds = r + 1;
    if (v.failures > 0) break;  // the replay lines pin what it found; more rounds would bury them
  }
  const std::string where = std::to_string(v.sms_covered) + " of " + std::to_string(v.sms) + " SMs x " +
                            std::to_string(v.warp_slots) + " warp slots x " + std::to_string(v.variants) + " collectives";
  const std::string tail = ", level " + std::string(s.level.name) + ", " + std::to_string(v.rounds) +
                           (v.rounds == 1 ? " round" : " rounds") + " from seed " + check::seed_text(s.seed) + ", " +
                           seconds_text(elapsed()) + " s, " + gpu::describe(d.info);
  if (v.failures > 0) {
    v.status = 1;
    v.line = "warpconf screen: FAILED: " + std::to_string(v.failures) + (v.failures == 1 ? " disagreement" : " disagreements") +
             " (" + where + ")" + tail;
    return;
  }
  v.status = 0;
  v.line = "warpconf screen: conforms: " + where + ", " + std::to_string(v.lanes_verified) + " lane-results verified (" +
           std::to_string(v.lanes_unverified) + " unverified: the model leaves them open)" + tail;
  if (!v.not_supported.empty()) v.line += "; NotSupported: " + std::to_string(v.not_supported.size()) + " redux.sync variants";
}

}  // namespace

void add_screen_options(CLI::App& cmd, ScreenArgs& a) {
  cmd.add_option("--level", a.level, "short (about 5 s, a node health check), medium (2 min) or long (15 min, soak)");
  a.seed_opt = cmd.add_option("--seed", a.seed, "the first round's seed (default: a fresh one)")->transform(number_in(kScreenSeed));
  cmd.add_option("--rounds", a.rounds, "run this many rounds (default: as many as the level's time allows)")
      ->transform(number_in(kScreenRounds));
  a.only_sm_opt = cmd.add_option("--only-sm", a.only_sm, "run and compare only on this SM (a replay)")->transform(number_in(kScreenSm));
  a.case_opt = cmd.add_option("--case", a.case_index, "run only this case of the batch (a replay)")->transform(number_in(kScreenCase));
  cmd.add_option("--plant", a.plant,
                 "plant a fault: sm=K|first|middle|last,lane=L[,slot=S][,op=shuffle|vote|match|reduce] flips bit 0 of "
                 "that lane's results on that SM only");
  cmd.add_option("--prometheus", a.prometheus, "write the verdict as node_exporter textfile metrics");
  cmd.add_option("--json", a.json, "write the verdict as a JSON record");
}

ScreenGpu this_gpu() {
  return {gpu::device, screen::grid_shape, gpu::code_compute_capability, screen::run_grid};
}

int run_screen_command(const ScreenArgs& a, std::ostream& out, std::ostream& err, const ScreenGpu& hardware) {
  return with_exit_status("warpconf screen", err, [&] {
    const Clock::time_point start = Clock::now();
    const ScreenSettings s = settings_of(a);
    screen::Verdict v;
    v.level = std::string(s.level.name);
    v.seed = s.seed;
    try {
      screen_device(s, a, start, hardware, v, out);
    } catch (const gpu::CudaFailure& e) {
      v.status = 1;  // a CUDA error on a GPU that was found usable is the GPU's failure, never a skip
      v.line = "warpconf screen: FAILED: " + std::string(e.what());
    }
    for (const std::string& f : v.findings) out << "warpconf screen: disagreement: " << f << "\n";
    v.seconds = seconds_since(start);
    out << one_line(v.line) << "\n" << std::flush;
    if (!a.prometheus.empty()) files::write_atomically(a.prometheus, screen::prometheus_text(v));
    if (!a.json.empty()) files::write_atomically(a.json, screen::verdict_json(v).dump(2) + "\n");
    return v.status;
  });
}

}  // namespace wc::cli
