// `warpconf golden record|accept|verify|check|diff`: golden outputs recorded on real GPUs, checked
// by the model without a GPU and by the GPU after a driver change (docs/golden-format.md).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace wc::cli {

struct GoldenOptions {
  std::string command;                // record, accept, verify, check or diff
  std::vector<std::string> dirs;      // the command's directories (diff: two)
  std::string out;                    // record: where the pending files go
  std::string golden;                 // accept: where they go (default: the golden root's architecture folder)
  std::vector<std::string> families;  // only these families (default: all)
  bool strict = false;                // behaviour changes fail
};

// Runs one golden command. Exit status: 0 when every family passed (known deviations and behaviour
// changes, without --strict, included), 1 on a finding, 2 on bad input (one line on `err`), 77 when
// verify finds no golden for this architecture and code path (not recorded, never a pass).
int run_golden(const GoldenOptions&, std::ostream& out, std::ostream& err);

}  // namespace wc::cli
