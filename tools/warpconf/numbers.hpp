// The command line's numbers: masks, one-or-32 int lists, and value lists. Each parser throws
// UsageError with one line naming the option and what is wrong.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/lanes.hpp"
#include "core/types.hpp"

namespace wc::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `text` with its line breaks made spaces: a message that quotes a path or a value stays one line.
std::string one_line(std::string text);

// Writes "<command>: <what>" as one line on `err`.
void print_error(std::ostream& err, std::string_view command, std::string_view what);

// A decimal or 0x-hex integer in [low, high].
int64_t parse_integer(std::string_view option, std::string_view text, int64_t low, int64_t high);

// A 32-bit mask: 0x-hex or decimal.
uint32_t parse_mask(std::string_view option, std::string_view text);

// One int for every lane, or 32 comma-separated ints, each in [low, high]. Values above INT_MAX keep
// their 32-bit pattern, as when a caller passes an unsigned.
model::PerLane<int32_t> parse_lane_ints(std::string_view option, std::string_view text, int64_t low, int64_t high);

// 32 comma-separated values of `type`: decimal, or 0x-hex bit patterns.
model::PerLane<uint64_t> parse_lane_values(std::string_view option, std::string_view text, model::Type type);

// Whether `text` is valid UTF-8 (no overlong form, surrogate or code point past U+10FFFF).
bool is_utf8(std::string_view text);

// Throws UsageError naming `what` where `path` is not valid UTF-8: records and reports name the
// paths they were given, and they are JSON.
void require_utf8_path(std::string_view what, const std::string& path);

// The comma-separated items of `text`, copied so that they outlive a temporary `text` (an option's value).
std::vector<std::string> split_commas(std::string_view text);

}  // namespace wc::cli
