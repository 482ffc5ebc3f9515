// What every command takes from its command line alike (warpconf/cli/options.hpp): a word CLI11 would
// read wrongly (an empty value, which it takes as the default; an unknown command) and a value given
// twice are bad input, refused with one line before any work; and the parsed value is the one given.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "core/files.hpp"
#include "harness/scratch_dir.hpp"
#include "toolchain/bugs_file.hpp"
#include "toolchain/compilers.hpp"

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
        Refused{{"run", "--time-limit", ""}, "warpconf run: --time-limit: the value is empty"},
        Refused{{"health", "--time-limit", ""}, "warpconf health: --time-limit: the value is empty"},
        Refused{{"run", "--out="}, "warpconf run: --out: the value is empty"},
        Refused{{"program", "--plant", ""}, "warpconf program: --plant: the value is empty"},
        Refused{{"program", "--verify", ""}, "warpconf program: --verify: the value is empty"},
        Refused{{"report", ""}, "warpconf report: an empty argument after 'report'"},
        // CLI11 said "A subcommand is required", naming neither the word nor the commands.
        Refused{{"frobnicate"}, "warpconf: unknown command 'frobnicate': " + kCommands},
        Refused{{}, "warpconf: a command is required: " + kCommands},
        Refused{{"perf", "frob"}, "warpconf perf: unknown command 'frob': record, accept, compare, diff"},
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
                "most 3 decimals"},
        // toolchain --random: its options, each refused before anything compiles or looks for a GPU.
        Refused{{"toolchain", "--known", "--random"}, "warpconf toolchain: --known excludes --random"},
        Refused{{"toolchain", "--known", "--seed", "5"}, "warpconf toolchain: --seed requires --random"},
        Refused{{"toolchain", "--random", "--count", "0"}, "warpconf toolchain: --count: '0' is not a decimal number from 1 to 100000"},
        Refused{{"toolchain", "--random", "--first", "18446744073709551615", "--count", "2"},
                "warpconf toolchain: --first 18446744073709551615 --count 2: the last index would pass 2^64-1"},
        Refused{{"toolchain", "--random", "--without", "teleport"},
                "warpconf toolchain: --without: no generator feature 'teleport' (warpconf program --help lists them)"},
        Refused{{"toolchain", "--random", "--plant", "hoist"}, "warpconf toolchain: --plant hoist: want uniform-counter"},
        Refused{{"toolchain", "--random", "--plant", "uniform-counter", "--verify"},
                "warpconf toolchain: --record and --verify take the programs as generated: not with --plant"},
        Refused{{"toolchain", "--random", "--compile-only", "--plant", "uniform-counter"},
                "warpconf toolchain: --plant is caught in what runs: not with --compile-only"},
        Refused{{"toolchain", "--random", "--programs-per-module", "0"},
                "warpconf toolchain: --programs-per-module: '0' is not a decimal number from 1 to 4096"},
        Refused{{"toolchain", "--random", "--emit"}, "warpconf toolchain: --emit requires --index"},
        Refused{{"toolchain", "--random", "--index", "1", "--emit", "--arch", "sm_70"},
                "warpconf toolchain: --arch sm_70: the PTX emitter writes sm_75, 80, 86, 87, 89, 90, 100, 103 and 120"},
        Refused{{"toolchain", "--random", "--index", "1", "--emit", "--out", "/dev/full"},
                "warpconf toolchain: --out: /dev/full is not a folder"}));

// --record keeps the file's records of reproducers the run did not run: --known's recording beside a
// --random finding (it wrote the run's findings alone, so each source's recording dropped the other's).
TEST(CommandLine, toolchain_record_keeps_the_records_of_reproducers_the_run_did_not_run) {
  // The ptxas binary: nvJitLink in process under the asan preset's ASan hangs warpconf toolchain.
  std::string why_not;
  if (!toolchain::compiler_available(toolchain::OfflineCompiler::ptxas_binary, {}, why_not)) GTEST_SKIP() << why_not;
  const std::filesystem::path dir = harness::fresh_test_dir("toolchain-record");
  const std::string file = (dir / "toolchain-bugs.txt").string();
  toolchain::BugsFile before;
  before.device = "NVIDIA H100 80GB HBM3";
  before.compute_capability = "9.0";
  before.paths = {{toolchain::Compiler::driver_jit, 0}, {toolchain::Compiler::driver_jit, 3}};
  before.recorded = "2026-12-07T10:00:00Z";
  toolchain::BugRecord random;
  random.reproducer = "ptx/0x1/2";
  random.kinds = {"wrong-output"};
  random.levels = {{toolchain::Compiler::driver_jit, 3}};
  random.shape = "add.s32 st.global.u32";
  random.signature = toolchain::signature(random.kinds, random.levels, random.shape);
  random.ptxas = "13.0.88";
  random.driver = "13.0";
  before.bugs = {random};
  std::ofstream(file) << toolchain::write_bugs(before);

  const CliRun r = run_cli({"toolchain", "--known", "--compile-only", "--offline", "ptxas", "--record", file});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("beside the 1 it held of reproducers this run did not run"), std::string::npos) << r.out;
  const toolchain::BugsFile after = toolchain::read_bugs_file(file);
  EXPECT_EQ(std::count(after.bugs.begin(), after.bugs.end(), random), 1) << "the --random record was dropped";
  EXPECT_GT(after.bugs.size(), 1u) << "--known recorded nothing beside it";
  EXPECT_NE(std::find(after.paths.begin(), after.paths.end(), toolchain::ToolchainPath{toolchain::Compiler::driver_jit, 3}), after.paths.end());

  // A file of another architecture is refused, and left as it was.
  before.compute_capability = "8.0";
  const std::string text = toolchain::write_bugs(before);
  std::ofstream(file) << text;
  const CliRun other = run_cli({"toolchain", "--known", "--compile-only", "--offline", "ptxas", "--record", file});
  EXPECT_EQ(other.status, 2);
  EXPECT_EQ(other.err, "warpconf toolchain: --record: " + file + " holds compute capability 8.0's toolchain bugs, this GPU is 9.0\n");
  EXPECT_EQ(files::read_input(file), text);

  // A file that is no toolchain-bugs.txt is refused before anything compiles, and left as it was.
  std::ofstream(file) << "garbage\n";
  const CliRun garbage = run_cli({"toolchain", "--known", "--compile-only", "--offline", "ptxas", "--record", file});
  EXPECT_EQ(garbage.status, 2);
  EXPECT_EQ(garbage.out, "");
  EXPECT_EQ(garbage.err, "warpconf toolchain: --record: " + file + ":1: the first line must be 'warpconf-toolchain-bugs 1'\n");
  EXPECT_EQ(files::read_input(file), "garbage\n");
}

// --emit --out to a device that refuses every write: the source is not silently lost.
TEST(CommandLine, program_emit_says_where_its_file_could_not_be_written) {
  const CliRun r = run_cli({"program", "--seed", "0x10", "--index", "3", "--emit", "--out", "/dev/full"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "warpconf program: --out: /dev/full: cannot write: No space left on device\n");
  EXPECT_EQ(std::filesystem::status("/dev/full").type(), std::filesystem::file_type::character) << "written over, not into";
}

// toolchain --random --emit needs no GPU: the program's PTX and a .cu that runs it on every level, on
// standard output or as files, the same PTX both ways.
TEST(CommandLine, toolchain_random_emit_writes_one_program_s_ptx_and_cu_without_a_gpu) {
  const std::vector<std::string> emit{"toolchain", "--random", "--seed", "0x7", "--index", "3", "--emit"};
  const CliRun shown = run_cli(emit);
  ASSERT_EQ(shown.status, 0) << shown.err;
  const size_t ptx_at = shown.out.find("// ---- kernel.ptx ----\n"), cu_at = shown.out.find("// ---- repro.cu ----\n");
  ASSERT_NE(ptx_at, std::string::npos);
  ASSERT_NE(cu_at, std::string::npos);
  const std::string ptx = shown.out.substr(ptx_at + 24, cu_at - ptx_at - 24);
  EXPECT_NE(ptx.find(".visible .entry wc_program_7_3("), std::string::npos);
  EXPECT_NE(shown.out.find("int main()", cu_at), std::string::npos);

  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "toolchain_random_emit";
  std::filesystem::remove_all(dir);
  std::vector<std::string> to_files = emit;
  to_files.insert(to_files.end(), {"--out", dir.string()});
  const CliRun written = run_cli(to_files);
  ASSERT_EQ(written.status, 0) << written.err;
  const auto text_of = [&dir](const char* name) {
    std::ifstream in(dir / name);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  EXPECT_EQ(text_of("kernel.ptx"), ptx);
  EXPECT_NE(text_of("repro.cu").find("int main()"), std::string::npos);
  EXPECT_NE(text_of("program.txt"), "");
}

// After `--` the words are ctest's, which may repeat or be empty.
TEST(CommandLine, leaves_the_words_after_the_double_dash_to_ctest) {
  const CliRun r = run_cli({"run", "--build-dir", "/nonexistent/build", "--", "-L", "a", "-L", ""});
  EXPECT_EQ(r.err.find("empty"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("twice"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace wc
