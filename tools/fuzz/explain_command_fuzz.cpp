// Fuzz target of the command line of `warpconf explain` (CLI11's parsing, the explain options and the
// number parsers of numbers.cpp), through wc::cli::run: the input is the words after
// `warpconf explain`, one per line. Every command line ends in exit status 0 with output on stdout
// alone, or 2 with nothing on stdout and one line on stderr (as tools/tests/expect_exit2.cmake
// requires of the installed binary). Anything else, an exception included, is a finding.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.hpp"
#include "warpconf/cli/cli.hpp"

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  if (!input.empty() && input.back() == '\n') input.remove_suffix(1);  // a seed file's last line
  std::vector<std::string> words = {"warpconf", "explain"};
  for (size_t begin = 0; begin <= input.size() && !input.empty();) {
    const size_t end = std::min(input.find('\n', begin), input.size());
    words.emplace_back(input.substr(begin, end - begin));
    begin = end + 1;
  }
  std::vector<const char*> argv;
  for (const std::string& word : words) argv.push_back(word.c_str());
  std::ostringstream out, err;
  const int status = wc::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  const std::string printed = out.str(), error = err.str();
  const bool one_line = !error.empty() && error.find('\n') == error.size() - 1;
  const bool explained = status == 0 && !printed.empty() && error.empty();
  const bool refused = status == 2 && printed.empty() && one_line;
  if (!explained && !refused) {
    std::fprintf(stderr, "warpconf explain exited %d; stdout:\n%s\nstderr:\n%s\n", status, printed.c_str(), error.c_str());
    std::abort();
  }
  if (explained) ++wc::fuzz::accepted_inputs;
  return 0;
}
