// What every command of the command line gets from CLI11 alike: its numbers and durations read by
// core/number_text.hpp, as the environment's are (CLI11's own conversion reads 010 as 8, wraps -1
// to 2^64-1, takes 99999999999999999999 as 2^64-1 and '' as 0), and its words checked before and
// after CLI11 parses them. Every refusal is bad input: one line, exit status 2.
#pragma once

#include <CLI/CLI.hpp>

#include <vector>

#include "core/number_text.hpp"
#include "core/writable.hpp"

namespace wc::cli {

// The transform of an integer option: what numbers::read_number does not take in `range` is refused
// naming the option, and CLI11 is handed the value in plain decimal.
CLI::Validator number_in(const numbers::NumberRange&);

// The transform of a duration option, whose target holds the value in the range's unit.
CLI::Validator duration_in(const numbers::DurationRange&);

// Throws UsageError for the words of `argv` that CLI11 would take wrongly: an unknown command (it
// says only "A subcommand is required"), a command missing, and an empty value before `--` (CLI11
// reads `--time-limit ''` as 0 and `--verify ''` as `--verify`: an unset variable in a wrapper
// would silently pick the default).
void check_words(const CLI::App& app, int argc, const char* const* argv);

// "warpconf golden check": the program and the commands of `app` that the leading words name, for the
// line of a refusal, whether the refusal came before, during or after parsing.
std::string command_name(const CLI::App& app, int argc, const char* const* argv);

// Throws UsageError "<what>: <why>" where `path` cannot be written as `kind` (check::why_not_writable):
// asked before the work whose output it is, which would otherwise learn it only at its end.
void require_writable(const std::string& what, const std::string& path, check::Output kind);

// Throws UsageError, after parsing, where an option of a command that was run that takes a list got
// the same value twice (`golden check --family vote --family vote`); the options of `passed_on` are
// handed to another program, whose words may repeat, and a pair (diff's A and B) is the command's.
void refuse_repeated_values(const CLI::App& app, const std::vector<const CLI::Option*>& passed_on);

}  // namespace wc::cli
