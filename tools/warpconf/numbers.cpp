#include "warpconf/numbers.hpp"

#include <algorithm>
#include <charconv>
#include <ostream>

namespace wc::cli {
namespace {

[[noreturn]] void fail(std::string_view option, const std::string& what) {
  throw UsageError(std::string(option) + ": " + what);
}

}  // namespace

std::string one_line(std::string text) {
  std::replace_if(text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return text;
}

void print_error(std::ostream& err, std::string_view command, std::string_view what) {
  err << command << ": " << one_line(std::string(what)) << "\n";
}

bool is_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const auto byte = [&text](size_t at) { return at < text.size() ? static_cast<unsigned char>(text[at]) : 0u; };
    const unsigned lead = byte(i);
    const size_t length = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3
                        : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
    if (length == 0) return false;
    uint32_t code = length == 1 ? lead : lead & (0x7Fu >> length);
    for (size_t k = 1; k < length; ++k) {
      if ((byte(i + k) & 0xC0u) != 0x80u) return false;
      code = code << 6 | (byte(i + k) & 0x3Fu);
    }
    constexpr uint32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < kLeast[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
    i += length;
  }
  return true;
}

void require_utf8_path(std::string_view what, const std::string& path) {
  if (is_utf8(path)) return;
  std::string shown;  // the whole path on one line: the byte at fault may be anywhere in it
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= ' ' && byte <= '~') {
      shown += c;
      continue;
    }
    static constexpr char digits[] = "0123456789abcdef";
    shown += "\\x";
    shown += digits[byte >> 4];
    shown += digits[byte & 15];
  }
  fail(what, "'" + shown + "' is not valid UTF-8 (result records and reports are JSON)");
}

std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    items.emplace_back(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return items;
    start = comma + 1;
  }
}

int64_t parse_integer(std::string_view option, std::string_view text, int64_t low, int64_t high) {
  const auto bad = [&] {
    fail(option, "'" + std::string(text) + "' is not an integer in [" + std::to_string(low) + ", " +
                     std::to_string(high) + "]");
  };
  const bool negative = !text.empty() && text[0] == '-';
  std::string_view digits = negative ? text.substr(1) : text;
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  if (digits.empty() || digits[0] == '-' || digits[0] == '+') bad();
  uint64_t magnitude = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (r.ec != std::errc() || r.ptr != digits.data() + digits.size() || magnitude > (uint64_t{1} << 62)) bad();
  const int64_t v = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  if (v < low || v > high) bad();
  return v;
}

uint32_t parse_mask(std::string_view option, std::string_view text) {
  return static_cast<uint32_t>(parse_integer(option, text, 0, 0xFFFFFFFFll));
}

model::PerLane<int32_t> parse_lane_ints(std::string_view option, std::string_view text, int64_t low, int64_t high) {
  const std::vector<std::string> items = split_commas(text);
  if (items.size() != 1 && items.size() != 32)
    fail(option, "got " + std::to_string(items.size()) + " comma-separated values, want 1 or 32");
  model::PerLane<int32_t> out{};
  for (int lane = 0; lane < 32; ++lane)
    out[lane] = static_cast<int32_t>(
        static_cast<uint32_t>(parse_integer(option, items[items.size() == 1 ? 0 : lane], low, high)));
  return out;
}

model::PerLane<uint64_t> parse_lane_values(std::string_view option, std::string_view text, model::Type type) {
  const std::vector<std::string> items = split_commas(text);
  if (items.size() != 32) fail(option, "got " + std::to_string(items.size()) + " comma-separated values, want 32");
  model::PerLane<uint64_t> out{};
  for (int lane = 0; lane < 32; ++lane) {
    const auto v = model::parse_value(type, items[lane]);
    if (!v)
      fail(option, "lane " + std::to_string(lane) + ": '" + std::string(items[lane]) + "' is not a " +
                       std::string(model::info(type).name) + " value (decimal, or a 0x bit pattern of " +
                       std::to_string(model::info(type).bits) + " bits)");
    out[lane] = *v;
  }
  return out;
}

}  // namespace wc::cli
