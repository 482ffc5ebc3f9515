// `warpconf explain` for reduce_add, reduce_min, reduce_max (i32, u32) and reduce_and,
// reduce_or, reduce_xor (u32).
#include <cstdio>

#include "families/reduce/model.hpp"
#include "warpconf/explain.hpp"
#include "warpconf/numbers.hpp"

namespace wc::cli {

std::optional<Explanation> explain_reduce(const ExplainOptions& options) {
  const auto op = model::reduce_op_from_name(options.op);
  if (!op) return std::nullopt;
  const OptionReader read(options, {"--type", "--mask", "--exited", "--else-arm", "--values"});
  const std::string type_name = read.require("--type");
  const auto type = model::type_from_name(type_name);
  if (!type || !model::has_overload(*op, *type))
    throw UsageError("--type: " + options.op + " takes " +
                     (model::has_overload(*op, model::Type::i32) ? "i32 or u32" : "u32 only") + ", not '" + type_name +
                     "'");
  const CallScene call = read_scene(read);
  model::PerLane<uint64_t> values{};
  if (read.has("--values")) {
    values = parse_lane_values("--values", read.get("--values", ""), *type);
  } else {
    for (int lane = 0; lane < 32; ++lane) values[lane] = static_cast<uint64_t>(100 + lane);
  }
  Explanation e;
  e.call = std::string(model::intrinsic_name(*op)) + "(" + call.text() + ", " + std::string(model::info(*type).cpp) +
           " value)";
  e.value_text = [t = *type](uint64_t bits) { return model::format_value(t, bits); };
  e.lanes = model::reduce(*op, *type, call.scene, values);
  return e;
}

}  // namespace wc::cli
