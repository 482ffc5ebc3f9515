// report.html's Performance section: per family a table, a column per device, and one inline SVG
// bar chart with a panel per metric (their units differ), a bar per figure and device grouped by
// figure, the baseline as a tick. Plain SVG elements, no script, no external file.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "formats/perf.hpp"
#include "warpconf/report/report_html.hpp"

namespace wc::cli::html {
namespace {

// A bar's colour per device column, in the order of the columns.
constexpr const char* kDeviceColours[] = {"#1565c0", "#ef6c00", "#6a1b9a", "#00838f", "#ad1457", "#558b2f"};

// The chart's geometry, in pixels: a label column, the bars' full width, room for the value after a bar.
constexpr double kCharWidth = 6.7, kBarWidth = 360, kValueWidth = 30 * kCharWidth, kBarHeight = 10, kBarGap = 2,
                 kGroupGap = 8, kPanelTitle = 22;

const char* colour(size_t device) { return kDeviceColours[device % std::size(kDeviceColours)]; }

// The tooltip of a figure: its verdict and outcome, repetitions, clocks and why it has no value.
std::string figure_title(const Report& r, const PerfFigure& f) {
  std::string t = f.id + " " + f.metric + " on " + device_label(r, f.device) + "\n" + f.verdict;
  if (!f.outcome.empty()) t += " (" + f.outcome + ")";
  if (f.repetitions) t += "; " + std::to_string(*f.repetitions) + " repetitions";
  if (!f.sm_clock_mhz.is_null()) t += "; SM clock MHz " + f.sm_clock_mhz.dump();
  if (f.one_pass_gbs) t += "; one pass " + golden::perf_number(*f.one_pass_gbs) + " GB/s";
  if (!f.reason.empty()) t += "\n" + f.reason;
  return t;
}

void table(const Report& r, const PerfTables& t, const PerfFamily& family, std::ostream& os) {
  os << "<table><tr><th>figure</th><th>metric</th>";
  for (const std::string& device : t.devices) os << "<th class=\"dev\">" << esc(device_label(r, device)) << "</th>";
  os << "</tr>\n";
  for (const PerfRow& row : family.rows) {
    os << "<tr><td class=\"mono\">" << esc(row.id) << "</td><td class=\"mono\">" << esc(row.metric) << "</td>";
    for (const std::string& device : t.devices) {
      const auto it = row.by_device.find(device);
      if (it == row.by_device.end()) {
        os << "<td class=\"c empty\">\u00b7</td>";
        continue;
      }
      const PerfFigure& f = *it->second;
      const std::string value = f.median ? perf_value_text(f) : f.verdict;
      std::string text = std::string(style(f.verdict).glyph) + " " + value;
      for (const std::string& part : {perf_sass_text(f), perf_baseline_text(f)})
        if (!part.empty()) text += "; " + part;
      td_verdict(os, f.verdict, text, figure_title(r, f));
    }
    os << "</tr>\n";
  }
  os << "</table>\n";
}

// One panel from `top` down: the family's figures of one metric, scaled to the largest value or
// baseline; returns where the next panel starts.
double panel(const Report& r, const PerfTables& t, const PerfFamily& family, const std::string& metric, double label_width,
             double top, std::ostream& os) {
  double largest = 0;
  for (const PerfRow& row : family.rows) {
    if (row.metric != metric) continue;
    for (const auto& [device, f] : row.by_device)
      largest = std::max({largest, f->median.value_or(0), f->baseline ? f->baseline->median : 0});
  }
  const double scale = largest > 0 ? kBarWidth / largest : 0;
  os << "<text x=\"0\" y=\"" << px(top + 14) << "\" class=\"panel\">" << esc(std::string(perf_metric_title(metric)))
     << "</text>\n";
  double y = top + kPanelTitle;
  for (const PerfRow& row : family.rows) {
    if (row.metric != metric) continue;
    const double group = static_cast<double>(t.devices.size()) * (kBarHeight + kBarGap);
    os << "<text x=\"" << px(label_width - 6) << "\" y=\"" << px(y + group / 2 + 3) << "\" text-anchor=\"end\">"
       << esc(row.id) << "</text>\n";
    for (size_t d = 0; d < t.devices.size(); ++d, y += kBarHeight + kBarGap) {
      const auto it = row.by_device.find(t.devices[d]);
      if (it == row.by_device.end()) continue;
      const PerfFigure& f = *it->second;
      const double width = f.median ? *f.median * scale : 0;
      os << "<g><title>" << esc(figure_title(r, f)) << "</title>";
      if (f.median)
        os << "<rect x=\"" << px(label_width) << "\" y=\"" << px(y) << "\" width=\"" << px(width) << "\" height=\""
           << px(kBarHeight) << "\" fill=\"" << colour(d) << "\"/>";
      if (f.baseline) {
        const double x = label_width + f.baseline->median * scale;
        os << "<line x1=\"" << px(x) << "\" x2=\"" << px(x) << "\" y1=\"" << px(y - 2) << "\" y2=\""
           << px(y + kBarHeight + 2) << "\" class=\"tick\"/>";
      }
      // The value, and any verdict but pass, after the bar: a wrong figure has no bar, only its verdict.
      const std::string label = (f.median ? golden::perf_number(*f.median) : "") +
                                (f.verdict == "pass" ? "" : std::string(f.median ? " " : "") + style(f.verdict).glyph + " " + f.verdict);
      os << "<text x=\"" << px(label_width + width + 4) << "\" y=\"" << px(y + kBarHeight - 1) << "\""
         << (is_failure(f.verdict) ? " class=\"bad\"" : "") << ">" << esc(label) << "</text></g>\n";
    }
    y += kGroupGap;
  }
  os << "<line x1=\"" << px(label_width) << "\" x2=\"" << px(label_width) << "\" y1=\"" << px(top + kPanelTitle - 4)
     << "\" y2=\"" << px(y - kGroupGap + 2) << "\" class=\"axis\"/>\n";
  return y + kGroupGap;
}

void chart(const Report& r, const PerfTables& t, const PerfFamily& family, std::ostream& os) {
  size_t longest = 0;
  for (const PerfRow& row : family.rows) longest = std::max(longest, row.id.size());
  const double label_width = static_cast<double>(longest) * kCharWidth + 10;
  std::ostringstream panels;
  double height = 0;
  for (const std::string& metric : family.metrics) height = panel(r, t, family, metric, label_width, height, panels);
  os << "<svg class=\"chart\" role=\"img\" width=\"" << px(label_width + kBarWidth + kValueWidth) << "\" height=\""
     << px(height) << "\" aria-label=\"" << esc(family.name) << " performance figures by device\">\n"
     << panels.str() << "</svg>\n";
}

}  // namespace

void performance(const Report& r, std::ostream& os) {
  os << "<h2>Performance</h2>\n";
  if (r.perf.empty()) {
    os << "<p>No performance figure (<code>warpconf run --perf</code> measures them).</p>\n";
    return;
  }
  const PerfTables t = perf_tables(r.perf);
  os << "<p class=\"small\">" << esc(perf_counts_text(r.perf)) << ". " << esc(kPerfRule) << "</p>\n<p class=\"legend\">";
  for (size_t d = 0; d < t.devices.size(); ++d)
    os << "<span style=\"background:" << colour(d) << ";color:#fff\">" << esc(device_label(r, t.devices[d])) << "</span>";
  os << "<span style=\"border:1px solid #ddd\">| baseline</span></p>\n";
  for (const PerfFamily& family : t.families) {
    os << "<h3 id=\"p-" << esc(family.name) << "\">" << esc(family.name) << "</h3>\n";
    table(r, t, family, os);
    chart(r, t, family, os);
  }
}

}  // namespace wc::cli::html
