// `warpconf explain` for the warp algorithms: reduce, reduce_butterfly, reduce_down, inclusive_scan
// and exclusive_scan, with --operator sum, min, max, bit_and, bit_or or bit_xor and a --width; with
// --library cg, cub, cub_sum or cub_no_initial (and cub's --initial), the library's order-free model.
#include <algorithm>

#include "families/algorithm/library_model.hpp"
#include "families/algorithm/model.hpp"
#include "warpconf/explain.hpp"
#include "warpconf/numbers.hpp"

namespace wc::cli {

std::optional<Explanation> explain_algorithm(const ExplainOptions& options) {
  const auto algorithm = model::warp_algorithm_from_name(options.op);
  if (!algorithm) return std::nullopt;
  const OptionReader read(options, {"--operator", "--type", "--width", "--mask", "--exited", "--else-arm", "--values", "--library", "--initial", "--lane"});
  const std::string op_name = read.require("--operator");
  const auto op = model::algorithm_op_from_name(op_name);
  if (!op) throw UsageError("--operator: unknown operator '" + op_name + "'; known: sum min max bit_and bit_or bit_xor");
  const std::string type_name = read.require("--type");
  const auto type = model::type_from_name(type_name);
  const auto& types = model::kAlgorithmTypes;
  if (!type || std::find(types.begin(), types.end(), *type) == types.end()) throw UsageError("--type: " + options.op + " takes i32 u32 i64 f32 f64 f16 bf16, not '" + type_name + "'");
  if (!model::has_op(*op, *type)) throw UsageError("--operator: " + op_name + " takes integer types only");
  const int width = static_cast<int>(parse_integer("--width", read.get("--width", "32"), 1, 32));
  if ((width & (width - 1)) != 0) throw UsageError("--width: " + std::to_string(width) + " is not a power of two");
  const CallScene call = read_scene(read);
  model::PerLane<uint64_t> values{};
  if (read.has("--values")) {
    values = parse_lane_values("--values", read.get("--values", ""), *type);
  } else {
    for (int lane = 0; lane < 32; ++lane) values[lane] = *model::parse_value(*type, std::to_string(1 + lane));
  }
  Explanation e;
  e.call = std::string(model::op_name(*algorithm)) + "<" + op_name + ">(" + call.text() + ", " +
           std::string(model::info(*type).cpp) + " value, width=" + std::to_string(width) + ")";
  e.hex_digits = model::info(*type).bits / 4;
  e.value_text = [t = *type](uint64_t bits) { return model::format_value(t, bits); };
  const std::string library = read.get("--library", "");
  // Only CUB's ExclusiveScan takes an initial value (ExclusiveSum's is 0); the library models give no order.
  read.only_where("--initial", library == "cub" && *algorithm == model::WarpAlgorithm::exclusive_scan,
                  "to exclusive_scan --library cub");
  read.only_where("--lane", library.empty(), "without --library: a library's model has no order of operations");
  if (read.has("--library")) {
    const auto library_call = model::library_call(library, *algorithm);
    if (!library_call) throw UsageError("--library: '" + library + "' has no " + options.op + "; known: cg cub cub_sum cub_no_initial");
    const auto initial = model::parse_value(*type, read.get("--initial", "0"));
    if (!initial) throw UsageError("--initial: not a value of " + type_name);
    e.call = std::string(model::op_name(*library_call)) + "<" + op_name + ">(" + call.text() + ", " +
             std::string(model::info(*type).cpp) + " value, logical warp=" + std::to_string(width) + ")";
    e.lanes = model::library_algorithm(*library_call, *op, *type, call.scene, width, values, *initial);
    return e;
  }
  e.lanes = model::warp_algorithm(*algorithm, *op, *type, call.scene, width, values);
  // The order of operations of --lane, by default the first lane that calls.
  const uint32_t calling = model::callers(call.scene);
  const int first_caller = calling == 0 ? -1 : __builtin_ctz(calling);
  e.steps_lane = static_cast<int>(parse_integer("--lane", read.get("--lane", std::to_string(first_caller)), -1, 31));
  if (e.steps_lane >= 0 && !model::has_lane(calling, e.steps_lane))
    throw UsageError("--lane: lane " + std::to_string(e.steps_lane) + " makes no call");
  if (e.steps_lane >= 0)
    e.steps = model::warp_algorithm_steps(*algorithm, *op, *type, call.scene, width, values, e.steps_lane);
  return e;
}

}  // namespace wc::cli
