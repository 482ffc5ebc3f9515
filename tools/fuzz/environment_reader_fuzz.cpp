// Fuzz target of the environment reader (fixtures/core/environment): refusal(), which `warpconf` and
// every test binary call before anything runs, and the switches that parse each variable. The input
// is lines NAME=VALUE: a variable of the table or any WARPCONF_ name is set, after every such variable
// of the process is unset; a line that starts no such setting continues the value before it (values
// may hold line breaks). The environment is refused with one line naming a variable set, or taken; a
// switch throws Refused only where refusal() refuses, with a line naming its own variable, and gives
// a value in its documented range otherwise. Anything else is a finding.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/code_paths.hpp"
#include "core/environment.hpp"
#include "fuzz_target.hpp"

extern char** environ;  // POSIX: to unset the WARPCONF_ variables a previous input set

namespace wc::fuzz {
size_t accepted_inputs = 0;
}

namespace {

using namespace wc;

constexpr std::string_view kPrefix = "WARPCONF_";

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  std::abort();
}

// A name the input may set: one of the table's, or any WARPCONF_ name (a misspelt one is refused).
bool settable(const std::string& name) {
  if (name.find('\0') != std::string::npos) return false;
  if (name.substr(0, kPrefix.size()) == kPrefix) return name.size() > kPrefix.size();
  for (const environment::Variable& v : environment::variables())
    if (v.name == name) return true;
  return false;
}

// Unsets the table's variables and every WARPCONF_ name, so that an input starts from none of them.
void unset_all() {
  std::vector<std::string> names;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view setting = *entry;
    const std::string_view name = setting.substr(0, setting.find('='));
    if (name.substr(0, kPrefix.size()) == kPrefix) names.emplace_back(name);
  }
  for (const environment::Variable& v : environment::variables()) names.emplace_back(v.name);
  for (const std::string& name : names) unsetenv(name.c_str());
}

// A switch of the module: the variable it reads, and a call that checks the value it returns.
struct Switch {
  const char* variable;
  std::function<bool()> in_range;
};

// The variable's value as the process holds it; nothing where unset.
std::optional<std::string> value_of(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::nullopt : std::optional<std::string>(value);
}

// Set and not empty: what each switch reads as set.
bool given(const char* name) { return !value_of(name).value_or("").empty(); }

// A flag is on for 1 alone.
Switch on_for_1(const char* name, bool (*read)()) {
  return {name, [name, read] { return read() == (value_of(name) == "1"); }};
}

// A value that is there exactly where the variable is given.
template <class T>
Switch present_when_given(const char* name, std::optional<T> (*read)()) {
  return {name, [name, read] { return read().has_value() == given(name); }};
}

const std::vector<Switch>& switches() {
  static const std::vector<Switch> table = {
      on_for_1("WARPCONF_REQUIRE_GPU", environment::require_gpu),
      on_for_1("WARPCONF_SANITIZED", environment::sanitized),
      on_for_1("WARPCONF_PERF_STRICT", environment::perf_strict),
      on_for_1("CUDA_FORCE_PTX_JIT", environment::ptx_jit_forced),
      {"WARPCONF_BUDGET",
       [] {
         const std::string given_budget = value_of("WARPCONF_BUDGET").value_or("");
         return environment::budget() == (given_budget == "quick"  ? environment::Budget::quick
                                          : given_budget == "soak" ? environment::Budget::soak
                                                                   : environment::Budget::standard);
       }},
      present_when_given("WARPCONF_SEED", environment::seed),
      {"RC_PARAMS", [] { return !environment::rapidcheck_seed() || given("RC_PARAMS"); }},
      {"WARPCONF_SOAK",
       [] {
         const std::optional<double> s = environment::soak_seconds();
         return s.has_value() == given("WARPCONF_SOAK") && (!s || (*s > 0 && std::isfinite(*s)));
       }},
      {"WARPCONF_CODE_PATH",
       [] {
         const std::optional<std::string> v = environment::code_path();
         return v.has_value() == given("WARPCONF_CODE_PATH") && (!v || find_code_path(*v) != nullptr);
       }},
      present_when_given("WARPCONF_RESULTS", environment::results_file),
      present_when_given("WARPCONF_GOLDEN_DIR", environment::golden_dir),
      present_when_given("WARPCONF_GTEST_XML", environment::gtest_xml_dir),
  };
  return table;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::pair<std::string, std::string>> settings;
  while (!input.empty()) {
    const std::string_view line = input.substr(0, input.find('\n'));
    input.remove_prefix(std::min(input.size(), line.size() + 1));
    const std::string name(line.substr(0, line.find('=')));
    if (line.find('=') != std::string_view::npos && settable(name))
      settings.emplace_back(name, line.substr(name.size() + 1));
    else if (!settings.empty())
      settings.back().second += "\n" + std::string(line);
  }
  unset_all();
  for (const auto& [name, value] : settings) setenv(name.c_str(), value.c_str(), 1);

  const std::optional<std::string> refused = environment::refusal();
  if (refused) {
    bool names_one_set = false;
    for (const auto& [name, value] : settings) names_one_set = names_one_set || refused->rfind(name + "='", 0) == 0;
    if (refused->empty() || refused->find('\n') != std::string::npos || !names_one_set)
      finding("refusal() is not one line naming a variable set: " + *refused);
  }
  for (const Switch& s : switches()) {
    try {
      if (!s.in_range()) finding(std::string(s.variable) + "'s switch gave a value outside its range");
    } catch (const environment::Refused& e) {
      if (!refused || std::string_view(e.what()).rfind(std::string(s.variable) + "='", 0) != 0)
        finding(std::string(s.variable) + "'s switch refused where refusal() " + (refused ? "says " + *refused : "takes all") +
                ": " + e.what());
    }
  }
  for (const environment::Variable& v : environment::variables())
    if (environment::raw_value(v.name) != value_of(std::string(v.name).c_str()))
      finding("raw_value(" + std::string(v.name) + ") is not the process's value");
  if (!refused) ++wc::fuzz::accepted_inputs;
  return 0;
}
