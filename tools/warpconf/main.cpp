#include <iostream>

#include "warpconf/cli.hpp"

int main(int argc, char** argv) { return wc::cli::run(argc, argv, std::cout, std::cerr); }
