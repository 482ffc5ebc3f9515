#include "warpconf/cli/options.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "core/numbers.hpp"

namespace wc::cli {
namespace {

// "explain, results, golden, ...": the commands `cmd` takes.
std::string command_names(const CLI::App& cmd) {
  std::string names;
  for (const CLI::App* sub : cmd.get_subcommands([](const CLI::App*) { return true; }))
    names += (names.empty() ? "" : ", ") + sub->get_name();
  return names;
}

}  // namespace

CLI::Validator number_in(const numbers::NumberRange& range) {
  return CLI::Validator(
      [range](std::string& text) {
        const std::optional<uint64_t> value = numbers::read_number(text, range);
        if (!value) return "'" + text + "' is not " + numbers::describe(range);
        text = std::to_string(*value);
        return std::string();
      },
      numbers::describe(range));
}

CLI::Validator duration_in(const numbers::DurationRange& range) {
  return CLI::Validator(
      [range](std::string& text) {
        // The text read is plain decimal, which CLI11 converts to the same double.
        return numbers::read_duration(text, range) ? std::string() : "'" + text + "' is not " + numbers::describe(range);
      },
      numbers::describe(range));
}

std::string command_name(const CLI::App& app, int argc, const char* const* argv) {
  std::string name = "warpconf";
  const CLI::App* cmd = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    const std::vector<const CLI::App*> named =
        cmd->get_subcommands([&word](const CLI::App* sub) { return sub->get_name() == word; });
    if (named.empty()) break;
    cmd = named.front();
    name += " " + cmd->get_name();
  }
  return name;
}

void check_words(const CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc && std::string_view(argv[i]) != "--"; ++i) {
    const std::string_view word = argv[i];
    const bool option_equals_nothing = word.size() > 3 && word.compare(0, 2, "--") == 0 && word.back() == '=';
    if (option_equals_nothing) throw UsageError(std::string(word.substr(0, word.size() - 1)) + ": the value is empty");
    if (!word.empty()) continue;
    const std::string_view before = argv[i - 1];
    if (i > 1 && before.size() > 1 && before[0] == '-') throw UsageError(std::string(before) + ": the value is empty");
    throw UsageError("an empty argument after '" + std::string(before) + "'");
  }
  // The refusal's line names the commands read so far (command_name).
  const CLI::App* cmd = &app;
  for (int i = 1; cmd->get_require_subcommand_min() > 0; ++i) {
    if (i >= argc) throw UsageError("a command is required: " + command_names(*cmd));
    const std::string word = argv[i];
    if (word[0] == '-') return;  // --help, or an option that CLI11 refuses
    const std::vector<const CLI::App*> found =
        cmd->get_subcommands([&word](const CLI::App* sub) { return sub->get_name() == word; });
    if (found.empty()) throw UsageError("unknown command '" + word + "': " + command_names(*cmd));
    cmd = found.front();
  }
}

void require_writable(const std::string& what, const std::string& path, check::Output kind) {
  if (const std::string why = check::why_not_writable(path, kind); !why.empty()) throw UsageError(what + ": " + why);
}

void refuse_repeated_values(const CLI::App& app, const std::vector<const CLI::Option*>& passed_on) {
  for (const CLI::Option* option : app.get_options()) {
    // A pair (diff's A then B) is the command's to compare, whatever it holds.
    const bool a_list = option->get_expected_max() > 1 && option->get_expected_min() != option->get_expected_max();
    if (!a_list || std::find(passed_on.begin(), passed_on.end(), option) != passed_on.end()) continue;
    std::set<std::string> seen;
    for (const std::string& value : option->results())
      if (!seen.insert(value).second) throw UsageError(option->get_name() + ": '" + value + "' is given twice");
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return s->parsed(); }))
    refuse_repeated_values(*sub, passed_on);
}

}  // namespace wc::cli
