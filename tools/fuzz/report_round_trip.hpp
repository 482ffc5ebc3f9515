// What the fuzz targets of the report inputs check of every report they build: report.json,
// report.md and report.html are written (to memory, never to a file), and report.json reads back,
// as `warpconf merge` reads it, to a report that writes the same report.json again.
#pragma once

#include "warpconf/report/report.hpp"

namespace wc::fuzz {

// Aborts with both texts where the round trip differs; an exception from a writer or a UsageError
// from the reader escapes, which is a finding too.
void check_report_round_trip(const cli::Report&);

// Sets the run's command and its status, finished or aborted, as `warpconf report`, `merge` and
// `run` set them on the reports they write (the reader takes no other).
void finish_run(cli::Report&, const char* command);

}  // namespace wc::fuzz
