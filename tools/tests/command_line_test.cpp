// What every command takes from its command line alike (warpconf/options.hpp): a word CLI11 would
// read wrongly (an empty value, which it takes as the default; an unknown command) and a value given
// twice are bad input, refused with one line before any work; and the parsed value is the one given.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "cli_run.hpp"

namespace wc {
namespace {

struct Refused {
  std::vector<std::string> args;
  std::string says;  // the one line on stderr, whole
};

std::ostream& operator<<(std::ostream& os, const Refused& r) {
  for (const std::string& a : r.args) os << "'" << a << "' ";
  return os;
}

class CommandLineRefuses : public ::testing::TestWithParam<Refused> {};

TEST_P(CommandLineRefuses, with_one_line_and_status_2) {
  const CliRun r = run_cli(GetParam().args);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, GetParam().says + "\n");
}

const std::string kCommands = "explain, results, golden, probe, program, toolchain, perf, run, health, screen, report, merge";

INSTANTIATE_TEST_SUITE_P(
    Table, CommandLineRefuses,
    ::testing::Values(
        // An empty word was the option's default: no time limit, no plant, the default golden.
        Refused{{"run", "--time-limit", ""}, "warpconf: --time-limit: the value is empty"},
        Refused{{"health", "--time-limit", ""}, "warpconf: --time-limit: the value is empty"},
        Refused{{"run", "--out="}, "warpconf: --out: the value is empty"},
        Refused{{"program", "--plant", ""}, "warpconf: --plant: the value is empty"},
        Refused{{"program", "--verify", ""}, "warpconf: --verify: the value is empty"},
        Refused{{"report", ""}, "warpconf: an empty argument after 'report'"},
        // CLI11 said "A subcommand is required", naming neither the word nor the commands.
        Refused{{"frobnicate"}, "warpconf: unknown command 'frobnicate': " + kCommands},
        Refused{{}, "warpconf: a command is required: " + kCommands},
        Refused{{"perf", "frob"}, "warpconf: unknown perf command 'frob': record, accept, compare, diff"},
        // A value given twice: the second "vote" found no family left ("no family vote in the corpus").
        Refused{{"golden", "check", "--family", "vote", "--family", "vote"},
                "warpconf golden check: --family: 'vote' is given twice"},
        Refused{{"probe", "--family", "vote", "--family", "vote"}, "warpconf probe: --family: 'vote' is given twice"},
        Refused{{"program", "--path", "all", "--path", "all"}, "warpconf program: --path: 'all' is given twice"},
        Refused{{"program", "--path", "all", "--path", "sass"},
                "warpconf program: --path all names every path: not with another --path"},
        Refused{{"probe", "--path", "all", "--path", "sass"},
                "warpconf probe: --path all names every code path: not with another --path"},
        // Numbers: one reader, the range in the line.
        Refused{{"program", "--seed", "010"},
                "warpconf program: --seed: '010' is not a number from 0 to 18446744073709551615, decimal or 0x-hexadecimal"},
        Refused{{"program", "--index", "-1"},
                "warpconf program: --index: '-1' is not a decimal number from 0 to 18446744073709551615"},
        Refused{{"program", "--count", "-1"}, "warpconf program: --count: '-1' is not a decimal number from 1 to 100000"},
        Refused{{"perf", "compare", "--repetitions", "0"},
                "warpconf perf compare: --repetitions: '0' is not a decimal number from 1 to 1000000"},
        Refused{{"probe", "--timeout", "1e-300"},
                "warpconf probe: --timeout: '1e-300' is not a number of seconds from 0.001 to 86400, decimal with at "
                "most 3 decimals"},
        Refused{{"run", "--time-limit", "1e10"},
                "warpconf run: --time-limit: '1e10' is not a number of seconds from 0 to 10000000 (0: none), decimal "
                "with at most 3 decimals"},
        Refused{{"run", "--budget", "soak", "--soak-minutes", "inf"},
                "warpconf run: --soak-minutes: 'inf' is not a number of minutes from 0.001 to 100000, decimal with at "
                "most 3 decimals"}));

// --emit --out to a device that refuses every write: the source is not silently lost.
TEST(CommandLine, program_emit_says_where_its_file_could_not_be_written) {
  const CliRun r = run_cli({"program", "--seed", "0x10", "--index", "3", "--emit", "--out", "/dev/full"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "warpconf program: --out: cannot write /dev/full\n");
}

// After `--` the words are ctest's, which may repeat or be empty.
TEST(CommandLine, leaves_the_words_after_the_double_dash_to_ctest) {
  const CliRun r = run_cli({"run", "--build-dir", "/nonexistent/build", "--", "-L", "a", "-L", ""});
  EXPECT_EQ(r.err.find("empty"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("twice"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace wc
