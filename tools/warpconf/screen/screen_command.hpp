// `warpconf screen`: every SM x warp slot x lane x collective, one persistent block per SM, the SMs
// compared with each other and with the models, a disagreement placed to its SM, warp slot, lane,
// collective, type and case with a replay line (fixtures/screen, README "The SM screen").
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "core/device.hpp"
#include "screen/launch.hpp"

namespace wc::cli {

struct ScreenArgs {
  std::string level = "short";
  uint64_t seed = 0;
  uint64_t rounds = 0;  // 0: as many as the level's seconds allow, at least one
  uint64_t only_sm = 0;
  uint64_t case_index = 0;
  std::string plant;
  std::string prometheus, json;
  const CLI::Option* seed_opt = nullptr;
  const CLI::Option* only_sm_opt = nullptr;
  const CLI::Option* case_opt = nullptr;
};

void add_screen_options(CLI::App&, ScreenArgs&);

// What the screen asks of the GPU: fixtures/screen/launch.hpp's, or a stand-in in the command's tests.
struct ScreenGpu {
  std::function<const gpu::DeviceStatus&()> device;
  std::function<screen::GridShape()> shape;
  std::function<int()> compute_capability;  // of the code the kernels run
  std::function<screen::GridRun(const screen::GridRequest&)> run;
};
ScreenGpu this_gpu();

// Exit status: 0 conforms; 1 a disagreement, a coverage fault, a CUDA error, or no GPU under
// WARPCONF_REQUIRE_GPU=1; 2 bad input (one line on `err`); 77 no GPU.
int run_screen_command(const ScreenArgs&, std::ostream& out, std::ostream& err, const ScreenGpu& gpu = this_gpu());

}  // namespace wc::cli
