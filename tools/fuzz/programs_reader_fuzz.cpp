// Fuzz target of the programs.txt reader: any input is read or rejected with a FormatError; what is
// read writes to a canonical text that reads back to the same file and writes again to the same
// text. Anything else is a finding.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "fuzz_target.hpp"
#include "formats/programs.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wc::golden;
  ProgramsFile file;
  try {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    file = read_programs(in, "input");
  } catch (const FormatError&) {
    return 0;
  }
  const std::string written = write_programs(file);
  std::istringstream again(written);
  const ProgramsFile reread = read_programs(again, "written");
  if (!(reread == file) || write_programs(reread) != written) {
    std::fprintf(stderr, "programs.txt round trip differs; canonical text:\n%s", written.c_str());
    std::abort();
  }
  ++wc::fuzz::accepted_inputs;
  return 0;
}
