// Fuzz target of the perf.txt reader: any input is read or rejected with a FormatError; what is read
// writes to a canonical text (version 2) that reads back to the same header and figures (their lines
// aside) and writes again to the same text, but a version 1 file with a chain's figure, which holds
// no SASS counts and is refused by the writer. Anything else is a finding.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include "fuzz_target.hpp"
#include "formats/perf.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

namespace {

using namespace wc::golden;

bool same_header(const PerfHeader& a, const PerfHeader& b) {
  return a.device == b.device && a.compute_capability == b.compute_capability && a.driver == b.driver &&
         a.runtime == b.runtime && a.nvcc == b.nvcc && a.code_path == b.code_path && a.suite_version == b.suite_version &&
         a.recorded == b.recorded && a.figures == b.figures;
}

bool same_figure(const PerfLine& a, const PerfLine& b) {
  if (a.sass.size() != b.sass.size()) return false;
  for (size_t i = 0; i < a.sass.size(); ++i)
    if (a.sass[i].instruction != b.sass[i].instruction || a.sass[i].per_call != b.sass[i].per_call) return false;
  return a.id == b.id && a.metric == b.metric && a.median == b.median && a.mad == b.mad && a.repetitions == b.repetitions;
}

bool has_an_uncounted_chain(const PerfFile& file) {
  for (const PerfLine& f : file.figures)
    if (times_a_chain(f.metric) && f.sass.empty()) return true;
  return false;
}

bool same_file(const PerfFile& a, const PerfFile& b) {
  if (!same_header(a.header, b.header) || a.figures.size() != b.figures.size()) return false;
  for (size_t i = 0; i < a.figures.size(); ++i)
    if (!same_figure(a.figures[i], b.figures[i])) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  PerfFile file;
  try {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    file = read_perf(in, "input");
  } catch (const FormatError&) {
    return 0;
  }
  if (file.version == 1 && has_an_uncounted_chain(file)) {
    try {
      write_perf(file);
    } catch (const std::invalid_argument&) {
      ++wc::fuzz::accepted_inputs;
      return 0;
    }
    std::fprintf(stderr, "a version 1 chain figure without SASS counts was written\n");
    std::abort();
  }
  const std::string written = write_perf(file);
  std::istringstream again(written);
  const PerfFile reread = read_perf(again, "written");
  if (!same_file(reread, file) || write_perf(reread) != written) {
    std::fprintf(stderr, "perf.txt round trip differs; canonical text:\n%s", written.c_str());
    std::abort();
  }
  ++wc::fuzz::accepted_inputs;
  return 0;
}
