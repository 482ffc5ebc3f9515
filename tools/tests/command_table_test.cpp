// The command table (warpconf/cli/command.hpp) and the one error boundary (warpconf/cli/exit_status.hpp):
// every row is reachable with its own help, every row that appends records refuses an unwritable
// results file before it runs, and each kind of error ends as its exit status and one line.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "cli_run.hpp"
#include "core/files.hpp"
#include "core/usage_error.hpp"
#include "formats/golden.hpp"
#include "warpconf/cli/command.hpp"
#include "warpconf/cli/exit_status.hpp"

namespace wc {
namespace {

// A row of the table with the words that name it: "golden record".
struct NamedRow {
  std::vector<std::string> words;
  const cli::Command* row;
};

std::vector<NamedRow> every_row(const std::vector<cli::Command>& table, const std::vector<std::string>& above = {}) {
  std::vector<NamedRow> rows;
  for (const cli::Command& c : table) {
    std::vector<std::string> words = above;
    words.emplace_back(c.name);
    rows.push_back({words, &c});
    for (const NamedRow& sub : every_row(c.subcommands, words)) rows.push_back(sub);
  }
  return rows;
}

TEST(CommandTable, every_command_answers_help_with_its_own) {
  for (const NamedRow& r : every_row(cli::commands())) {
    std::vector<std::string> args = r.words;
    args.emplace_back("--help");
    const CliRun o = run_cli(args);
    EXPECT_EQ(o.status, 0) << args.front() << " " << o.err;
    EXPECT_EQ(o.out.rfind(r.row->help, 0), 0u) << r.words.back() << ": " << o.out;
  }
}

// Its records would be lost at the end of the work: refused with one line before it starts.
TEST(CommandTable, a_command_that_appends_records_refuses_an_unwritable_results_file_first) {
  setenv("WARPCONF_RESULTS", "/proc/warpconf-none/results.jsonl", 1);
  int refusing = 0;
  for (const NamedRow& r : every_row(cli::commands())) {
    if (!r.row->appends_records) continue;
    ++refusing;
    std::vector<std::string> args = r.words;
    CLI::App app;
    r.row->declare(app);
    for (const CLI::Option* o : app.get_options())  // the words a positional needs (diff's A and B)
      if (o->get_positional())
        for (int i = 0; i < o->get_expected_min(); ++i) args.emplace_back("x");
    const CliRun o = run_cli(args);
    std::string named = "warpconf";
    for (const std::string& w : r.words) named += " " + w;
    EXPECT_EQ(o.status, 2) << named << ": " << o.out << o.err;
    EXPECT_EQ(o.err.rfind(named + ": the result records (WARPCONF_RESULTS): cannot write", 0), 0u) << o.err;
    EXPECT_EQ(o.out, "") << named;
  }
  unsetenv("WARPCONF_RESULTS");
  EXPECT_GT(refusing, 0) << "no command appends records: the check compared nothing";
}

struct Thrown {
  std::string kind;
  std::function<void()> raise;
  int status;
  std::string starts;  // how the one line on stderr starts
};

std::ostream& operator<<(std::ostream& os, const Thrown& t) { return os << t.kind; }

class ErrorBoundary : public ::testing::TestWithParam<Thrown> {};

TEST_P(ErrorBoundary, ends_each_kind_of_error_as_its_status_and_one_line) {
  std::ostringstream err;
  const int status = cli::with_exit_status("warpconf golden check", err, [] {
    GetParam().raise();
    return 0;
  });
  EXPECT_EQ(status, GetParam().status);
  EXPECT_EQ(err.str().rfind(GetParam().starts, 0), 0u) << err.str();
  EXPECT_EQ(err.str().find('\n'), err.str().size() - 1) << "not one line: " << err.str();
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, ErrorBoundary,
    ::testing::Values(
        Thrown{"usage", [] { throw cli::UsageError("--family nope: no such family"); }, 2,
               "warpconf golden check: --family nope: no such family\n"},
        Thrown{"file", [] { throw files::FileError("/x/vote.golden", "No such file or directory"); }, 2,
               "warpconf golden check: /x/vote.golden: No such file or directory\n"},
        Thrown{"format", [] { throw golden::FormatError("vote.golden", 3, "no lanes"); }, 2,
               "warpconf golden check: vote.golden:3: no lanes\n"},
        Thrown{"folder",
               [] {
                 throw std::filesystem::filesystem_error("cannot make", "/proc/x",
                                                         std::make_error_code(std::errc::permission_denied));
               },
               2, "warpconf golden check: "},
        Thrown{"parse", [] { throw CLI::ValidationError("--batch", "'0' is not a number"); }, 2,
               "warpconf golden check: --batch"},
        Thrown{"unexpected", [] { throw std::logic_error("the isolation runner must fork\nfirst"); }, 1,
               "warpconf golden check: the isolation runner must fork first\n"},
        Thrown{"not_std", [] { throw 7; }, 1, "warpconf golden check: an exception that is no std::exception\n"}),
    [](const ::testing::TestParamInfo<Thrown>& info) { return info.param.kind; });

}  // namespace
}  // namespace wc
