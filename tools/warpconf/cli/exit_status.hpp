// The one error boundary of the command line: what a command throws becomes one line on stderr and
// an exit status (README.md, "Exit statuses"), the same for every command.
#pragma once

#include <functional>
#include <ostream>
#include <string_view>

namespace wc::cli {

// Called in a catch block: prints the exception being handled as one line "<command>: <what>" on
// `err` and returns its exit status: 2 for bad input (a UsageError, a file it cannot read, a
// malformed golden or record file, a folder it cannot use, words CLI11 refuses), 1 for anything else.
int exit_status_of_error(std::string_view command, std::ostream& err);

// Runs `body` and returns its exit status, or exit_status_of_error's for what it throws.
int with_exit_status(std::string_view command, std::ostream& err, const std::function<int()>& body);

}  // namespace wc::cli
