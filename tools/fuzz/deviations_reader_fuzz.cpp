// Fuzz target of the deviations reader: any input is read or rejected with a FormatError; what is
// read writes to a canonical text that reads back to the same deviations (their lines aside: the
// canonical text has no comments) and writes again to the same text. Anything else is a finding.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "formats/deviations.hpp"
#include "fuzz_target.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wc::golden;
  std::vector<Deviation> deviations;
  try {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    deviations = read_deviations(in, "input");
  } catch (const FormatError&) {
    return 0;
  }
  const std::string written = write_deviations(deviations);
  std::istringstream again(written);
  std::vector<Deviation> reread = read_deviations(again, "written");
  const bool same_count = reread.size() == deviations.size();
  for (size_t i = 0; same_count && i < reread.size(); ++i) reread[i].line = deviations[i].line;
  if (!same_count || reread != deviations || write_deviations(reread) != written) {
    std::fprintf(stderr, "deviations round trip differs; canonical text:\n%s", written.c_str());
    std::abort();
  }
  ++wc::fuzz::accepted_inputs;
  return 0;
}
