// Fuzz target of the golden reader: any input is read or rejected with a FormatError; what is read
// writes to a canonical text that reads back equal and writes again to the same text. Anything else
// (another exception, a crash, a sanitizer report, a round trip that differs) is a finding.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "formats/golden.hpp"
#include "fuzz_target.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wc::golden;
  GoldenFile file;
  try {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    file = read_golden(in, "input");
  } catch (const FormatError&) {
    return 0;
  }
  const std::string written = write_golden(file);
  std::istringstream again(written);
  const GoldenFile reread = read_golden(again, "written");
  if (reread != file || write_golden(reread) != written) {
    std::fprintf(stderr, "golden round trip differs; canonical text:\n%s", written.c_str());
    std::abort();
  }
  ++wc::fuzz::accepted_inputs;
  return 0;
}
