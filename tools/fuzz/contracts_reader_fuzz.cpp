// Fuzz target of the contracts.txt reader: any input is read or rejected with a FormatError; what is
// read writes to a canonical text that reads back to the same header and probes (their lines aside)
// and writes again to the same text. Anything else is a finding.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "fuzz_target.hpp"
#include "formats/contracts.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

namespace {

using namespace wc::golden;

bool same_header(const ContractsHeader& a, const ContractsHeader& b) {
  return a.device == b.device && a.compute_capability == b.compute_capability && a.driver == b.driver &&
         a.runtime == b.runtime && a.nvcc == b.nvcc && a.suite_version == b.suite_version && a.recorded == b.recorded &&
         a.paths == b.paths && a.probes == b.probes;
}

bool same_probe(const ContractLine& a, const ContractLine& b) {
  return a.path == b.path && a.id == b.id && a.scenario == b.scenario && a.mask == b.mask && a.lim == b.lim &&
         a.outcome == b.outcome && a.detail == b.detail;
}

bool same_file(const ContractsFile& a, const ContractsFile& b) {
  if (!same_header(a.header, b.header) || a.probes.size() != b.probes.size()) return false;
  for (size_t i = 0; i < a.probes.size(); ++i)
    if (!same_probe(a.probes[i], b.probes[i])) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ContractsFile file;
  try {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    file = read_contracts(in, "input");
  } catch (const FormatError&) {
    return 0;
  }
  const std::string written = write_contracts(file);
  std::istringstream again(written);
  const ContractsFile reread = read_contracts(again, "written");
  if (!same_file(reread, file) || write_contracts(reread) != written) {
    std::fprintf(stderr, "contracts.txt round trip differs; canonical text:\n%s", written.c_str());
    std::abort();
  }
  ++wc::fuzz::accepted_inputs;
  return 0;
}
