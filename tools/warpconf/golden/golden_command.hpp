// `warpconf golden record|accept|verify|check|diff`: golden outputs recorded on real GPUs, checked
// by the model without a GPU and by the GPU after a driver change (docs/golden-format.md).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "formats/golden.hpp"

namespace wc::cli {

struct GoldenOptions {
  std::string command;                // record, accept, verify, check or diff
  std::vector<std::string> dirs;      // the command's directories (diff: two)
  std::string out;                    // record: where the pending files go
  std::string golden;                 // accept: where they go (default: the golden root's architecture folder)
  std::vector<std::string> families;  // only these families (default: all)
  bool strict = false;                // behaviour changes fail
};

// "sm_90" for "9.0".
std::string architecture_of(const std::string& compute_capability);

// The exit status of `golden verify`, `perf compare` and the like where this machine has no recording
// to compare with: a skip for ctest, never a pass.
inline constexpr int kNotRecorded = 77;

// The golden folder of an architecture and code path: golden/sm_90, golden/sm_90-sass-debug.
std::string golden_dir(const std::string& architecture, const std::string& code_path);

// Where recordings wait for `accept`: golden/pending.
std::string pending_root();

// The fingerprint a recording on the selected GPU carries (suite version and time included); throws
// UsageError where there is no GPU.
golden::Header device_header();

// Runs one golden command. Exit status (README.md, "Exit statuses"): 0 when every family passed (known
// deviations and behaviour changes, without --strict, included); 1 on a finding, or when nothing was
// compared (no family asked for is in the folders given); 2 on bad input (one line on `err`), a
// folder given that holds no .golden file included; 77 when verify finds no golden for this
// architecture and code path, or check, given no folder, finds none (not recorded, never a pass).
int run_golden(const GoldenOptions&, std::ostream& out, std::ostream& err);

}  // namespace wc::cli
