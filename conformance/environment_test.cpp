// The environment variables warpconf reads: each takes exactly the values README.md's table lists
// (unset and empty meaning the default) and refuses any other with one line naming the variable and
// the value; a WARPCONF_ name the table lacks is refused too; the README's table is the module's.
#include "core/environment.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/seed.hpp"

namespace wc {
namespace {

// Sets one of the table's variables (or unsets it, for nullopt) for a scope, then restores it.
class Setting {
 public:
  Setting(const char* name, std::optional<std::string> value) : name_(name), before_(environment::raw_value(name)) {
    assign(value);
  }
  ~Setting() { assign(before_); }
  Setting(const Setting&) = delete;
  Setting& operator=(const Setting&) = delete;

 private:
  void assign(const std::optional<std::string>& value) const {
    value ? setenv(name_, value->c_str(), 1) : unsetenv(name_);
  }
  const char* name_;
  std::optional<std::string> before_;
};

struct Value {
  const char* name;
  const char* value;
};

std::ostream& operator<<(std::ostream& os, const Value& v) { return os << v.name << "='" << v.value << "'"; }

class EnvironmentTakes : public ::testing::TestWithParam<Value> {};

TEST_P(EnvironmentTakes, the_value) {
  const Setting set(GetParam().name, GetParam().value);
  EXPECT_EQ(environment::refusal(), std::nullopt);
}

INSTANTIATE_TEST_SUITE_P(
    Listed, EnvironmentTakes,
    ::testing::Values(Value{"WARPCONF_REQUIRE_GPU", "1"}, Value{"WARPCONF_REQUIRE_GPU", "0"},
                      Value{"WARPCONF_REQUIRE_GPU", ""}, Value{"WARPCONF_SANITIZED", "1"},
                      Value{"WARPCONF_PERF_STRICT", "0"}, Value{"WARPCONF_DEVICE", "0"}, Value{"WARPCONF_DEVICE", "12"},
                      Value{"WARPCONF_SEED", "0"}, Value{"WARPCONF_SEED", "0x77617270636F6E66"},
                      Value{"WARPCONF_SEED", "18446744073709551615"}, Value{"WARPCONF_SOAK", "30"},
                      Value{"WARPCONF_SOAK", "0.5"}, Value{"WARPCONF_BUDGET", "quick"}, Value{"WARPCONF_BUDGET", "default"},
                      Value{"WARPCONF_BUDGET", "soak"}, Value{"WARPCONF_CODE_PATH", "jit-75"}, Value{"WARPCONF_CODE_PATH", "sass-ptxas-O0"},
                      Value{"WARPCONF_RESULTS", "/tmp/a b/results.jsonl"}, Value{"WARPCONF_GOLDEN_DIR", "golden"},
                      Value{"RC_PARAMS", "max_success=10 seed=5"}, Value{"RC_PARAMS", "reseed=banana"},
                      // NVIDIA's and ctest's: the driver and the device choice read them.
                      Value{"CUDA_FORCE_PTX_JIT", "yes"}, Value{"CTEST_RESOURCE_GROUP_0_GPUS", "id: 1"}));

class EnvironmentRefuses : public ::testing::TestWithParam<Value> {};

TEST_P(EnvironmentRefuses, the_value_naming_it) {
  const Setting set(GetParam().name, GetParam().value);
  const std::optional<std::string> refused = environment::refusal();
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->rfind(std::string(GetParam().name) + "='", 0), 0u) << *refused;
  EXPECT_EQ(refused->find('\n'), std::string::npos) << *refused;
}

INSTANTIATE_TEST_SUITE_P(
    Unlisted, EnvironmentRefuses,
    ::testing::Values(
        Value{"WARPCONF_REQUIRE_GPU", "true"}, Value{"WARPCONF_REQUIRE_GPU", "yes"}, Value{"WARPCONF_REQUIRE_GPU", " 1"},
        Value{"WARPCONF_REQUIRE_GPU", "1 "}, Value{"WARPCONF_REQUIRE_GPU", "01"}, Value{"WARPCONF_REQUIRE_GPU", "on"},
        Value{"WARPCONF_REQUIRE_GPU", "2"}, Value{"WARPCONF_REQUIRE_GPU", "1\n"}, Value{"WARPCONF_SANITIZED", "true"},
        Value{"WARPCONF_PERF_STRICT", "yes"}, Value{"WARPCONF_DEVICE", "-1"}, Value{"WARPCONF_DEVICE", "1x"},
        Value{"WARPCONF_DEVICE", " 1"}, Value{"WARPCONF_DEVICE", "01"}, Value{"WARPCONF_DEVICE", "99999999999"},
        Value{"WARPCONF_SEED", "banana"}, Value{"WARPCONF_SEED", "-1"}, Value{"WARPCONF_SEED", " 5"},
        Value{"WARPCONF_SEED", "+5"}, Value{"WARPCONF_SEED", "010"}, Value{"WARPCONF_SEED", "0x"},
        Value{"WARPCONF_SEED", "0x1g"}, Value{"WARPCONF_SEED", "18446744073709551616"}, Value{"WARPCONF_SOAK", "-3"},
        Value{"WARPCONF_SOAK", "0"}, Value{"WARPCONF_SOAK", "0.0"}, Value{"WARPCONF_SOAK", "inf"},
        Value{"WARPCONF_SOAK", "nan"}, Value{"WARPCONF_SOAK", "1e3"}, Value{"WARPCONF_SOAK", "1."},
        Value{"WARPCONF_SOAK", ".5"}, Value{"WARPCONF_SOAK", " 30"}, Value{"WARPCONF_BUDGET", "fast"},
        Value{"WARPCONF_BUDGET", "Quick"}, Value{"WARPCONF_BUDGET", "quick "}, Value{"WARPCONF_CODE_PATH", "jit"},
        Value{"WARPCONF_CODE_PATH", "driver-jit"}, Value{"WARPCONF_CODE_PATH", "SASS"}, Value{"WARPCONF_CODE_PATH", "sass "},
        Value{"RC_PARAMS", "max_success=3 seed=banana"}));

TEST(Environment, refuses_a_value_in_one_line_that_shows_it_exactly) {
  {
    const Setting set("WARPCONF_REQUIRE_GPU", " 1");
    EXPECT_EQ(environment::refusal(), "WARPCONF_REQUIRE_GPU=' 1' is refused: it takes 1 or 0");
  }
  const Setting set("WARPCONF_BUDGET", "quick\n'\\\xff");
  EXPECT_EQ(environment::refusal(), "WARPCONF_BUDGET='quick\\x0a\\'\\\\\\xff' is refused: it takes quick, default or soak");
}

TEST(Environment, refuses_a_warpconf_name_it_does_not_read) {
  setenv("WARPCONF_REQUIRE_GPUS", "1", 1);
  const std::optional<std::string> refused = environment::refusal();
  unsetenv("WARPCONF_REQUIRE_GPUS");
  EXPECT_EQ(refused,
            "WARPCONF_REQUIRE_GPUS='1' is refused: warpconf reads no such variable (README.md, Environment variables, "
            "lists them)");
}

TEST(Environment, each_switch_throws_refused_with_the_line_where_its_value_is_refused) {
  const Setting set("WARPCONF_REQUIRE_GPU", "true");
  try {
    environment::require_gpu();
    ADD_FAILURE() << "WARPCONF_REQUIRE_GPU=true taken";
  } catch (const environment::Refused& e) {
    EXPECT_STREQ(e.what(), "WARPCONF_REQUIRE_GPU='true' is refused: it takes 1 or 0");
  }
}

TEST(Environment, require_gpu_is_on_for_1_and_off_for_0_empty_or_unset) {
  for (const auto& [value, on] : std::vector<std::pair<std::optional<std::string>, bool>>{
           {"1", true}, {"0", false}, {"", false}, {std::nullopt, false}}) {
    const Setting set("WARPCONF_REQUIRE_GPU", value);
    EXPECT_EQ(environment::require_gpu(), on) << value.value_or("(unset)");
  }
}

TEST(Environment, switches_read_their_values) {
  {
    const Setting set("WARPCONF_SEED", "0x2a");
    EXPECT_EQ(environment::seed(), 42u);
  }
  {
    const Setting set("WARPCONF_SOAK", "1.5");
    EXPECT_EQ(environment::soak_seconds(), 1.5);
  }
  {
    const Setting set("WARPCONF_BUDGET", "quick");
    EXPECT_EQ(environment::budget(), environment::Budget::quick);
  }
  {
    const Setting set("WARPCONF_BUDGET", std::nullopt);
    EXPECT_EQ(environment::budget(), environment::Budget::standard);
  }
  {
    const Setting set("WARPCONF_CODE_PATH", "jit-75");
    EXPECT_EQ(environment::code_path(), "jit-75");
  }
  {
    const Setting set("WARPCONF_CODE_PATH", "jit");
    EXPECT_THROW(environment::code_path(), environment::Refused) << "not one of the five paths";
  }
  {
    const Setting set("WARPCONF_RESULTS", "");
    EXPECT_EQ(environment::results_file(), std::nullopt) << "empty reads as unset";
  }
  {
    const Setting set("CUDA_FORCE_PTX_JIT", "1");
    EXPECT_TRUE(environment::ptx_jit_forced());
  }
  const Setting set("CUDA_FORCE_PTX_JIT", "0");
  EXPECT_FALSE(environment::ptx_jit_forced());
}

TEST(SeedChoice, is_fixed_by_default_and_set_by_warpconf_seed_or_rc_params) {
  const Setting no_seed("WARPCONF_SEED", std::nullopt), no_params("RC_PARAMS", std::nullopt),
      no_soak("WARPCONF_SOAK", std::nullopt);
  EXPECT_EQ(check::choose_seed().seed, check::kDefaultSeed);
  EXPECT_EQ(check::choose_seed().origin, "default");
  {
    const Setting params("RC_PARAMS", "max_success=10 seed=5 noshrink=1");
    EXPECT_EQ(check::choose_seed().seed, 5u);
    EXPECT_EQ(check::choose_seed().origin, "RC_PARAMS");
    const Setting seed("WARPCONF_SEED", "17");
    EXPECT_EQ(check::choose_seed().seed, 17u) << "WARPCONF_SEED wins";
  }
  {
    const Setting params("RC_PARAMS", "reseed=9");
    EXPECT_EQ(check::choose_seed().origin, "default");
  }
  const Setting soak("WARPCONF_SOAK", "30");
  EXPECT_EQ(check::choose_seed().origin, "soak");
}

// README.md's table, "| `NAME` | values | unset or empty | what it does |", row by row.
std::vector<std::vector<std::string>> readme_rows() {
  std::ifstream in(WARPCONF_README);
  std::vector<std::vector<std::string>> rows;
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Environment variables";
    if (!in_section || line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    for (size_t at = 2, bar; (bar = line.find(" | ", at)) != std::string::npos; at = bar + 3)
      cells.push_back(line.substr(at, bar - at));
    rows.push_back(cells);
  }
  return rows;
}

TEST(Environment, readme_table_lists_every_variable_with_the_modules_values_and_default) {
  const std::vector<std::vector<std::string>> rows = readme_rows();
  const std::vector<environment::Variable>& variables = environment::variables();
  ASSERT_EQ(rows.size(), variables.size()) << "README.md, Environment variables: one row per variable";
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_GE(rows[i].size(), 3u) << "row " << i;
    EXPECT_EQ(rows[i][0], "`" + std::string(variables[i].name) + "`");
    EXPECT_EQ(rows[i][1], variables[i].values) << variables[i].name;
    EXPECT_EQ(rows[i][2], variables[i].fallback) << variables[i].name;
  }
}

}  // namespace
}  // namespace wc
