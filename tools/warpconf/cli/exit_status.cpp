#include "warpconf/cli/exit_status.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>

#include "core/numbers.hpp"
#include "core/usage_error.hpp"
#include "formats/golden.hpp"

namespace wc::cli {

int exit_status_of_error(std::string_view command, std::ostream& err) {
  try {
    throw;
  } catch (const UsageError& e) {  // files::FileError included
    print_error(err, command, e.what());
  } catch (const golden::FormatError& e) {
    print_error(err, command, e.what());
  } catch (const std::filesystem::filesystem_error& e) {  // a folder it was given, or made there, it cannot use
    print_error(err, command, e.what());
  } catch (const CLI::ParseError& e) {
    print_error(err, command, e.what());
  } catch (const std::exception& e) {
    print_error(err, command, e.what());
    return 1;
  } catch (...) {
    print_error(err, command, "an exception that is no std::exception");
    return 1;
  }
  return 2;
}

int with_exit_status(std::string_view command, std::ostream& err, const std::function<int()>& body) {
  try {
    return body();
  } catch (...) {
    return exit_status_of_error(command, err);
  }
}

}  // namespace wc::cli
