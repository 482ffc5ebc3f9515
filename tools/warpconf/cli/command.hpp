// The commands of `warpconf`, each registered once in one table: the command line, --help, the
// dispatch and the early refusal of an unwritable results file are derived from it.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace wc::cli {

// What a command runs with once its words are read.
struct Invocation {
  std::vector<std::string> argv;  // every word, as reports record them
  std::ostream& out;
  std::ostream& err;
};

// A command's work once its options are read: its exit status (README.md, "Exit statuses"). What it
// throws, cli::run maps (exit_status.hpp).
using Runner = std::function<int(const Invocation&)>;

struct Command {
  std::string_view name;
  std::string help;  // its --help's first line
  // It appends result records: it refuses at once where the results file cannot be written.
  bool appends_records = false;
  // Adds the command's options to its CLI::App, bound to values that the returned Runner holds; none
  // for a command of commands (golden, perf), which runs one of `subcommands`.
  Runner (*declare)(CLI::App&) = nullptr;
  std::vector<Command> subcommands = {};
  // An option whose words another program reads (run's ctest arguments): they may repeat.
  std::string_view passed_on = {};
};

// Every command, in the order --help lists them.
const std::vector<Command>& commands();

}  // namespace wc::cli
