#include "report_round_trip.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace wc::fuzz {
namespace {

// As write_report_files writes it: bytes that are not UTF-8 replaced.
std::string report_json(const cli::Report& r) {
  return cli::to_json(r).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

void finish_run(cli::Report& report, const char* command) {
  report.run.command = command;
  report.run.status = report.aborted.is_null() ? "finished" : "aborted";
}

void check_report_round_trip(const cli::Report& report) {
  std::ostringstream markdown, html;
  cli::write_markdown(report, markdown);
  cli::write_html(report, html);
  const std::string written = report_json(report);
  const std::string again = report_json(cli::parse_report(written, "written"));
  if (again != written) {
    std::fprintf(stderr, "report.json round trip differs; written:\n%s\nread back and written again:\n%s\n",
                 written.c_str(), again.c_str());
    std::abort();
  }
}

}  // namespace wc::fuzz
