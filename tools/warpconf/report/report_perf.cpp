#include "warpconf/report/report_perf.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/numbers.hpp"
#include "core/perf/stats.hpp"
#include "formats/perf.hpp"
#include "formats/text.hpp"
#include "warpconf/report/report.hpp"

namespace wc::cli {
namespace {

// A number member that may be null or absent; `signed_ok` allows a negative one.
std::optional<double> number(const JsonObject& object, const char* key, bool signed_ok = false) {
  if (!object.has(key) || object.at(key).is_null()) return std::nullopt;
  const nlohmann::json& v = object.at(key);
  if (!v.is_number() || !std::isfinite(v.get<double>()) || (!signed_ok && v.get<double>() < 0))
    throw UsageError(object.path_of(key) + ": " + v.dump() + " is not a" + (signed_ok ? "" : " non-negative") +
                     " number");
  return v.get<double>();
}

std::string known_verdict(const std::string& verdict) {
  for (const char* v : kPerfVerdicts)
    if (verdict == v) return verdict;
  throw UsageError("a perf figure's verdict is " + golden::text::quote(verdict));
}

std::string known_metric(const std::string& metric) {
  if (!golden::perf_metric_from_name(metric)) throw UsageError("unknown perf metric " + golden::text::quote(metric));
  return metric;
}

template <class T>
nlohmann::json or_null(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// The metrics in the order a reader expects them: latency, throughput, bandwidth, ratio to copy.
size_t metric_rank(const std::string& metric) {
  const std::optional<golden::PerfMetric> m = golden::perf_metric_from_name(metric);
  return static_cast<size_t>(std::find(golden::kPerfMetrics.begin(), golden::kPerfMetrics.end(), *m) -
                             golden::kPerfMetrics.begin());
}

// The baseline as both records and reports hold it: {median, mad, file, ...} or null.
std::optional<PerfBaseline> baseline_of(const JsonObject& object) {
  object.expect("baseline", Shape::object, true);
  if (!object.has("baseline") || object.at("baseline").is_null()) return std::nullopt;
  const JsonObject baseline = object.object("baseline");
  const std::optional<double> median = number(baseline, "median"), mad = number(baseline, "mad");
  if (!median || !mad) throw UsageError(object.path_of("baseline") + ": without median or mad");
  return PerfBaseline{*median, *mad, field_text(object.at("baseline"), "file")};
}

// The SASS counts as records and reports hold them: [{instruction, per_call}, ...] or null.
std::vector<golden::PerfSass> sass_of(const JsonObject& object) {
  object.expect("sass", Shape::list, true);
  std::vector<golden::PerfSass> counts;
  if (!object.has("sass") || object.at("sass").is_null()) return counts;
  for (const JsonObject& c : object.objects("sass")) {
    const std::optional<double> per_call = number(c, "per_call");
    if (!per_call) throw UsageError(c.path_of("per_call") + ": missing");
    counts.push_back({c.text("instruction"), *per_call});
  }
  return counts;
}

// A perf record, or a report's perf figure, as a figure of `device`.
PerfFigure perf_figure(const JsonObject& r, const std::string& device) {
  PerfFigure f;
  f.device = device;
  f.id = r.optional_text("id");
  f.family = r.optional_text("family");
  f.intrinsic = r.optional_text("intrinsic");
  f.type = r.optional_text("type");
  f.mask = r.optional_text("mask");
  f.metric = known_metric(r.optional_text("metric"));
  f.median = number(r, "median");
  f.mad = number(r, "mad");
  r.expect("repetitions", Shape::count, true);
  if (r.has("repetitions") && !r.at("repetitions").is_null()) f.repetitions = r.count("repetitions");
  f.verdict = known_verdict(r.optional_text("verdict"));
  f.outcome = r.optional_text("outcome");
  f.baseline = baseline_of(r);
  f.worsening = number(r, "worsening", true);
  f.sm_clock_mhz = r.has("sm_clock_mhz") ? r.at("sm_clock_mhz") : nlohmann::json();
  f.one_pass_gbs = number(r, "one_pass_gbs");
  f.reason = r.optional_text("reason");
  f.sass = sass_of(r);
  f.latency_per_instruction = number(r, "latency_per_instruction");
  return f;
}

}  // namespace

PerfFigure perf_figure_of(const nlohmann::json& r, const std::string& device) {
  return perf_figure(JsonObject(r, ""), device);
}

nlohmann::json perf_json(const PerfFigure& f) {
  nlohmann::json sass_json = f.sass.empty() ? nlohmann::json(nullptr) : nlohmann::json::array();
  for (const golden::PerfSass& c : f.sass) sass_json.push_back({{"instruction", c.instruction}, {"per_call", c.per_call}});
  return {{"device", f.device},
          {"id", f.id},
          {"family", f.family},
          {"intrinsic", f.intrinsic},
          {"type", f.type},
          {"mask", f.mask},
          {"metric", f.metric},
          {"median", or_null(f.median)},
          {"mad", or_null(f.mad)},
          {"repetitions", or_null(f.repetitions)},
          {"verdict", f.verdict},
          {"outcome", f.outcome},
          {"baseline", f.baseline ? nlohmann::json{{"median", f.baseline->median}, {"mad", f.baseline->mad},
                                                   {"file", f.baseline->file}}
                                  : nlohmann::json(nullptr)},
          {"worsening", or_null(f.worsening)},
          {"sm_clock_mhz", f.sm_clock_mhz},
          {"one_pass_gbs", or_null(f.one_pass_gbs)},
          {"reason", f.reason},
          {"sass", sass_json},
          {"latency_per_instruction", or_null(f.latency_per_instruction)}};
}

PerfFigure perf_figure_from(const JsonObject& j) {
  PerfFigure f = perf_figure(j, j.text("device"));
  if (f.id.empty()) throw UsageError(j.path_of("id") + ": empty");
  return f;
}

void add_perf_figure(std::vector<PerfFigure>& figures, const PerfFigure& figure) {
  const auto same = std::find_if(figures.begin(), figures.end(), [&figure](const PerfFigure& f) {
    return f.device == figure.device && f.id == figure.id && f.metric == figure.metric;
  });
  if (same == figures.end()) figures.push_back(figure);
  else if (verdict_rank(figure.verdict) <= verdict_rank(same->verdict)) *same = figure;
}

PerfTables perf_tables(const std::vector<PerfFigure>& figures) {
  PerfTables t;
  std::set<std::string> devices;
  for (const PerfFigure& f : figures) {
    devices.insert(f.device);
    auto family = std::find_if(t.families.begin(), t.families.end(), [&f](const PerfFamily& x) { return x.name == f.family; });
    if (family == t.families.end()) family = t.families.insert(t.families.end(), PerfFamily{f.family, {}, {}});
    auto row = std::find_if(family->rows.begin(), family->rows.end(),
                            [&f](const PerfRow& x) { return x.id == f.id && x.metric == f.metric; });
    if (row == family->rows.end()) row = family->rows.insert(family->rows.end(), PerfRow{f.id, f.metric, {}});
    row->by_device[f.device] = &f;
    if (std::find(family->metrics.begin(), family->metrics.end(), f.metric) == family->metrics.end())
      family->metrics.push_back(f.metric);
  }
  for (PerfFamily& family : t.families)
    std::sort(family.metrics.begin(), family.metrics.end(),
              [](const std::string& a, const std::string& b) { return metric_rank(a) < metric_rank(b); });
  t.devices.assign(devices.begin(), devices.end());
  return t;
}

std::string perf_counts_text(const std::vector<PerfFigure>& figures) {
  std::set<std::string> devices;
  for (const PerfFigure& f : figures) devices.insert(f.device);
  std::string text = grouped(figures.size()) + (figures.size() == 1 ? " figure on " : " figures on ") +
                     grouped(devices.size()) + (devices.size() == 1 ? " device:" : " devices:");
  const char* separator = " ";
  for (const char* verdict : kPerfVerdicts) {
    const auto n = std::count_if(figures.begin(), figures.end(), [verdict](const PerfFigure& f) { return f.verdict == verdict; });
    if (n == 0) continue;
    text += separator + grouped(static_cast<uint64_t>(n)) + " " + verdict;
    separator = ", ";
  }
  return text;
}

std::string perf_value_text(const PerfFigure& f) {
  if (!f.median) return "";
  return golden::perf_number(*f.median) + (f.mad ? " \u00b1 " + golden::perf_number(*f.mad) : "");
}

std::string perf_baseline_text(const PerfFigure& f) {
  if (!f.baseline) return "";
  return "baseline " + golden::perf_number(f.baseline->median) + " \u00b1 " + golden::perf_number(f.baseline->mad) +
         (f.worsening ? ", " + perf::worsening_text(*f.worsening) : "");
}

std::string perf_sass_text(const PerfFigure& f) {
  std::string text;
  for (const golden::PerfSass& c : f.sass) text += (text.empty() ? "" : " ") + c.instruction + "=" + golden::perf_number(c.per_call);
  if (text.empty()) return "";
  text += " a call";
  if (f.latency_per_instruction) text += ", " + golden::perf_number(*f.latency_per_instruction) + " cycles an instruction";
  return text;
}

std::string_view perf_metric_title(std::string_view metric) {
  if (metric == "latency_cycles") return "latency (cycles per call, fewer is better)";
  if (metric == "throughput_per_sm_cycle") return "throughput (calls per SM per cycle)";
  if (metric == "bandwidth_gbs") return "bandwidth (GB/s)";
  return "bandwidth as a ratio to a device copy";
}

}  // namespace wc::cli
