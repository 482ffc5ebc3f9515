// `warpconf explain` for the warp patterns: segmented_reduce (with --operator), compact, histogram
// and argmax; --flags gives each lane's head, keep flag or bin, and --show picks which 32 of a
// 64-output pattern to list (compact: slots or counts; argmax: max or lanes).
#include <algorithm>
#include <climits>

#include "families/pattern/model.hpp"
#include "warpconf/explain.hpp"
#include "warpconf/numbers.hpp"

namespace wc::cli {

std::optional<Explanation> explain_pattern(const ExplainOptions& options) {
  const auto pattern = model::warp_pattern_from_name(options.op);
  if (!pattern) return std::nullopt;
  const OptionReader read(options, {"--operator", "--type", "--mask", "--exited", "--else-arm", "--flags", "--values", "--show"});
  model::AlgorithmOp op = model::AlgorithmOp::sum;
  if (model::takes_operator(*pattern)) {
    const std::string op_name = read.require("--operator");
    const auto parsed = model::algorithm_op_from_name(op_name);
    if (!parsed) throw UsageError("--operator: unknown operator '" + op_name + "'; known: sum min max bit_and bit_or bit_xor");
    op = *parsed;
  } else if (read.has("--operator")) {
    throw UsageError(options.op + " takes no --operator");
  }
  const std::string type_name = read.get("--type", "i32");
  const auto type = model::type_from_name(type_name);
  const std::vector<model::Type> types = model::pattern_types(*pattern);
  if (!type || std::find(types.begin(), types.end(), *type) == types.end())
    throw UsageError("--type: " + options.op + " does not take '" + type_name + "'");
  if (!model::has_op(op, *type)) throw UsageError("--operator: " + std::string(model::op_name(op)) + " takes integer types only");
  const CallScene call = read_scene(read);
  const bool bins = *pattern == model::WarpPattern::histogram;
  if (read.has("--flags") && model::flag_name(*pattern).empty()) throw UsageError(options.op + " takes no --flags");
  const model::PerLane<int32_t> flags =
      parse_lane_ints("--flags", read.get("--flags", "0"), bins ? 0 : INT_MIN, bins ? 31 : INT_MAX);
  read.only_where("--values", !bins, "to the patterns of values: histogram's bins are its --flags");
  model::PerLane<uint64_t> values{};
  if (read.has("--values")) {
    values = parse_lane_values("--values", read.get("--values", ""), *type);
  } else {
    for (int lane = 0; lane < 32; ++lane) values[lane] = *model::parse_value(*type, std::to_string(1 + lane));
  }
  const bool two_parts = model::pattern_outputs(*pattern) == 64;
  const std::string first = *pattern == model::WarpPattern::compact ? "slots" : "max";
  const std::string second = *pattern == model::WarpPattern::compact ? "counts" : "lanes";
  const std::string show = read.get("--show", two_parts ? first : "");
  if (!two_parts && read.has("--show")) throw UsageError(options.op + " takes no --show: it has 32 outputs");
  if (two_parts && show != first && show != second) throw UsageError("--show: " + first + " or " + second + ", not '" + show + "'");
  const bool later = two_parts && show == second;

  Explanation e;
  e.call = std::string(model::op_name(*pattern)) +
           (model::takes_operator(*pattern) ? "<" + std::string(model::op_name(op)) + ">" : "") + "(" + call.text() +
           (bins ? "" : ", " + std::string(model::info(*type).cpp) + " value") +
           (model::flag_name(*pattern).empty() ? "" : ", " + std::string(model::flag_name(*pattern))) + ")";
  if (two_parts) e.call += ": " + show + " (output " + (later ? "32 + n" : "n") + " as row n)";
  if (bins) e.call += ": bins (output b as row b)";
  const bool ints = bins || later;
  e.hex_digits = ints ? 8 : model::info(*type).bits / 4;
  e.value_text = [t = ints ? model::Type::u32 : *type](uint64_t bits) { return model::format_value(t, bits); };
  const std::vector<model::LaneOutcome> out = model::warp_pattern(*pattern, op, *type, call.scene, flags, values);
  std::copy_n(out.begin() + (later ? 32 : 0), 32, e.lanes.begin());
  return e;
}

}  // namespace wc::cli
