// `warpconf probe`: the contract-violation probes (fixtures/core/probe.hpp), each run in a child
// process forked before this process touches CUDA (fixtures/isolation), on one code path or several,
// recorded per architecture in golden/<arch>/contracts.txt and compared with it (docs/golden-format.md,
// docs/contracts.md).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/child_runner.hpp"
#include "core/number_text.hpp"
#include "core/probe.hpp"
#include "formats/contracts.hpp"

namespace wc::cli {

// A day per child, and more probes per child than there are: larger values are typing errors.
inline constexpr numbers::DurationRange kProbeTimeout{"seconds", 0.001, 86400, ""};
inline constexpr numbers::NumberRange kProbeBatch{1, 100000, false};
inline constexpr numbers::NumberRange kProbeJobs{1, 1024, false};

struct ProbeOptions {
  double timeout_s = 20;              // per child
  size_t batch = 32;                  // probes per child
  size_t jobs = 1;                    // children at once (a busy machine can push a slow child past its timeout)
  std::string out;                    // the contracts file to write (default golden/pending/<arch>/contracts.txt)
  std::vector<std::string> families;  // only these families (default: all)
  std::vector<std::string> paths;     // the code paths, or "all" (default: this process's, environment::code_path())
  std::optional<std::string> verify;  // compare with this contracts file ("": golden/<arch>/contracts.txt)
  bool strict = false;                // a behaviour change fails
};

// The contracts line of one probe's isolated result.
golden::ContractLine contract_line(const gpu::ProbeCase&, const isolation::CaseResult&, double timeout_s);

// CUDA's sticky hardware exceptions (700, 714 to 719): a probe that ends with one `trapped`.
bool is_trap(int cuda_error);

// Probes whose behaviour differs between a recording and now, one line each, on the paths the
// recording holds: "<path> <id>: was <behaviour>, now <behaviour>", or "<path> <id>: not recorded, now <behaviour>".
std::vector<std::string> contract_changes(const golden::ContractsFile& recorded, const std::vector<golden::ContractLine>& now);

// Runs the probes on each code path of --path: this process's own in isolated children, each other
// path with that path's warpconf (core/code_paths.hpp), which writes its part and its records.
// Exit status (README.md, "Exit statuses"): 0; 1 when the runner or the device failed, a path's
// binaries are not built (the line names the target that builds them) or its warpconf failed, with
// --strict a behaviour change, or when --verify compared nothing (the recording holds none of the
// probes run); 77 without a GPU, or with --verify and no recording for this architecture or for any
// of the paths. Bad input (a recording with no probe included) and the failures of the runner or of a
// path are thrown: cli::run makes them status 2 and 1.
int run_probe_command(const ProbeOptions&, std::ostream& out);

}  // namespace wc::cli
