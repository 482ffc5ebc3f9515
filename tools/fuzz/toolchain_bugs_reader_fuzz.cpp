// Fuzz target of the toolchain-bugs.txt reader: any input is read or rejected with a FormatError; what
// is read writes to a canonical text that reads back to the same file and writes again to the same
// text. Anything else is a finding.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "formats/golden.hpp"
#include "fuzz_target.hpp"
#include "toolchain/bugs_file.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wc::toolchain;
  BugsFile file;
  try {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    file = read_bugs(in, "input");
  } catch (const wc::golden::FormatError&) {
    return 0;
  }
  const std::string written = write_bugs(file);
  std::istringstream again(written);
  const BugsFile reread = read_bugs(again, "written");
  if (!(reread == file) || write_bugs(reread) != written) {
    std::fprintf(stderr, "toolchain-bugs.txt round trip differs; canonical text:\n%s", written.c_str());
    std::abort();
  }
  ++wc::fuzz::accepted_inputs;
  return 0;
}
