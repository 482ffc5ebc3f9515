#include "warpconf/cli/cli.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "core/environment.hpp"
#include "core/records.hpp"
#include "core/seed.hpp"
#include "core/usage_error.hpp"
#include "warpconf/cli/command.hpp"
#include "warpconf/cli/exit_status.hpp"
#include "warpconf/cli/options.hpp"

namespace wc::cli {
namespace {

// A row of the command table as added to the command line: its CLI::App, and what runs it where the
// command runs (not golden or perf, which run one of theirs).
struct AddedCommand {
  const Command* row;
  CLI::App* app;
  Runner run;
};

// Adds the commands of `table` under `parent`, each before its own commands.
void add_commands(CLI::App& parent, const std::vector<Command>& table, std::vector<AddedCommand>& added) {
  for (const Command& row : table) {
    CLI::App* app = parent.add_subcommand(std::string(row.name), row.help);
    added.push_back({&row, app, row.declare ? row.declare(*app) : Runner()});
    if (row.subcommands.empty()) continue;
    app->require_subcommand(1);
    add_commands(*app, row.subcommands, added);
  }
}

// The innermost command read: the last one added of those parsed, since each comes before its own.
const AddedCommand* innermost_parsed(const std::vector<AddedCommand>& added) {
  const AddedCommand* named = nullptr;
  for (const AddedCommand& c : added)
    if (c.app->parsed()) named = &c;
  return named;
}

// Reads the words into `app`'s commands from the table and runs the one named; throws what it refuses.
int run_command(CLI::App& app, int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  app.require_subcommand(1);
  std::vector<AddedCommand> added;
  add_commands(app, commands(), added);
  try {
    check_words(app, argc, argv);
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    const AddedCommand* named = innermost_parsed(added);
    out << (named ? named->app : &app)->help();
    return 0;
  }
  std::vector<const CLI::Option*> passed_on;
  for (const AddedCommand& c : added)
    if (!c.row->passed_on.empty()) passed_on.push_back(c.app->get_option(std::string(c.row->passed_on)));
  refuse_repeated_values(app, passed_on);
  // check_words and require_subcommand leave no parse without a command that runs.
  const AddedCommand& chosen = *innermost_parsed(added);
  if (const std::string why = check::why_results_unwritable(); chosen.row->appends_records && !why.empty())
    throw UsageError(why);
  return chosen.run({std::vector<std::string>(argv, argv + argc), out, err});
}

}  // namespace

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  // Outside a test binary a case's replay line is the command that showed it.
  check::set_command_line(argc, argv);
  if (const std::optional<std::string> refused = environment::refusal()) {
    err << "warpconf: " << *refused << "\n";
    return 2;
  }
  CLI::App app{"warpconf: conformance and regression tests for CUDA warp intrinsics"};
  int status = 0;
  try {
    status = run_command(app, argc, argv, out, err);
  } catch (...) {
    return exit_status_of_error(command_name(app, argc, argv), err);
  }
  // Output that was lost (a full disk, /dev/full) is no success.
  if (status == 0 && !out.flush()) {
    err << "warpconf: cannot write standard output\n";
    return 2;
  }
  return status;
}

}  // namespace wc::cli
