// report.html's SM coverage section: per device an inline SVG heatmap, a row per family and a column
// per SM, each cell shaded by the lanes that family compared on that SM (darker: more, on a log scale),
// an SM it missed in the failure colour, its count in the cell's tooltip. No script, no external file.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "warpconf/report/report_html.hpp"

namespace wc::cli::html {
namespace {

// The heatmap's geometry, in pixels: the family labels, the widest the SM columns may take together,
// a row's height, and the axis above the rows.
constexpr double kLabelWidth = 110, kMostColumnsWidth = 1100, kMostCellWidth = 8, kRowHeight = 16, kAxisHeight = 16;
constexpr const char* kMissedColour = "#c62828";
constexpr int kTickEvery = 10;  // an SM number above every tenth column

// Lanes on a log scale from the fewest shown to `most`: light blue to dark blue.
std::string shade(uint64_t lanes, uint64_t most) {
  const double t = most <= 1 ? 1.0 : std::log1p(static_cast<double>(lanes)) / std::log1p(static_cast<double>(most));
  char buf[40];
  std::snprintf(buf, sizeof buf, "hsl(210,70%%,%.0f%%)", 88 - 58 * t);
  return buf;
}

void heatmap(const SmCoverage& c, std::ostream& os) {
  const std::vector<uint32_t> sms = matrix_sms(c);
  const double cell = std::min(kMostCellWidth, kMostColumnsWidth / static_cast<double>(std::max<size_t>(sms.size(), 1)));
  const double width = kLabelWidth + cell * static_cast<double>(sms.size()) + 4;
  const double height = kAxisHeight + kRowHeight * static_cast<double>(c.families.size()) + 4;
  uint64_t most = 0;
  for (const auto& [family, lanes] : c.families)
    for (const auto& [sm, n] : lanes) most = std::max(most, n);
  os << "<svg class=\"chart heatmap\" width=\"" << px(width) << "\" height=\""
     << px(height) << "\" role=\"img\" aria-label=\"" << esc(coverage_text(c)) << "\">\n";
  for (size_t i = 0; i < sms.size(); ++i)
    if (sms[i] % kTickEvery == 0)
      os << "<text x=\"" << px(kLabelWidth + cell * static_cast<double>(i)) << "\" y=\"" << px(kAxisHeight - 4) << "\">"
         << sms[i] << "</text>\n";
  double y = kAxisHeight;
  for (const auto& [family, lanes] : c.families) {
    os << "<text x=\"0\" y=\"" << px(y + kRowHeight - 4) << "\">" << esc(family) << "</text>\n";
    for (size_t i = 0; i < sms.size(); ++i) {
      const auto it = lanes.find(sms[i]);
      const uint64_t n = it == lanes.end() ? 0 : it->second;
      os << "<rect class=\"" << (n == 0 ? "missed" : "covered") << "\" x=\"" << px(kLabelWidth + cell * static_cast<double>(i))
         << "\" y=\"" << px(y) << "\" width=\"" << px(cell) << "\" height=\"" << px(kRowHeight - 1) << "\" fill=\""
         << (n == 0 ? kMissedColour : shade(n, most)) << "\"><title>SM " << sms[i] << ", " << esc(family) << ": "
         << (n == 0 ? "no lane compared" : grouped(n) + " lanes compared") << "</title></rect>\n";
    }
    y += kRowHeight;
  }
  os << "</svg>\n";
}

}  // namespace

void sm_coverage(const Report& r, std::ostream& os) {
  if (coverage_lines(r).empty()) return;
  os << "<h2>SM coverage</h2>\n<p class=\"small\">Lanes compared (defined and ptx-defined) per family on each SM, as "
        "the first thread of each block recorded it (<code>%smid</code>): a column per SM, darker for more lanes "
        "(log scale), <span style=\"color:"
     << kMissedColour << "\">red where the family compared no lane on that SM</span>; hover for the count. Planted "
                         "bugs' checks are not counted.</p>\n";
  for (const auto& [device, c] : r.coverage) {
    if (!c.placed()) continue;
    os << "<h3>" << esc(device_label(r, device)) << "</h3>\n<p>" << esc(coverage_text(c)) << "</p>\n";
    heatmap(c, os);
  }
}

}  // namespace wc::cli::html
