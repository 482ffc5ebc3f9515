// `warpconf explain` for the shuffle family.
#include <climits>

#include "families/shuffle/model.hpp"
#include "warpconf/explain.hpp"
#include "warpconf/numbers.hpp"

namespace wc::cli {
namespace {

// Lane L holds 100 + L; the two-halves types hold (100 + L, 200 + L).
model::PerLane<uint64_t> default_values(model::Type type) {
  model::PerLane<uint64_t> values{};
  for (int lane = 0; lane < 32; ++lane) {
    const bool pair = type == model::Type::f16x2 || type == model::Type::bf16x2;
    const std::string text = std::to_string(100 + lane) + (pair ? ":" + std::to_string(200 + lane) : "");
    values[lane] = *model::parse_value(type, text);
  }
  return values;
}

std::string lane_ints_text(const model::PerLane<int32_t>& row) {
  for (int32_t v : row)
    if (v != row[0]) return "per-lane";
  return std::to_string(row[0]);
}

}  // namespace

std::optional<Explanation> explain_shuffle(const ExplainOptions& options) {
  const auto op = model::shuffle_op_from_name(options.op);
  if (!op) return std::nullopt;
  const OptionReader read(options, {"--type", "--mask", "--width", "--arg", "--exited", "--else-arm", "--values"});
  const std::string type_name = read.require("--type");
  const auto type = model::type_from_name(type_name);
  if (!type)
    throw UsageError("--type: unknown type '" + type_name +
                     "'; known: i32 u32 long ulong i64 u64 f32 f64 f16 f16x2 bf16 bf16x2");
  const CallScene call = read_scene(read);
  const auto width = parse_lane_ints("--width", read.get("--width", "32"), INT_MIN, INT_MAX);
  // delta is unsigned in C++: accept its whole range as well as every int.
  const auto arg = parse_lane_ints("--arg", read.get("--arg", "0"), INT_MIN, UINT_MAX);
  const auto values = read.has("--values") ? parse_lane_values("--values", read.get("--values", ""), *type)
                                           : default_values(*type);

  Explanation e;
  e.call = std::string(model::intrinsic_name(*op)) + "(" + call.text() + ", " + std::string(model::info(*type).cpp) +
           " value, " + std::string(model::arg_name(*op)) + "=" + lane_ints_text(arg) + ", width=" + lane_ints_text(width) +
           ")";
  e.hex_digits = model::info(*type).bits / 4;
  e.value_text = [t = *type](uint64_t bits) { return model::format_value(t, bits); };
  e.lanes = model::shuffle(*op, *type, call.scene, arg, width, values);
  return e;
}

}  // namespace wc::cli
