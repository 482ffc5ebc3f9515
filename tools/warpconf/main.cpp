#include <iostream>

#include "core/device.hpp"
#include "warpconf/cli/cli.hpp"

int main(int argc, char** argv) {
  wc::gpu::prove_code_path_before_cuda();  // a binary of a path that keeps the mask check shows it first
  return wc::cli::run(argc, argv, std::cout, std::cerr);
}
