// What the parts of report.html share (report_html.cpp), its Performance section
// (report_html_perf.cpp) and its SM coverage section (report_html_coverage.cpp): one page, inline CSS
// and SVG, no script, nothing fetched.
#pragma once

#include <ostream>
#include <string>

#include "warpconf/report/report.hpp"

namespace wc::cli::html {

// A verdict's colours and glyph, so that a reader who cannot tell the colours apart still can.
struct Style {
  const char* verdict;
  const char* background;
  const char* color;
  const char* glyph;
};
const Style& style(const std::string& verdict);

// Text for HTML: element content and attribute values alike.
std::string esc(const std::string&);

// An SVG coordinate or length, to a tenth of a pixel.
std::string px(double);

// A table cell in the verdict's colours, `title` as its tooltip.
void td_verdict(std::ostream&, const std::string& verdict, const std::string& text, const std::string& title);

// The Performance section: per family a table (a column per device) and an SVG bar chart.
void performance(const Report&, std::ostream&);

// The SM coverage section (report_html_coverage.cpp): per device whose checks recorded where they ran,
// an SVG heatmap of the lanes each family compared on each SM.
void sm_coverage(const Report&, std::ostream&);

}  // namespace wc::cli::html
